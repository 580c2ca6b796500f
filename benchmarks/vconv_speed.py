"""Issue 33: vconv's numpy path (simulator/semantics/convert_fast.py) against the exact integer
path, measured in the same run.

    python benchmarks/vconv_speed.py            # 7 rounds, 200 instructions a program
    python benchmarks/vconv_speed.py --quick    # 3 rounds, 40 instructions

For each conversion, two figures, each the exact path's CPU time over the numpy path's
(`time.process_time`; min / median / max over rounds, each round the median of 3 runs):
- the conversion alone: `convert` against `exact_convert` on 255 repeats' worth of random
  values of every magnitude (NaNs, infinities and overflows among them), 20 calls a run;
- end to end: a program of N `vconv ... repeat=255` lines run by `simulator.run` (assembled
  beforehand; execution, checks and timing), with the table in place and emptied.
Outputs are the same either way (tests/unit/test_convert_fast.py); exit 1 when a conversion's
median end-to-end ratio is below 2x.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bulk_speed import cpu_median  # noqa: E402

import isa  # noqa: E402
import simulator  # noqa: E402
from isa.types import TYPES  # noqa: E402
from simulator.semantics import convert_fast  # noqa: E402
from simulator.semantics.convert import convert, exact_convert  # noqa: E402

TARGET = 2.0
# (source, destination, round mode): common AscendC Casts
CASES = (("f32", "f16", "rint"), ("f16", "f32", "none"), ("f32", "s32", "rint"),
         ("f32", "s32", "round"), ("s32", "f32", "rint"), ("f32", "bf16", "rint"),
         ("f16", "s8", "none"), ("f32", "f32", "floor"))


def _raw(src: str, n: int) -> np.ndarray:
    t = TYPES[src]
    rng = np.random.default_rng(0)
    if t.is_float:  # values of every magnitude, a few specials
        with np.errstate(over="ignore"):
            x = (rng.standard_normal(n) * 10.0 ** rng.integers(-4, 5, n)).astype(t.numeric)
        x[::97] = np.inf
        x[::101] = np.nan
        return x.view(t.raw)
    return rng.integers(np.iinfo(t.numeric).min, np.iinfo(t.numeric).max, n,
                        dtype=t.numeric).view(t.raw)


def program(src: str, dst: str, mode: str, n: int):
    s, d = TYPES[src], TYPES[dst]
    wide = max(s.size, d.size)
    count = 255 * 256 // wide  # elements of 255 repeats (a repeat: 256 bytes of the wider)
    text = (f".chip ascend910b\n.ub x {src}[{count}] = random(1)\n.ub y {dst}[{count}]\n"
            + f"    vconv.{dst}.{src} y, x, repeat=255, round={mode}\n" * n)
    return isa.assemble(text)


def _repeat(fn, *args, times: int = 20) -> None:
    for _ in range(times):
        fn(*args)


def _no_table():
    saved = convert_fast.FAST
    convert_fast.FAST = {}
    return saved


def ratios(case: tuple[str, str, str], n: int, rounds: int) -> tuple[list[float], list[float]]:
    src, dst, mode = case
    s, d = TYPES[src], TYPES[dst]
    raw = _raw(src, 255 * 256 // max(s.size, d.size))
    prog = program(src, dst, mode, n)
    alone, e2e = [], []
    for _ in range(rounds):
        fast = cpu_median(lambda: _repeat(convert, raw, s, d, mode), 3)
        exact = cpu_median(lambda: _repeat(exact_convert, raw, s, d, mode), 3)
        alone.append(exact / fast)
        t_fast = cpu_median(lambda: simulator.run(prog), 3)
        saved = _no_table()
        try:
            t_exact = cpu_median(lambda: simulator.run(prog), 3)
        finally:
            convert_fast.FAST = saved
        e2e.append(t_exact / t_fast)
    return alone, e2e


def _mmm(xs: list[float]) -> str:
    return f"{min(xs):5.1f}x {statistics.median(xs):5.1f}x {max(xs):5.1f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds, 40 instructions")
    args = parser.parse_args(argv)
    rounds, n = (3, 40) if args.quick else (7, 200)
    print(f"{'conversion':<22} {'alone min/median/max':>22} {'end to end min/median/max':>26}")
    ok = True
    for case in CASES:
        alone, e2e = ratios(case, n, rounds)
        ok = ok and statistics.median(e2e) >= TARGET
        name = f"{case[0]}->{case[1]} {case[2]}"
        print(f"{name:<22} {_mmm(alone):>22} {_mmm(e2e):>26}")
    print(("every conversion" if ok else "TARGET MISSED: not every conversion") +
          f" at >= {TARGET:.0f}x the exact path end to end")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
