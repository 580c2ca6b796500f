"""Issue 34: the C API's reg section beyond asc_load/asc_store and the binary operations — the
aligned loads and stores with their offset and post-update forms, LeakyRelu, the shifts,
Abs, the scalar forms, the logic on registers and masks, fills, reductions, asc_mem_bar — from a
kernel of ours in the C-API sample style, bit-exact against tests/reference."""

from __future__ import annotations

import numpy as np

from tests.reference import regvec as ref

KERNEL = """#include <cstdio>
#include <cstring>
#include "acl/acl.h"
#include "c_api/asc_simd.h"
__simd_vf__ inline void vf(__ubuf__ half* x, __ubuf__ int16_t* ic, __ubuf__ half* lr,
                           __ubuf__ half* half3, __ubuf__ int16_t* int6)
{
    vector_bool all = asc_create_mask_b16(PAT_ALL);
    vector_bool m;
    vector_half xr, yr;
    uint32_t count = 200;
    for (uint16_t i = 0; i < 2; ++i) {
        m = asc_update_mask_b16(count);
        asc_loadalign_postupdate(xr, x, 128);
        asc_leakyrelu(yr, xr, (half)0.25f, m);
        asc_storealign_postupdate(lr, yr, 128, all);
    }
    uint32_t n = 100;
    vector_bool m100 = asc_update_mask_b16(n);
    asc_mem_bar(VST_VLD);
    asc_loadalign(xr, lr, -256);
    asc_abs(yr, xr, m100);
    asc_storealign(half3, yr, all);
    asc_add_scalar(yr, xr, (half)1.5f, m100);
    asc_storealign(half3, yr, 128, all);
    vector_int16_t a, c, r;
    asc_loadalign(a, ic);
    asc_loadalign(c, ic, 128);
    asc_shiftleft(r, a, c, m100);
    asc_storealign(int6, r, all);
    asc_shiftright_scalar(r, a, (int16_t)3, m100);
    asc_storealign(int6 + 128, r, all);
    asc_and(r, a, c, m100);
    asc_storealign(int6 + 256, r, all);
    asc_not(r, a, all);
    asc_storealign(int6 + 384, r, all);
    asc_duplicate_scalar(r, (int16_t)7, m100);
    asc_storealign(int6 + 512, r, all);
    asc_loadalign_brc_elem(r, ic);
    asc_storealign(int6 + 640, r, all);
    asc_reduce_max(r, a, m100);
    asc_storealign(int6 + 768, r, all);
}
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR ic, GM_ADDR y)
{
    __ubuf__ half xs[256];
    __ubuf__ int16_t is[256];
    __ubuf__ half lr[256];
    __ubuf__ half h3[256];
    __ubuf__ int16_t i6[896];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)xs, (__gm__ void*)x, 512);
    asc_copy_gm2ub((__ubuf__ void*)is, (__gm__ void*)ic, 512);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vf(xs, is, lr, h3, i6);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)y, (__ubuf__ void*)lr, 512);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 512), (__ubuf__ void*)h3, 512);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 1024), (__ubuf__ void*)i6, 1792);
}
int main()
{
    uint8_t *xh, *ih, *yh, *x, *i, *y;
    aclInit(nullptr);
    aclrtMallocHost((void**)&xh, 512);
    aclrtMallocHost((void**)&ih, 512);
    aclrtMallocHost((void**)&yh, 2816);
    uint32_t r = 7;
    for (int k = 0; k < 512; ++k) { r = r * 1103515245u + 12345u; xh[k] = uint8_t(r >> 16); }
    for (int k = 0; k < 256; ++k) { r = r * 1103515245u + 12345u; ih[k] = uint8_t(r >> 16); }
    for (int k = 0; k < 128; ++k) ((int16_t*)ih)[128 + k] = int16_t(k % 19);  // counts 0..18
    uint16_t sp[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x3C00, 0xBC00, 0x0001};
    std::memcpy(xh, sp, sizeof(sp));
    aclrtMalloc((void**)&x, 512, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&i, 512, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, 2816, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, 512, xh, 512, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(i, 512, ih, 512, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(x, i, y);
    aclrtMemcpy(yh, 2816, y, 2816, ACL_MEMCPY_DEVICE_TO_HOST);
    std::FILE* f = std::fopen("c_out.bin", "wb");
    std::fwrite(xh, 1, 512, f);
    std::fwrite(ih, 1, 512, f);
    std::fwrite(yh, 1, 2816, f);
    std::fclose(f);
    return 0;
}
"""


