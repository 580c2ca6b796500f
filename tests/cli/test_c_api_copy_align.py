"""The C API's byte-granular copies asc_copy_gm2ub_align / asc_copy_ub2gm_align (size forms and
ascend950's high-dimensional forms with head-to-head strides, padding with asc_set_copy_pad_val,
the loop-mode registers) and asc_lock / asc_unlock, from a kernel of ours in the C-API sample
style, byte-exact against numpy; the strides pipev does not model are errors at the call."""

from __future__ import annotations

import numpy as np
import pytest

KERNEL = """#include <cstdio>
#include "acl/acl.h"
#include "c_api/asc_simd.h"
__global__ __aicore__ void k(__gm__ int16_t* x, __gm__ int16_t* y)
{
    __ubuf__ int16_t a[64];
    __ubuf__ int16_t b[64];
    asc_init();
    asc_set_copy_pad_val((int16_t)-7);
    asc_copy_gm2ub_align(a, x, 2, 20, 2, 4, true, asc_load_l2_cache_mode::NORMAL_FIRST_VICTIM,
                         40, 64);
    asc_set_gm2ub_loop_size(2, 2);
    asc_set_gm2ub_loop1_stride(64, 32);
    asc_set_gm2ub_loop2_stride(256, 64);
    asc_copy_gm2ub_align(b, x, 1, 32, 0, 0, false, asc_load_l2_cache_mode::NORMAL_FIRST_VICTIM,
                         0, 0);
    asc_set_gm2ub_loop_size(1, 1);
    asc_sync_notify(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    asc_lock(PIPE_MTE3, 1);
    asc_copy_ub2gm_align(y, a, 2, 32, asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM, 32, 64);
    asc_copy_ub2gm_align(y + 32, b, 128);
    asc_unlock(PIPE_MTE3, 1);
    asc_set_ub2gm_loop_size(2, 1);
    asc_set_ub2gm_loop1_stride(64, 100);
    asc_copy_ub2gm_align(y + 96, b, 1, 20, asc_store_l2_cache_mode::NORMAL_LAST_VICTIM, 0, 0);
    asc_set_ub2gm_loop_size(1, 1);
    asc_sync();
}
int main()
{
    int16_t *xh, *yh, *x, *y;
    aclInit(nullptr);
    aclrtMallocHost((void**)&xh, 512);
    aclrtMallocHost((void**)&yh, 512);
    for (int i = 0; i < 256; ++i) { xh[i] = int16_t(i * 37 - 4000); yh[i] = 0; }
    aclrtMalloc((void**)&x, 512, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, 512, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, 512, xh, 512, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, 512, yh, 512, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(x, y);
    aclrtMemcpy(yh, 512, y, 512, ACL_MEMCPY_DEVICE_TO_HOST);
    std::FILE* f = std::fopen("c_out.bin", "wb");
    std::fwrite(yh, 1, 512, f);
    std::fclose(f);
    return 0;
}
"""


def _expected() -> bytes:
    x = (np.arange(256) * 37 - 4000).astype(np.int16).tobytes()
    y = bytearray(512)
    pad = np.array([-7], np.int16).tobytes()
    for n in range(2):  # 2 bursts of 20 bytes, 40 apart in GM, 2 + 4 pads, 64 apart in UB
        burst = pad * 2 + x[40 * n:40 * n + 20] + pad * 4
        y[32 * n:32 * n + 32] = burst  # copied out 32 bytes of each, packed
    b = bytearray(128)
    for j in range(2):  # loop 2 outer (GM 256, UB 64 apart), loop 1 inner (GM 64, UB 32)
        for i in range(2):
            s, d = 64 * i + 256 * j, 32 * i + 64 * j
            b[d:d + 32] = x[s:s + 32]
    y[64:192] = b
    for i in range(2):  # out of b: 20 bytes per iteration, UB 64 and GM 100 apart
        y[192 + 100 * i:212 + 100 * i] = b[64 * i:64 * i + 20]
    return bytes(y)


