"""Issue 20 target 6: cost grows linearly with program length, vector repeats and executed loop
iterations. Prints one table per axis, 1k → 1M units, each size measured in a fresh child process
(CPU time of assembly and of the run inside it, and its peak RSS), with the cost per unit and its
ratio to the size before; a per-unit cost that grows by more than 1.5x from one size to the next
is flagged SUPERLINEAR (the exit status is then 1).

    python benchmarks/scaling.py                  # every axis, 1k .. 1M
    python benchmarks/scaling.py --axis loop --max 100000
    python benchmarks/scaling.py --budget 60      # skip a size projected to take over 60 s

A size whose run is projected (from the size before) to take longer than --budget seconds is
skipped and said so: on a busy 2-core machine 1M program lines take minutes.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import HEADER, vsel_program  # noqa: E402

SIZES = (1_000, 10_000, 100_000, 1_000_000)
SUPERLINEAR = 1.5  # per-unit cost growth from one size to the next that is flagged

LOOP = HEADER + """\
    set_cmpmask m
    li   x1, {n}
loop:
    vsel.f32 x, x, y, repeat=1, mode=0
    sub  x1, x1, 1
    bne  x1, 0, loop
"""


def program(axis: str, n: int) -> str:
    """The program of N units along AXIS: N one-repeat vsel lines; N vector repeats (vsel of
    255 repeats each, the last one shorter); N trips of a three-instruction loop."""
    if axis == "lines":
        return vsel_program(n)
    if axis == "repeats":
        full, rest = divmod(n, 255)
        body = f".rept {full}\n    vsel.f32 x, x, y, repeat=255, mode=0\n.endr\n" if full \
            else ""
        if rest:
            body += f"    vsel.f32 x, x, y, repeat={rest}, mode=0\n"
        return HEADER + "    set_cmpmask m\n" + body
    return LOOP.format(n=n)


def child(axis: str, n: int) -> None:
    """Measure one size in this process; print its figures as one JSON line."""
    import isa
    import simulator

    text = program(axis, n)
    c0 = time.process_time()
    prog = isa.assemble(text)
    c1 = time.process_time()
    result = simulator.run(prog)
    c2 = time.process_time()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"asm": c1 - c0, "run": c2 - c1, "peak_mb": peak,
                      "instructions": result.instructions}))


def measure(axis: str, n: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", axis, str(n)], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def table(axis: str, sizes: list[int], budget: float) -> bool:
    """Print AXIS's table; False when a step is superlinear."""
    unit = {"lines": "line", "repeats": "repeat", "loop": "iteration"}[axis]
    print(f"\n{axis}: cost per {unit} (CPU, assembly + run, in a fresh process)")
    print(f"{'size':>9} {'asm s':>8} {'run s':>8} {'instrs':>9} {'us/' + unit:>13} "
          f"{'vs before':>9} {'peak MB':>8} {'KB/' + unit:>9}")
    ok, before, before_mb, before_n = True, None, None, 0
    for n in sizes:
        if before is not None and before * n / 1e6 > budget:
            print(f"{n:>9,} skipped: projected {before * n / 1e6:.0f} s CPU is over the "
                  f"{budget:.0f} s budget (--budget)")
            continue
        m = measure(axis, n)
        per = (m["asm"] + m["run"]) / n * 1e6
        growth = per / before if before else 1.0
        flag = ""
        if before is not None and growth > SUPERLINEAR:
            flag, ok = "  SUPERLINEAR", False
        kb = (m["peak_mb"] - before_mb) * 1024 / (n - before_n) if before_mb is not None \
            else float("nan")
        print(f"{n:>9,} {m['asm']:>8.2f} {m['run']:>8.2f} {m['instructions']:>9,} "
              f"{per:>13.2f} {growth:>8.2f}x {m['peak_mb']:>8.0f} {kb:>9.3f}{flag}")
        before, before_mb, before_n = per, m["peak_mb"], n
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--axis", choices=["lines", "repeats", "loop"], action="append")
    ap.add_argument("--max", type=int, default=SIZES[-1], help="largest size (default 1M)")
    ap.add_argument("--budget", type=float, default=150.0,
                    help="CPU seconds a size may take (projected), default 150")
    ap.add_argument("--child", nargs=2, metavar=("AXIS", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return 0
    sizes = [n for n in SIZES if n <= args.max]
    t0 = time.perf_counter()
    ok = all([table(axis, sizes, args.budget)
              for axis in args.axis or ["lines", "repeats", "loop"]])
    print(f"\n{'linear on every axis' if ok else 'SUPERLINEAR STEP'} "
          f"({time.perf_counter() - t0:.0f} s); KB/unit is the peak RSS growth from the size "
          "before")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
