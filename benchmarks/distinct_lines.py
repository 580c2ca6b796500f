"""Issue 33 item 1: distinct lines, each run once (a long unrolled kernel), end to end.

    .venv/bin/python benchmarks/distinct_lines.py [--n N] [--runs K]

N one-repeat `vsel.f32` lines whose addresses all differ (nothing repeats: every line is parsed,
decoded, checked, costed and run once) through `pipev.run` of the text, the same run of an empty
program subtracted; against the bare numpy loop doing each line's element work (slice, where,
store), measured in the same round (interleaved, CPU time). Prints the rate as a share of the
loop's (min / median / max over K rounds) and the bytes the assembled program keeps per line
(tracemalloc). Goal: >= 10% of the loop; <= 1 KB a line. Exit 1 when missed. Also printed, for
reference: the time a vector line of three other kinds of distinct lines takes — a destination
walking past a fixed source, an unrolled loop's tiles of two statements, and a
register-addressed loop walking UB once.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from workloads import HEADER, empty_program  # noqa: E402

import isa  # noqa: E402
import pipev  # noqa: E402

GOAL_SHARE, GOAL_KB = 0.10, 1.0


def program(n: int) -> str:
    body = "".join(f"    vsel.f32 x[{64 * (i % 250)}], x[{64 * (i % 250)}], y[{64 * (i // 250)}]\n"
                   for i in range(n))
    return HEADER + "    set_cmpmask m\n" + body


def fixed_source(n: int) -> str:
    """N `vadd` lines whose destination walks UB while one source stays (every line another
    distance between its operands)."""
    body = "".join(f"    vadd.f32 z[{64 * (i % 600)}], x[{64 * (i // 600)}], y[64]\n"
                   for i in range(n))
    return (".chip ascend910b\n.ub x f32[4096] = random(1)\n.ub y f32[128] = random(2)\n"
            ".ub z f32[38400]\n" + body)


def tiles(n: int) -> str:
    """N/2 tiles of an unrolled loop, each a `vsel` into x's tile and a `vadd` of it into z
    (the lines of two shapes interleaved; y's row moving every 150 tiles)."""
    body = "".join(f"    vsel.f32 x[{64 * (i % 150)}], x[{64 * (i % 150)}], y[{64 * (i // 150)}]\n"
                   f"    vadd.f32 z[{64 * (i % 150)}], x[{64 * (i % 150)}], y[{64 * (i // 150)}]\n"
                   for i in range(n // 2))
    return (".chip ascend910b\n.ub x f32[12288] = random(1)\n.ub y f32[12288] = random(2)\n"
            ".ub z f32[12288]\n.ub m u8[256] = random(3)\n    set_cmpmask m\n" + body)


def walk(n: int) -> str:
    """A register-addressed loop walking UB once: N/2 iterations of a vsel and a vadd, every
    execution at new addresses."""
    top = 64 * (n // 2)
    return (f".chip ascend910b\n.ub x f32[{top}] = random(1)\n.ub y f32[{top}] = random(2)\n"
            ".ub cm u8[32] = random(3)\n    set_cmpmask cm\n    li x1, 0\nwalk:\n"
            "    vsel.f32 x[x1], x[x1], y[x1]\n    vadd.f32 y[x1], x[x1], y[x1], repeat=1\n"
            f"    add x1, x1, 64\n    blt x1, {top}, walk\n")


def numpy_loop(n: int) -> None:
    """N times one line's element work, at its own addresses."""
    rng = np.random.default_rng(1)
    x = rng.random(16320, dtype=np.float32).view(np.uint32)
    y = rng.random(16320, dtype=np.float32).view(np.uint32)
    bits = np.unpackbits(rng.integers(0, 256, 8, dtype=np.uint8), bitorder="little") \
        .astype(bool)
    for i in range(n):
        a, b = 64 * (i % 250), 64 * (i // 250)
        x[a:a + 64] = np.where(bits, x[a:a + 64], y[b:b + 64])


def cpu(fn) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def kept_per_line(text: str, n: int) -> float:
    isa.assemble(text)  # warm caches
    tracemalloc.start()
    gc.collect()  # (also empties the interpreter's free lists: no program keeps those)
    base = tracemalloc.get_traced_memory()[0]
    prog = isa.assemble(text)
    prog.flat()
    gc.collect()  # (assembly's temporary tuples fill the tuple free lists, ≤ 2,000 a size)
    kept = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del prog
    return kept / n / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    n, text, empty = args.n, program(args.n), empty_program()
    pipev.run(text)
    shares, per_line = [], []
    for _ in range(args.runs):
        t = cpu(lambda: pipev.run(text)) - cpu(lambda: pipev.run(empty))
        floor = cpu(lambda: numpy_loop(n))
        shares.append(floor / t)
        per_line.append(t / n)
    kb = kept_per_line(text, n)
    share = statistics.median(shares)
    print(f"{n:,} distinct vsel.f32 lines end to end: {statistics.median(per_line) * 1e6:.1f} us "
          f"a line; {min(shares):.1%} / {share:.1%} / {max(shares):.1%} of the numpy loop "
          f"(min / median / max of {args.runs}; goal >= {GOAL_SHARE:.0%})")
    print(f"kept by the assembled program: {kb:.2f} KB a line (goal <= {GOAL_KB:.0f} KB)")
    for name, other, lines in (("a destination walking past a fixed source",
                                fixed_source(3000), 3000),
                               ("tiles of a vsel and a vadd", tiles(3000), 3000),
                               ("a register-addressed walk through UB", walk(600), 600)):
        pipev.run(other)
        t = statistics.median(cpu(partial(pipev.run, other)) - cpu(partial(pipev.run, empty))
                              for _ in range(args.runs))
        print(f"  also: {name}: {t / lines * 1e6:.1f} us a vector line")
    ok = share >= GOAL_SHARE and kb <= GOAL_KB
    print(f"goal {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
