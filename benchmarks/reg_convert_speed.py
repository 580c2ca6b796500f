"""Issue 34 (h34a): the reg-based conversions and data movement against the unit's plainest
instruction, measured in the same run.

    python benchmarks/reg_convert_speed.py            # N = 2000 instructions of each
    python benchmarks/reg_convert_speed.py --quick    # N = 300

Each program is a VF of N copies of one register instruction (on registers loaded once), run
end to end after assembly (execution, checks and timing, no trace). The baseline is the same VF
of `vradd.f32` (an element-wise add under a mask); each line prints the instruction's CPU time
per instruction and its ratio to the baseline (1.0 = as fast as an add). No gate: a figure to
watch, since Cast's exact integer rounding and the unaligned store's block bookkeeping cost more
than an add by design.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bulk_speed import cpu_median  # noqa: E402

import isa  # noqa: E402
import simulator  # noqa: E402

HEADER = """.chip ascend950
.ub a u8[2048] = random(1)
.ub out u8[8192]
    vf_begin "b"
    pset.f32 p0, ALL
    pset.u16 p1, ALL
    vlds.u8 v0, a[0]
    vlds.u8 v1, a[256]
    vlds.u8 v2, a[512]
    li x1, 3
    vldupre ul0, @x1
"""
BODIES = {
    "vradd.f32 (baseline)": "vradd.f32 v3, v0, v1, p0",
    "Cast f32->f16 rint sat": "vrcvt.f16.f32 v3, v0, p0, round=rint, sat=sat",
    "Cast f32->s16 floor nosat part=one": "vrcvt.s16.f32 v3, v0, p0, round=floor, sat=nosat, "
                                          "part=one",
    "Cast f16->f32 (widening)": "vrcvt.f32.f16 v3, v0, p1",
    "Truncate f32 ceil": "vrtrunc.f32 v3, v0, p0, round=ceil",
    "Interleave u16": "vrintlv.u16 v3, v4, v0, v1",
    "LoadUnAlign": "vldu.f32 v3, ul0, @x1",
    "Gather u16 (register)": "vrgather.u16 v3, v0, v2",
    "ReduceDataBlock max f32": "vredblkmax.f32 v3, v0, p0",
}


def program(body: str, n: int):
    text = HEADER + "".join(f"    {body}\n" for _ in range(n)) + "    vf_end\n"
    return isa.assemble(text, "bench.vasm")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    n = 300 if ap.parse_args().quick else 2000
    runs = 3
    base = None
    for name, body in BODIES.items():
        prog = program(body, n)
        t = cpu_median(lambda prog=prog: simulator.run(prog), runs)
        base = base or t
        print(f"{name:38s} {1e6 * t / n:8.1f} us/instr  {t / base:5.2f}x the add")


if __name__ == "__main__":
    main()
