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
using aclrtEvent = void*;
// Return codes (the runtime documentation's aclError table; pipev returns the first two and
// the parameter and allocation errors).
constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_NONE = 0;
constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;
constexpr aclError ACL_ERROR_UNINITIALIZE = 100001;
constexpr aclError ACL_ERROR_REPEAT_INITIALIZE = 100002;
constexpr aclError ACL_ERROR_INVALID_FILE = 100003;
constexpr aclError ACL_ERROR_WRITE_FILE = 100004;
constexpr aclError ACL_ERROR_INVALID_FILE_SIZE = 100005;
constexpr aclError ACL_ERROR_PARSE_FILE = 100006;
constexpr aclError ACL_ERROR_FILE_MISSING_ATTR = 100007;
constexpr aclError ACL_ERROR_FILE_ATTR_INVALID = 100008;
constexpr aclError ACL_ERROR_INVALID_DUMP_CONFIG = 100009;
constexpr aclError ACL_ERROR_INVALID_PROFILING_CONFIG = 100010;
constexpr aclError ACL_ERROR_RT_PARAM_INVALID = 107000;
constexpr aclError ACL_ERROR_RT_INVALID_DEVICEID = 107001;
constexpr aclError ACL_ERROR_RT_CONTEXT_NULL = 107002;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;
constexpr aclError ACL_ERROR_INTERNAL_ERROR = 500000;
enum aclrtRunMode { ACL_DEVICE, ACL_HOST };
// Half-precision values on the host: the bits of an IEEE binary16 (acl's aclFloat16).
using aclFloat16 = uint16_t;
inline float aclFloat16ToFloat(aclFloat16 value) {
    _Float16 h;
    std::memcpy(&h, &value, 2);
    return static_cast<float>(h);
}
inline aclFloat16 aclFloatToFloat16(float value) {
    _Float16 h = static_cast<_Float16>(value);
    aclFloat16 bits;
    std::memcpy(&bits, &h, 2);
    return bits;
}
enum aclrtLastErrLevel { ACL_RT_THREAD_LEVEL = 0 };
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
// One device (pipev's chip), synchronous launches: synchronisation has nothing to wait for.
inline aclError aclrtGetDeviceCount(uint32_t* count) {
    if (!count) return ACL_ERROR_INVALID_PARAM;
    *count = 1;
    return ACL_SUCCESS;
}
inline aclError aclrtGetDevice(int32_t* deviceId) {
    if (!deviceId) return ACL_ERROR_INVALID_PARAM;
    *deviceId = 0;
    return ACL_SUCCESS;
}
inline aclError aclrtGetRunMode(aclrtRunMode* mode) {
    if (!mode) return ACL_ERROR_INVALID_PARAM;
    *mode = ACL_HOST;
    return ACL_SUCCESS;
}
inline aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeDeviceWithTimeout(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStreamWithTimeout(aclrtStream, int32_t) { return ACL_SUCCESS; }
inline aclError aclrtSetCurrentContext(aclrtContext) { return ACL_SUCCESS; }
inline aclError aclrtGetCurrentContext(aclrtContext* context) {
    if (!context) return ACL_ERROR_INVALID_PARAM;
    *context = nullptr;
    return ACL_SUCCESS;
}
inline aclError aclrtGetLastError(aclrtLastErrLevel) { return ACL_SUCCESS; }
inline aclError aclrtPeekAtLastError(aclrtLastErrLevel) { return ACL_SUCCESS; }
inline aclError aclrtCreateEvent(aclrtEvent* event) {
    if (!event) return ACL_ERROR_INVALID_PARAM;
    *event = nullptr;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyEvent(aclrtEvent) { return ACL_SUCCESS; }
inline aclError aclrtRecordEvent(aclrtEvent, aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeEvent(aclrtEvent) { return ACL_SUCCESS; }
inline aclError aclrtStreamWaitEvent(aclrtStream, aclrtEvent) { return ACL_SUCCESS; }

// Device memory: a GM buffer of the size rounded up to 32 bytes plus 32 (pipev/launch.h).
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
// The asynchronous forms complete at once (launches are synchronous on pipev).
inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                                 aclrtMemcpyKind kind, aclrtStream) {
    return aclrtMemcpy(dst, destMax, src, count, kind);
}
inline aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                                 aclrtStream) {
    return aclrtMemset(devPtr, maxCount, value, count);
}
#endif
