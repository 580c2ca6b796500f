"""What `continue` in `pipev debug` costs against a plain run of the same program, and what the
undo log holds: resident memory per recorded micro-op, and how close the log's own account of
its size (the history budget) is to the resident memory it really took.

    python benchmarks/debugger_speed.py     # exit 1 when `continue` costs more than 3x a run

CPU time (process time), the session built inside the timing as a run builds its own; each
workload's run and `continue` interleaved over ROUNDS rounds (after a warm-up), the ratio's
min/median/max over the rounds; beside it the same `continue` with every instruction on the
reference path (`Session(fast=False)`, the path before the fast one). Resident memory is read
from /proc/self/statm (Linux) around one session in a fresh process (so no memory freed by an
earlier run is reused), with the session built before the first reading. The log's account
reserves room for the bytes each write leaves, which the fast path takes only when the write
is first undone: before that, resident memory is below the account.

The floor of a log that must keep what every instruction overwrote is the memory it takes:
for a 255-repeat f32 instruction, 65,280 bytes an execution copied into memory the process has
not touched yet (the kernel's page allocation costs far more than the copy). The in-place
`vsel` of the first row reaches a fixed point after its first execution (every later one writes
what was there); the `vadds` row changes its bytes every time.
"""

from __future__ import annotations

import gc
import io
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import HEADER, run_times, vsel_program  # noqa: E402

import isa  # noqa: E402
from simulator.debugger import Commands, Session  # noqa: E402
from simulator.run import run  # noqa: E402

LIMIT = 3.0  # `continue` may cost at most 3x `pipev run` (the bound)
WORKLOADS = {
    "2,000 vsel.f32 repeat=255 (in place)": vsel_program(2_000, repeat=255),
    "2,000 vadds.f32 repeat=255 (in place, new bytes each time)": HEADER
    + "    vadds.f32 x, x, 1.0, repeat=255\n" * 2_000,
    "20,000 vsel.f32 repeat=1": vsel_program(20_000, repeat=1),
    "loop of 5,000 x (vadds repeat=64, add, blt)": HEADER + "    li x1, 0\ntop:\n"
    "    vadds.f32 x, x, 1.0, repeat=64\n    add x1, x1, 1\n    blt x1, 5000, top\n",
    # mostly scalar instructions: the per-instruction cost of the log, not its bytes
    "loop of 10,000 x (vadds repeat=4, add, blt)": HEADER + "    li x1, 0\ntop:\n"
    "    vadds.f32 x, x, 1.0, repeat=4\n    add x1, x1, 1\n    blt x1, 10000, top\n",
    "4,000 ub->ub copies": HEADER + "    copy_ub_to_ub y, x, nburst=4, burst=8, src_gap=8, "
    "dst_gap=8\n" * 4_000,
}


ROUNDS = 5


def ratios(program) -> tuple[list[float], float, float, float]:
    """(continue/run per round, median run, median continue, median reference-path continue)
    in CPU seconds, run and continue interleaved."""
    def go(fast: bool) -> None:
        Commands(Session(program, fast=fast)).execute("continue")
    clock = time.process_time
    run(program), go(True)  # warm-up
    t_run, t_dbg, t_ref = [], [], []
    for k in range(ROUNDS):
        t_run += run_times(lambda: run(program), 1, clock)[-1:]
        t_dbg += run_times(lambda: go(True), 1, clock)[-1:]
        if k < 2:  # the reference path is slow: two rounds
            t_ref += run_times(lambda: go(False), 1, clock)[-1:]
    med = statistics.median
    return [d / r for d, r in zip(t_dbg, t_run, strict=True)], med(t_run), med(t_dbg), \
        med(t_ref)


def resident() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure_memory(name: str) -> None:
    """In this (fresh) process: print resident bytes the session's history took, the log's
    own account and the micro-ops recorded."""
    s = Session(isa.assemble(WORKLOADS[name]))
    s.sync()
    gc.collect()
    before = resident()
    Commands(s).execute("continue")
    gc.collect()
    print(resident() - before, s.hist.nbytes, s.uops)


def memory(name: str) -> tuple[int, int, int]:
    out = subprocess.run([sys.executable, __file__, "--memory", name], capture_output=True,
                         text=True, check=True).stdout.split()
    return int(out[0]), int(out[1]), int(out[2])


def main() -> int:
    worst = 0.0
    for name, text in WORKLOADS.items():
        program = isa.assemble(text)
        rs, t_run, t_dbg, t_ref = ratios(program)
        ratio = statistics.median(rs)
        worst = max(worst, ratio)
        took, counted, uops = memory(name) if sys.platform == "linux" else (0, 0, 1)
        print(f"{name}\n  continue {t_dbg * 1e3:8.1f} ms   pipev run {t_run * 1e3:8.1f} ms   "
              f"ratio min {min(rs):.2f} median {ratio:.2f} max {max(rs):.2f}   (reference "
              f"path {t_ref * 1e3:.1f} ms, {t_ref / t_run:.2f}x)")
        if took:
            print(f"  resident {took / uops:8.1f} bytes per recorded micro-op "
                  f"({took / 2**20:.1f} MiB for {uops} micro-ops); the log counts "
                  f"{counted / 2**20:.1f} MiB (resident / counted {took / max(counted, 1):.2f})")
    ok = worst <= LIMIT
    print(f"largest median continue / run ratio {worst:.2f} ({'ok' if ok else 'over'} the "
          f"{LIMIT:.0f}x bound)")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--memory"]:
        measure_memory(sys.argv[2])
        sys.exit(0)
    sys.stdout = io.TextIOWrapper(sys.stdout.buffer, line_buffering=True)
    sys.exit(main())
