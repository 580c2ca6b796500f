// A host program launching sync_all_sum.cpp's kernel on 4 cores with <<<4, nullptr, stream>>>
// through the acl runtime, twice; prints the total core 0 wrote to y[0] after the SyncAll.
#include <cstdio>

#include "acl/acl.h"
#include "sync_all_sum.cpp"

int main()
{
    constexpr uint32_t cores = 4, n = cores * kSlice;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    float *xHost, *yHost;
    uint8_t *x, *work, *y, *z;
    aclrtMallocHost((void**)&xHost, n * sizeof(float));
    aclrtMallocHost((void**)&yHost, kSlot * sizeof(float));
    aclrtMalloc((void**)&x, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&work, 2 * cores * kSlot * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, kSlot * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    for (uint32_t i = 0; i < n; ++i) xHost[i] = float((i * 7) % 201) - 100.0f;
    aclrtMemcpy(x, n * sizeof(float), xHost, n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    for (int launch = 0; launch < 2; ++launch) {  // a second launch starts afresh
        sync_sum<<<cores, nullptr, stream>>>(x, work, y, z);
        aclrtSynchronizeStream(stream);
        aclrtMemcpy(yHost, kSlot * sizeof(float), y, kSlot * sizeof(float),
                    ACL_MEMCPY_DEVICE_TO_HOST);
        std::printf("%.1f\n", yHost[0]);
    }
    aclrtFree(x);
    aclrtFree(work);
    aclrtFree(y);
    aclrtFree(z);
    aclrtFreeHost(xHost);
    aclrtFreeHost(yHost);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