def test_the_align_copies_and_their_loop_mode_are_byte_exact(pipev, tmp_path):
    src = tmp_path / "c.cpp"
    src.write_text(KERNEL)
    proc = pipev("run", "--chip", "ascend950", "--werror", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "c_out.bin").read_bytes() == _expected()


@pytest.mark.parametrize(("call", "message"), [
    ("asc_copy_gm2ub_align(a, x, 2, 20, 2, 4, true, asc_load_l2_cache_mode::NORMAL_FIRST_VICTIM,"
     " 40, 48);", "dst_stride = 48 with 2 bursts each taking 32 bytes"),
    ("asc_copy_gm2ub_align(a, x, 1, 20, 2, 0, false, 0, 0, 0);",
     "padding with the burst's first value"),
])
def test_what_pipev_does_not_model_is_an_error_at_the_call(pipev, tmp_path, call, message):
    first = "    asc_set_copy_pad_val((int16_t)-7);\n"
    kernel = KERNEL.replace(first, f"    {call}\n{first}")
    src = tmp_path / "c.cpp"
    src.write_text(kernel)
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 1
    assert "c.cpp:9:5: error:" in proc.stderr and message in proc.stderr, proc.stderr


VECTOR_CAST = """#include <cstdio>
#include "acl/acl.h"
#include "c_api/asc_simd.h"
__simd_vf__ inline void vf(__ubuf__ float* x, __ubuf__ int16_t* y)
{
    vector_bool all = asc_create_mask_b32(PAT_ALL);
    vector_float xr;
    vector_int16_t yr;
    asc_loadalign(xr, x);
    asc_float2int16_rna_sat(yr, xr, all);
    asc_storealign_pack((__ubuf__ int32_t*)y, (vector_int32_t)yr, all);
}
__global__ __aicore__ void k(__gm__ float* x, __gm__ int16_t* y)
{
    __ubuf__ float xs[64];
    __ubuf__ int16_t ys[128];
    asc_init();
    asc_copy_gm2ub_align(xs, x, 256);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vf(xs, ys);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_align_sync(y, ys, 128);
}
int main()
{
    float *xh, *x;
    int16_t *yh, *y;
    aclInit(nullptr);
    aclrtMallocHost((void**)&xh, 256);
    aclrtMallocHost((void**)&yh, 128);
    for (int i = 0; i < 64; ++i) xh[i] = (i - 32) * 1.25f;
    xh[0] = 1e6f; xh[1] = -1e6f; xh[2] = 2.5f; xh[3] = -2.5f; xh[4] = 0.5f;
    aclrtMalloc((void**)&x, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, 128, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, 256, xh, 256, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(x, y);
    aclrtMemcpy(yh, 128, y, 128, ACL_MEMCPY_DEVICE_TO_HOST);
    std::FILE* f = std::fopen("c_out.bin", "wb");
    std::fwrite(yh, 1, 128, f);
    std::fclose(f);
    return 0;
}
"""


def test_a_vector_cast_names_the_same_register_as_another_type(pipev, tmp_path):
    """`(vector_int32_t)reg`, as the vendor's C-API cast sample stores a narrowed register: no
    instruction, the register's bits as int32 lanes, packed to their low halves."""
    src = tmp_path / "c.cpp"
    src.write_text(VECTOR_CAST)
    proc = pipev("run", "--chip", "ascend950", "--werror", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    x = (np.arange(64) - 32) * 1.25
    x[:5] = [1e6, -1e6, 2.5, -2.5, 0.5]
    rna = np.sign(x) * np.floor(np.abs(x) + 0.5)  # to nearest, ties away from zero
    expected = np.clip(rna, -32768, 32767).astype(np.int16)
    assert (tmp_path / "c_out.bin").read_bytes() == expected.tobytes()
