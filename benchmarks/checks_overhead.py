"""The cost of checking (docs/format.md §9): 20,000 one-repeat vector instructions run with
`--checks=error` (alignment, footprint, overlap, init and race observers) and with
`--checks=off`; prints the median time of each and their ratio against the 1.5x target and exits
non-zero when the target is missed.

    python benchmarks/checks_overhead.py [--instructions N] [--repetitions K]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

TARGET = 1.5


def program(n: int) -> str:
    """N one-repeat instructions (in-place and disjoint operands, a few DMAs and flags)."""
    lines = [".chip ascend910b",
             ".gm  a  f32[2048] input = random(1)",
             ".gm  out f32[2048] output",
             ".ub  x  f32[2048]", ".ub  y  f32[2048] = random(2)", ".ub  z  f32[2048] = zeros",
             ".ub  m  u8[256] = random(3)",
             "    copy_gm_to_ub x, a, nburst=1, burst=256",
             "    set_flag MTE2, V, 0", "    wait_flag MTE2, V, 0",
             "    set_cmpmask m"]
    body = ["    vadd.f32 z[{k}], x[{k}], y[{k}]",
            "    vmuls.f32 z[{k}], z[{k}], 0.5",
            "    vsel.f32 x[{k}], z[{k}], y[{k}]",
            "    vmax.f32 y[{k}], y[{k}], x[{k}]",
            "    vcopy.f32 z[{k}], x[{k}]",
            "    vcmpv.lt.f32 m[{b}], x[{k}], y[{k}]",
            "    vadds.f32 x[{k}], y[{k}], 1.0",
            "    vsub.f32 y[{k}], z[{k}], x[{k}]"]
    made = len(lines) - 7
    i = 0
    while made < n - 3:
        k = (i % 32) * 64
        lines.append(body[i % len(body)].format(k=k, b=(i % 8) * 32))
        i += 1
        made += 1
    lines += ["    set_flag V, MTE3, 0", "    wait_flag V, MTE3, 0",
              "    copy_ub_to_gm out, z, nburst=1, burst=256"]
    return "\n".join(lines) + "\n"


def timed(prog, checks: str) -> float:
    from simulator import run

    t0 = time.perf_counter()
    result = run(prog, checks=checks)
    elapsed = time.perf_counter() - t0
    if result.diagnostics:  # pragma: no cover
        raise SystemExit(f"the benchmark program must run cleanly: {result.diagnostics[0]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instructions", type=int, default=20_000)
    ap.add_argument("--repetitions", type=int, default=5)
    args = ap.parse_args(argv)
    from isa import assemble

    prog = assemble(program(args.instructions), "checks_overhead.vasm")
    hw = sum(len(s.hw) for s in prog.statements)
    timed(prog, "error")  # warm caches (address tables, imports)
    on, off = [], []
    for _ in range(args.repetitions):
        off.append(timed(prog, "off"))
        on.append(timed(prog, "error"))
    t_on, t_off = statistics.median(on), statistics.median(off)
    ratio = t_on / t_off
    ok = ratio <= TARGET
    print(f"{hw} hardware instructions, median of {args.repetitions}: "
          f"--checks=error {t_on:.3f} s, --checks=off {t_off:.3f} s, ratio {ratio:.2f} "
          f"(target <= {TARGET}): {'ok' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
