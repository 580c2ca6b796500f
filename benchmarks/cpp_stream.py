"""AscendC C++ front end (`pipev run FILE.cpp`): cold compile, cache-hit start-up, and the cost
of one statement issued from C++ through the bridge, against the same statement issued from
Python to a Stream and run in a .vasm program (`.rept`, and a scalar loop). Per-statement
figures are in-process differences of two run lengths, so start-up cancels out. Uses the tests'
stand-in headers (tests/data/ascendc/include), which add almost nothing of their own.

    .venv/bin/python benchmarks/cpp_stream.py
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from isa.chip import get_chip  # noqa: E402
from simulator.ascendc.bridge import Session  # noqa: E402
from simulator.ascendc.build import compile_source  # noqa: E402
from simulator.run import run  # noqa: E402
from simulator.stream import Stream  # noqa: E402

INCLUDE = ROOT / "tests" / "data" / "ascendc" / "include"
TARGET_STARTUP_S = 1.0  # a rerun of a cached program starts "well under a second"
N1, N2 = 500, 4500

PROGRAM = r"""
#include <cstdlib>
#include <vector>
#include "pipev_standin.h"

__global__ __aicore__ void k(int n, int kind) {
    pipev::ub("x", "half", 0, 4096);
    for (int i = 0; i < n; ++i) {
        if (kind == 0)
            pipev::issue("duplicate.f16 x, raw(0x3c00), count=128");
        else
            pipev::issue("copy_gm_to_ub x[x1], a[x2], nburst=1, burst=x3",
                         {uint64_t(i % 8) * 128, uint64_t(i % 16) * 16, 4});
    }
}

extern "C" int bench(int n, int kind) {  // called in-process by this script
    k<<<1, nullptr, nullptr>>>(n, kind);
    return 0;
}

int main(int argc, char **argv) {  // the start-up figure: pipev run k.cpp -- 0 0
    k<<<1, nullptr, nullptr>>>(atoi(argv[1]), atoi(argv[2]));
}
"""

TEXT = {0: "duplicate.f16 x, raw(0x3c00), count=128",
        1: "copy_gm_to_ub x[x1], a[x2], nburst=1, burst=x3"}
NAMES = {0: "duplicate.f16 count=128", 1: "copy_gm_to_ub (registers)"}
HEAD = ".chip ascend910b\n.gm a f16[4096] = fill(0)\n.ub x f16[4096]\n"
REPT = {0: HEAD + ".rept {n}\n    duplicate.f16 x, raw(0x3c00), count=128\n.endr\n",
        1: HEAD + "    li x3, 4\n.rept {n}\n    copy_gm_to_ub x[128], a[16], nburst=1, burst=x3\n"
           ".endr\n"}
LOOP = {0: HEAD + "    li x5, 0\nloop:\n    duplicate.f16 x, raw(0x3c00), count=128\n"
           "    add x5, x5, 1\n    blt x5, {n}, loop\n",
        1: HEAD + "    li x3, 4\n    li x5, 0\nloop:\n    copy_gm_to_ub x[128], a[16], nburst=1, "
           "burst=x3\n    add x5, x5, 1\n    blt x5, {n}, loop\n"}


def best(fn, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def per_statement(fn) -> float:
    return (best(lambda: fn(N2)) - best(lambda: fn(N1))) / (N2 - N1)


def main() -> int:
    chip = get_chip("ascend910b")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        os.environ["PIPEV_CACHE_DIR"] = str(d / "cache")
        (d / "k.cpp").write_text(PROGRAM)
        (d / "empty.vasm").write_text("nop\n")
        old = os.getcwd()
        os.chdir(d)
        try:
            t0 = time.perf_counter()
            so = compile_source("k.cpp", npu_arch=2201, includes=(str(INCLUDE),))
            cold = time.perf_counter() - t0
            hit = best(lambda: compile_source("k.cpp", npu_arch=2201,
                                              includes=(str(INCLUDE),)))
        finally:
            os.chdir(old)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        cli = [sys.executable, "-m", "simulator.cli", "run"]

        def start(args):
            return best(lambda: subprocess.run([*cli, *args], cwd=d, env=env, check=True,
                                               capture_output=True))

        startup = start(["k.cpp", "-I", str(INCLUDE), "--quiet", "--", "0", "0"])
        vasm_startup = start(["empty.vasm", "--quiet", "--output-dir", "o"])
        print(f"cold compile (g++ -O0, stand-in headers)  {cold:6.2f} s; cache check "
              f"{hit * 1e3:.1f} ms")
        print(f"pipev run k.cpp, cached, one empty launch {startup:6.2f} s   target < "
              f"{TARGET_STARTUP_S:.1f} s (pipev run of a one-line .vasm: {vasm_startup:.2f} s)")

        lib = ctypes.CDLL(str(so.shared_object))
        session = Session(chip, source="k.cpp")
        lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
        a = (ctypes.c_uint8 * 8192)()
        session.declare_gm("a", "f16", __import__("numpy").frombuffer(a, "uint8"),
                           file="k.cpp", line=1)

        for kind in (0, 1):
            def from_cpp(n, kind=kind):
                lib.bench(n, kind)
                assert not session.failed, session.diagnostics

            def from_python(n, kind=kind):
                s = Stream(chip, name="py")
                s.declare_gm("a", "f16", __import__("numpy").frombuffer(a, "uint8"))
                s.declare_ub("x", "f16", 4096, 0)
                for i in range(n):
                    s.issue(TEXT[kind], file="py", line=1,
                            regs=(i % 8 * 128, i % 16 * 16, 4) if kind else ())
                s.finish()

            def vasm(texts, kind=kind):
                return lambda n: run(texts[kind].replace("{n}", str(n)))

            c, p = per_statement(from_cpp), per_statement(from_python)
            r, lp = per_statement(vasm(REPT)), per_statement(vasm(LOOP))
            print(f"{NAMES[kind]:<26} C++ {c * 1e6:5.1f} us  Python->Stream {p * 1e6:5.1f} us  "
                  f"(bridge {(c - p) * 1e6:+4.1f} us)  .vasm .rept {r * 1e6:5.1f} us  "
                  f"loop {lp * 1e6:5.1f} us")
    return 0 if startup < TARGET_STARTUP_S else 1


if __name__ == "__main__":
    sys.exit(main())
