"""`info pipes`: the timing model's view at the current point — per pipe what is queued or
running, busy-until and busy cycles, and the pending flags.

The figures come from the InstrTiming the model published in each event (kept on the records),
so they are right at any point, also after reverse motion; the model's own state (a typed
snapshot) is shown as it is at the frontier.
"""

from __future__ import annotations

from isa.families import SET_FLAG
from isa.table import PIPES

from .session import Session

SHOWN = 4  # queued instructions listed per pipe


def pipes_view(s: Session) -> list[str]:
    s.sync()
    timed = [r for r in s.hist.between(s.hist.first, s.pos) if r.timing is not None]
    out = []
    if timed:
        out.extend(_from_records(s, timed))
    else:
        out.append("the timing model reported no per-instruction figures up to here")
    out.extend(_flags(s, timed))
    out.extend(_model(s))
    return out


def _from_records(s: Session, timed: list) -> list[str]:
    issued = max(r.timing.issue for r in timed)
    # S's clock after the last instruction: what is queued is what ends after it
    now = max(r.timing.end if r.timing.pipe == "S" else r.timing.issue + r.timing.issue_cost
              for r in timed)
    out = [f"S last issued at cycle {issued}; cycle {s.cycle()}"]
    for pipe in PIPES:
        mine = [r for r in timed if r.timing.pipe == pipe]
        until = max((r.timing.end for r in mine), default=0)
        busy = sum(r.timing.busy for r in mine)
        if pipe == "S":  # S also spends its issue cycles on every queued instruction
            busy += sum(r.timing.issue_cost for r in timed)
        queued = [r for r in mine if r.timing.end > now]
        line = f"{pipe:<5} busy-until {until:<8} busy {busy:<8}"
        if pipe != "S":
            line += f" queued {len(queued)}"
        if pipe != "S" and queued:
            line += "  " + "; ".join(f"{r.instr.text} (line {r.instr.line}, "
                                     f"{r.timing.start}..{r.timing.end})"
                                     for r in queued[:SHOWN])
            if len(queued) > SHOWN:
                line += f"; ... {len(queued) - SHOWN} more"
        out.append(line)
    return out


def _flags(s: Session, timed: list) -> list[str]:
    flags = s.machine.flags
    if not flags:
        return ["pending flags: none"]
    fires = {}
    for r in timed:
        ev = r.event
        if ev is not None and ev.flag is not None and ev.kind == SET_FLAG:
            fires[ev.flag] = r.timing.fire
    out = ["pending flags:"]
    for (src, dst, eid), instr in flags.items():
        fire = fires.get((src, dst, eid))
        when = f", fires at cycle {fire}" if fire is not None else ""
        line = instr.line
        out.append(f"  {src}->{dst} id {eid}: set at line {line}{when}, not yet waited for")
    return out


def _model(s: Session) -> list[str]:
    if s.pos != s.hist.end:
        out = [f"timing model (at the newest point, {s.hist.end - s.pos} micro-ops ahead):"]
    else:
        out = ["timing model:"]
    if s.model is None:
        return out + ["  off"]
    snap = s.model.snapshot()
    out.append(f"  total_cycles {snap.total_cycles}")
    out.append("  busy " + "  ".join(f"{k} {v}" for k, v in snap.busy.items()))
    out.append(f"  s_time {snap.s_time}")
    out.append("  stalls " + "  ".join(f"{k} {v}" for k, v in snap.stalls.items()))
    for name, q in snap.queues.items():
        held = ", ".join(map(str, q.inflight[:8])) + (", ..." if len(q.inflight) > 8 else "")
        out.append(f"  queues[{name}] inflight [{held}]  last_end {q.last_end}  "
                   f"drain_end {q.drain_end}")
    return out
