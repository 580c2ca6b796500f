"""Issue 34: a reg-based VF loop issued from C++ (`asc_vf_call` of a gelu-like body: UpdateMask,
LoadAlign, eight register instructions, StoreAlign), per executed statement, two ways in one
run of this script:

- baseline: every execution through the reference path (the stream built with fast=False, as
  every reg-based instruction ran before simulator/regplans.py);
- plans: every reg-based instruction through the fast loop's plans (simulator/regplans.py):
  the register instructions and, since the plans for loads and stores, LoadAlign / StoreAlign.

Per-statement figures are in-process differences of two loop lengths (CPU time of this process,
best of 3), so the launch and start-up cancel out. Prints each way's µs per statement and its
speed-up over the baseline (target: as printed; the note records the figures).

    .venv/bin/python benchmarks/vf_loop.py
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from isa.chip import get_chip  # noqa: E402
from simulator.ascendc.bridge import Session  # noqa: E402
from simulator.ascendc.build import compile_source  # noqa: E402
from simulator.stream import Stream  # noqa: E402

N1, N2 = 100, 600  # loop iterations (12 statements each)
PER_ITERATION = 12

PROGRAM = r"""
#include "kernel_operator.h"

__simd_vf__ inline void FillVF(__ubuf__ float* x)
{
    AscendC::Reg::RegTensor<float> r;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::Duplicate(r, 0.75f, all);
    for (uint16_t i = 0; i < 64; ++i) AscendC::Reg::StoreAlign(x + i * 64, r, all);
}

__simd_vf__ inline void GeluVF(__ubuf__ float* y, __ubuf__ float* x, uint32_t n, uint32_t loops)
{
    AscendC::Reg::RegTensor<float> a, b;
    for (uint16_t i = 0; i < loops; ++i) {
        AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<float>(n);
        AscendC::Reg::LoadAlign(a, x + (i % 64) * 64);
        AscendC::Reg::Mul(b, a, a, m);
        AscendC::Reg::Mul(b, b, a, m);
        AscendC::Reg::Muls(b, b, 0.044715f, m);
        AscendC::Reg::Add(b, a, b, m);
        AscendC::Reg::Muls(b, b, -1.595769f, m);
        AscendC::Reg::Exp(b, b, m);
        AscendC::Reg::Adds(b, b, 1.0f, m);
        AscendC::Reg::Div(b, a, b, m);
        AscendC::Reg::StoreAlign(y + (i % 64) * 64, b, m);
    }
}

__global__ __vector__ void k(int loops)
{
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> x = ub.Alloc<float, 4096>();
    AscendC::LocalTensor<float> y = ub.Alloc<float, 4096>();
    asc_vf_call<FillVF>((__ubuf__ float*)x.GetPhyAddr());
    asc_vf_call<GeluVF>((__ubuf__ float*)y.GetPhyAddr(), (__ubuf__ float*)x.GetPhyAddr(),
                        uint32_t(64 * loops), uint32_t(loops));
}

extern "C" int bench(int loops) {  // called in-process by this script
    k<<<1, nullptr, nullptr>>>(loops);
    return 0;
}

int main() { return bench(1); }
"""


def best(fn, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def way(so_path: Path, fast: bool):
    """bench(n) of the compiled object SO_PATH on a session whose streams take the fast loop
    when FAST (the same library for every way: its bridge is set to each way's session in
    turn)."""
    chip = get_chip("ascend950")
    factory = functools.partial(Stream, record_gm=False, register_notes=False,
                                scratch_on_use=True, fast=fast)
    lib = ctypes.CDLL(str(so_path))
    session = Session(chip, source="k.cpp", stream_factory=factory)
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))

    def run(n: int) -> None:
        lib.bench(n)
        assert not session.failed, session.diagnostics
    return run, session


def per_statement(fn) -> float:
    return (best(lambda: fn(N2)) - best(lambda: fn(N1))) / ((N2 - N1) * PER_ITERATION)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        os.environ["PIPEV_CACHE_DIR"] = str(d / "cache")
        (d / "k.cpp").write_text(PROGRAM)
        old = os.getcwd()
        os.chdir(d)
        try:
            so = compile_source("k.cpp", npu_arch=3510).shared_object
        finally:
            os.chdir(old)
        ways = [("baseline (reference path)", so, False), ("plans", so, True)]
        base = None
        keep = []  # the sessions: C holds their callback tables while the libraries live
        for name, so, fast in ways:
            run, session = way(so, fast)
            keep.append(session)
            t = per_statement(run)
            base = base or t
            print(f"{name:<42} {t * 1e6:6.1f} us/statement  {base / t:5.2f}x baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
