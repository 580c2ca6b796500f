/*
 * main.cpp: the host side of the sample directory (the vendor's kernel-launch layout): acl
 * device memory, the launch through add_custom_do (in add_custom.cpp), the result written
 * beside its inputs as add_sample_{in_x,in_y,out_z}.bin in the current directory.
 * Run: pipev run programs/ascendc/add_sample
 */
#include "../data_utils.h"
#include "acl/acl.h"

extern void add_custom_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *z);

#define CHECK_ACL(x)                                                                      \
    do {                                                                                  \
        aclError __ret = x;                                                               \
        if (__ret != ACL_ERROR_NONE) std::fprintf(stderr, "%s: aclError %d\n", #x, __ret); \
    } while (0)

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 8;
    constexpr size_t count = 8 * 2048;
    size_t bytes = count * sizeof(half);
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    half *xHost, *yHost, *zHost;
    uint8_t *xDevice, *yDevice, *zDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), bytes));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), bytes));
    CHECK_ACL(aclrtMallocHost((void **)(&zHost), bytes));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&zDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    demo::FillGrid(xHost, count, 71);
    demo::FillGrid(yHost, count, 72);
    CHECK_ACL(aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(yDevice, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    add_custom_do(blockDim, stream, xDevice, yDevice, zDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(zHost, bytes, zDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    bool ok = demo::WriteFile("add_sample_in_x.bin", xHost, bytes) &&
              demo::WriteFile("add_sample_in_y.bin", yHost, bytes) &&
              demo::WriteFile("add_sample_out_z.bin", zHost, bytes);

    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(zDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtFreeHost(zHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    return ok ? 0 : 1;
}
