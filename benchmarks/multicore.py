"""Multi-core launches (docs/cores.md, docs/timing.md "Shared GM bandwidth"): a DMA-bound copy
kernel, each core moving its own 64 KiB slice in and out, on 1, 8 and 48 cores of ascend910b.
Prints the model's cycles (8 cores take as long as 1; 48 share the 1.6 TB/s HBM and take
longer, never less than the bytes moved over the bandwidth) and the CPU time per core against
the one-core run measured here. Exits non-zero when the model's figures break those relations
or a core costs more than TARGET times a one-core run.

    python benchmarks/multicore.py [--blocks N]
"""

from __future__ import annotations

import argparse
import sys
import time

TARGET = 1.5  # CPU time per core of a 48-core launch over a one-core run's


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
    args = ap.parse_args(argv)
    from isa.chip import get_chip

    chip = get_chip("ascend910b")
    timed(1, args.blocks)  # warm up imports and caches
    runs = {n: timed(n, args.blocks) for n in (1, 8, 48)}
    one = runs[1][0].cycles
    print(f"DMA-bound copy, {args.blocks * 32} bytes in and out per core, ascend910b "
          f"({chip.gm_bandwidth_gbps:g} GB/s = {chip.gm_bytes_per_cycle:.1f} bytes/cycle)")
    ok = True
    for n, (r, cpu) in runs.items():
        bound = 2 * n * args.blocks * 32 / chip.gm_bytes_per_cycle
        wait = sum(c.gm_wait for c in r.cores)
        print(f"  {n:>2} cores: {r.cycles:>6} cycles ({r.cycles / one:.2f}x one core; "
              f"bandwidth bound {bound:.0f}; GM waits {wait} cycles)  CPU {cpu * 1000:.1f} ms, "
              f"{cpu / n * 1000:.2f} ms per core")
        ok &= r.cycles >= bound
    per_core = runs[48][1] / 48 / runs[1][1]
    print(f"  CPU per core at 48 cores: {per_core:.2f}x a one-core run (target <= {TARGET}x)")
    ok &= runs[8][0].cycles == one and runs[48][0].cycles > runs[8][0].cycles
    ok &= per_core <= TARGET
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
