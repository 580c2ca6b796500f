"""Issue 34, item 6: the same reg-based kernel in both C++ faces — AscendC's `Reg::` calls and
the C API's reg calls — for half, float and int32_t: Compare (GT) into a MaskReg under an
UpdateMask tail, Select with it, and a masked max (Reduce MAX) under a MaskPattern (VL16) mask;
bit-exact against tests/reference, with ±0, ±inf and NaN in the compared lanes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.reference import regvec as ref

VF = {
    "ascendc": """template <class T>
__simd_vf__ inline void VF(__ubuf__ T* z, __ubuf__ T* m, __ubuf__ T* x, __ubuf__ T* y, uint32_t n)
{
    constexpr uint32_t per = AscendC::GetVecLen() / sizeof(T);
    AscendC::Reg::RegTensor<T> a, b, c, r;
    AscendC::Reg::MaskReg mask, gt;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<T>();
    AscendC::Reg::MaskReg head = AscendC::Reg::CreateMask<T, AscendC::Reg::MaskPattern::VL16>();
    for (uint16_t i = 0; i < 2; ++i) {
        mask = AscendC::Reg::UpdateMask<T>(n);
        AscendC::Reg::LoadAlign(a, x + i * per);
        AscendC::Reg::LoadAlign(b, y + i * per);
        AscendC::Reg::Compare<T, AscendC::CMPMODE::GT>(gt, a, b, mask);
        AscendC::Reg::Select(c, a, b, gt);
        AscendC::Reg::StoreAlign(z + i * per, c, all);
        AscendC::Reg::Reduce<AscendC::ReduceType::MAX>(r, c, head);
        AscendC::Reg::StoreAlign(m + i * per, r, all);
    }
}
#define MASK_OF(T) 0
""",
    "c_api": """template <class T> vector_bool all_of();
