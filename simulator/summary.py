"""The run summary: one dict (for --json and the trace's summary event) and its text form."""

from __future__ import annotations

from collections.abc import Sequence

from isa.table import PIPES
from simulator.result import CoreResult, RunResult

SHOWN_CORES = 8  # a diagnostic seen on several cores lists at most this many


def summary_dict(result: RunResult, outputs: dict[str, str] | None = None) -> dict:
    timed = bool(result.stalls)  # a timed run counts every stall cause
    return build_summary(result.chip, result.cycles, result.pipes, result.instructions,
                         result.uops, result.warnings, outputs,
                         result.stalls if timed else None, result.hot_lines if timed else None,
                         [core_dict(c) for c in result.cores] if len(result.cores) > 1
                         else None, result.vector_cores)


def core_dict(c: CoreResult) -> dict:
    """One core of a launch in `--json`'s `cores` list."""
    return {"block": c.block, "core": c.slot, "wave": c.wave, "start": c.start, "end": c.end,
            "cycles": c.cycles, "instructions": c.instructions, "uops": c.uops,
            "pipes": {p: int(c.pipes.get(p, 0)) for p in PIPES}, "stalls": dict(c.stalls),
            "gm_bandwidth_wait": c.gm_wait}


def build_summary(chip, cycles: int, busy: dict[str, int], instructions: int, uops: int,
                  warnings: list, outputs: dict[str, str] | None = None,
                  stalls: dict | None = None, hot_lines: list | None = None,
                  cores: list[dict] | None = None, vector_cores: int = 1) -> dict:
    """The `run --json` object; also every trace's summary event. With CORES (a launch of
    several; a one-core run has no `cores` list),
    busy is summed over them and utilisation is busy over the sum of their cycles."""
    span = sum(c["cycles"] for c in cores) if cores else cycles
    pipes = {p: {"busy": int(busy.get(p, 0)),
                 "utilisation": round(busy.get(p, 0) / span, 6) if span else 0.0}
             for p in PIPES}
    out = {"chip": chip.name, "cycles": int(cycles),
           "time_us": round(cycles / chip.clock_mhz, 6), "instructions": instructions,
           "uops": uops, "pipes": pipes, "outputs": outputs or {},
           "warnings": [str(d) for d in warnings]}
    if stalls is not None:
        out["stalls"] = dict(stalls)
        out["hot_lines"] = list(hot_lines or [])
    if cores:
        out["block_dim"] = len(cores)
        out["vector_cores"] = vector_cores
        out["waves"] = max(c["wave"] for c in cores) + 1
        out["cores"] = cores
    return out


CORE_LINES = 64  # the text summary lists at most this many cores (--json has every one)


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
    cores = d.get("cores", [])
    if len(cores) > 1:
        lines[0] += (f"; {len(cores)} cores on {d['vector_cores']} vector cores in "
                     f"{d['waves']} wave{'s' if d['waves'] > 1 else ''}")
        lines.extend(_core_lines(cores))
    for name, path in (outputs or {}).items():
        lines.append(f"  output {name} -> {path}")
    return "\n".join(lines)


def _core_lines(cores: list[dict]) -> list[str]:
    out = [core_line(c["block"], c["start"], c["end"], c["wave"], c["pipes"], c["stalls"],
                     c["gm_bandwidth_wait"]) for c in cores[:CORE_LINES]]
    if len(cores) > CORE_LINES:
        out.append(f"  ... {len(cores) - CORE_LINES} more cores (--json lists every one)")
    return out


def core_line(block: int, start: int, end: int, wave: int, pipes: dict[str, int],
              stalls: dict[str, int], gm_wait: int = 0) -> str:
    """One core of a launch in the text summary."""
    busy = " ".join(f"{p} {int(pipes.get(p, 0))}" for p in PIPES)
    gm = f", GM bandwidth +{gm_wait}" if gm_wait else ""
    return (f"  core {block:>3}  cycles {end - start:>8}  ({start}..{end}, wave {wave})  "
            f"busy {busy}  stalls {sum(stalls.values())}{gm}")


def listed(cores: Sequence[int]) -> str:
    """CORES as a diagnostic lists them: at most SHOWN_CORES, then `and N more`."""
    shown = ", ".join(map(str, cores[:SHOWN_CORES]))
    more = f" and {len(cores) - SHOWN_CORES} more" if len(cores) > SHOWN_CORES else ""
    return shown + more
