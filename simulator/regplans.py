"""Issue 34: the fast loop's plans for the reg-based unit's register-only instructions.

A VF's loop body is a few register instructions repeated thousands of times (the vendor's
gelu_eltwise sample: 16 M executions). The reference path builds an event for each and hands it
to the timing stage and every observer; a plan (simulator/plans.py) binds their parts once.
Unlike a vector decoding, a register instruction's checks depend on state that changes between
executions (which registers this VF wrote, the element width each MaskReg was made for), so a
plan runs the family's own issue at every execution — the same checks, at the same instruction,
with the same words — and only the event and the observers' dispatch are bound once.

Planned: every family of the unit with pipev's own semantics. Those that touch no UB (masks,
compare, select, duplicate, element-wise, math, reduce, conversions, relayouts, the VF's begin
and end, LocalMemBar): their issue hands V no operation (`Issued.op` is None), so the hazard
checks only join V to S's clock (`HazardChecks.plan`) and the timing stage books the class's
fixed cycles (`TimingModel.plan`). Loads and stores (LoadAlign / StoreAlign in every form,
MaskReg loads and stores, the unaligned ones, Gather / Scatter with UB): their issue hands V a
`RegAccess` (the UB bytes of this execution, which follow the address registers), so their
`Planned.op` is a `Varying` the plan sets to each execution's before the parts run: the timing
stage books its bank beats and the hazard checks run the race and init checks of its bytes, as
`time` and `on_event` do with the event's op. Anything added later takes the reference path
until it is listed here. Identity with the reference path: tests/differential/test_reg_plans.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from isa.regvec import REGVEC
from simulator.plans import Planned, Varying, per_execution
from simulator.semantics import regvec, regvec_convert, regvec_data

if TYPE_CHECKING:  # pragma: no cover
    from isa.families import Family
    from isa.program import Instruction

# the reg-based families whose issue never hands V a UB access (op None, no repeats)
REGISTER_ONLY = frozenset({"vf_begin", "vf_end", "membar", "pset", "plt", "plogic", "vrcmp",
                           "vrsel", "vrdup", "vrbin", "vrun", "vrscalar", "vrmath", "vrmathbin",
                           "vrsqrt", "vrfma", "vrreduce", "vrgather", "vredblk", "vredblkw",
                           "vrpair", "pgenv", "vrmovm", "vrsqz", "vclrar", "vrhist", "vrcvt",
                           "vrtrunc", "vrarange", "vrrelayout", "vrpack", "vrunpack", "prelayout"})
# the loads and stores: their issue hands V a RegAccess (this execution's UB bytes), no repeats
ACCESSES = frozenset({"vload", "vstore", "vload2", "vstore2", "vloadb", "vstoreb", "pload",
                      "pstore", "vldupre", "vldu", "vstu", "vstupost", "vscatter", "vgatherub",
                      "vgatherw", "vgatherbub"})
ISSUES = {**regvec.ISSUE, **regvec_convert.ISSUE, **regvec_data.ISSUE}


def plannable(issue: Callable | None, fam: Family) -> bool:
    """Whether FAM's instructions (issued by ISSUE, the run's own) may have a register plan:
    a listed family of the reg-based unit with pipev's own semantics."""
    return fam.kind == REGVEC and (fam.name in REGISTER_ONLY or fam.name in ACCESSES) \
        and issue is not None and issue is ISSUES.get(fam.name)


def reg_plan(loop: Any, learnt: Instruction, issue: Callable) -> Callable | None:
    """plan(instr, i): one execution of LEARNT's text on LOOP (a simulator/fused.py FastLoop,
    untyped: fused imports this module) — ISSUE's checks and body, as
    `Executor.execute` runs them, then the timing stage's booking and the observers' parts
    bound once; None when one of them declines. A load's or store's parts read its
    execution's RegAccess from CELL (`Varying`), which the plan sets after the issue."""
    ex, m = loop.ex, loop.m
    cell = Varying() if learnt.defn.family.name in ACCESSES else None

    def event(at: Instruction, taken: bool = False):
        return ex.event_at(at, "V", cell.op if cell is not None else None, 1, taken)
    parts = loop._parts(Planned(learnt, "V", cell, 1, loop.model is not None, event))
    if parts is None:
        return None
    book, sink, limit, elsewhere, each0, each1, settle_parts, _ = parts
    after = per_execution(sink, limit, elsewhere, each0, each1)
    executions = 0

    def plan(instr: Instruction, i: int) -> int:
        nonlocal executions
        iss = issue(ex, instr)  # the checks, at every execution (they read changing state)
        op = iss.op
        if cell is not None:
            cell.op = op
        body = iss.body
        if body is not None:
            body(m, op, iss.arg, 0, 0)
        after(instr, book(), False)
        executions += 1
        return i + 1

    def settle() -> None:
        nonlocal executions
        n, executions = executions, 0
        settle_parts(n)
    loop.settles.append(settle)
    return plan
