// A host program launching big_small.cpp's kernel with <<<4, nullptr, stream>>> through the acl
// runtime; prints "ok" when y = 2 x on every element (the tails of the big cores included).
#include <cstdio>

#include "acl/acl.h"
#include "big_small.cpp"

int main()
{
    constexpr uint32_t n = kRows * kRow;
    size_t bytes = n * sizeof(float);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    float *xHost, *yHost;
    uint8_t *x, *y;
    aclrtMallocHost((void**)&xHost, bytes);
    aclrtMallocHost((void**)&yHost, bytes);
    aclrtMalloc((void**)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    for (uint32_t i = 0; i < n; ++i) xHost[i] = float(i) - 1000.5f;
    aclrtMemcpy(x, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    twice<<<4, nullptr, stream>>>(x, y);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(yHost, bytes, y, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; ++i) bad += yHost[i] != 2 * xHost[i];
    std::printf(bad ? "bad %u\n" : "ok\n", bad);
    aclrtFree(x);
    aclrtFree(y);
    aclrtFreeHost(xHost);
    aclrtFreeHost(yHost);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