def _half(x: float) -> np.float16:
    return np.float16(x)


def test_the_c_api_reg_compute_calls_are_bit_exact(pipev, tmp_path):
    src = tmp_path / "c.cpp"
    src.write_text(KERNEL)
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    raw = (tmp_path / "c_out.bin").read_bytes()
    x = np.frombuffer(raw[:512], np.float16)
    ints = np.frombuffer(raw[512:1024], np.int16)
    a, c = ints[:128], ints[128:]
    out = raw[1024:]
    on200 = np.arange(256) < 200
    lr = [ref.leaky_relu(v, 0.25, np.float16) if live else np.float16(0)
          for v, live in zip(x.tolist(), on200.tolist(), strict=True)]
    assert out[:512] == np.array(lr, np.float16).tobytes()
    y = np.frombuffer(out[:512], np.float16)[:128]  # what the VF loaded back
    on = np.arange(128) < 100
    absolute = np.where(on, y.view(np.uint16) & 0x7FFF, 0).astype(np.uint16)
    assert out[512:768] == absolute.tobytes()
    with np.errstate(all="ignore"):
        adds = [np.float16(float(v) + 1.5) if live else np.float16(0)
                for v, live in zip(y.tolist(), on.tolist(), strict=True)]
    assert out[768:1024] == np.array(adds, np.float16).tobytes()
    i6 = np.frombuffer(out[1024:], np.int16).reshape(7, 128)
    shl = [ref.shift(True, int(v), int(n), 16, True) if live else 0
           for v, n, live in zip(a.tolist(), c.tolist(), on.tolist(), strict=True)]
    assert i6[0].view(np.uint16).tolist() == shl
    assert i6[1].tolist() == np.where(on, a >> 3, 0).tolist()
    assert i6[2].tolist() == np.where(on, a & c, 0).tolist()
    assert i6[3].tolist() == (~a).tolist()
    assert i6[4].tolist() == np.where(on, 7, 0).tolist()
    assert i6[5].tolist() == [int(a[0])] * 128
    best = int(np.argmax(a[:100]))
    assert i6[6][:2].tolist() == [int(a[best]), best] and not i6[6][2:].any()


ADDRESSING = """#include <cstdio>
#include "acl/acl.h"
#include "c_api/asc_simd.h"
__simd_vf__ inline void vf(__ubuf__ float* z, __ubuf__ float* x, __ubuf__ uint8_t* m,
                           __ubuf__ float* w)
{
    vector_float a, b, c;
    vector_bool pick;
    vector_bool all = asc_create_mask_b32(PAT_ALL);
    addr_reg at;
    __ubuf__ uint32_t* bits = reinterpret_cast<__ubuf__ uint32_t*>(m);
    asc_duplicate_scalar(b, -1.0f, all);
    for (uint16_t i = 0; i < 4; ++i) {
        at = asc_update_addr_reg_b32(64);
        asc_loadalign(a, x, at);
        asc_loadalign_postupdate(pick, bits, 32);  // a MaskReg's offset counts bytes
        asc_select(c, a, b, pick);
        asc_storealign(z, c, at, all);
    }
    asc_loadalign_brc(a, x + 8);
    asc_storealign(w, a, all);
}
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR m, GM_ADDR y)
{
    __ubuf__ float xs[256];
    __ubuf__ uint8_t ms[128];
    __ubuf__ float zs[256];
    __ubuf__ float ws[64];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)xs, (__gm__ void*)x, 1024);
    asc_copy_gm2ub((__ubuf__ void*)ms, (__gm__ void*)m, 128);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_vf_call<vf>(zs, xs, ms, ws);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)y, (__ubuf__ void*)zs, 1024);
    asc_copy_ub2gm_sync((__gm__ void*)(y + 1024), (__ubuf__ void*)ws, 256);
}
int main()
{
    uint8_t *xh, *mh, *yh, *x, *m, *y;
    aclInit(nullptr);
    aclrtMallocHost((void**)&xh, 1024);
    aclrtMallocHost((void**)&mh, 128);
    aclrtMallocHost((void**)&yh, 1280);
    for (int k = 0; k < 256; ++k) ((float*)xh)[k] = float(k);
    for (int k = 0; k < 128; ++k) mh[k] = uint8_t(k * 37 + 11);
    aclrtMalloc((void**)&x, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&m, 128, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, 1280, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, 1024, xh, 1024, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(m, 128, mh, 128, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(x, m, y);
    aclrtMemcpy(yh, 1280, y, 1280, ACL_MEMCPY_DEVICE_TO_HOST);
    std::FILE* f = std::fopen("c_out.bin", "wb");
    std::fwrite(yh, 1, 1280, f);
    std::fclose(f);
    return 0;
}
"""


