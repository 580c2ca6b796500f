"""Run-time problems as data: the checks and the semantics describe what is wrong; one place (the
executor's policy) decides error, warning or silence and formats the diagnostic (docs/format.md
§9)."""

from __future__ import annotations

from typing import NamedTuple

# rules that --checks turns into warnings (warn) or silences (off); every other rule is an error
POLICY_RULES = ("align", "footprint", "overlap")


class Problem(NamedTuple):
    """What is wrong with one instruction.

    The diagnostic text is `head` + `tail` + `where`; for an instruction with register operands
    the registers behind the value are named after `head` when `at_value` (head ends with the
    bad address), else before `where` (docs/semantics.md §7). A NamedTuple, as the records built
    at import are: an attrs class costs start-up (docs/decisions.md)."""

    rule: str  # align | footprint | overlap | bounds | range | deadlock | mask | steps | ...
    head: str
    tail: str = ""
    where: str = ""  # "(repeat i, block j)" / "(burst k, block j)"
    role: str | None = None  # the operand at fault (its column); None: the mnemonic's
    at_value: bool = False
    col: int | None = None  # an explicit column offset into the statement (fields)

    def text(self, registers: str = "") -> str:
        note = f" ({registers})" if registers and registers not in self.head + self.tail else ""
        where = f" {self.where}" if self.where else ""
        if self.at_value:
            return f"{self.head}{note}{self.tail}{where}"
        return f"{self.head}{self.tail}{note}{where}"


class Fault(Exception):
    """A run-time error inside one instruction."""

    def __init__(self, problem: Problem):
        super().__init__(problem.head)
        self.problem = problem


def fault(rule: str, head: str, role: str | None = None, **kw) -> Fault:
    return Fault(Problem(rule, head, role=role, **kw))
