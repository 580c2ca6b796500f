"""Issue 31 defect 22: a loop that sets MASK from a register whose value changes every
iteration, against the same loop with a fixed MASK (the baseline), measured in the same run.

    python benchmarks/mask_loop.py            # 5,000 and 20,000 iterations
    python benchmarks/mask_loop.py --quick    # 2,000 and 8,000

Figures are CPU time (`time.process_time`) of `simulator.run` with checks off, one run each, and
the objects a run keeps for MASK values: the fast loop's plans (their settles) and the static
decodings. Before the fix the changing loop ran 10-35x the fixed one and kept a plan per value
(every observer's closures, ~12.5 KB); after, its extra cost is the reference path's decoding
of each new value, and what it keeps does not grow with the iterations.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simulator  # noqa: E402
from simulator import fused  # noqa: E402

LOOP = """.chip ascend910b
.ub  x    f16[32768] = random(3)
.ub  z    f16[32768]
    li x1, 1
top:
{mask}    vadds.f16 z, x, 1.0, repeat=1
    add x1, x1, 1
    blt x1, {n}, top
"""


def measure(text: str) -> tuple[float, int, int]:
    loops = []
    run = fused.FastLoop.run

    def kept_run(self):
        loops.append(self)
        return run(self)
    fused.FastLoop.run = kept_run
    try:
        t0 = time.process_time()
        simulator.run(text, checks="off")
        cpu = time.process_time() - t0
    finally:
        fused.FastLoop.run = run
    loop, = loops
    static = loop.ex.decodings._static
    decodings = sum(len(v) if isinstance(v, dict) else 1 for v in static.values())
    return cpu, len(loop.settles), decodings


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    sizes = (2000, 8000) if ap.parse_args().quick else (5000, 20000)
    print(f"{'iterations':>10} {'fixed s':>8} {'changing s':>11} {'ratio':>6} "
          f"{'plans kept':>11} {'decodings kept':>15}")
    for n in sizes:
        fixed, _, _ = measure(LOOP.format(mask="", n=n))
        changing, plans, decodings = measure(LOOP.format(mask="    set_vector_mask 0, x1\n", n=n))
        print(f"{n:>10} {fixed:>8.2f} {changing:>11.2f} {changing / fixed:>6.1f} {plans:>11} "
              f"{decodings:>15}")


if __name__ == "__main__":
    main()
