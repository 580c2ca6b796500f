"""Issue 34: the reg-based Cast of ascend950's 8-bit floats and fp4 pairs from C++ — our own
vendor-style kernel (tests/data/ascendc/reg/reg_cast_950.asc: fp8 / hifloat8 / fp4 casts with
packed and whole-register stores, hifloat8_t data through GlobalTensor / LocalTensor / DataCopy)
bit-exact against tests/reference, and the pairs and layouts the Cast page does not list as
errors at the kernel's line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reference import regvec_convert as ref

DATA = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "reg"
ALL32 = bytes([0x11]) * 32  # CreateMask<float>(ALL): bit 4k for element k
ALL16 = bytes([0x55]) * 32
ALL8 = bytes([0xFF]) * 32


def test_the_950_cast_kernel_is_bit_exact(pipev, tmp_path):
    proc = pipev("run", "--chip", "ascend950", str(DATA / "reg_cast_950.asc"), timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = {k: (tmp_path / f"reg_cast_950_{k}.bin").read_bytes() for k in "xcefmybh"}
    want = {k: b"" for k in "efmyb"}
    for i in range(2):
        x = out["x"][256 * i:256 * (i + 1)]
        e = ref.cast_register(x, ALL32, "f8e4m3", "f32", "rint", True, 0)
        want["e"] += e[0::4]  # DIST_PACK4_B32: byte 0 of each 32-bit element
        want["f"] += ref.cast_register(e, ALL8, "f32", "f8e4m3", "none", True, 0)
        want["m"] += ref.cast_register(x, ALL32, "f8e5m2", "f32", "rint", False, 3)
        want["y"] += ref.cast_register(x, ALL32, "hif8", "f32", "hybrid", False, 2)
        bf = ref.cast_register(x, ALL32, "bf16", "f32", "rint", True, 0)
        want["b"] += ref.cast_register(bf, ALL16, "f4e2m1", "bf16", "round", True, 1)
    for k, v in want.items():
        assert out[k] == v, k
    assert out["c"] == bytes(range(256))
    assert out["h"] == ref.cast_register(out["c"], ALL8, "f16", "hif8", "none", True, 1)


KERNEL = """#include "kernel_operator.h"
__simd_vf__ inline void VF(__ubuf__ float* dst, __ubuf__ float* src)
{
    static constexpr AscendC::Reg::CastTrait trait = {AscendC::Reg::RegLayout::LAYOUT,
        AscendC::Reg::SatMode::UNKNOWN, AscendC::Reg::MaskMergeMode::ZEROING,
        AscendC::RoundMode::ROUND};
    AscendC::Reg::RegTensor<float> x;
    AscendC::Reg::RegTensor<SRC> h;
    AscendC::Reg::RegTensor<DST> y;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::MaskReg narrow = AscendC::Reg::CreateMask<SRC>();
    AscendC::Reg::LoadAlign(x, src);
    AscendC::Reg::Cast<SRC, float, AscendC::Reg::defaultCastTrait>(h, x, all);
    AscendC::Reg::Cast<DST, SRC, trait>(y, h, narrow);
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


@pytest.mark.parametrize("src,dst,layout,rnd,message", [
    ("half", "fp8_e4m3fn_t", "ZERO", "CAST_RINT", "Cast f16 -> f8e4m3 is not a conversion"),
    ("half", "hifloat8_t", "TWO", "CAST_ROUND", "a 2:1 conversion has RegLayout parts zero, one"),
    ("half", "hifloat8_t", "ZERO", "CAST_RINT", "takes round modes round, hybrid, not rint"),
    ("bfloat16_t", "fp4x2_e2m1_t", "ZERO", "CAST_HYBRID", "not hybrid"),
    ("half", "hifloat8_t", "ONE", "CAST_HYBRID", None),
    ("bfloat16_t", "fp4x2_e1m2_t", "THREE", "CAST_FLOOR", None),
])
def test_pairs_layouts_and_modes_the_cast_page_does_not_list_are_errors_at_the_line(
        pipev, tmp_path, src, dst, layout, rnd, message):
    path = tmp_path / "k.cpp"
    path.write_text(KERNEL.replace("SRC", src).replace("DST", dst).replace("LAYOUT", layout)
                    .replace("ROUND", rnd))
    proc = pipev("run", "--chip", "ascend950", str(path), timeout=300)
    if message is None:
        assert proc.returncode == 0, proc.stderr
        return
    assert proc.returncode == 1
    assert "k.cpp:14:" in proc.stderr and message in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


C_API = """#include "acl/acl.h"
#include "c_api/asc_simd.h"
__simd_vf__ inline void vf(__ubuf__ float* x, __ubuf__ hifloat8_t* y, __ubuf__ fp8_e5m2_t* e,
                           __ubuf__ float* w, __ubuf__ fp4x2_e1m2_t* b, __ubuf__ int4x2_t* q)
{
    vector_bool all = asc_create_mask_b32(PAT_ALL);
    vector_bool all16 = asc_create_mask_b16(PAT_ALL);
    vector_bool all8 = asc_create_mask_b8(PAT_ALL);
    vector_float xr, wr;
    vector_hifloat8_t yr;
    vector_fp8_e5m2_t er;
    vector_bfloat16_t br;
    vector_half hr;
    vector_fp4x2_e1m2_t fr;
    vector_int4x2_t qr;
    asc_load(xr, x);
    asc_float2hif8_rh_sat_v3(yr, xr, all);
    asc_store(y, yr, all8);
    asc_float2e5m2_rn_v2(er, xr, all);
    asc_store(e, er, all8);
    asc_e5m22float_v2(wr, er, all8);
    asc_store(w, wr, all);
    asc_float2bfloat16_rn(br, xr, all);
    asc_bfloat162e1m2x2_rz_v4(fr, br, all16);
    asc_store(b, fr, all8);
    asc_float2half_rn(hr, xr, all);
    asc_half2int4x2_rna_v3(qr, hr, all16);
    asc_store(q, qr, all8);
}
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR y)
{
    __ubuf__ float xs[64];
    __ubuf__ hifloat8_t ys[256];
    __ubuf__ fp8_e5m2_t es[256];
    __ubuf__ float ws[64];
    __ubuf__ fp4x2_e1m2_t bs[256];
    __ubuf__ int4x2_t qs[256];
    asc_init();
    asc_set_ctrl(asc_get_ctrl() & ~(1ull << 60));  // each call's own saturation
    asc_copy_gm2ub((__ubuf__ void*)xs, (__gm__ void*)x, 256);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vf(xs, ys, es, ws, bs, qs);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)y, (__ubuf__ void*)ys, 256);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 256), (__ubuf__ void*)es, 256);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 512), (__ubuf__ void*)ws, 256);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 768), (__ubuf__ void*)bs, 256);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 1024), (__ubuf__ void*)qs, 256);
}
int main()
{
    uint8_t *xh, *yh, *x, *y;
    aclInit(nullptr);
    aclrtMallocHost((void**)&xh, 256);
    aclrtMallocHost((void**)&yh, 1280);
    uint32_t r = 77;
    for (int i = 0; i < 64; ++i) {
        r = r * 1103515245u + 12345u;
        float v = float(int(r >> 8) % 4000 - 2000) / 64.0f;  // within every format's range
        std::memcpy(xh + 4 * i, &v, 4);
    }
    float sp[] = {70000.5f, -1.5f, 2.5f, 1e-30f, 65519.0f, -0.0f, 0.875f, -7.5f};
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


def test_the_c_api_conversions_of_the_950_types_are_bit_exact(pipev, tmp_path):
    """asc_float2hif8_rh_sat_v3, asc_float2e5m2_rn_v2 / asc_e5m22float_v2,
    asc_bfloat162e1m2x2_rz_v4 and asc_half2int4x2_rna_v3 (the C API's suffixes: rh HYBRID,
    _vN RegLayout part N-1)."""
    src = tmp_path / "c.cpp"
    src.write_text(C_API)
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    raw = (tmp_path / "c_out.bin").read_bytes()
    x, out = raw[:256], raw[256:]
    e = ref.cast_register(x, ALL32, "f8e5m2", "f32", "rint", False, 1)
    # asc_float2bfloat16_rn / asc_float2half_rn without _sat: NO_SAT (70000.5 → +inf, whose
    # int4 is the extreme 7 even unsaturated)
    bf = ref.cast_register(x, ALL32, "bf16", "f32", "rint", False, 0)
    h = ref.cast_register(x, ALL32, "f16", "f32", "rint", False, 0)
    assert out[:256] == ref.cast_register(x, ALL32, "hif8", "f32", "hybrid", True, 2)
    assert out[256:512] == e
    assert out[512:768] == ref.cast_register(e, ALL8, "f32", "f8e5m2", "none", True, 1)
    assert out[768:1024] == ref.cast_register(bf, ALL16, "f4e1m2", "bf16", "trunc", True, 3)
    assert out[1024:1280] == ref.cast_register(h, ALL16, "s4", "f16", "round", False, 2)
