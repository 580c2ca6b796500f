"""Where C++ diagnostics and the debugger put things (#31 27): a GetValue/SetValue race at the
call's column (where its statement begins, as every C++ diagnostic), and `pipev debug k.cpp
--core K` naming core K of the launch, not core 0."""

from __future__ import annotations

import re

import pytest

KERNEL = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ta;
    AscendC::GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    pipe.InitBuffer(ta, 256);
    auto a = ta.Get<float>();
    AscendC::DataCopy(a, xg, 64);
    if (AscendC::GetBlockIdx() >= 0) {
        float v = a.GetValue(3);  // no MTE2 -> S sync: a race
        (void)v;
    }
}
int main() {
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(256);
    ICPU_RUN_KF(k, 4, x);
    return 0;
}
"""


@pytest.fixture
def pipev(pipev, tmp_path):
    """The shared `pipev` subprocess fixture, with the kernel written where it runs."""
    (tmp_path / "k.cpp").write_text(KERNEL)
    return pipev


def test_a_getvalue_race_is_at_the_calls_column(pipev):
    proc = pipev("run", "k.cpp", "--quiet", "--no-source")
    assert proc.returncode == 0, proc.stderr
    races = re.findall(r"^k\.cpp:(\d+):(\d+): warning: race: GetValue", proc.stderr, re.M)
    assert races and set(races) == {("12", "9")}, proc.stderr


def test_debugging_core_k_names_core_k(pipev):
    proc = pipev("debug", "k.cpp", "--core", "2", "--batch", "--ex", "continue",
                 "--ex", "info cores")
    assert proc.returncode == 0, proc.stderr
    assert "the recording of core 2 of the launch's 4" in proc.stdout
    assert "* core 2 (of 4): finished" in proc.stdout
    assert "* core 0" not in proc.stdout
