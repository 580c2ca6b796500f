// The C API's reg section on ascend950 (run with --chip ascend950): a __simd_vf__ function keeps
// the larger of two half tensors (asc_gt into a vector_bool, then asc_select), over a
// 320-element tail that asc_update_mask_b16 trims. One command:
//     pipev run --chip ascend950 programs/ascendc/c_api_reg_max.cpp
// writes c_api_reg_max_in_{x,y}.bin and c_api_reg_max_out_z.bin here.
#include "acl/acl.h"
#include "c_api/asc_simd.h"
#include "data_utils.h"

constexpr uint32_t LEN = 320;     // halves computed: two full registers of 128 and a tail of 64
constexpr uint32_t PADDED = 384;  // halves copied in: whole registers

__simd_vf__ inline void max_vf(__ubuf__ half* z, __ubuf__ half* x, __ubuf__ half* y, uint32_t n)
{
    uint16_t per = asc_get_vf_len() / sizeof(half);
    uint16_t reps = (n + per - 1) / per;
    vector_bool mask;
    vector_bool bigger;
    vector_half a;
    vector_half b;
    vector_half c;
    for (uint16_t i = 0; i < reps; ++i) {
        mask = asc_update_mask_b16(n);
        asc_load(a, x + i * per);
        asc_load(b, y + i * per);
        asc_gt(bigger, a, b, mask);
        asc_select(c, a, b, bigger);
        asc_store(z + i * per, c, mask);
    }
}

__global__ __aicore__ void c_api_reg_max(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    __ubuf__ half a[PADDED];
    __ubuf__ half b[PADDED];
    __ubuf__ half out[PADDED];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)a, (__gm__ void*)x, PADDED * sizeof(half));
    asc_copy_gm2ub((__ubuf__ void*)b, (__gm__ void*)y, PADDED * sizeof(half));
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    max_vf(out, a, b, LEN);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)z, (__ubuf__ void*)out, LEN * sizeof(half));
}

int main()
{
    size_t bytes = PADDED * sizeof(half);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t *xHost, *yHost, *zHost, *x, *y, *z;
    aclrtMallocHost((void**)&xHost, bytes);
    aclrtMallocHost((void**)&yHost, bytes);
    aclrtMallocHost((void**)&zHost, bytes);
    demo::FillGrid((half*)xHost, PADDED, 81);
    demo::FillGrid((half*)yHost, PADDED, 82);
    aclrtMalloc((void**)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    c_api_reg_max<<<1, nullptr, stream>>>(x, y, z);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(zHost, bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = demo::WriteFile("c_api_reg_max_in_x.bin", xHost, bytes) &&
              demo::WriteFile("c_api_reg_max_in_y.bin", yHost, bytes) &&
              demo::WriteFile("c_api_reg_max_out_z.bin", zHost, LEN * sizeof(half));
    for (uint8_t* p : {x, y, z}) aclrtFree(p);
    for (uint8_t* p : {xHost, yHost, zHost}) aclrtFreeHost(p);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return ok ? 0 : 1;
}
