"""Issue 34: Ascend 950's `Duplicate(dst, src, count)` (the Duplicate page: src[0] copied to the
first count elements of dst), which the vendor's softmax_high_performance sample calls after
ReduceMax/ReduceSum: bit-exact on ascend950 (the element as the vector pipe reads it, after the
reduction that wrote it), an error at the call on a chip without the form."""

from __future__ import annotations

import numpy as np

KERNEL = r"""#include "acl/acl.h"
#include "kernel_operator.h"
__global__ __vector__ void k(GM_ADDR xg, GM_ADDR zg)
{
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)xg, 128);
    zGm.SetGlobalBuffer((__gm__ float*)zg, 128);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xb, mb, wb, zb;
    pipe.InitBuffer(xb, 512);
    pipe.InitBuffer(mb, 512);
    pipe.InitBuffer(wb, 512);
    pipe.InitBuffer(zb, 512);
    AscendC::LocalTensor<float> x = xb.Get<float>(), m = mb.Get<float>(), w = wb.Get<float>();
    AscendC::LocalTensor<float> z = zb.Get<float>();
    AscendC::DataCopy(x, xGm, 128);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Duplicate(z, 0.0f, 128);
    AscendC::ReduceMax(m, x, w, 128);
    AscendC::Duplicate(z, m, 100);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zGm, z, 128);
}
int main()
{
    float *x, *z;
    aclrtMalloc((void**)&x, 512, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, 512, ACL_MEM_MALLOC_HUGE_FIRST);
    FILE* f = fopen("x.bin", "rb");
    fread(x, 4, 128, f);
    fclose(f);
    k<<<1, nullptr, nullptr>>>((GM_ADDR)x, (GM_ADDR)z);
    f = fopen("z.bin", "wb");
    fwrite(z, 4, 128, f);
    fclose(f);
    return 0;
}
"""


def test_src_element_0_fills_the_first_count(pipev, tmp_path):
    x = np.random.default_rng(3).uniform(-5, 5, 128).astype(np.float32)
    x.tofile(tmp_path / "x.bin")
    (tmp_path / "k.cpp").write_text(KERNEL)
    proc = pipev("run", "--chip", "ascend950", "k.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    want = np.zeros(128, np.float32)
    want[:100] = x.max()
    assert np.fromfile(tmp_path / "z.bin", np.float32).tobytes() == want.tobytes()


def test_the_tensor_form_is_an_error_off_950(pipev, tmp_path):
    np.zeros(128, np.float32).tofile(tmp_path / "x.bin")
    (tmp_path / "k.cpp").write_text(KERNEL)
    proc = pipev("run", "--chip", "ascend910b", "k.cpp", timeout=300)
    assert proc.returncode == 1
    assert "k.cpp:21:5: error" in proc.stderr and "Ascend 950 form" in proc.stderr, proc.stderr
