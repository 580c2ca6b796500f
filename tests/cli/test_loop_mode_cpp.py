"""Issue 34 (r6): what the slice operator needs, from kernels of ours in its style, byte-exact
against numpy: AscendC's DMA loop mode (LoopModeParams, SetLoopModePara, ResetLoopModePara)
around DataCopyPad GM -> UB and UB -> GM (the pages' five-dimensional example); the loop
registers are the C API's (one state: a size the C API set is what AscendC's DataCopyPad runs,
ResetLoopModePara restores the single copy); DataCopyPad's PaddingMode::Compact; StoreUnAlign
through a register declared UnalignRegForLoad."""

from __future__ import annotations

import numpy as np

D = (2, 4, 3, 16, 30)  # GM int8_t [2, 4, 3, 16, 30]; moved: [2, 2, 2, 8, 30], rows padded to 32
KERNEL = """#include <cstdio>
#include "acl/acl.h"
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    GlobalTensor<int8_t> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ int8_t*)x);
    yg.SetGlobalBuffer((__gm__ int8_t*)y);
    zg.SetGlobalBuffer((__gm__ int8_t*)z);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<int8_t> ub = buf.Get<int8_t>();
    LoopModeParams in{2, 2, 16 * 30, 8 * 32, 3 * 16 * 30, 2 * 8 * 32};
    DataCopyExtParams rows{8, 30, 0, 0, 0};
    DataCopyPadExtParams<int8_t> pad{true, 0, 0, -1};
    SetLoopModePara(in, DataCopyMVType::OUT_TO_UB);
    for (uint32_t d0 = 0; d0 < 2; d0++)
        DataCopyPad(ub[d0 * 2 * 2 * 8 * 32], xg[d0 * 4 * 3 * 16 * 30], rows, pad);
    ResetLoopModePara(DataCopyMVType::OUT_TO_UB);
    PipeBarrier<PIPE_ALL>();
    // out: the moved rows packed back (UB 32-byte rows -> GM 30-byte rows), loop mode UB -> GM
    LoopModeParams out{2, 2, 8 * 32, 8 * 30, 2 * 8 * 32, 2 * 8 * 30};
    SetLoopModePara(out, DataCopyMVType::UB_TO_OUT);
    for (uint32_t d0 = 0; d0 < 2; d0++)
        DataCopyPad(yg[d0 * 2 * 2 * 8 * 30], ub[d0 * 2 * 2 * 8 * 32], rows);
    ResetLoopModePara(DataCopyMVType::UB_TO_OUT);
    // after the reset one copy again; then the C API's setter, read by AscendC's DataCopyPad
    DataCopyPad(zg, ub, DataCopyExtParams{1, 64, 0, 0, 0});
    asc_set_ub2gm_loop_size(3, 1);
    asc_set_ub2gm_loop1_stride(32, 100);
    DataCopyPad(zg[200], ub, DataCopyExtParams{1, 20, 0, 0, 0});
    ResetLoopModePara(DataCopyMVType::UB_TO_OUT);
    PipeBarrier<PIPE_ALL>();
    printf("ub");
    for (int i = 0; i < 2048; ++i) printf(" %d", int(ub.GetValue(i)));
    printf("\\n");
}
int main()
{
    const size_t nx = 2 * 4 * 3 * 16 * 30, ny = 2 * 2 * 2 * 8 * 30, nz = 512;
    int8_t *xh, *yh, *zh;
    uint8_t *x, *y, *z;
    aclInit(nullptr);
    aclrtMallocHost((void**)&xh, nx);
    aclrtMallocHost((void**)&yh, ny);
    aclrtMallocHost((void**)&zh, nz);
    for (size_t i = 0; i < nx; ++i) xh[i] = int8_t(i * 7 + i / 30);
    for (size_t i = 0; i < ny; ++i) yh[i] = 0;
    for (size_t i = 0; i < nz; ++i) zh[i] = 0;
    aclrtMalloc((void**)&x, nx, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, ny, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, nz, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, nx, xh, nx, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, ny, yh, ny, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(z, nz, zh, nz, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(x, y, z);
    aclrtMemcpy(yh, ny, y, ny, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(zh, nz, z, nz, ACL_MEMCPY_DEVICE_TO_HOST);
    std::FILE* f = std::fopen("loop_out.bin", "wb");
    std::fwrite(yh, 1, ny, f);
    std::fwrite(zh, 1, nz, f);
    std::fclose(f);
    return 0;
}
"""


