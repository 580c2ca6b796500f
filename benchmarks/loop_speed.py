"""Loop speed: a scalar loop executing 100,000 one-repeat vector instructions (ISA.md §7).

Prints executed hardware instructions per second (vector + scalar, what `RunResult.instructions`
counts) against the 50,000/s target of PERFORMANCE.md, and exits 1 when the target is missed.
Run: python benchmarks/loop_speed.py [--vector N] [--profile]
"""

from __future__ import annotations

import argparse
import sys
import time

TARGET = 50_000  # executed instructions per second, end to end (PERFORMANCE.md)

# Four one-repeat vector instructions per trip (two selects, an add, a scalar op) walking a
# register-addressed tile, plus the scalar bookkeeping: add, sub, bne.
PROGRAM = """\
.chip ascend910b
.ub  x    f32[4096] = random(1)
.ub  y    f32[4096] = random(2)
.ub  z    f32[4096]
.ub  cm   u8[32] = bits("55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa")
    set_cmpmask cm
    li   x2, {trips}
loop:
    li   x1, 0
inner:
    vsel.f32  z[x1], x[x1], y[x1]
    vadd.f32  z[x1], z[x1], y[x1], repeat=1
    vsel.f32  z[x1], z[x1], x[x1]
    vadds.f32 z[x1], z[x1], 1.0
    add  x1, x1, 64
    blt  x1, 4096, inner
    sub  x2, x2, 1
    bne  x2, 0, loop
"""


def program(vector: int) -> str:
    per_trip = 4 * 64  # vector instructions per outer trip
    trips = max(1, vector // per_trip)
    return PROGRAM.format(trips=trips)


def measure(text: str, profile: bool = False) -> tuple[int, float]:
    import simulator

    t0 = time.perf_counter()
    if profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        result = prof.runcall(simulator.run, text)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    else:
        result = simulator.run(text)
    return result.instructions, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--vector", type=int, default=100_000, help="vector instructions to run")
    ap.add_argument("--profile", action="store_true", help="print a cProfile report")
    args = ap.parse_args(argv)
    count, seconds = measure(program(args.vector), args.profile)
    vector = (args.vector // 256) * 256 or 256
    rate = count / seconds
    ok = rate >= TARGET
    print(f"loop_speed: {count} instructions ({vector} one-repeat vector) in {seconds:.3f} s = "
          f"{rate:,.0f} instructions/s, {vector / seconds:,.0f} vector/s "
          f"(target {TARGET:,}/s: {'met' if ok else 'MISSED'})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
