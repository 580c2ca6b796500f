"""`info pipes`: the timing model's view at the current point — per pipe what is queued or
running, busy-until and busy cycles, and the pending flags.

The figures come from the InstrTiming the model left on each record (`model.last` after each
event), so they are right at any point, also after reverse motion. A model that reports no
per-instruction figures still shows its totals; anything else it exposes about queues is shown
as it is, at the frontier.
"""

from __future__ import annotations

from isa.table import PIPES

from .session import Session

EXTRA = ("s_time", "stalls", "queues", "queue", "busy_until", "free", "pipe_free", "pending")
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
    now = max(getattr(r.timing, "issue", 0) for r in timed)
    out = [f"S last issued at cycle {now}; cycle {s.cycle()}"]
    for pipe in PIPES:
        mine = [r for r in timed if getattr(r.timing, "pipe", None) == pipe]
        until = max((r.timing.end for r in mine), default=0)
        busy = sum(getattr(r.timing, "busy", 0) for r in mine)
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
        if ev is not None and ev.flag is not None and r.instr.name == "set_flag":
            fires[ev.flag] = getattr(r.timing, "fire", None)
    out = ["pending flags:"]
    for (src, dst, eid), pc in flags.items():
        fire = fires.get((src, dst, eid))
        when = f", fires at cycle {fire}" if fire is not None else ""
        line = s.program.statements[pc].line
        out.append(f"  {src}->{dst} id {eid}: set at line {line}{when}, not yet waited for")
    return out


def _model(s: Session) -> list[str]:
    model = s.model
    out = []
    if s.pos != s.hist.end:
        out.append(f"timing model (at the newest point, {s.hist.end - s.pos} micro-ops ahead):")
    else:
        out.append("timing model:")
    total = getattr(model, "total_cycles", None)
    busy = getattr(model, "busy", None)
    if total is not None:
        out.append(f"  total_cycles {total}")
    if isinstance(busy, dict):
        out.append("  busy " + "  ".join(f"{k} {v}" for k, v in busy.items()))
    for name in EXTRA:
        value = getattr(model, name, None)
        if value is None or callable(value):
            continue
        if isinstance(value, dict) and value and all(_fields(v) for v in value.values()):
            for key, v in value.items():
                out.append(f"  {name}[{key}] {_render(v)}")
            continue
        out.append(f"  {name} {_render(value)}")
    return out


def _fields(obj) -> list[str]:
    slots = getattr(type(obj), "__slots__", None)
    if slots:
        return [s for s in slots if not s.startswith("_")]
    return [k for k in getattr(obj, "__dict__", {}) if not k.startswith("_")]


def _render(value) -> str:
    """A model attribute as short text: dicts and plain objects field by field."""
    if isinstance(value, dict):
        text = "  ".join(f"{k} {_render(v)}" for k, v in value.items())
    elif _fields(value):
        text = "  ".join(f"{k} {_render(getattr(value, k, None))}" for k in _fields(value))
    elif isinstance(value, (list, tuple)) or type(value).__name__ == "deque":
        text = "[" + ", ".join(_render(v) for v in list(value)[:8]) + \
            (", ..." if len(value) > 8 else "") + "]"
    else:
        text = str(value)
    return text if len(text) <= 200 else text[:200] + "..."
