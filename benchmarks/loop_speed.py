"""Loop speed: a scalar loop executing 100,000 one-repeat vector instructions (docs/semantics.md
§7).

Prints executed hardware instructions per second (vector + scalar, what `RunResult.instructions`
counts) against the 50,000/s target of docs/performance.md, and exits 1 when the target is missed.
Run: python benchmarks/loop_speed.py [--vector N] [--profile]
"""

from __future__ import annotations

import argparse
import sys
import time

TARGET = 50_000  # executed instructions per second, end to end (docs/performance.md)
PER_TRIP = 100  # vector instructions per outer trip

# The inner loop walks a 25-repeat tile with four register-addressed one-repeat vector
# instructions per step (vsel, vadd, vsel, vadds) and its bookkeeping (add, blt); the outer loop
# (sub, bne) runs it TRIPS times: 100 vector instructions per trip.
PROGRAM = """\
.chip ascend910b
.ub  x    f32[1600] = random(1)
.ub  y    f32[1600] = random(2)
.ub  z    f32[1600]
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
    blt  x1, 1600, inner
    sub  x2, x2, 1
    bne  x2, 0, loop
"""


def program(vector: int) -> str:
    trips = max(1, vector // PER_TRIP)
    return PROGRAM.format(trips=trips)


def measure(text: str, profile: bool = False) -> tuple[int, float, float]:
    """(executed instructions, CPU seconds, wall seconds) of one `simulator.run` (assembly
    included; timing model, counters and history checks attached, as `pipev run` does)."""
    import simulator

    c0, t0 = time.process_time(), time.perf_counter()
    if profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        result = prof.runcall(simulator.run, text)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    else:
        result = simulator.run(text)
    return result.instructions, time.process_time() - c0, time.perf_counter() - t0


def measure_executor(text: str) -> tuple[int, float]:
    """(steps, CPU seconds) of the executor alone: no observers (no timing, no history)."""
    from simulator.executor import Executor
    from simulator.machine import Machine
    from simulator.run import gm_arrays, load_program
    from simulator.sources import ProgramSource

    program = load_program(text)
    ex = Executor(Machine(program.chip, gm_arrays(program, None), program),
                  ProgramSource(program))
    c0 = time.process_time()
    ex.run()
    return ex.steps, time.process_time() - c0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--vector", type=int, default=100_000, help="vector instructions to run")
    ap.add_argument("--profile", action="store_true", help="print a cProfile report")
    args = ap.parse_args(argv)
    text = program(args.vector)
    count, cpu, wall = measure(text, args.profile)
    steps, ex_cpu = measure_executor(text)
    vector = max(1, args.vector // PER_TRIP) * PER_TRIP
    # CPU time, not wall time, decides: the machine is shared and wall time measures the load.
    rate = count / cpu
    ok = rate >= TARGET
    print(f"loop_speed: {count} instructions ({vector} one-repeat vector) in {cpu:.3f} s CPU "
          f"({wall:.3f} s wall) = {rate:,.0f} instructions/s, {vector / cpu:,.0f} vector/s "
          f"(target {TARGET:,}/s: {'met' if ok else 'MISSED'}); executor alone "
          f"{steps / ex_cpu:,.0f} instructions/s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
