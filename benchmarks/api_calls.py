"""Issue 33 item 2: one API call from a front end against the same statement from `.vasm`.

    .venv/bin/python benchmarks/api_calls.py [--runs K] [--no-cpp] [--no-tik]

Rows (each the cost of one call, CPU time of this process, the difference of two run lengths so
that start-up cancels; both sides measured in the same round, interleaved):
- AscendC (C++ through the bridge, pipev's real headers, the collector paced as the worker of
  `pipev run k.cpp` paces it): `Compare` count form (its statement
  expands to a counter-mode bracket of five instructions), `Compare` high-dimensional, `Select`
  mode 0 high-dimensional; each against its statement in a `.vasm` `.rept`. The count form is
  also shown against the statement as the headers write it (`count=x4`: the same five
  instructions; a literal count expands to whole repeats, one instruction).
- TIK, calls unrolled by a Python loop (each call records, builds and runs one statement):
  `vec_cmpv_lt` and `vec_sel` mode 0 at addresses that move with the loop, against the
  statements they emit in a `.vasm` `.rept`; and the same calls in `for_range`, for reference.
Each length's time is the least of BEST runs (a loaded machine only lengthens a run). Prints
min/median/max of each ratio over K rounds. Goal: every row <= 2x. Exit 1 when missed.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from isa.chip import get_chip  # noqa: E402
from simulator.gcpace import paced_collections  # noqa: E402
from simulator.run import run  # noqa: E402

GOAL = 2.0
N1, N2 = 200, 1200
BEST = 3  # runs of each length a round takes the least of

CPP = r"""
#include "kernel_operator.h"

__global__ __aicore__ void k(int n, int kind) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    AscendC::LocalTensor<float> a = buf.Get<float>();
    AscendC::LocalTensor<float> b = a[2048];
    AscendC::LocalTensor<float> z = a[4096];
    AscendC::LocalTensor<uint8_t> d = a[6144].ReinterpretCast<uint8_t>();
    AscendC::Duplicate(a, 1.0f, 2048);
    AscendC::Duplicate(b, 2.0f, 2048);
    AscendC::Duplicate(a[6144].ReinterpretCast<uint16_t>(), (uint16_t)0, 128);
    AscendC::BinaryRepeatParams p(1, 1, 1, 8, 8, 8);
    for (int i = 0; i < n; ++i) {
        int j = i % 4;
        if (kind == 0)
            AscendC::Compare(d[j * 32], a[j * 256], b[j * 256], AscendC::CMPMODE::LT, 256);
        else if (kind == 1)
            AscendC::Compare(d[j * 32], a[j * 256], b[j * 256], AscendC::CMPMODE::LT,
                             (uint64_t)64, 4, p);
        else
            AscendC::Select(z[j * 256], d[j * 32], a[j * 256], b[j * 256],
                            AscendC::SELMODE::VSEL_CMPMASK_SPR, (uint64_t)64, 4, p);
    }
}

