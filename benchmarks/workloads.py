"""Workload generators shared by the benchmark scripts (plain .vasm text)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

# x and y hold a 255-repeat f32 operand each (65,280 bytes); dst is x itself (a 100% overlap,
# legal), since three such tensors do not fit below the scratch area of ascend910b.
HEADER = """.chip ascend910b
.ub x f32[16320] = random(1)
.ub y f32[16320] = random(2)
.ub m u8[2048] = random(3)
"""


def vsel_program(n: int, repeat: int = 1, mode: int = 0) -> str:
    """N one-line vsel.f32 instructions (mode 0: CMPMASK bits; set once up front)."""
    body = "    set_cmpmask m\n" + f"    vsel.f32 x, x, y, repeat={repeat}, mode={mode}\n" * n
    return HEADER + body


def empty_program() -> str:
    return HEADER + "    nop\n"


def run_times(fn: Callable[[], object], repeats: int,
              clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """REPEATS timings of fn() by CLOCK, after one warm-up call."""
    fn()
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return times


def median_time(fn: Callable[[], object], repeats: int = 5) -> float:
    """Median wall time of fn() over REPEATS runs (after one warm-up)."""
    return statistics.median(run_times(fn, repeats))
