"""Issue 33 row 4: bulk vcmpv / vcmpvs .f32 repeat=255, against a bare `less` + `packbits`.

    python benchmarks/vcmpv_speed.py            # exit 1 when a layout is below 50%
    python benchmarks/vcmpv_speed.py --quick    # 400 instructions only

Each layout runs N compares of 255 repeats (16,320 elements each) end to end — assembly,
checks, execution and timing, no trace — and, separately, execution alone (the program
assembled beforehand). The floor, measured beside it in each round, is a bare loop of N
`np.packbits(np.less(a, b), bitorder="little")` over 16,320 float32 elements. Figures are CPU
time (`time.process_time`), medians of 3 runs; the ratio is the floor's time over pipev's
(100% = as fast as the bare loop), printed min/median/max over rounds; the goal is checked
on the medians.

Layouts (every one legal with --checks=error):
- default: `vcmpv.lt.f32 d, x, y, repeat=255` (sources back to back);
- overlapping reads: source repeat stride 1 block (each repeat re-reads 7 of the last 8 blocks);
- block stride 2: each repeat reads every other block (repeats interleave);
- scalar: `vcmpvs.lt.f32 d, x, 0.5, repeat=255`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bulk_speed import cpu_median  # noqa: E402

import isa  # noqa: E402
import simulator  # noqa: E402

TARGET = 0.50
ELEMENTS = 255 * 64

# x and y hold a 255-repeat f32 source at block stride 2 (254·256 + 15·32 bytes)
HEADER = """.chip ascend910b
.ub x f32[16400] = random(1)
.ub y f32[16400] = random(2)
.ub d u8[2048] = random(3)
"""
LAYOUTS = {
    "default": "vcmpv.lt.f32 d, x, y, repeat=255",
    "overlapping reads": "vcmpv.lt.f32 d, x, y, repeat=255, stride=1,1,1,8,1,1",
    "block stride 2": "vcmpv.lt.f32 d, x, y, repeat=255, stride=1,2,2,8,8,8",
    "scalar": "vcmpvs.lt.f32 d, x, 0.5, repeat=255",
}


def floor_loop(n: int) -> Callable[[], None]:
    rng = np.random.default_rng(0)
    a = rng.random(ELEMENTS).astype(np.float32)
    b = a[::-1].copy()

    def loop() -> None:
        for _ in range(n):
            np.packbits(np.less(a, b), bitorder="little")
    return loop


def measure(layout: str, n: int, runs: int, rounds: int) -> tuple[list, list, list]:
    """Per round: (end-to-end ratio, execution-only ratio, floor seconds) of LAYOUT over N
    compares, the floor measured beside pipev in each round (a loaded machine moves both)."""
    text = HEADER + f"    {LAYOUTS[layout]}\n" * n
    prog = isa.assemble(text)
    e2e, exe, floors = [], [], []
    for _ in range(rounds):
        t_floor = cpu_median(floor_loop(n), runs)
        e2e.append(t_floor / cpu_median(lambda: simulator.run(text), runs))
        exe.append(t_floor / cpu_median(lambda: simulator.run(prog), runs))
        floors.append(t_floor)
    return e2e, exe, floors


def _mmm(ratios: list[float]) -> str:
    return "/".join(f"{100 * r:.0f}" for r in (min(ratios), statistics.median(ratios),
                                               max(ratios))) + "%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="400 instructions only")
    parser.add_argument("--runs", type=int, default=3, help="runs per median (default 3)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    args = parser.parse_args(argv)
    sizes = (400,) if args.quick else (400, 20_000)
    ok = True
    print(f"{'layout':<18} {'instructions':>12} {'end to end':>14} {'execution':>14} "
          f"{'floor':>8}   (min/median/max over rounds)")
    for layout in LAYOUTS:
        for n in sizes:
            e2e, exe, floors = measure(layout, n, args.runs, args.rounds)
            ok = ok and statistics.median(e2e) >= TARGET
            print(f"{layout:<18} {n:>12,} {_mmm(e2e):>14} {_mmm(exe):>14} "
                  f"{1e6 * statistics.median(floors) / n:>6.1f}us")
    print(f"{'all layouts' if ok else 'TARGET MISSED: not every layout'} at >= "
          f"{100 * TARGET:.0f}% of less + packbits end to end (medians)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