def test_addr_reg_mask_post_update_and_deprecated_names(pipev, tmp_path):
    """addr_reg steps one loop level (iteration × stride), a MaskReg load's post-update offset
    counts bytes (the MaskReg LoadAlign page), asc_loadalign_brc is brc_elem's older name."""
    src = tmp_path / "a.cpp"
    src.write_text(ADDRESSING)
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = (tmp_path / "c_out.bin").read_bytes()
    x = np.arange(256, dtype=np.float32)
    mask = (np.arange(128) * 37 + 11).astype(np.uint8)
    bits = np.unpackbits(mask, bitorder="little")[::4].astype(bool)  # bit 4k: float k
    want = np.where(bits, x, np.float32(-1))
    assert out[:1024] == want.tobytes()
    assert out[1024:] == np.full(64, 8.0, np.float32).tobytes()


NESTED = ADDRESSING.replace("asc_update_addr_reg_b32(64)", "asc_update_addr_reg_b32(64, 256)")


def test_a_nested_addr_reg_is_an_error_at_its_line(pipev, tmp_path):
    src = tmp_path / "n.cpp"
    src.write_text(NESTED)
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 1
    assert "n.cpp:14:" in proc.stderr and "one loop level" in proc.stderr


REGISTER_GATHER = """#include <cstdio>
#include "acl/acl.h"
#include "c_api/asc_simd.h"
__simd_vf__ inline void vf(__ubuf__ half* x, __ubuf__ uint16_t* ix, __ubuf__ half* y)
{
    vector_bool all = asc_create_mask_b16(PAT_ALL);
    vector_half xr, yr;
    vector_uint16_t ir;
    asc_loadalign(xr, x);
    asc_loadalign(ir, ix);
    asc_gather(yr, xr, ir);
    asc_storealign(y, yr, all);
}
__global__ __aicore__ void k(__gm__ half* x, __gm__ uint16_t* ix, __gm__ half* y)
{
    __ubuf__ half xs[128];
    __ubuf__ uint16_t is[128];
    __ubuf__ half ys[128];
    asc_init();
    asc_copy_gm2ub_align(xs, x, 256);
    asc_copy_gm2ub_align(is, ix, 256);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vf(xs, is, ys);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_align_sync(y, ys, 256);
}
int main()
{
    uint16_t *xh, *ih, *yh, *x, *i, *y;
    aclInit(nullptr);
    aclrtMallocHost((void**)&xh, 256);
    aclrtMallocHost((void**)&ih, 256);
    aclrtMallocHost((void**)&yh, 256);
    for (int k = 0; k < 128; ++k) {
        xh[k] = uint16_t(0x3C00 + 3 * k);
        ih[k] = uint16_t((k * 45) % 128);
    }
    xh[5] = 0x7E00; xh[6] = 0x8000;  // a NaN and -0 travel as bits
    aclrtMalloc((void**)&x, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&i, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, 256, xh, 256, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(i, 256, ih, 256, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>((half*)x, i, (half*)y);
    aclrtMemcpy(yh, 256, y, 256, ACL_MEMCPY_DEVICE_TO_HOST);
    std::FILE* f = std::fopen("c_out.bin", "wb");
    std::fwrite(yh, 1, 256, f);
    std::fclose(f);
    return 0;
}
"""


def test_the_register_gather_takes_each_element_from_its_index(pipev, tmp_path):
    """asc_gather(dst, src, index) of registers (its page's second group): dst[i] =
    src[index[i]]."""
    src = tmp_path / "g.cpp"
    src.write_text(REGISTER_GATHER)
    proc = pipev("run", "--chip", "ascend950", "--werror", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    x = (0x3C00 + 3 * np.arange(128)).astype(np.uint16)
    x[5], x[6] = 0x7E00, 0x8000
    index = (np.arange(128) * 45) % 128
    assert (tmp_path / "c_out.bin").read_bytes() == x[index].tobytes()
