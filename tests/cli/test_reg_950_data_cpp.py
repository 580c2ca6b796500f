"""Issue 34: the Reg pages' 8-bit Scatter / Gather (16-bit indices) and ReduceDataBlock's
int16 → int32 SUM from C++, bit-exact against tests/reference/regvec_data.py."""

from __future__ import annotations

import numpy as np

from tests.reference.regvec_data import (
    gather_bytes_widened,
    scatter_bytes,
    widening_block_sums,
)

KERNEL = """#include "acl/acl.h"
#include "kernel_operator.h"
__simd_vf__ inline void DataVF(__ubuf__ int8_t* x, __ubuf__ uint16_t* ix, __ubuf__ int8_t* sc,
                               __ubuf__ int16_t* g, __ubuf__ int16_t* h, __ubuf__ int32_t* r)
{
    AscendC::Reg::MaskReg all8 = AscendC::Reg::CreateMask<int8_t>();
    AscendC::Reg::MaskReg all16 = AscendC::Reg::CreateMask<uint16_t>();
    AscendC::Reg::MaskReg all32 = AscendC::Reg::CreateMask<int32_t>();
    AscendC::Reg::RegTensor<int8_t> xReg;
    AscendC::Reg::RegTensor<uint16_t> iReg;
    AscendC::Reg::RegTensor<int16_t> gReg, hReg;
    AscendC::Reg::RegTensor<int32_t> rReg;
    AscendC::Reg::LoadAlign(xReg, x);
    AscendC::Reg::LoadAlign(iReg, ix);
    AscendC::Reg::Scatter(sc, xReg, iReg, all16);
    AscendC::Reg::Gather(gReg, x, iReg, all16);
    AscendC::Reg::StoreAlign(g, gReg, all16);
    AscendC::Reg::LoadAlign(hReg, h);
    AscendC::Reg::ReduceDataBlock<AscendC::ReduceType::SUM>(rReg, hReg, all16);
    AscendC::Reg::StoreAlign(r, rReg, all32);
}
__global__ __vector__ void k(GM_ADDR in, GM_ADDR out)
{
    AscendC::GlobalTensor<uint8_t> inGm, outGm;
    inGm.SetGlobalBuffer((__gm__ uint8_t*)in, 768);
    outGm.SetGlobalBuffer((__gm__ uint8_t*)out, 768);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<uint8_t> a = ub.Alloc<uint8_t, 768>();
    AscendC::LocalTensor<uint8_t> b = ub.Alloc<uint8_t, 768>();
    AscendC::Duplicate(b, (uint8_t)0, 768);
    AscendC::DataCopy(a, inGm, 768);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    __ubuf__ uint8_t* pa = (__ubuf__ uint8_t*)a.GetPhyAddr();
    __ubuf__ uint8_t* pb = (__ubuf__ uint8_t*)b.GetPhyAddr();
    asc_vf_call<DataVF>((__ubuf__ int8_t*)pa, (__ubuf__ uint16_t*)(pa + 256), (__ubuf__ int8_t*)pb,
                        (__ubuf__ int16_t*)(pb + 256), (__ubuf__ int16_t*)(pa + 512),
                        (__ubuf__ int32_t*)(pb + 512));
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(outGm, b, 768);
}
int main()
{
    uint8_t *ih, *oh, *i, *o;
    aclInit(nullptr);
    aclrtMallocHost((void**)&ih, 768);
    aclrtMallocHost((void**)&oh, 768);
    uint32_t r = 5;
    for (int k = 0; k < 768; ++k) { r = r * 1103515245u + 12345u; ih[k] = uint8_t(r >> 16); }
    for (int k = 0; k < 128; ++k) {  // distinct indices: 2k + 1 reversed, within 256 bytes
        uint16_t v = uint16_t(255 - 2 * k);
        std::memcpy(ih + 256 + 2 * k, &v, 2);
    }
    aclrtMalloc((void**)&i, 768, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&o, 768, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(i, 768, ih, 768, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(i, o);
    aclrtMemcpy(oh, 768, o, 768, ACL_MEMCPY_DEVICE_TO_HOST);
    std::FILE* f = std::fopen("d_out.bin", "wb");
    std::fwrite(ih, 1, 768, f);
    std::fwrite(oh, 1, 768, f);
    std::fclose(f);
    return 0;
}
"""


