// The NPU-style host harness of the tiled add (acl runtime calls), as a kernel's main.cpp has it.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "tiled_add.h"

#define CHECK_ACL(x)                                                        \
    do {                                                                    \
        aclError rc = (x);                                                  \
        if (rc != ACL_SUCCESS) std::fprintf(stderr, "%s failed: %d\n", #x, rc); \
    } while (0)

int main()
{
    constexpr uint32_t total = 2048;
    size_t bytes = total * sizeof(float);
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xHost, *yHost, *zHost, *xDevice, *yDevice, *zDevice, *tilingDevice;
    CHECK_ACL(aclrtMallocHost((void**)&xHost, bytes));
    CHECK_ACL(aclrtMallocHost((void**)&yHost, bytes));
    CHECK_ACL(aclrtMallocHost((void**)&zHost, bytes));
    CHECK_ACL(aclrtMalloc((void**)&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&zDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&tilingDevice, sizeof(TiledAddTiling), ACL_MEM_MALLOC_HUGE_FIRST));
    for (uint32_t i = 0; i < total; ++i) {
        reinterpret_cast<float*>(xHost)[i] = float(i);
        reinterpret_cast<float*>(yHost)[i] = 1.0f;
    }
    TiledAddTiling tiling{total, 2};
    CHECK_ACL(aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(yDevice, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, sizeof tiling, &tiling, sizeof tiling,
                          ACL_MEMCPY_HOST_TO_DEVICE));

    tiled_add_do(1, stream, xDevice, yDevice, zDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(zHost, bytes, zDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(zDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtFreeHost(zHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}
