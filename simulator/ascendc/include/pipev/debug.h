// pipev/debug.h: printf / PRINTF and DumpTensor (the bridge's message, severity -1: printed on the
// kernel's stdout) and ASSERT (an error at the kernel's line).
#ifndef PIPEV_DEBUG_H
#define PIPEV_DEBUG_H
#include "tensor.h"

namespace pipev::detail {
template <class A> auto printf_arg(const A& v) {
    if constexpr (std::is_same_v<A, half> || std::is_same_v<A, bfloat16_t>)
        return static_cast<double>(static_cast<float>(v));
    else if constexpr (std::is_enum_v<A>)
        return static_cast<long long>(v);
    else
        return v;
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
template <class... A> void print(Loc loc, const char* fmt, const A&... args) {
    char buf[4096];
    std::snprintf(buf, sizeof buf, fmt, printf_arg(args)...);
    message(loc, -1, buf);
}
#pragma GCC diagnostic pop
template <class T> std::string value_text(T v) {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                  std::is_floating_point_v<T>)
        return format("%g", static_cast<double>(static_cast<float>(v)));
    else if constexpr (std::is_signed_v<T>)
        return format("%lld", static_cast<long long>(v));
    else
        return format("%llu", static_cast<unsigned long long>(v));
}
template <class T> void dump(const char* where, uint64_t addr, const T* data, uint32_t desc,
                             uint32_t n, Loc loc) {
    std::string s = format("DumpTensor: desc=%u, %u %s elements at %s 0x%llx\n[", desc, n,
                           type_name<T>, where, (unsigned long long)addr);
    for (uint32_t i = 0; i < n; ++i) s += (i ? ", " : "") + value_text(data[i]);
    message(loc, -1, s + "]\n");
}
[[noreturn]] inline void assert_failed(const char* file, int line, const char* expr) {
    error(Loc(file, line), "ASSERT failed: %s", expr);
}
}  // namespace pipev::detail

namespace AscendC {
// Plain `const char*` first parameters, as the vendor's, so an unqualified printf after
// `using namespace AscendC` is not ambiguous with ::printf; the message carries the position of
// the kernel's previous API call.
template <class... A> void printf(const char* fmt, const A&... args) {
    pipev::detail::print(pipev::detail::g_last, fmt, args...);
}
template <class... A> void PRINTF(const char* fmt, const A&... args) {
    pipev::detail::print(pipev::detail::g_last, fmt, args...);
}
template <class T> void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize,
                                   PIPEV_LOC) {
    uint32_t n = dumpSize < t.size_ ? dumpSize : t.size_;
    pipev::detail::host_access(t.addr_, uint64_t(n) * sizeof(T), false, loc);
    pipev::detail::dump("UB", t.addr_,
                        reinterpret_cast<const T*>(pipev::detail::bridge().ub + t.addr_), desc, n,
                        loc);
}
template <class T> void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize,
                                   PIPEV_LOC) {
    pipev::detail::dump("GM", uint64_t(reinterpret_cast<uintptr_t>(t.ptr_)), t.ptr_, desc,
                        dumpSize, loc);
}
}  // namespace AscendC

// ASSERT(cond): an error at the kernel's line when COND is false.
#define ASSERT(...) \
    ((__VA_ARGS__) ? (void)0 : ::pipev::detail::assert_failed(__FILE__, __LINE__, #__VA_ARGS__))
#endif
