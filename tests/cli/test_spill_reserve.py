"""ascend950's UB is 256 KB, the top 8 KB reserved for the compiler's register spills (the
MaskReg page; GetRuntimeUBSize gives 248 KB). Kernels may allocate the reserve, as the vendor's
own samples do and silicon lets them: pipev warns at the allocation that reaches it (a vector
function that spills overwrites it), errors only past 256 KB, and GetCoreMemSize(UB) answers
the 248 KB."""

from __future__ import annotations

import numpy as np
import pytest

KERNEL = r"""#include "acl/acl.h"
#include "kernel_operator.h"
__global__ __vector__ void k(GM_ADDR xg, GM_ADDR zg)
{
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)xg, 64);
    zGm.SetGlobalBuffer((__gm__ float*)zg, 64);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> big, tail;
    pipe.InitBuffer(big, BIG);
    pipe.InitBuffer(tail, 256);
    AscendC::LocalTensor<float> x = tail.Get<float>();
    AscendC::DataCopy(x, xGm, 64);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zGm, x, 64);
}
int main()
{
    float *x, *z;
    aclrtMalloc((void**)&x, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    for (int i = 0; i < 64; ++i) x[i] = float(i) - 7.5f;
    k<<<1, nullptr, nullptr>>>((GM_ADDR)x, (GM_ADDR)z);
    FILE* f = fopen("z.bin", "wb");
    fwrite(z, 4, 64, f);
    fclose(f);
    return 0;
}
"""


def _run(pipev, tmp_path, big: int, chip: str = "ascend950"):
    (tmp_path / "k.cpp").write_text(KERNEL.replace("BIG", str(big)))
    return pipev("run", "--chip", chip, "k.cpp", timeout=300)


@pytest.mark.parametrize("big, warns", [(248 * 1024 - 256, False), (256 * 1024 - 256, True)])
def test_the_reserve_is_allocatable_with_a_warning_at_the_line(pipev, tmp_path, big, warns):
    proc = _run(pipev, tmp_path, big)
    assert proc.returncode == 0, proc.stderr
    want = np.arange(64, dtype=np.float32) - np.float32(7.5)
    assert (tmp_path / "z.bin").read_bytes() == want.tobytes()
    lines = [ln for ln in proc.stderr.splitlines() if "register spills" in ln]
    if warns:
        # both InitBuffers end inside the reserve: each is warned at its own line
        assert [ln.split(" ")[0] for ln in lines] == ["k.cpp:10:5:", "k.cpp:11:5:"], lines
        assert all("warning:" in ln and "0x3e000..0x40000" in ln for ln in lines), lines
    else:
        assert lines == [], proc.stderr


def test_past_the_physical_ub_is_an_error(pipev, tmp_path):
    proc = _run(pipev, tmp_path, 256 * 1024)
    assert proc.returncode == 1
    assert "k.cpp:11:5: error:" in proc.stderr and "goes beyond UB" in proc.stderr
    assert not (tmp_path / "z.bin").exists()


def test_other_chips_have_no_reserve(pipev, tmp_path):
    proc = _run(pipev, tmp_path, 248 * 1024 - 256, chip="ascend310b")
    assert proc.returncode == 0, proc.stderr
    assert "register spills" not in proc.stderr
