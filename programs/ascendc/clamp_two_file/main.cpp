/*
 * main.cpp: the host of a two-file project (the kernel and its wrapper are in
 * clamp_custom.cpp, a second translation unit): inputs, tiling, launch, outputs written as
 * clamp_two_file_{in_x,out_z}.bin in the current directory.
 * Run: pipev run programs/ascendc/clamp_two_file/main.cpp programs/ascendc/clamp_two_file/clamp_custom.cpp
 */
#include "../data_utils.h"
#include "acl/acl.h"
#include "clamp_tiling.h"

void clamp_custom_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *z, uint8_t *tiling);

int32_t main()
{
    constexpr uint32_t blockDim = 4, total = 4 * 1024;
    size_t bytes = total * sizeof(float);
    aclInit(nullptr);
    aclrtSetDevice(0);
    float *xHost, *zHost;
    uint8_t *x, *z, *tiling;
    aclrtMallocHost((void **)&xHost, bytes);
    aclrtMallocHost((void **)&zHost, bytes);
    aclrtMalloc((void **)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&tiling, sizeof(ClampTiling), ACL_MEM_MALLOC_HUGE_FIRST);
    demo::FillGrid(xHost, total, 91);
    ClampTiling t{total / blockDim, 256, -2.5f, 3.0f};
    aclrtMemcpy(x, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(tiling, sizeof t, &t, sizeof t, ACL_MEMCPY_HOST_TO_DEVICE);
    clamp_custom_do(blockDim, nullptr, x, z, tiling);
    aclrtSynchronizeDevice();
    aclrtMemcpy(zHost, bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = demo::WriteFile("clamp_two_file_in_x.bin", xHost, bytes) &&
              demo::WriteFile("clamp_two_file_out_z.bin", zHost, bytes);
    aclrtFree(x);
    aclrtFree(z);
    aclrtFree(tiling);
    aclrtFreeHost(xHost);
    aclrtFreeHost(zHost);
    aclFinalize();
    return ok ? 0 : 1;
}
