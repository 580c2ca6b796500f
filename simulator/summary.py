"""The run summary: one dict (for --json and the trace's summary event) and its text form."""

from __future__ import annotations

from isa.table import PIPES
from simulator.result import RunResult


def summary_dict(result: RunResult, outputs: dict[str, str] | None = None) -> dict:
    timed = bool(result.stalls)  # a timed run counts every stall cause
    return build_summary(result.chip, result.cycles, result.pipes, result.instructions,
                         result.uops, result.warnings, outputs,
                         result.stalls if timed else None, result.hot_lines if timed else None)


def build_summary(chip, cycles: int, busy: dict[str, int], instructions: int, uops: int,
                  warnings: list, outputs: dict[str, str] | None = None,
                  stalls: dict | None = None, hot_lines: list | None = None) -> dict:
    """The `run --json` object; also every trace's summary event."""
    pipes = {p: {"busy": int(busy.get(p, 0)),
                 "utilisation": round(busy.get(p, 0) / cycles, 6) if cycles else 0.0}
             for p in PIPES}
    out = {"chip": chip.name, "cycles": int(cycles),
           "time_us": round(cycles / chip.clock_mhz, 6), "instructions": instructions,
           "uops": uops, "pipes": pipes, "outputs": outputs or {},
           "warnings": [str(d) for d in warnings]}
    if stalls is not None:
        out["stalls"] = dict(stalls)
        out["hot_lines"] = list(hot_lines or [])
    return out


def summary_text(result: RunResult, outputs: dict[str, str] | None = None) -> str:
    d = summary_dict(result, outputs)
    lines = [f"{result.path} on {d['chip']}: {d['instructions']} instructions, "
             f"{d['uops']} micro-ops",
             f"  cycles {d['cycles']}  ({d['time_us']:.3f} us at "
             f"{result.chip.clock_mhz:g} MHz; a model, not silicon)"]
    for p, v in d["pipes"].items():
        lines.append(f"  {p:<5} busy {v['busy']:>8}  {100 * v['utilisation']:5.1f}%")
    for cause, cyc in d.get("stalls", {}).items():
        lines.append(f"  stall {cause:<14}{cyc:>8} cycles")
    for hot in d.get("hot_lines", []):
        where = "line" if hot["file"] == result.path else f"{hot['file']}:"
        text = hot["text"] if len(hot["text"]) <= 70 else hot["text"][:67] + "..."
        lines.append(f"  hot  {where} {hot['line']:>4}  {hot['cycles']:>8} cycles  {text}")
    for name, path in (outputs or {}).items():
        lines.append(f"  output {name} -> {path}")
    return "\n".join(lines)
