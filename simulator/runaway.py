"""A loop that can never end, found while it runs (docs/decisions.md, "a loop that never ends").

Without it, a loop whose counter never moves (its `add` deleted, a branch on the wrong register)
runs to --max-steps: ten million steps, a minute and more when each pass moves data. So at
steps 2^16, 2^17, … (`FIRST_PROBE`, doubling) the run watches the next PROBE_STEPS steps of
the loop it is in: when they come back to the instruction they started at with every register
(and MASK, the mask mode, the flags and mutexes set) as it was, and nothing on the way wrote a
register from memory or from what data set (only the instructions `_steady` names ran), every
later pass takes the same path — data may change, the path cannot — and the run fails at the
branch that closed the pass, with the registers it compares. A pass that changes a register,
reads memory into one, or takes longer, ends the probe; the run goes on to the next. A
stream's source (the C++ and TIK front ends issuing statements) has no loop of its own to
find: nothing is probed there.
"""

from __future__ import annotations

from isa import families
from isa.lexer import register_name
from isa.program import Instruction, RegExpr
from isa.regvec import REGVEC
from simulator.machine import Machine
from simulator.problems import Problem
from simulator.semantics import scalar

FIRST_PROBE = 1 << 16  # the step of the first probe; each next one at twice the last
PROBE_STEPS = 1024  # steps a probe watches for its loop to come back
NEVER = 1 << 62  # a step no run reaches: no probe


class LoopProbe:
    """The probes of one run on machine M with instruction set ISA (`Executor.count` and the
    fast loop call `at` when the step `next_at` names is reached)."""

    def __init__(self, m: Machine, isa):
        self.m, self.isa = m, isa
        self.next_at = FIRST_PROBE  # the step of the next call (`at`)
        self._probe_at = FIRST_PROBE  # the step of the next probe
        self._steady: dict[object, bool] = {}  # instruction body -> `_steady`
        self._start: tuple | None = None  # (instruction, state, its step) while probing
        # the step before while probing: (instruction, flat index, step)
        self._last: tuple[Instruction, int, int] | None = None
        self._branch: Instruction | None = None  # the last branch taken while probing

    def at(self, instr: Instruction, index: int, step: int) -> Problem | None:
        """INSTR, at flat INDEX, is about to run as step STEP: a Problem at the branch
        `closing` names when a probe has found a loop that never ends, else None (`next_at`
        moved on)."""
        start = self._start
        if start is None or step <= self._last[2]:  # (a debugger went back: look afresh)
            self._begin(instr, index, step)
            return None
        if not self._steady_body(instr):
            self._end()
            return None
        last_instr, last_index, _ = self._last
        if index != last_index + 1 and last_instr.defn.family.kind == families.CONTROL:
            self._branch = last_instr
        if instr is start[0]:
            if self._state() == start[1]:
                return self._problem()
            self._end()
            return None
        if step - start[2] >= PROBE_STEPS:
            self._end()
            return None
        self._last = (instr, index, step)
        self.next_at = step + 1
        return None

    @property
    def closing(self) -> Instruction | None:
        """The branch that closed the pass a Problem was found on (None: no branch seen)."""
        return self._branch

    def _begin(self, instr: Instruction, index: int, step: int) -> None:
        if not self._steady_body(instr):
            self._end()
            return
        self._start = (instr, self._state(), step)
        self._last = (instr, index, step)
        self._branch = None
        self.next_at = step + 1

    def _end(self) -> None:
        self._start = self._last = None
        self._probe_at *= 2
        self.next_at = self._probe_at

    def _state(self) -> tuple:
        """What decides the path from here on, memory aside: the registers, and MASK, the
        mask mode and the flags and mutexes set (conservatively: a pass leaving one of them
        otherwise is not called endless). The special registers are not in it: data may set
        them (RSVD_CNT grows with each GatherMask), and only a `reads_state` family, which
        ends a probe, brings one into a register."""
        m = self.m
        return (tuple(m.x), m.mask_hi, m.mask_lo, m.counter, frozenset(m.flags),
                frozenset((mid, pipe) for mid, (pipe, _) in m.mutexes.items()))

    def _steady_body(self, instr: Instruction) -> bool:
        body = instr.body
        got = self._steady.get(body)
        if got is None:
            got = self._steady[body] = _steady(instr, self.isa)
        return got

    def _problem(self) -> Problem:
        """The loop's Problem, naming the registers the closing branch compares (as the
        policy names a register: the policy then adds none of its own)."""
        at = self._branch if self._branch is not None else self._start[0]
        regs: dict[int, None] = {}
        for o in at.operands.values():
            if o.kind == "reg" and isinstance(o.value, int):
                regs[o.value] = None
            for v in (o.addr, o.value):
                if isinstance(v, RegExpr):
                    regs[v.reg] = None
        said = ", ".join(f"{register_name(r)} = {self.m.signed(r)}" for r in regs)
        return Problem("steps", "this loop never ends: each pass comes back with every "
                       "register as it was" + (f" ({said})" if said else "") + " and nothing "
                       "in it reads memory into a register, so every pass takes the same path "
                       "(on the chip the core hangs here)")


def _steady(instr: Instruction, isa) -> bool:
    """Whether what INSTR leaves in the registers and the control state follows from them
    alone: it writes no register from memory or from what data set (its family's
    `reads_state`: a load, GetRsvdCnt), and does not end the run (halt, fail). What it does to
    memory may depend on data (a gather by offsets, vsel's mask address from CMPMASK): the
    path through the loop cannot. The reg-based unit's instructions (their own registers) and
    a front end's host code end a probe too."""
    fam = instr.defn.family
    kind = fam.kind
    if kind == families.CONTROL:
        return isa.issue.get(fam.name) in scalar.EFFECTS  # (a branch or jump; not halt, fail)
    return not fam.reads_state and kind not in (REGVEC, families.HOST, families.API)
