"""What the timing model alone costs per instruction (CPU time, events replayed into it).

    python benchmarks/timing_cost.py

The events of a run are recorded once, then fed to fresh TimingModels, so the figures exclude
assembly, checks and execution. "cached" is the usual case (a statement re-run at the same or
a shifted layout). "new layout" clears, before every event, the memos a new relative layout
misses — the decoding's memo (its cost) and the model's layout cache — so the vectorised bank
model runs each time; "cold" also clears the caches a new layout still hits (the bank model's
shapes, the address generator's offsets): the first instruction of its shape.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from workloads import vsel_program  # noqa: E402

import isa  # noqa: E402
from isa import addressing  # noqa: E402
from simulator.events import Observer  # noqa: E402
from simulator.executor import Executor  # noqa: E402
from simulator.machine import Machine  # noqa: E402
from simulator.run import gm_arrays  # noqa: E402
from simulator.sources import ProgramSource  # noqa: E402
from simulator.timing import TimingModel  # noqa: E402

ADDRESS_CACHES = (addressing.offsets, addressing.has_duplicates, addressing.mask_row)


class _Collect(Observer):
    def __init__(self):
        self.events = []

    def on_event(self, event) -> None:
        self.events.append(event)


def events_of(text: str):
    prog = isa.assemble(text)
    c = _Collect()
    Executor(Machine(prog.chip, gm_arrays(prog, None), prog), ProgramSource(prog),
             observers=[c]).run()
    return prog, c.events


def forget(model: TimingModel, ev, cold: bool) -> None:
    """Clear the caches the timing of EV would hit at a new layout (COLD: every cache). The
    byte ranges a decoding's memo holds are kept: the model does not use them."""
    model._cache.clear()
    if ev.vop is not None:
        ranges = ev.vop.memo.get("ranges")
        ev.vop.memo.clear()
        if ranges is not None:
            ev.vop.memo["ranges"] = ranges
    if cold:
        model.banks._shapes.clear()
        for cache in ADDRESS_CACHES:
            cache.cache_clear()


def per_event(prog, events, mode: str = "cached", rounds: int = 3) -> float:
    """Best CPU µs per event over ROUNDS replays (MODE: cached, layout or cold)."""
    best = float("inf")
    for _ in range(rounds):
        model = TimingModel(prog.chip)
        t0 = time.process_time()
        if mode == "cached":
            for ev in events:
                model.time(ev)
        else:
            for ev in events:
                forget(model, ev, mode == "cold")
                model.time(ev)
        best = min(best, time.process_time() - t0)
    return 1e6 * best / len(events)


def main() -> int:
    for label, text in (("20,000 one-repeat vsel.f32", vsel_program(20_000)),
                        ("2,000 vsel.f32 repeat=255", vsel_program(2_000, repeat=255))):
        prog, events = events_of(text)
        cached = per_event(prog, events)
        layout = per_event(prog, events[:2000], "layout", rounds=1)
        cold = per_event(prog, events[:500], "cold", rounds=1)
        print(f"{label}: {cached:.2f} us/instruction (new layout: {layout:.1f} us; cold: "
              f"{cold:.1f} us)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
