"""Issue 31 defect 21: the cross-core race check on a launch whose cores all store the same GM
bytes (a race per core pair, merged into one warning) against the same launch with disjoint
slices (no race), measured in the same run.

    python benchmarks/multicore_races.py            # 500..4000 blocks
    python benchmarks/multicore_races.py --quick    # 250..1000

Figures are CPU time (`time.process_time`) of `simulator.run` (assembly, the run of every core,
the launch's diagnostics), one run per size. The ratio racing/disjoint should stay flat as the
blocks double (both linear); before the fix it doubled with them (the merge of the per-core
warnings scanned every race message for each diagnostic).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simulator  # noqa: E402

PROGRAM = """.chip ascend910b
.gm  y_gm  f32[{size}]  output
.ub  y     f32[8]
    mul x1, block_idx, {step}
    duplicate.f32  y, 1.0, count=8
    set_flag       V, MTE3, 0
    wait_flag      V, MTE3, 0
    copy_ub_to_gm  y_gm[x1], y, nburst=1, burst=1
"""


def cpu(text: str, blocks: int) -> float:
    t0 = time.process_time()
    simulator.run(text, block_dim=blocks, checks="warn")
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    sizes = (250, 500, 1000) if ap.parse_args().quick else (500, 1000, 2000, 4000)
    print(f"{'blocks':>7} {'disjoint s':>11} {'racing s':>9} {'racing/disjoint':>16}")
    for n in sizes:
        disjoint = cpu(PROGRAM.format(size=8 * n, step=8), n)
        racing = cpu(PROGRAM.format(size=8, step=0), n)
        print(f"{n:>7} {disjoint:>11.2f} {racing:>9.2f} {racing / disjoint:>16.2f}")


if __name__ == "__main__":
    main()