extern "C" int bench(int n, int kind) {  // called in-process by this script
    k<<<1, nullptr, nullptr>>>(n, kind);
    return 0;
}
"""

VASM_HEAD = (".chip ascend910b\n.ub a f32[2048] @0\n.ub b f32[2048] @0x2000\n"
             ".ub z f32[2048] @0x4000\n.ub d u8[256] @0x6000\n.ub d16 u16[128] @0x6000\n"
             "    duplicate.f32 a, 1.0, count=2048\n    duplicate.f32 b, 2.0, count=2048\n"
             "    duplicate.u16 d16, 0, count=128\n")
CPP_ROWS = (("AscendC Compare, count form", "compare.lt.f32 d[32], a[256], b[256], count=256"),
            # the statement as the headers write it: a run-time count is a register, which
            # expands to a counter-mode bracket of five instructions (whole repeats for the
            # literal above): the same instructions, so the ratio is the front end's alone
            ("  ... against count=x4 (.vasm)", "compare.lt.f32 d[32], a[256], b[256], count=x4"),
            ("AscendC Compare, high-dim", "compare.lt.f32 d[32], a[256], b[256], repeat=4, "
             "stride=1,1,1,8,8,8, mask=64"),
            ("AscendC Select mode 0, high-dim", "select.f32 z[256], d[32], a[256], b[256], "
             "mode=0, repeat=4, stride=1,1,1,8,8,8, mask=64"))

TIK = '''
from tbe import tik
t = tik.Tik()
a = t.Tensor("float16", (8192,), name="a", scope=tik.scope_ubuf)
b = t.Tensor("float16", (8192,), name="b", scope=tik.scope_ubuf)
d = t.Tensor("float16", (8192,), name="d", scope=tik.scope_ubuf)
m = t.Tensor("uint16", (512,), name="m", scope=tik.scope_ubuf)
t.vec_dup(128, a, 1.0, 64, 8)
t.vec_dup(128, b, 2.0, 64, 8)
t.vec_dup(128, m, 0, 4, 8)
{loop}
    {call}
t.BuildCCE(kernel_name="k", inputs=[], outputs=[])
'''
TIK_CALLS = {"vec_cmpv_lt": "t.vec_cmpv_lt(m[(i % 16) * 16], a[(i % 16) * 128], "
                            "b[(i % 16) * 128], 1, 8, 8)",
             "vec_sel mode 0": "t.vec_sel(128, 0, d[(i % 16) * 128], m[(i % 16) * 16], "
                               "a[(i % 16) * 128], b, 1, 8, 8, 8)"}


def cpu(fn) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def per_call(fn) -> float:
    """The CPU time of one call: FN(N2) - FN(N1), over N2 - N1, each length's the least of
    BEST runs (a shared machine's other work lengthens a run, never shortens it)."""
    long = min(cpu(lambda: fn(N2)) for _ in range(BEST))
    short = min(cpu(lambda: fn(N1)) for _ in range(BEST))
    return (long - short) / (N2 - N1)


def vasm(text: str):
    return lambda n: run(VASM_HEAD + f"    li x4, 256\n.rept {n}\n    {text}\n.endr\n")


def rounds(runs: int, fn, floor) -> tuple[list[float], list[float], list[float]]:
    """RUNS rounds, each measuring FN then FLOOR (interleaved): (ratios, fn's, floor's)."""
    ratios, mine, base = [], [], []
    for _ in range(runs):
        c, f = per_call(fn), per_call(floor)
        ratios.append(c / f)
        mine.append(c)
        base.append(f)
    return ratios, mine, base


def report(name: str, ratios, mine, base, goal: float | None = GOAL) -> bool:
    lo, med, hi = min(ratios), statistics.median(ratios), max(ratios)
    verdict = "" if goal is None else (" met" if med <= goal else " MISSED")
    print(f"  {name:<34} {statistics.median(mine) * 1e6:6.1f} us against "
          f"{statistics.median(base) * 1e6:5.1f} us: {lo:4.2f} / {med:4.2f} / {hi:4.2f}x"
          f"{verdict}")
    return goal is None or med <= goal


def cpp_rows(runs: int) -> bool:
    from simulator.ascendc.bridge import Session
    from simulator.ascendc.build import compile_source

    chip = get_chip("ascend910b")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        os.environ["PIPEV_CACHE_DIR"] = str(d / "cache")
        (d / "k.cpp").write_text(CPP)
        old = os.getcwd()
        os.chdir(d)
        try:
            so = compile_source("k.cpp", npu_arch=2201)
        finally:
            os.chdir(old)
        lib = ctypes.CDLL(str(so.shared_object))
        print("AscendC calls from C++ against the .vasm statement (min / median / max of "
              f"{runs} rounds, per call):")
        for row, (name, text) in enumerate(CPP_ROWS):
            kind = max(0, row - 1)

            def from_cpp(n, kind=kind):
                session = Session(chip, source="k.cpp")
                lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
                with paced_collections():  # as `pipev run k.cpp`'s worker paces its collector
                    lib.bench(n, kind)
                assert not session.failed, session.diagnostics
            ok = report(name, *rounds(runs, from_cpp, vasm(text))) and ok
    return ok


def tik_rows(runs: int) -> bool:
    from simulator.tik.script import build

    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)

        def script(call: str, n: int, loop: str) -> str:
            head = f"for i in range({n}):" if loop == "python" else \
                f"with t.for_range(0, {n}) as i:"
            return TIK.format(loop=head, call=call)

        def from_tik(call: str, loop: str):
            def go(n):
                p = d / f"s_{loop}_{n}.py"
                p.write_text(script(call, n, loop))
                run(build(str(p), p.read_text(), {}, "ascend910b", "error"))
            return go

        print(f"TIK calls against the .vasm statements they emit (min / median / max of {runs} "
              "rounds, per call):")
        for name, call in TIK_CALLS.items():
            p = d / "one.py"
            p.write_text(script(call, 1, "python"))
            prog = build(str(p), p.read_text(), {}, "ascend910b", "error")
            texts = [h.text for h in prog.statements[-1].hw]
            head = ".chip ascend910b\n.ub a f16[8192]\n.ub b f16[8192]\n.ub d f16[8192]\n" \
                ".ub m u16[512]\n    duplicate.f16 a, 1.0, count=8192\n" \
                "    duplicate.f16 b, 2.0, count=8192\n    duplicate.u16 m, 0, count=512\n"
            body = "\n".join(f"    {t}" for t in texts)

            def floor(n, body=body, head=head):
                run(head + f".rept {n}\n{body}\n.endr\n")
            ok = report(f"{name}, Python loop", *rounds(runs, from_tik(call, "python"),
                                                         floor)) and ok
            report(f"{name}, for_range", *rounds(runs, from_tik(call, "for_range"), floor),
                   goal=None)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-cpp", action="store_true", help="skip the AscendC rows (need g++)")
    ap.add_argument("--no-tik", action="store_true", help="skip the TIK rows")
    args = ap.parse_args()
    ok = True
    if not args.no_cpp:
        ok = cpp_rows(args.runs) and ok
    if not args.no_tik:
        ok = tik_rows(args.runs) and ok
    print(f"goal: every row <= {GOAL:.0f}x the .vasm statement (median): "
          f"{'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
