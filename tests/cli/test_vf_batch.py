"""Issue 34: a VF's statements reach pipev in batches (pipev_bridge.h issue_batch, core.h Batch).
Compiled with PIPEV_VF_UNBATCHED each is one call; everything a run shows must be the same both
ways: the outputs' bytes, the summary (cycles, stalls, hot lines), the diagnostics and exit
status, the kernel's own printout (GetSystemCycle inside the VF reads the clock after what was
batched before it), and the recording of every statement issued (--save-vasm: order, lines and
register values)."""

from __future__ import annotations

import pytest

KERNEL = r"""#include "acl/acl.h"
#include "kernel_operator.h"
__simd_vf__ inline void ScaleVF(__ubuf__ float* z, __ubuf__ float* x, uint32_t n, uint32_t loops)
{
    AscendC::Reg::RegTensor<float> a, b;
    for (uint16_t i = 0; i < loops; ++i) {
        AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<float>(n);
        AscendC::Reg::LoadAlign(a, x + i * 64);
        AscendC::Reg::Muls(b, a, 0.5f, m);
        AscendC::Reg::Exp(b, b, m);
        AscendC::Reg::Add(b, b, a, m);
        AscendC::Reg::StoreAlign(z + i * 64 + BAD * (i == 5), b, m);
        if (i % 7 == 6)
            AscendC::printf("iteration %d at tick %lld\n", int(i),
                            (long long)AscendC::GetSystemCycle());
    }
}
__global__ __vector__ void k(GM_ADDR xg, GM_ADDR zg)
{
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)xg, 1280);
    zGm.SetGlobalBuffer((__gm__ float*)zg, 1280);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> x = ub.Alloc<float, 1280>();
    AscendC::LocalTensor<float> z = ub.Alloc<float, 1280>();
    AscendC::DataCopy(x, xGm, 1280);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    for (int r = 0; r < 3; ++r)
        asc_vf_call<ScaleVF>((__ubuf__ float*)z.GetPhyAddr(), (__ubuf__ float*)x.GetPhyAddr(),
                             1250u, 20u);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zGm, z, 1280);
}
int main()
{
    float* x;
    float* z;
    aclrtMalloc((void**)&x, 1280 * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, 1280 * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    for (int i = 0; i < 1280; ++i) x[i] = (i % 97 - 48) * 0.0625f;
    k<<<1, nullptr, nullptr>>>((GM_ADDR)x, (GM_ADDR)z);
    FILE* f = fopen("z.bin", "wb");
    fwrite(z, 4, 1280, f);
    fclose(f);
    return 0;
}
"""


def _run(pipev, tmp_path, name: str, bad: int, *flags: str):
    d = tmp_path / name
    d.mkdir()
    src = d / "k.cpp"
    src.write_text(KERNEL)
    proc = pipev("run", "--chip", "ascend950", str(src), f"-DBAD={bad}", *flags,
                 "--save-vasm", "rec.vasm", cwd=d, timeout=300)
    rec = (d / "rec.vasm").read_text() if (d / "rec.vasm").exists() else None
    z = (d / "z.bin").read_bytes() if (d / "z.bin").exists() else None
    here = str(d)  # the runs' own folders: the one difference they may show
    return (proc.returncode, proc.stdout.replace(here, "DIR"), proc.stderr.replace(here, "DIR"),
            rec.replace(here, "DIR") if rec is not None else None, z)


@pytest.mark.parametrize("bad", [0, 1], ids=["clean", "misaligned_store_at_iteration_5"])
def test_batched_and_one_at_a_time_are_the_same(pipev, tmp_path, bad):
    batched = _run(pipev, tmp_path, "batched", bad)
    single = _run(pipev, tmp_path, "single", bad, "-DPIPEV_VF_UNBATCHED")
    for k, what in enumerate(("exit status", "stdout", "stderr", "recording", "output")):
        assert batched[k] == single[k], f"{what} differs:\n{batched[k]!r}\n{single[k]!r}"
    rc, out, err, rec, z = batched
    if bad:  # the error at the store's own line, in the first VF's sixth iteration
        assert rc == 1 and "k.cpp:12:" in err and "not 32-byte aligned" in err, err
        assert rec is not None and rec.count("vsts.f32") == 6
    else:
        assert rc == 0 and out.count("iteration") == 6 and z is not None, (out, err)
        assert rec.count("vrexp.f32") == 60