def test_8_bit_scatter_gather_and_the_widening_block_sum_are_bit_exact(pipev, tmp_path):
    src = tmp_path / "d.cpp"
    src.write_text(KERNEL)
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    raw = (tmp_path / "d_out.bin").read_bytes()
    inp, out = raw[:768], raw[768:]
    x, idx, h = inp[:256], list(map(int, np.frombuffer(inp[256:512], "<u2"))), inp[512:]
    on = [True] * 128
    assert out[:256] == bytes(scatter_bytes(bytearray(256), 0, x, idx, on))
    assert out[256:512] == gather_bytes_widened(x, 0, idx, on)
    assert out[512:768] == widening_block_sums(h, bytes([0x55]) * 32, True)


C_API = """#include "acl/acl.h"
#include "c_api/asc_simd.h"
__simd_vf__ inline void vf(__ubuf__ uint8_t* x, __ubuf__ uint16_t* ix, __ubuf__ uint8_t* sc,
                           __ubuf__ uint16_t* g, __ubuf__ uint16_t* h, __ubuf__ uint32_t* r)
{
    vector_bool all16 = asc_create_mask_b16(PAT_ALL);
    vector_bool all32 = asc_create_mask_b32(PAT_ALL);
    vector_uint8_t xr;
    vector_uint16_t ir, gr, hr;
    vector_uint32_t rr;
    asc_load(xr, x);
    asc_load(ir, ix);
    asc_scatter(sc, xr, ir, all16);
    asc_gather(gr, x, ir, all16);
    asc_store(g, gr, all16);
    asc_load(hr, h);
    asc_reduce_sum_datablock(rr, hr, all16);
    asc_store(r, rr, all32);
}
__global__ __aicore__ void k(GM_ADDR in, GM_ADDR out)
{
    __ubuf__ uint8_t a[768];
    __ubuf__ uint8_t b[768];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)a, (__gm__ void*)in, 768);
    asc_copy_gm2ub((__ubuf__ void*)b, (__gm__ void*)(in + 768), 768);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vf(a, (__ubuf__ uint16_t*)(a + 256), b, (__ubuf__ uint16_t*)(b + 256),
       (__ubuf__ uint16_t*)(a + 512), (__ubuf__ uint32_t*)(b + 512));
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)out, (__ubuf__ void*)b, 768);
}
int main()
{
    uint8_t *ih, *oh, *i, *o;
    aclInit(nullptr);
    aclrtMallocHost((void**)&ih, 1536);
    aclrtMallocHost((void**)&oh, 768);
    uint32_t r = 11;
    for (int k = 0; k < 1536; ++k) { r = r * 1103515245u + 12345u; ih[k] = uint8_t(r >> 16); }
    for (int k = 0; k < 768; ++k) ih[768 + k] = 0;
    for (int k = 0; k < 128; ++k) {
        uint16_t v = uint16_t((k * 37) % 256);  // distinct: 37 is odd
        std::memcpy(ih + 256 + 2 * k, &v, 2);
    }
    aclrtMalloc((void**)&i, 1536, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&o, 768, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(i, 1536, ih, 1536, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>(i, o);
    aclrtMemcpy(oh, 768, o, 768, ACL_MEMCPY_DEVICE_TO_HOST);
    std::FILE* f = std::fopen("c_out.bin", "wb");
    std::fwrite(ih, 1, 768, f);
    std::fwrite(oh, 1, 768, f);
    std::fclose(f);
    return 0;
}
"""


def test_the_c_api_faces_are_bit_exact(pipev, tmp_path):
    """asc_scatter of uint8_t with a uint16_t index, asc_gather of uint16_t from uint8_t UB and
    asc_reduce_sum_datablock(vector_uint32_t&, vector_uint16_t), as the C API pages list them."""
    src = tmp_path / "c.cpp"
    src.write_text(C_API)
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    raw = (tmp_path / "c_out.bin").read_bytes()
    inp, out = raw[:768], raw[768:]
    x, idx, h = inp[:256], list(map(int, np.frombuffer(inp[256:512], "<u2"))), inp[512:]
    on = [True] * 128
    assert out[:256] == bytes(scatter_bytes(bytearray(256), 0, x, idx, on))
    assert out[256:512] == gather_bytes_widened(x, 0, idx, on)
    assert out[512:768] == widening_block_sums(h, bytes([0x55]) * 32, False)
