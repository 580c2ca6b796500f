"""Issue 4 speed targets, each printed with its baseline ratio measured in the same run.

    python benchmarks/speed.py            # exit 1 when a target is missed

1. small instructions: 20,000 one-repeat vsel.f32, end to end (assemble + checks + execute +
   timing, no trace), after subtracting an empty program: >= 50,000 instructions/s;
2. bulk: vsel.f32 repeat=255 (16,320 elements) vs a bare np.where over as many elements:
   >= 20% of its throughput, default strides and small repeat strides;
3. start-up: `pipev run` of a trivial program <= 0.5 s wall.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import HEADER, empty_program, median_time, vsel_program  # noqa: E402

import isa  # noqa: E402
import simulator  # noqa: E402
from simulator.executor import Executor  # noqa: E402
from simulator.machine import Machine  # noqa: E402
from simulator.run import gm_arrays  # noqa: E402
from simulator.sources import ProgramSource  # noqa: E402

N_SMALL = 20_000


def small_instructions() -> tuple[float, bool]:
    text, empty = vsel_program(N_SMALL), empty_program()
    t_full = median_time(lambda: simulator.run(text), 3)
    t_empty = median_time(lambda: simulator.run(empty), 3)
    rate = N_SMALL / max(t_full - t_empty, 1e-9)
    print(f"small: {N_SMALL} one-repeat vsel.f32 in {t_full:.3f} s (empty program "
          f"{t_empty * 1e3:.1f} ms) -> {rate:,.0f} instructions/s (target >= 50,000; "
          f"stretch 100,000)")
    return rate, rate >= 50_000


def _executor_for(text: str) -> tuple[Executor, isa.Program]:
    """A bare executor (no observers, no timing) over TEXT."""
    prog = isa.assemble(text)
    machine = Machine(prog.chip, gm_arrays(prog, None), prog)
    return Executor(machine, ProgramSource(prog)), prog


def bulk(stride: str) -> tuple[float, bool]:
    text = HEADER + "    set_cmpmask m\n" + f"    vsel.f32 x, x, y, repeat=255{stride}\n"
    ex, prog = _executor_for(text)
    vsel = ex.source.flat[1]
    ex.step()  # set_cmpmask

    def once() -> None:
        ex.source.index = 1
        ex.step()

    t_sim = median_time(once, 51)
    a = np.random.default_rng(0).random(16320).astype(np.float32)
    b, s = a[::-1].copy(), np.random.default_rng(1).random(16320) < 0.5
    t_np = median_time(lambda: np.where(s, a, b), 51)
    ratio = t_np / t_sim
    print(f"bulk{stride or ' default strides'}: {vsel.text}: {t_sim * 1e6:.1f} us vs np.where "
          f"{t_np * 1e6:.1f} us -> {100 * ratio:.0f}% of numpy (target >= 20%)")
    return ratio, ratio >= 0.20


def startup() -> tuple[float, bool]:
    with tempfile.TemporaryDirectory() as d:
        prog = Path(d) / "trivial.vasm"
        prog.write_text("nop\n")
        cmd = [sys.executable, "-m", "simulator.cli", "run", str(prog), "--quiet",
               "--output-dir", d]
        bare = [sys.executable, "-c", "pass"]
        t_cli = median_time(lambda: subprocess.run(cmd, check=True), 5)
        t_py = median_time(lambda: subprocess.run(bare, check=True), 5)
    print(f"start-up: pipev run trivial.vasm {t_cli:.3f} s wall (python alone {t_py:.3f} s, "
          f"{t_cli / t_py:.1f}x) (target <= 0.5 s)")
    return t_cli, t_cli <= 0.5


def main() -> int:
    t0 = time.perf_counter()
    results = [small_instructions(), bulk(""), bulk(", stride=1,1,1,8,8,8"),
               bulk(", src1_rep=4"), startup()]
    ok = all(r[1] for r in results)
    print(f"{'all targets met' if ok else 'TARGET MISSED'} ({time.perf_counter() - t0:.1f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