template <> vector_bool all_of<half>() { return asc_create_mask_b16(PAT_ALL); }
template <> vector_bool all_of<float>() { return asc_create_mask_b32(PAT_ALL); }
template <> vector_bool all_of<int32_t>() { return asc_create_mask_b32(PAT_ALL); }
template <class T> vector_bool head_of();
template <> vector_bool head_of<half>() { return asc_create_mask_b16(PAT_VL16); }
template <> vector_bool head_of<float>() { return asc_create_mask_b32(PAT_VL16); }
template <> vector_bool head_of<int32_t>() { return asc_create_mask_b32(PAT_VL16); }
template <class T> vector_bool tail_of(uint32_t& n) {
    if constexpr (sizeof(T) == 2) return asc_update_mask_b16(n); else return asc_update_mask_b32(n);
}
template <class T>
__simd_vf__ inline void VF(__ubuf__ T* z, __ubuf__ T* m, __ubuf__ T* x, __ubuf__ T* y, uint32_t n)
{
    constexpr uint32_t per = asc_get_vf_len() / sizeof(T);
    AscendC::Reg::RegTensor<T> a, b, c, r;
    vector_bool mask, gt;
    vector_bool all = all_of<T>();
    vector_bool head = head_of<T>();
    for (uint16_t i = 0; i < 2; ++i) {
        mask = tail_of<T>(n);
        asc_loadalign(a, x + i * per);
        asc_loadalign(b, y + i * per);
        asc_gt(gt, a, b, mask);
        asc_select(c, a, b, gt);
        asc_storealign(z + i * per, c, all);
        asc_reduce_max(r, c, head);
        asc_storealign(m + i * per, r, all);
    }
}
""",
}
KERNEL = """#include <cstdio>
#include "acl/acl.h"
#include "{header}"
{vf}
template <class T>
__aicore__ inline void one(GM_ADDR in, GM_ADDR out, uint32_t n)
{{
    __ubuf__ T x[512 / sizeof(T)];
    __ubuf__ T y[512 / sizeof(T)];
    __ubuf__ T z[512 / sizeof(T)];
    __ubuf__ T m[512 / sizeof(T)];
    asc_copy_gm2ub((__ubuf__ void*)x, (__gm__ void*)in, 512);
    asc_copy_gm2ub((__ubuf__ void*)y, (__gm__ void*)(in + 512), 512);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_vf_call<VF<T>>(z, m, x, y, n);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)out, (__ubuf__ void*)z, 512);
    asc_copy_ub2gm_sync((__gm__ void*)(out + 512), (__ubuf__ void*)m, 512);
    asc_sync_notify(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    asc_sync_wait(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
}}
__global__ __aicore__ void k(GM_ADDR in, GM_ADDR out)
{{
    asc_init();
    one<half>(in, out, 200);
    one<float>(in + 1024, out + 1024, 100);
    one<int32_t>(in + 2048, out + 2048, 70);
}}
int main()
{{
    uint8_t *ih, *oh, *i, *o;
    aclInit(nullptr);
    aclrtMallocHost((void**)&ih, 3072);
    aclrtMallocHost((void**)&oh, 3072);
    std::FILE* f = std::fopen("in.bin", "rb");
    if (!f || std::fread(ih, 1, 3072, f) != 3072) return 2;
    std::fclose(f);
    aclrtMalloc((void**)&i, 3072, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&o, 3072, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(i, 3072, ih, 3072, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(i, o);
    aclrtMemcpy(oh, 3072, o, 3072, ACL_MEMCPY_DEVICE_TO_HOST);
    f = std::fopen("out.bin", "wb");
    std::fwrite(oh, 1, 3072, f);
    std::fclose(f);
    return 0;
}}
"""
CASES = ((np.float16, 200, [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x3C00]),
         (np.float32, 100, [0x0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x3F800000]),
         (np.int32, 70, [0, -1, 2**31 - 1, -2**31, 5, 7]))


def inputs(rng) -> bytes:
    out = b""
    for t, _, specials in CASES:
        n = 512 // np.dtype(t).itemsize
        if np.dtype(t).kind == "f":
            x, y = ((rng.integers(-40, 40, n) / 4).astype(t) for _ in range(2))
            raw = np.dtype(t).itemsize * 8
            bits = np.array(specials, np.uint16 if raw == 16 else np.uint32).view(t)
        else:
            x, y = (rng.integers(-1000, 1000, n).astype(t) for _ in range(2))
            bits = np.array(specials, t)
        x[20:20 + bits.size], y[20:20 + bits.size] = bits, bits[::-1]  # after the VL16 head
        y[::7] = x[::7]  # ties: GT is false there
        out += x.tobytes() + y.tobytes()
    return out


def expected(raw_in: bytes) -> bytes:
    out = b""
    for k, (t, count, _) in enumerate(CASES):
        n = 512 // np.dtype(t).itemsize
        per = n // 2
        x = np.frombuffer(raw_in[1024 * k:1024 * k + 512], t)
        y = np.frombuffer(raw_in[1024 * k + 512:1024 * (k + 1)], t)
        z, m = [], []
        for i in range(2):
            sl = slice(i * per, (i + 1) * per)
            active = ref.mask_first(per, max(0, count - i * per))
            c = ref.compare_select(x[sl], y[sl], "gt", active, y[sl])
            z.append(c)
            best = int(np.argmax(c[:16]))  # finite, no ±0 ties in the VL16 head
            r = np.zeros(per, t)
            r[0] = c[best]
            r[1:2] = np.array([best], np.uint64).astype(
                {2: np.uint16, 4: np.uint32}[np.dtype(t).itemsize]).view(t)
            m.append(r)
        out += np.concatenate(z).tobytes() + np.concatenate(m).tobytes()
    return out


@pytest.mark.parametrize("face", ["ascendc", "c_api"])
def test_compare_select_and_a_masked_max_in_both_faces(pipev, tmp_path, face):
    header = "kernel_operator.h" if face == "ascendc" else "c_api/asc_simd.h"
    src = tmp_path / f"{face}.cpp"
    text = KERNEL.format(header=header, vf=VF[face])
    if face == "ascendc":
        text = text.replace('#include "kernel_operator.h"',
                            '#include "kernel_operator.h"\n#include "c_api/asc_simd.h"')
    src.write_text(text)
    raw_in = inputs(np.random.default_rng(34))
    (tmp_path / "in.bin").write_bytes(raw_in)
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out.bin").read_bytes() == expected(raw_in)
