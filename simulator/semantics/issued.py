"""What a family's semantics hands the executor for one instruction: the decoded operation, the
body that takes effect, and what the event reports (docs/machine.md §5–§7)."""

from __future__ import annotations

HALT = -1  # Issued.jump: stop the program


class Issued:
    """One decoded, checked instruction, ready to take effect.

    `body(machine, op, arg, lo, hi)` makes the change (repeats [lo, hi) of a vector op; other
    bodies ignore lo/hi); None when nothing changes. `repeats` > 0 lets the executor run it
    repeat by repeat, which `sequential` demands (the overlap rule's sequential model). `jump`
    is the statement pc to continue at (HALT stops). `uops`: the micro-ops it counts (a vector
    instruction's repeats, 1 for the others)."""

    __slots__ = ("pipe", "op", "body", "arg", "repeats", "sequential", "flag", "taken", "jump",
                 "uops")

    def __init__(self, pipe: str, op=None, body=None, arg=None, repeats: int = 0,
                 sequential: bool = False, flag=None, taken: bool = False,
                 jump: int | None = None, uops: int = 1):
        self.pipe = pipe
        self.uops = uops
        self.op = op
        self.body = body
        self.arg = arg
        self.repeats = repeats
        self.sequential = sequential
        self.flag = flag
        self.taken = taken
        self.jump = jump