def _expected() -> tuple[np.ndarray, bytes]:
    i = np.arange(np.prod(D))
    x = (i * 7 + i // 30).astype(np.int64).astype(np.uint8).view(np.int8).reshape(D)
    ub = np.full((2, 2, 2, 8, 32), -1, np.int8)  # the pad value fills each row's last 2 bytes
    ub[..., :30] = x[:, :2, :2, :8, :]
    y = x[:, :2, :2, :8, :].tobytes()
    flat = ub.reshape(-1)
    z = bytearray(512)
    z[:64] = flat[:64].tobytes()
    for k in range(3):  # C API loop size 3: UB 32, GM 100 apart
        z[200 + 100 * k:220 + 100 * k] = flat[32 * k:32 * k + 20].tobytes()
    return flat, y + bytes(z)


def test_the_loop_mode_moves_five_dimensions_byte_exact(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL)
    proc = pipev("run", "--chip", "ascend950", "--werror", src, timeout=300)
    assert proc.returncode == 0, proc.stderr
    line = next(t for t in proc.stdout.splitlines() if t.startswith("ub "))
    ub, out = _expected()
    assert np.array(line.split()[1:], np.int64).astype(np.int8).tobytes() == ub.tobytes()
    assert (tmp_path / "loop_out.bin").read_bytes() == out


UNALIGNED = """#include "kernel_operator.h"
using namespace AscendC;
__global__ __vector__ void k()
{
    LoopModeParams p{2, 1, 64, 48, 0, 0};
    SetLoopModePara(p, DataCopyMVType::OUT_TO_UB);
}
"""


def test_an_unaligned_ub_stride_is_an_error_at_the_call(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(UNALIGNED)
    proc = pipev("run", "--chip", "ascend950", "--kernel", "k", src, timeout=300)
    assert proc.returncode != 0
    assert "k.cpp:6:" in proc.stderr and "32-byte aligned" in proc.stderr


COMPACT = """#include <cstdio>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;
// the DataCopyPad page's scenario: PaddingMode::Compact packs 3 bursts of 20 bytes (40 apart in
// GM) back to back, then pads with -1 to the 32-byte boundary; in loop mode twice (GM 200 apart,
// UB 96 apart); the slice operator's use
__global__ __aicore__ void k(GM_ADDR x)
{
    GlobalTensor<int8_t> xg;
    xg.SetGlobalBuffer((__gm__ int8_t*)x);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<int8_t> ub = buf.Get<int8_t>();
    Duplicate(ub.ReinterpretCast<int16_t>(), int16_t(0x5555), 128);
    PipeBarrier<PIPE_ALL>();
    DataCopyExtParams rows{3, 20, 20, 7, 0};  // dstStride 7: not in effect in Compact
    DataCopyPadExtParams<int8_t> pad{true, 1, 2, -1};  // the paddings: not in effect either
    LoopModeParams loop{2, 1, 200, 96, 0, 0};
    SetLoopModePara(loop, DataCopyMVType::OUT_TO_UB);
    DataCopyPad<int8_t, PaddingMode::Compact>(ub, xg, rows, pad);
    ResetLoopModePara(DataCopyMVType::OUT_TO_UB);
    PipeBarrier<PIPE_ALL>();
    printf("ub");
    for (int i = 0; i < 256; ++i) printf(" %d", int(ub.GetValue(i)));
    printf("\\n");
}
int main()
{
    int8_t* xh;
    uint8_t* x;
    aclInit(nullptr);
    aclrtMallocHost((void**)&xh, 512);
    for (int i = 0; i < 512; ++i) xh[i] = int8_t(i % 101);
    aclrtMalloc((void**)&x, 512, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, 512, xh, 512, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(x);
    return 0;
}
"""


def test_compact_padding_packs_the_bursts(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(COMPACT)
    proc = pipev("run", "--chip", "ascend950", "--werror", src, timeout=300)
    assert proc.returncode == 0, proc.stderr
    line = next(t for t in proc.stdout.splitlines() if t.startswith("ub "))
    x = (np.arange(512) % 101).astype(np.int8)
    want = np.full(256, 0x55, np.int8)
    for i in range(2):  # 60 data bytes, then 4 of -1 (to 64)
        d, s = 96 * i, 200 * i
        want[d:d + 60] = np.concatenate([x[s + 40 * b:s + 40 * b + 20] for b in range(3)])
        want[d + 60:d + 64] = -1
    assert np.array(line.split()[1:], np.int64).astype(np.int8).tobytes() == want.tobytes()


UNALIGN = """#include <cstdio>
#include "kernel_operator.h"
using namespace AscendC;
// slice's unaligned gather: rows of 5 floats, 7 apart from element 3, packed from element 1
// through StoreUnAlign with a register declared UnalignRegForLoad (the operator's spelling)
__global__ __vector__ void k()
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, 128>();
    LocalTensor<float> y = ub.Alloc<float, 64>();
    for (int i = 0; i < 128; ++i) x.SetValue(i, float(i));
    Duplicate(y, -1.0f, 64);
    PipeBarrier<PIPE_V>();
    __ubuf__ float* dstPtr = (__ubuf__ float*)y.GetPhyAddr() + 1;
    __VEC_SCOPE__
    {
        Reg::RegTensor<float> vd;
        Reg::UnalignRegForLoad u0;
        Reg::UnalignRegForLoad u1;
        for (uint16_t r = 0; r < 8; r++) {
            __ubuf__ float* srcPtr = (__ubuf__ float*)x.GetPhyAddr() + 3 + 7 * r;
            Reg::LoadUnAlignPre(u0, srcPtr);
            Reg::LoadUnAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(vd, u0, srcPtr, 5u);
            Reg::StoreUnAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(dstPtr, vd, u1, 5u);
        }
        Reg::StoreUnAlignPost<float, Reg::PostLiteral::POST_MODE_UPDATE>(dstPtr, u1, 0);
    }
    PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < 64; ++i) printf("%g ", y.GetValue(i));
    printf("\\n");
}
"""


def test_a_load_spelt_unalign_register_serves_a_store(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(UNALIGN)
    proc = pipev("run", "--chip", "ascend950", "--werror", "--kernel", "k", src, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = [float(w) for w in proc.stdout.split()[-64:]]
    want = [-1.0] * 64
    for r in range(8):
        for c in range(5):
            want[1 + 5 * r + c] = float(3 + 7 * r + c)
    assert got == want
