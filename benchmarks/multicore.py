"""Multi-core launches (docs/cores.md, docs/timing.md "Shared GM bandwidth"): a DMA-bound copy
kernel, each core moving its own 64 KiB slice in and out, on 1, 8 and 48 cores of ascend910b.
Prints the model's cycles (8 cores take as long as 1; 48 share the 1.6 TB/s HBM and take
longer, never less than the bytes moved over the bandwidth) and the CPU time per core of the
8- and 48-core launches against the one-core run, measured beside them in each round (every
size run once before, so that no launch pays for a first import or cache), min / median / max
over rounds. Exits non-zero when the model's figures break those relations or a core of either
launch costs more than TARGET times a one-core run (medians; issue 33 item 5).

    python benchmarks/multicore.py [--blocks N] [--rounds R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

TARGET = 1.1  # CPU time per core of an 8- or 48-core launch over a one-core run's
SIZES = (1, 8, 48)


def program(cores: int, blocks: int) -> str:
    halves = blocks * 16
    return f""".chip ascend910b
.block_dim {cores}
.gm a f16[{cores * halves}] input = random(1)
.gm out f16[{cores * halves}] output
.ub x f16[{halves}]
    mul x1, block_idx, {halves}
    copy_gm_to_ub x, a[x1], nburst=1, burst={blocks}
    set_flag MTE2, MTE3, 0
    wait_flag MTE2, MTE3, 0
    copy_ub_to_gm out[x1], x, nburst=1, burst={blocks}
"""


def timed(cores: int, blocks: int):
    from simulator import run

    t0 = time.process_time()
    result = run(program(cores, blocks))
    return result, time.process_time() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", type=int, default=2048, help="32-byte blocks per core")
    ap.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    args = ap.parse_args(argv)
    from isa.chip import get_chip

    chip = get_chip("ascend910b")
    for n in SIZES:  # warm up imports and caches at every size
        timed(n, args.blocks)
    rounds = [{n: timed(n, args.blocks) for n in SIZES} for _ in range(args.rounds)]
    runs = rounds[-1]
    one = runs[1][0].cycles
    print(f"DMA-bound copy, {args.blocks * 32} bytes in and out per core, ascend910b "
          f"({chip.gm_bandwidth_gbps:g} GB/s = {chip.gm_bytes_per_cycle:.1f} bytes/cycle)")
    ok = True
    for n, (r, _) in runs.items():
        bound = 2 * n * args.blocks * 32 / chip.gm_bytes_per_cycle
        wait = sum(c.gm_wait for c in r.cores)
        cpu = statistics.median(rnd[n][1] for rnd in rounds)
        print(f"  {n:>2} cores: {r.cycles:>6} cycles ({r.cycles / one:.2f}x one core; "
              f"bandwidth bound {bound:.0f}; GM waits {wait} cycles)  CPU {cpu * 1000:.1f} ms, "
              f"{cpu / n * 1000:.2f} ms per core (median)")
        ok &= r.cycles >= bound
    for n in SIZES[1:]:
        ratios = sorted(rnd[n][1] / n / rnd[1][1] for rnd in rounds)
        median = statistics.median(ratios)
        print(f"  CPU per core at {n} cores: {ratios[0]:.2f} / {median:.2f} / {ratios[-1]:.2f}x "
              f"a one-core run (min / median / max of {len(ratios)} rounds; target <= "
              f"{TARGET}x)")
        ok &= median <= TARGET
    ok &= runs[8][0].cycles == one and runs[48][0].cycles > runs[8][0].cycles
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
