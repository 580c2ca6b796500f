"""Workload generators shared by the benchmark scripts (plain .vasm text)."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path

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


KERNELS = Path(__file__).resolve().parent.parent / "programs" / "kernels"
LABEL = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*:(?!=)", re.M)


def kernel_programs() -> dict[str, str]:
    """The shipped straight-line kernels (no labels: a copy of a loop would define its labels
    twice), by name."""
    out = {}
    for path in sorted(KERNELS.glob("*.vasm")):
        text = path.read_text()
        if not LABEL.search(text) and "file(" not in text:
            out[path.stem] = text
    return out


def _split(text: str) -> tuple[list[str], list[str]]:
    """A kernel's declarations (directives before the first statement) and its body."""
    lines = text.splitlines()
    for k, line in enumerate(lines):
        word = line.split(";")[0].strip()
        if word and (not word.startswith(".") or word.lower().startswith(".rept")):
            return lines[:k], lines[k:]
    return lines, []


def repeated_kernel(text: str, copies: int, unroll: bool = False) -> str:
    """A kernel's body COPIES times: in a `.rept` (UNROLL False), or written out statement by
    statement as a generator of unrolled code would write it (the kernel's own `.rept`
    blocks expanded, each `{i}` a number)."""
    head, body = _split(text)
    if not unroll:
        return "\n".join([*head, f".rept {copies}", *body, ".endr", ""])
    import isa

    statements = ["    " + s.source for s in isa.assemble(text).statements]
    return "\n".join([*head, *statements * copies, ""])
