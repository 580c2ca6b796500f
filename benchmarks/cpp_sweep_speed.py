"""A C++ host-main sweep: seconds a variant with the warm runner (simulator/sweep/cppwarm.py)
against the cold path (each variant a `pipev run` process and a worker process of its own),
both with the compiles reused (the build cache filled by a first sweep), measured in this run,
interleaved (cold, warm, cold, warm, ...), one worker, without the sweep cache. Wall-clock time
(what a user waits for: the variants' processes are not this one's children to be timed);
min/median/max over the rounds.

    .venv/bin/python benchmarks/cpp_sweep_speed.py          # exit 1 above GOAL s a variant
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.sweep import cppwarm, sweep, task  # noqa: E402

DATA = ROOT / "tests" / "data" / "sweep"
GRID = {"TILE": ["32", "64", "128", "256"]}  # four compiles, each reused
GOAL = 2.0  # seconds a variant (the bound)
ROUNDS = 3


def one(host: Path, warm: bool) -> float:
    task.WARM = warm
    t0 = time.perf_counter()
    result = sweep(host, GRID, jobs=1, cache=False)
    elapsed = time.perf_counter() - t0
    assert all(r["status"] == "ok" for r in result.rows), result.rows
    cppwarm.close_runners()
    return elapsed / len(result.rows)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="pipev-bench-") as tmp:
        folder = Path(tmp)
        for name in ("scale_host.cpp", "scale.cpp"):
            shutil.copy(DATA / name, folder / name)
        os.environ["PIPEV_CACHE_DIR"] = str(folder / "cache")
        host = folder / "scale_host.cpp"
        os.chdir(folder)
        first = one(host, True)  # compiles each variant once
        times: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(ROUNDS):
            for warm in (False, True):
                times[warm].append(one(host, warm))
    print(f"{len(GRID['TILE'])} variants of {host.name}; the first sweep (compiling each) "
          f"{first:.2f} s a variant")
    for warm, name in ((False, "cold (a process per variant)"), (True, "warm runner")):
        t = times[warm]
        print(f"  {name:30s} s a variant: min {min(t):.2f}  median {statistics.median(t):.2f}"
              f"  max {max(t):.2f}")
    ratio = statistics.median(times[True]) / statistics.median(times[False])
    best = statistics.median(times[True])
    print(f"warm / cold {ratio:.2f}; warm {best:.2f} s a variant "
          f"({'within' if best <= GOAL else 'over'} the {GOAL:.0f} s goal)")
    return 0 if best <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
