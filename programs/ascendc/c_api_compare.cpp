// The C API (c_api/asc_simd.h) on `__ubuf__` arrays: asc_ne into CMPMASK read back with
// asc_get_cmp_mask, asc_lt into UB bits, and asc_select choosing by CMPMASK; launched with
// `<<<>>>` from a host main using the acl runtime. One command:
//     pipev run programs/ascendc/c_api_compare.cpp
// writes c_api_compare_in_{x,y}.bin and c_api_compare_out_{ne,lt,sel}.bin here.
#include <vector>

#include "acl/acl.h"
#include "c_api/asc_simd.h"
#include "data_utils.h"

constexpr uint32_t LEN = 128;  // halves: one repeat

__global__ __aicore__ void c_api_compare(GM_ADDR x, GM_ADDR y, GM_ADDR ne, GM_ADDR lt, GM_ADDR z)
{
    __ubuf__ half a[LEN];
    __ubuf__ half b[LEN];
    __ubuf__ uint8_t neBits[32];
    __ubuf__ uint8_t ltBits[32];  // copies move whole 32-byte blocks
    __ubuf__ half out[LEN];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)a, (__gm__ void*)x, LEN * sizeof(half));
    asc_copy_gm2ub((__ubuf__ void*)b, (__gm__ void*)y, LEN * sizeof(half));
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);

    asc_duplicate((uint16_t*)neBits, (uint16_t)0, 16);
    asc_duplicate((uint16_t*)ltBits, (uint16_t)0, 16);
    asc_ne(a, b, 1, 1, 1, 1, 8, 8, 8);  // a != b into CMPMASK (128 bits)
    asc_get_cmp_mask(neBits);
    asc_lt(ltBits, a, b, 1, 1, 1, 1, 8, 8, 8);  // a < b into UB
    asc_select(out, a, b, LEN);                 // CMPMASK (a != b) ? a : b

    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm((__gm__ void*)ne, (__ubuf__ void*)neBits, 32);
    asc_copy_ub2gm((__gm__ void*)lt, (__ubuf__ void*)ltBits, 32);
    asc_copy_ub2gm_sync((__gm__ void*)z, (__ubuf__ void*)out, LEN * sizeof(half));
}

int main()
{
    size_t bytes = LEN * sizeof(half);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t *xHost, *yHost, *x, *y, *ne, *lt, *z;
    aclrtMallocHost((void**)&xHost, bytes);
    aclrtMallocHost((void**)&yHost, bytes);
    demo::FillGrid((half*)xHost, LEN, 51);
    demo::FillGrid((half*)yHost, LEN, 52);
    for (uint32_t i = 0; i < LEN; i += 3) ((half*)yHost)[i] = ((half*)xHost)[i];
    aclrtMalloc((void**)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&ne, 32, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&lt, 32, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);

    c_api_compare<<<1, nullptr, stream>>>(x, y, ne, lt, z);
    aclrtSynchronizeStream(stream);

    std::vector<uint8_t> neHost(32), ltHost(32), zHost(bytes);
    aclrtMemcpy(neHost.data(), 32, ne, 32, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(ltHost.data(), 32, lt, 32, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(zHost.data(), bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = demo::WriteFile("c_api_compare_in_x.bin", xHost, bytes) &&
              demo::WriteFile("c_api_compare_in_y.bin", yHost, bytes) &&
              demo::WriteFile("c_api_compare_out_ne.bin", neHost.data(), 16) &&
              demo::WriteFile("c_api_compare_out_lt.bin", ltHost.data(), LEN / 8) &&
              demo::WriteFile("c_api_compare_out_sel.bin", zHost.data(), bytes);
    for (uint8_t* p : {x, y, ne, lt, z}) aclrtFree(p);
    aclrtFreeHost(xHost);
    aclrtFreeHost(yHost);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return ok ? 0 : 1;
}
