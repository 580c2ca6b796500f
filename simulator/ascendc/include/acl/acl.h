// acl/acl.h: the host runtime calls of a kernel's main() on pipev. Device memory is host memory
// (declared to pipev as GM at each launch); copies are memcpy; launches are synchronous, so
// streams and synchronisation do nothing.
#ifndef PIPEV_ACL_H
#define PIPEV_ACL_H
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "../pipev/launch.h"

using aclError = int;
using aclrtStream = void*;
using aclrtContext = void*;
constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;
enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY
};
enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEFAULT
};

inline aclError aclInit(const char* = nullptr) { return ACL_SUCCESS; }
inline aclError aclFinalize() { return ACL_SUCCESS; }
inline aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtCreateContext(aclrtContext* context, int32_t) {
    *context = nullptr;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyContext(aclrtContext) { return ACL_SUCCESS; }
inline aclError aclrtCreateStream(aclrtStream* stream) {
    *stream = nullptr;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
inline const char* aclGetRecentErrMsg() { return ""; }

// Device memory: a GM buffer.
inline aclError aclrtMalloc(void** devPtr, size_t size,
                            aclrtMemMallocPolicy = ACL_MEM_MALLOC_HUGE_FIRST) {
    *devPtr = pipev::detail::gm_alloc(size);
    return *devPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFree(void* devPtr) {
    pipev::detail::gm_free(devPtr);
    return ACL_SUCCESS;
}
inline aclError aclrtMallocHost(void** hostPtr, size_t size) {
    *hostPtr = std::malloc(size ? size : 1);
    return *hostPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFreeHost(void* hostPtr) {
    std::free(hostPtr);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                            aclrtMemcpyKind) {
    if (count > destMax || (!dst && count) || (!src && count)) return ACL_ERROR_INVALID_PARAM;
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    if (count > maxCount) return ACL_ERROR_INVALID_PARAM;
    std::memset(devPtr, value, count);
    return ACL_SUCCESS;
}
#endif
