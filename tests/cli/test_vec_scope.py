"""Issue 34: `__VEC_SCOPE__ { ... }`, a VF written inline as a scope (the form of the vendor's
older arch35 kernels): vf_begin and vf_end at the scope's line, the block's register
instructions at their own lines, a check inside it at its line (and no second report while the
scope unwinds)."""

from __future__ import annotations

KERNEL = r"""#include "acl/acl.h"
#include "kernel_operator.h"
__global__ __vector__ void k(GM_ADDR xg, GM_ADDR zg)
{
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)xg, 256);
    zGm.SetGlobalBuffer((__gm__ float*)zg, 256);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> x = ub.Alloc<float, 256>();
    AscendC::LocalTensor<float> z = ub.Alloc<float, 256>();
    AscendC::DataCopy(x, xGm, 256);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    __ubuf__ float* xa = (__ubuf__ float*)x.GetPhyAddr();
    __ubuf__ float* za = (__ubuf__ float*)z.GetPhyAddr();
    uint32_t n = 250;
    __VEC_SCOPE__
    {
        AscendC::Reg::RegTensor<float> a;
        for (uint16_t i = 0; i < 4; ++i) {
            AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<float>(n);
            AscendC::Reg::LoadAlign(a, xa + i * 64);
            AscendC::Reg::Muls(a, a, 2.0f, m);
            AscendC::Reg::StoreAlign(za + i * 64, a, m);
        }
    }
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zGm, z, 256);
}
int main()
{
    float *x, *z;
    aclrtMalloc((void**)&x, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    for (int i = 0; i < 256; ++i) { x[i] = i * 0.5f; z[i] = -1; }
    k<<<1, nullptr, nullptr>>>((GM_ADDR)x, (GM_ADDR)z);
    printf("%g %g %g %g\n", z[0], z[3], z[249], z[250]);
    return 0;
}
"""


def test_a_vec_scope_runs_as_a_vf(pipev, tmp_path):
    (tmp_path / "k.cpp").write_text(KERNEL)
    proc = pipev("run", "--chip", "ascend950", "k.cpp", "--save-vasm", "r.vasm", timeout=300)
    assert proc.returncode == 0, proc.stderr
    # x[i] = i / 2, doubled where UpdateMask's 250 elements reach; lane 250 on: never stored
    assert proc.stdout.splitlines()[0] == "0 3 249 0", proc.stdout
    rec = (tmp_path / "r.vasm").read_text().splitlines()
    begin, end = rec.index('    vf_begin "vf"'), rec.index("    vf_end")
    assert rec[begin - 1] == rec[end - 1] == '.loc "k.cpp" 17 5'
    assert sum(ln.strip().startswith("vrmuls.f32") for ln in rec[begin:end]) == 4


def test_a_check_inside_the_scope_is_an_error_at_its_line(pipev, tmp_path):
    (tmp_path / "k.cpp").write_text(KERNEL.replace("xa + i * 64)", "xa + i * 64 + (i == 2))"))
    proc = pipev("run", "--chip", "ascend950", "k.cpp", timeout=300)
    assert proc.returncode == 1
    assert proc.stderr.count("error:") == 1, proc.stderr
    assert "k.cpp:22:13: error: vlds address 0x204 is not 32-byte aligned" in proc.stderr
