"""The run summary: one dict (for --json and the trace's summary event) and its text form."""

from __future__ import annotations

from typing import TYPE_CHECKING

from isa.table import PIPES

if TYPE_CHECKING:  # pragma: no cover
    from simulator.run import RunResult



def summary_dict(result: RunResult, outputs: dict[str, str] | None = None) -> dict:
    return build_summary(result.program.chip, result.cycles, result.pipes, result.instructions,
                         result.uops, result.warnings, outputs, result.timing)


def build_summary(chip, cycles: int, busy: dict[str, int], instructions: int, uops: int,
                  warnings: list, outputs: dict[str, str] | None = None, model=None) -> dict:
    """The `run --json` object; also the trace's summary event, built before a RunResult
    exists."""
    pipes = {p: {"busy": int(busy.get(p, 0)),
                 "utilisation": round(busy.get(p, 0) / cycles, 6) if cycles else 0.0}
             for p in PIPES}
    out = {"chip": chip.name, "cycles": int(cycles),
           "time_us": round(cycles / chip.clock_mhz, 6), "instructions": instructions,
           "uops": uops, "pipes": pipes, "outputs": outputs or {},
           "warnings": [str(d) for d in warnings]}
    if model is not None and hasattr(model, "report"):
        out.update(model.report())
    return out


def summary_text(result: RunResult, outputs: dict[str, str] | None = None) -> str:
    d = summary_dict(result, outputs)
    lines = [f"{result.program.path} on {d['chip']}: {d['instructions']} instructions, "
             f"{d['uops']} micro-ops",
             f"  cycles {d['cycles']}  ({d['time_us']:.3f} us at "
             f"{result.program.chip.clock_mhz:g} MHz; a model, not silicon)"]
    for p, v in d["pipes"].items():
        lines.append(f"  {p:<5} busy {v['busy']:>8}  {100 * v['utilisation']:5.1f}%")
    for cause, cyc in d.get("stalls", {}).items():
        lines.append(f"  stall {cause:<14}{cyc:>8} cycles")
    for hot in d.get("hot_lines", []):
        lines.append(f"  hot  line {hot['line']:>4}  {hot['cycles']:>8} cycles  {hot['text']}")
    for name, path in (outputs or {}).items():
        lines.append(f"  output {name} -> {path}")
    return "\n".join(lines)
