"""Issue 20, targets 1 and 5: small instructions against a bare numpy loop, and C++ against
.vasm, each printed as a ratio measured in this run (CPU time, medians of several runs).

    .venv/bin/python benchmarks/small_speed.py [--n N] [--runs K] [--no-cpp]

1. N one-repeat `vsel.f32 x, x, y` (mode 0) through `pipev.run`: end to end (assembly + checks +
   timing, no trace) and execution alone (the program assembled beforehand), the same run of an
   empty program subtracted from each. The baseline is a bare numpy loop doing the same element
   work per instruction: slice the two 256-byte sources and the 64 selection bits, np.where,
   store the 256 bytes into the destination. Target >= 30% of its rate end to end (stretch 50%).
5. One API call issued from C++ (the AscendC front end, through the bridge onto a Stream)
   against the same statement from .vasm: benchmarks/cpp_stream.py's figures. Target <= 2x.

Also: new-family rows (#27a, #27): N one-repeat `vrelu.f32 x, x` and `vaddreluconv.f16.f32`
(families issue 27 added) end to
end against the same N vsel lines, the ratio printed (a new element-wise instruction must cost
what an existing one does). And the same through the reference per-instruction path
(`fast=False`, what ran before the fused executor), assembly alone, and distinct lines (nothing
repeats: the fused path must cost no more than the reference). Exit 1 when target 1 or 5 is missed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from workloads import HEADER, empty_program, run_times, vsel_program  # noqa: E402

import isa  # noqa: E402
import pipev  # noqa: E402

TARGET, STRETCH, CPP_TARGET = 0.30, 0.50, 2.0


def cpu_median(fn, runs: int) -> float:
    return statistics.median(run_times(fn, runs, time.process_time))


def bare_numpy_loop(n: int) -> None:
    """N times what one `vsel.f32 x, x, y` does to its elements (the program's own data)."""
    rng = np.random.default_rng(1)
    x = rng.random(16320, dtype=np.float32).view(np.uint32)
    y = rng.random(16320, dtype=np.float32).view(np.uint32)
    bits = np.unpackbits(rng.integers(0, 256, 8, dtype=np.uint8), bitorder="little") \
        .astype(bool)
    for _ in range(n):
        a, b, s = x[0:64], y[0:64], bits[0:64]
        x[0:64] = np.where(s, a, b)


def small(n: int, runs: int) -> dict[str, float]:
    """Instructions/s of each way of running N small instructions, and of the bare loop: end to
    end and execution alone, through the fused executor and through the reference
    per-instruction path (`fast=False`) — today's path before the fused one."""
    text, empty = vsel_program(n), empty_program()
    prog, prog_empty = isa.assemble(text), isa.assemble(empty)
    out = {}
    for path, fast in (("reference", False), ("fused", True)):
        for what, full, none in (("e2e", text, empty), ("exec", prog, prog_empty)):
            t = cpu_median(lambda full=full, fast=fast: pipev.run(full, fast=fast), runs) \
                - cpu_median(lambda none=none, fast=fast: pipev.run(none, fast=fast), runs)
            out[f"{path} {what}"] = n / t
    t_asm = cpu_median(lambda: isa.assemble(text), runs) - cpu_median(
        lambda: isa.assemble(empty), runs)
    out["assembly"] = n / t_asm
    out["numpy"] = n / cpu_median(lambda: bare_numpy_loop(n), runs)
    return out


ROWS = (("reference e2e", "reference path, end to end"),
        ("reference exec", "reference path, execution only"),
        ("fused e2e", "fused path, end to end"),
        ("fused exec", "fused path, execution only"),
        ("assembly", "assembly alone (isa.assemble)"))


def report_small(n: int, r: dict[str, float]) -> bool:
    np_rate = r["numpy"]
    print(f"{n:,} one-repeat vsel.f32 (CPU time, medians, empty program subtracted)")
    print(f"  {'bare numpy loop (slice, where, store)':<38} {np_rate:>10,.0f} instr/s   100%")
    for key, what in ROWS:
        print(f"  {what:<38} {r[key]:>10,.0f} instr/s  {100 * r[key] / np_rate:4.0f}%")
    ratio = r["fused e2e"] / np_rate
    verdict = "met" if ratio >= TARGET else "MISSED"
    stretch = " (stretch met)" if ratio >= STRETCH else ""
    print(f"  target 1: end to end >= {TARGET:.0%} of the bare loop: {verdict}{stretch}; "
          f"execution alone {r['fused exec'] / np_rate:.0%}; fused/reference "
          f"{r['fused e2e'] / r['reference e2e']:.2f}x end to end, "
          f"{r['fused exec'] / r['reference exec']:.2f}x execution")
    return ratio >= TARGET


def distinct_lines(n: int, runs: int) -> None:
    """N vsel lines of distinct text (each decoded, checked and costed once): the fused path
    must not cost more than the reference path when nothing repeats."""
    body = "".join(f"    vsel.f32 x[{64 * (i % 250)}], x[{64 * (i % 250)}], y[{64 * (i // 250)}]\n"
                   for i in range(n))
    prog = isa.assemble(HEADER + "    set_cmpmask m\n" + body)
    rates = {}
    for path, fast in (("reference", False), ("fused", True)):
        rates[path] = n / cpu_median(lambda fast=fast: pipev.run(prog, fast=fast), runs)
    print(f"{n:,} distinct vsel.f32 lines, execution only: reference {rates['reference']:,.0f} "
          f"instr/s, fused {rates['fused']:,.0f} instr/s "
          f"({rates['fused'] / rates['reference']:.2f}x)")


def new_family(n: int, runs: int) -> None:
    """N one-repeat vrelu.f32 (math_unary, #27a) end to end against N vsel.f32 lines."""
    body = "    set_cmpmask m\n" + "    vrelu.f32 x, x, repeat=1\n" * n
    empty = empty_program()
    base = cpu_median(lambda: pipev.run(empty), runs)
    t_new = cpu_median(lambda: pipev.run(HEADER + body), runs) - base
    t_old = cpu_median(lambda: pipev.run(vsel_program(n)), runs) - base
    print(f"{n:,} one-repeat vrelu.f32 (new family), end to end: {n / t_new:,.0f} instr/s, "
          f"{t_old / t_new:.2f}x the rate of vsel.f32")
    # #27: the two-type family (binary_conv), its f16 destination at a free raw address
    body = "    set_cmpmask m\n" + "    vaddreluconv.f16.f32 @0x20000, x, y, repeat=1\n" * n
    t_conv = cpu_median(lambda: pipev.run(HEADER + body), runs) - base
    print(f"{n:,} one-repeat vaddreluconv.f16.f32 (new family), end to end: "
          f"{n / t_conv:,.0f} instr/s, {t_old / t_conv:.2f}x the rate of vsel.f32")
    # #27/#29 (h27dq): CastDequant's b8 form (a set_deqscale, then its issue lays out each
    # block's half), the s16 source and the b8 destination at raw addresses
    body = ("    set_cmpmask m\n    li x1, 0x3f800000\n    set_deqscale x1\n"
            + "    vconv_deqs162b8l.u8.s16 @0x20000, @0x0, repeat=1\n" * n)
    t_deq = cpu_median(lambda: pipev.run(HEADER + body), runs) - base
    print(f"{n:,} one-repeat vconv_deqs162b8l.u8.s16 (new family), end to end: "
          f"{n / t_deq:,.0f} instr/s, {t_old / t_deq:.2f}x the rate of vsel.f32")
    # #27: int4b_t (the sub-byte type): half → s4, 64 bytes of nibbles a repeat at a raw address
    body = "    set_cmpmask m\n" + "    vconv.s4.f16 @0x20000, @0x0, round=rint, repeat=1\n" * n
    t_s4 = cpu_median(lambda: pipev.run(HEADER + body), runs) - base
    print(f"{n:,} one-repeat vconv.s4.f16 (new type), end to end: "
          f"{n / t_s4:,.0f} instr/s, {t_old / t_s4:.2f}x the rate of vsel.f32")


def cpp_ratio() -> bool:
    """Target 5 through benchmarks/cpp_stream.py (compiles its kernel, prints its figures)."""
    import cpp_stream

    print("C++ front end (benchmarks/cpp_stream.py):")
    return cpp_stream.main() == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-cpp", action="store_true", help="skip target 5 (needs g++)")
    args = ap.parse_args()
    ok = report_small(args.n, small(args.n, args.runs))
    distinct_lines(min(args.n, 4000), args.runs)
    new_family(args.n, args.runs)
    if not args.no_cpp:
        ok = cpp_ratio() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
