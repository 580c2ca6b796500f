"""Issue 34 (h34a): the reg-based conversions from C++ — our own vendor-style kernel
(tests/data/ascendc/reg/reg_cast_chain.asc: Cast narrowing with a packed store and RegLayout
ONE, Truncate, the widening round trip, Arange) bit-exact against tests/reference, the C API's
reg conversions, and the checks at the kernel's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.reference import regvec_convert as ref

DATA = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "reg"
ALL32 = bytes([0x11]) * 32  # CreateMask<float>(ALL): bit 4k for element k


def test_the_cast_chain_kernel_is_bit_exact(pipev, tmp_path):
    proc = pipev("run", "--chip", "ascend950", str(DATA / "reg_cast_chain.asc"), timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = {k: (tmp_path / f"reg_cast_chain_{k}.bin").read_bytes() for k in "xhstwa"}
    want = {k: b"" for k in "hstwa"}
    for i in range(2):
        x = out["x"][256 * i:256 * (i + 1)]
        h = ref.cast_register(x, ALL32, "f16", "f32", "round", True, 0)
        want["h"] += np.frombuffer(h, np.uint16)[0::2].tobytes()  # DIST_PACK_B32: low halves
        want["s"] += ref.cast_register(x, ALL32, "s16", "f32", "floor", False, 1)
        want["t"] += ref.truncate_register(x, ALL32, "f32", "ceil")
        want["w"] += ref.cast_register(h, ALL32, "f32", "f16", "none", True, 0)
        want["a"] += ref.arange_register("s32", 64 * i, True)
    for k, v in want.items():
        assert out[k] == v, k


C_API = """#include "acl/acl.h"
#include "c_api/asc_simd.h"
__simd_vf__ inline void vf(__ubuf__ float* x, __ubuf__ int16_t* s, __ubuf__ half* h,
                           __ubuf__ float* f, __ubuf__ int16_t* a, __ubuf__ float* il)
{
    vector_bool all = asc_create_mask_b32(PAT_ALL);
    vector_bool all16 = asc_create_mask_b16(PAT_ALL);
    vector_float xr, fr, i0, i1;
    vector_int16_t sr, ar;
    vector_half hr;
    asc_load(xr, x);
    asc_float2int16_rz_sat_v2(sr, xr, all);
    asc_store(s, sr, all16);
    asc_float2half_ro(hr, xr, all);
    asc_store(h, hr, all16);
    asc_floor(fr, xr, all);
    asc_store(f, fr, all);
    asc_arange_descend(ar, (int16_t)-3);
    asc_store(a, ar, all16);
    asc_intlv(i0, i1, xr, fr);
    asc_store(il, i0, all);
}
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR y)
{
    __ubuf__ float xs[64];
    __ubuf__ int16_t s[128];
    __ubuf__ half h[128];
    __ubuf__ float f[64];
    __ubuf__ int16_t a[128];
    __ubuf__ float il[64];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)xs, (__gm__ void*)x, 256);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vf(xs, s, h, f, a, il);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)y, (__ubuf__ void*)s, 256);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 256), (__ubuf__ void*)h, 256);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 512), (__ubuf__ void*)f, 256);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 768), (__ubuf__ void*)a, 256);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 1024), (__ubuf__ void*)il, 256);
}
int main()
{
    uint8_t *xh, *yh, *x, *y;
    aclInit(nullptr);
    aclrtMallocHost((void**)&xh, 256);
    aclrtMallocHost((void**)&yh, 1280);
    uint32_t r = 99;
    for (int i = 0; i < 256; ++i) { r = r * 1103515245u + 12345u; xh[i] = uint8_t(r >> 16); }
    float sp[] = {70000.5f, -1.5f, 2.5f, 1e-30f, 65519.0f, -0.0f};
    std::memcpy(xh, sp, sizeof(sp));
    aclrtMalloc((void**)&x, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, 1280, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, 256, xh, 256, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(x, y);
    aclrtMemcpy(yh, 1280, y, 1280, ACL_MEMCPY_DEVICE_TO_HOST);
    std::FILE* f = std::fopen("c_out.bin", "wb");
    std::fwrite(xh, 1, 256, f);
    std::fwrite(yh, 1, 1280, f);
    std::fclose(f);
    return 0;
}
"""


def test_the_c_api_conversions_are_bit_exact(pipev, tmp_path):
    src = tmp_path / "c.cpp"
    src.write_text(C_API)
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    raw = (tmp_path / "c_out.bin").read_bytes()
    x, out = raw[:256], raw[256:]
    xf = np.frombuffer(x, np.float32)
    floor = ref.truncate_register(x, ALL32, "f32", "floor")
    pairs = np.empty(128, np.uint32)
    pairs[0::2], pairs[1::2] = xf.view(np.uint32), np.frombuffer(floor, np.uint32)
    assert out[:256] == ref.cast_register(x, ALL32, "s16", "f32", "trunc", True, 1)
    assert out[256:512] == ref.cast_register(x, ALL32, "f16", "f32", "odd", False, 0)
    assert out[512:768] == floor
    assert out[768:1024] == ref.arange_register("s16", 0xFFFD, True)
    assert out[1024:1280] == pairs[:64].tobytes()


CHECKED = """#include "kernel_operator.h"
__simd_vf__ inline void VF(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> x;
    AscendC::Reg::RegTensor<half> h;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::MaskReg bytes = AscendC::Reg::CreateMask<uint8_t>();
    AscendC::Reg::LoadAlign(x, src);
    AscendC::Reg::Cast<half, float, AscendC::Reg::defaultCastTrait>(h, x, BAD_MASK);
    AscendC::Reg::Cast<float, half, AscendC::Reg::defaultCastTrait>(x, h, all);
    AscendC::Reg::StoreAlign(dst, x, all);
}
__global__ __vector__ void k()
{
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> a = ub.Alloc<float, 64>();
    AscendC::LocalTensor<float> b = ub.Alloc<float, 64>();
    AscendC::Duplicate(a, 1.0f, 64);
    AscendC::PipeBarrier<PIPE_V>();
    asc_vf_call<VF>((__ubuf__ float*)b.GetPhyAddr(), (__ubuf__ float*)a.GetPhyAddr());
}
int main() { k<<<1, nullptr, nullptr>>>(); return 0; }
"""


def test_a_cast_under_a_mask_of_another_width_is_an_error_at_its_line(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(CHECKED.replace("BAD_MASK", "bytes"))
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 1
    assert "k.cpp:9:" in proc.stderr and "MaskReg made for 8-bit elements" in proc.stderr, \
        proc.stderr
    src.write_text(CHECKED.replace("BAD_MASK", "all"))
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr


def test_a_cast_of_a_register_never_written_is_an_error_at_its_line(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(CHECKED.replace("BAD_MASK", "all").replace(
        "    AscendC::Reg::LoadAlign(x, src);\n", ""))
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 1
    assert "k.cpp:8:" in proc.stderr and "reads v" in proc.stderr, proc.stderr


def test_the_unaligned_scatter_kernel_is_bit_exact(pipev, tmp_path):
    """tests/data/ascendc/reg/reg_unalign_scatter.asc: an unaligned copy through the unaligned
    registers, a Scatter, a ReduceDataBlock under an UpdateMask tail and a Squeeze."""
    from tests.reference import regvec_data as data

    proc = pipev("run", "--chip", "ascend950", str(DATA / "reg_unalign_scatter.asc"),
                 timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = {k: (tmp_path / f"reg_unalign_scatter_{k}.bin").read_bytes()
           for k in ("x", "ix", "y", "z", "r", "q")}
    x = np.frombuffer(out["x"], np.float32)
    ix = np.frombuffer(out["ix"], np.uint32)
    y = bytearray(1024)
    stores = [(20 + 256 * i, out["x"][12 + 256 * i:12 + 256 * (i + 1)]) for i in range(3)]
    assert out["y"] == bytes(data.store_unalign(y, stores, True))
    src = [out["x"][4 * k:4 * k + 4] for k in range(64)]
    assert out["z"] == bytes(data.scatter(bytearray(256), 0, src, list(map(int, ix)),
                                          [True] * 64))
    blocks = data.reduce_blocks(x[:64].copy(), [k < 60 for k in range(64)], "max")
    assert out["r"] == blocks[:8].tobytes()
    q = x[64:128]
    assert out["q"] == data.squeeze([v.tobytes() for v in q], list(q > 0))


C_API_DATA = """#include "acl/acl.h"
#include "c_api/asc_simd.h"
__simd_vf__ inline void vf(__ubuf__ float* x, __ubuf__ uint32_t* ix, __ubuf__ float* q,
                           __ubuf__ float* g, __ubuf__ uint8_t* b, __ubuf__ uint16_t* h)
{
    vector_bool all = asc_create_mask_b32(PAT_ALL);
    vector_bool some = asc_create_mask_b32(PAT_M3);
    vector_bool bytes = asc_create_mask_b8(PAT_ALL);
    vector_float xr, qr, gr;
    vector_uint32_t ir;
    vector_uint8_t br;
    vector_uint16_t hr;
    vector_store_unalign us;
    asc_load(xr, x);
    asc_load(ir, ix);
    asc_clear_ar_spr();
    asc_squeeze_with_status(qr, xr, some);
    asc_storeunalign_postupdate(q, us, qr);
    asc_squeeze_with_status(qr, xr, some);
    asc_storeunalign_postupdate(q, us, qr);
    asc_storeunalign_post(q, us);
    asc_gather_datablock(gr, x, ir, all);
    asc_store(g, gr, all);
    asc_load(br, b);
    asc_load(hr, h);
    asc_cumulative_histogram_bin1(hr, br, bytes);
    asc_store(h, hr);
}
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR y)
{
    __ubuf__ float xs[64];
    __ubuf__ uint32_t ix[64];
    __ubuf__ float q[64];
    __ubuf__ float g[64];
    __ubuf__ uint8_t b[256];
    __ubuf__ uint16_t h[128];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)xs, (__gm__ void*)x, 256);
    asc_copy_gm2ub((__ubuf__ void*)ix, (__gm__ void*)(x + 256), 256);
    asc_copy_gm2ub((__ubuf__ void*)b, (__gm__ void*)(x + 512), 256);
    asc_copy_gm2ub((__ubuf__ void*)h, (__gm__ void*)(x + 768), 256);
    asc_copy_gm2ub((__ubuf__ void*)q, (__gm__ void*)(x + 1024), 256);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vf(xs, ix, q, g, b, h);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)y, (__ubuf__ void*)q, 256);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 256), (__ubuf__ void*)g, 256);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 512), (__ubuf__ void*)h, 256);
}
int main()
{
    uint8_t *xh, *yh, *x, *y;
    aclInit(nullptr);
    aclrtMallocHost((void**)&xh, 1280);
    aclrtMallocHost((void**)&yh, 768);
    uint32_t r = 7;
    for (int i = 0; i < 1280; ++i) { r = r * 1103515245u + 12345u; xh[i] = uint8_t(r >> 16); }
    for (int i = 0; i < 64; ++i) ((uint32_t*)(xh + 256))[i] = uint32_t((i * 5) % 8) * 32u;
    aclrtMalloc((void**)&x, 1280, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, 768, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, 1280, xh, 1280, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(x, y);
    aclrtMemcpy(yh, 768, y, 768, ACL_MEMCPY_DEVICE_TO_HOST);
    std::FILE* f = std::fopen("c_out.bin", "wb");
    std::fwrite(xh, 1, 1280, f);
    std::fwrite(yh, 1, 768, f);
    std::fclose(f);
    return 0;
}
"""


def test_the_c_api_ar_gatherb_and_histogram_faces(pipev, tmp_path):
    from tests.reference import regvec_data as data

    src = tmp_path / "c.cpp"
    src.write_text(C_API_DATA)
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    raw = (tmp_path / "c_out.bin").read_bytes()
    x, out = raw[:1280], raw[1280:]
    kept = b"".join(x[4 * k:4 * k + 4] for k in range(0, 64, 3))  # PAT_M3: every third
    assert out[:256] == bytes(data.squeeze_stores(bytearray(x[1024:1280]), 0, [kept, kept],
                                                  True))
    offs = [((j * 5) % 8) * 32 for j in range(8)]
    assert out[256:512] == data.gather_blocks(x, 0, offs, [True] * 8, bytes(256))
    old = [int(v) for v in np.frombuffer(x[768:1024], "<u2")]
    assert out[512:768] == data.histogram(old, x[512:768], [True] * 256, True, True)
