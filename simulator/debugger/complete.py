"""What Tab completes at the `(pipev) ` prompt: command names first, then — by what the command
takes — tensor names, registers, labels, `info` topics and help topics. One function of the
line typed so far, shared by the prompt_toolkit and readline front ends."""

from __future__ import annotations

import re

from .commands import ALIASES, HELP, Commands
from .expr import REGISTERS

INFO_TOPICS = ("break", "breakpoints", "watch", "registers", "display", "pipes", "loops")
LOCATIONS = {"break", "tbreak", "until", "advance", "list"}  # labels (and lines)
WORD = re.compile(r"[$\w]*$")


def candidates(commands: Commands, line: str) -> list[str]:
    """Completions of the last word of LINE (the text before the cursor)."""
    word = WORD.search(line).group(0)
    head = line[:len(line) - len(word)]
    if not head.strip():
        return sorted(n for n in HELP if n.startswith(word))
    name = head.split()[0].split("/")[0].lower()
    name = ALIASES.get(name, name)
    program = commands.s.program
    if name == "info":
        pool = INFO_TOPICS
    elif name == "help":
        pool = tuple(HELP)
    elif name in LOCATIONS and len(head.split()) == 1:
        pool = tuple(program.labels)
    else:
        # the kernel's names too, a TIK kernel's Scalars among them (#29)
        pool = (*commands.s.names.names(), *{h.name for h in program.scalars}, *REGISTERS)
    return sorted(p for p in pool if p.startswith(word))
