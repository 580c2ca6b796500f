"""The fast path's side of the observer contract (docs/observers.md, "Plans").

The run's fast loop (simulator/fused.py) repeats an instruction it has seen run without issuing
it again and without building its event. Before it does, it describes the executions to come as
a `Planned` and asks the timing stage and every observer for their part (`Observer.plan`). Each
part is bound once per plan: `each(instr, busy, taken)` runs after every execution (BUSY: the
cycles the timing stage booked for it, 0 with timing off), `settle(booked)` once when the loop
ends, with the sums of the timing fields the observer did not see per execution (and a sink for
per-line busy cycles, `ObserverPlan.lines`, which costs no call). A plan must
leave its owner exactly as `on_event` would have; an owner that cannot promise that declines
(returns None), and the loop issues that instruction through the reference path instead.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, MutableSequence, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # pragma: no cover
    from isa.program import Instruction


class Booked(NamedTuple):
    """What the timing stage booked for a plan's executions since the last settle: their count
    and the sums of their records' `busy`, `issue_cost`, `wait_issue` and `bank_extra` (see
    `InstrTiming`; all zero with timing off). A planned instruction never waits on a flag."""

    executions: int
    busy: int = 0
    issue_cost: int = 0
    wait_issue: int = 0
    bank_extra: int = 0


Each = Callable[["Instruction", int, bool], None]


class ObserverPlan(NamedTuple):
    """An observer's part of a plan: `each(instr, busy, taken)` after every execution, and
    `settle(booked)` when the loop ends; either may be None (nothing to do).

    `lines`, when given, is a per-line sink `(cycles, limit)` for an observer whose per-execution
    part is "busy cycles to the line": an execution at line L with 0 < L < limit adds its busy
    cycles to cycles[L] (the loop does it, without a call) and `each` is called only for the
    executions at other lines.

    `slot`, when given with `lines`, answers for an instruction whose executions `each` would
    take (another file's line): slot(instr) -> (cycles, key) when each of its executions only
    adds its busy cycles to cycles[key] (a caller issuing that same instruction again, as a
    stream's statement does, adds them itself without the call), else None; the same answer
    for every instruction at one file's line (a TIK script's calls from one line are
    instructions of their own, each at that line)."""

    each: Each | None
    settle: Callable[[Booked], None] | None
    lines: tuple[MutableSequence[int], int] | None = None
    slot: Callable[[Instruction], tuple[MutableMapping, object] | None] | None = None
    batch: Callable[[], bool] | None = None


def per_execution(sink: MutableSequence[int] | None, limit: int, elsewhere: Each | None,
                  each0: Each | None = None, each1: Each | None = None) -> Each:
    """A plan's parts of one execution as one each(instr, busy, taken) (`FastLoop._parts`'
    pieces): BUSY to SINK[line] for 0 < line < LIMIT, else ELSEWHERE's; then EACH0 and EACH1.
    The plans that run most often (a static vector instruction's, a scalar's, a MASK
    writer's) write these steps inline instead of calling this."""
    def each(instr: Instruction, busy: int, taken: bool = False) -> None:
        line = instr.line
        if 0 < line < limit:
            sink[line] += busy
        elif elsewhere is not None:
            elsewhere(instr, busy, taken)
        if each0 is not None:
            each0(instr, busy, taken)
            if each1 is not None:
                each1(instr, busy, taken)
    return each


class FamilyFacts:
    """What an `instr`'s family says of it, for an `Event` and a `Planned` alike."""

    __slots__ = ()
    instr: Instruction

    @property
    def kind(self) -> str:
        """The instruction family's kind (`Event.kind`)."""
        return self.instr.defn.family.kind

    @property
    def reads_cmpmask(self) -> bool:
        return self.instr.defn.family.cmpmask_reads(self.instr.fields)

    @property
    def writes_cmpmask(self) -> bool:
        return self.instr.defn.family.writes_cmpmask


class Planned(FamilyFacts):
    """The executions a plan covers: instructions sharing `instr`'s text (and file) at one
    MASK/CTRL, each on `pipe` with decoded operation `op` (a VectorOp, or None for what S
    executes itself) and `repeats` micro-ops; `timed` when the timing stage books them.
    `event(instr, taken=False)` builds the event the reference path would have given for an
    execution at INSTR (without its timing record), for the rare plan that needs one.

    `run` > 1: each execution is that many instructions S executes itself (no branch, no UB,
    no CMPMASK) one after another at `instr`'s line, of `instr`'s kind (a stream statement's
    MASK writers, `instr` the first): the timing stage books them all at once, `each` sees
    their busy cycles together, and `Booked.executions` counts instructions. An owner that
    cannot take that declines it."""

    __slots__ = ("instr", "pipe", "op", "repeats", "timed", "event", "run")

    def __init__(self, instr: Instruction, pipe: str, op, repeats: int, timed: bool,
                 event: Callable[..., object], run: int = 1):  # -> simulator.events.Event
        # (the contract names plans, not the other way round: this module stays below
        # events.py)
        self.instr, self.pipe, self.op, self.repeats = instr, pipe, op, repeats
        self.timed, self.event, self.run = timed, event, run


class Varying:
    """`Planned.op` of a plan whose executions each have their own operation (issue 34: a
    reg-based load or store, whose UB bytes follow its address registers): the plan sets `op`
    to the execution's own before the timing stage's and the observers' parts run, which read
    it there (the bytes it touches) as `time` and `on_event` read `Event.op`."""

    __slots__ = ("op",)

    def __init__(self) -> None:
        self.op = None


class Batch:
    """`Planned.op` of a plan that runs consecutive lines as one batch (simulator/batches.py):
    an unrolled kernel's tiles, each of the same statements. `groups`: per statement of the
    tile, (its lines, one a tile; `origin`, the stored decoding each line's is moved from, a
    one-repeat decoding; `shifts`, an int array, a row a line: each operand's move in bytes,
    in the origin's operand order). `instrs`: every line in program order (tile after tile).
    The plan sets them before the timing stage's and the observers' parts run; `op_of(instr)`
    makes one line's decoding (for an event a check would need)."""

    __slots__ = ("groups", "instrs")

    def __init__(self) -> None:
        self.groups: list[tuple] = []
        self.instrs: Sequence[Instruction] = ()

    def set(self, groups: list[tuple]) -> None:
        """GROUPS, each (lines, origin, shifts), the same number of lines each."""
        self.groups = groups
        self.instrs = groups[0][0] if len(groups) == 1 else \
            [instr for row in zip(*(g[0] for g in groups), strict=True) for instr in row]

    def op_of(self, instr: Instruction):
        """INSTR's own decoding (a line of the batch): its origin moved by its shifts."""
        for lines, origin, shifts in self.groups:
            for j, at in enumerate(lines):
                if at is instr:
                    return origin.moved(instr, tuple(int(s) for s in shifts[j]))
        raise ValueError("not a line of the batch")
