"""`pipev sweep` against a plain loop of `pipev run -D ...` processes, over the same variants
of programs/kernels/where_tuned.vasm (small ones: start-up is what a loop of processes pays for
each variant). Prints variants per second for the loop, the local executor with one worker (the
same one core: what warm processes save) and with one worker per core, and the ratios; exits
non-zero when one worker is not TARGET times faster than the loop. Wall-clock time (the figure
a user waits for), all three measured in this run, without the cache.

    .venv/bin/python benchmarks/sweep_speed.py
    .venv/bin/python benchmarks/sweep_speed.py --tik   # programs/tik/tiled_maximum.py's TILE
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.sweep import sweep  # noqa: E402
from simulator.sweep.space import expand  # noqa: E402

KERNEL = ROOT / "programs" / "kernels" / "where_tuned.vasm"
GRID = {"N": ["4096", "8192"], "TILE": ["512", "1024", "2048", "4096"],
        "BUFFERS": ["1", "2", "3"]}  # 24 variants
INPUTS: dict[str, Path] = {}
if "--tik" in sys.argv:  # a TIK script: its module-level constant TILE (docs/tik.md)
    KERNEL = ROOT / "programs" / "tik" / "tiled_maximum.py"
    GRID = {"TILE": ["128", "256", "512", "1024", "2048", "4096"]}
TARGET = 3.0  # "several times faster by reusing warm processes"


def plain_loop(variants: list[dict], out_dir: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    for v in variants:
        defines = [a for name, value in v.items() for a in ("-D", f"{name}={value}")]
        inputs = [a for name, path in INPUTS.items() for a in ("--input", f"{name}={path}")]
        subprocess.run([sys.executable, "-m", "simulator.cli", "run", str(KERNEL), *defines,
                        *inputs, "--quiet", "--output-dir", str(out_dir)], env=env, check=False,
                       capture_output=True)
    return time.perf_counter() - t0


def swept(jobs: int) -> float:
    t0 = time.perf_counter()
    result = sweep(KERNEL, GRID, inputs=INPUTS, jobs=jobs, cache=False)
    elapsed = time.perf_counter() - t0
    assert len(result.rows) == result.total
    return elapsed


def main() -> int:
    import tempfile

    variants = expand(GRID)
    n = len(variants)
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        if "--tik" in sys.argv:
            import numpy as np

            for name in ("x_gm", "y_gm"):
                INPUTS[name] = Path(tmp) / f"{name}.npy"
                np.save(INPUTS[name], np.random.default_rng(len(name)).standard_normal(
                    8192).astype(np.float16))
        loop = plain_loop(variants, Path(tmp))
        one = swept(1)
        many = swept(cores)
    print(f"{n} variants of {KERNEL.name}:")
    print(f"  plain loop of `pipev run -D` processes  {n / loop:7.1f} variants/s  "
          f"({loop:.2f} s)")
    print(f"  pipev sweep, local executor, 1 worker   {n / one:7.1f} variants/s  "
          f"({one:.2f} s)  {loop / one:4.1f}x the loop  (target >= {TARGET:g}x)")
    print(f"  pipev sweep, local executor, {cores} workers  {n / many:7.1f} variants/s  "
          f"({many:.2f} s)  {loop / many:4.1f}x the loop")
    return 0 if loop / one >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
