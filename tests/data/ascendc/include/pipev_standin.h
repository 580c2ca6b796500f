// pipev_standin.h: a stand-in for pipev's AscendC headers, for the driver's own tests: just
// enough to reach every callback of pipev_bridge.h by hand (the real headers are
// simulator/ascendc/include/; tests/cli/test_ascendc_headers.py and the examples use those).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>

#include "pipev_bridge.h"

#define __global__
#define __aicore__
#define __gm__
#define __ubuf__
#define GM_ADDR uint8_t *

namespace pipev {
inline pipev_bridge *bridge = nullptr;
struct Stopped {};

inline void check(int rc) {
    if (rc) throw Stopped{};
}

template <class K, class... A>
void launch(const char *file, int line, const char *name, uint32_t dim, K kernel, A... args) {
    if (bridge->launch(file, line, name, dim)) return;
    try {
        for (uint32_t b = 0; b < dim; ++b) {
            bridge->block_idx = b;
            kernel(args...);
        }
    } catch (Stopped &) {
    }
    bridge->launch_end();
}
// the `<<<>>>` rewrite passes the argument list's text too (the real headers name GM buffers
// after it); the stand-in has no GM buffers of its own to name
template <class K, class... A>
void launch_named(const char *file, int line, const char *name, const char *, uint32_t dim,
                  K kernel, A... args) {
    launch(file, line, name, dim, kernel, args...);
}

inline void issue(const char *text, std::initializer_list<uint64_t> regs = {},
                  const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
    uint64_t r[31];
    int n = 0;
    for (uint64_t v : regs) r[n++] = v;
    check(bridge->issue(file, line, 0, text, r, n));
}

inline void gm(const char *name, const char *type, void *p, uint64_t bytes,
               const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
    check(bridge->gm_buffer(file, line, name, type, p, bytes));
}

inline uint64_t ub(const char *name, const char *type, uint64_t addr, uint64_t count,
                   const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
    check(bridge->ub_tensor(file, line, name, type, addr, count));
    return addr;
}

template <class T> T get(uint64_t addr, const char *file = __builtin_FILE(),
                         int line = __builtin_LINE()) {
    check(bridge->host_access(file, line, addr, sizeof(T), 0));
    T v;
    std::memcpy(&v, bridge->ub + addr, sizeof(T));
    return v;
}

inline void say(int severity, const char *text, const char *file = __builtin_FILE(),
                int line = __builtin_LINE()) {
    check(bridge->message(file, line, 0, severity, text));
}

// __ubuf__ local arrays: one placement per declaration site, from the top of the usable UB down
template <class A> A &ubuf_array(const char *name, const char *file = __builtin_FILE(),
                                 int line = __builtin_LINE()) {
    (void)name;
    static std::map<std::pair<std::string, int>, uint64_t> sites;
    static uint64_t next = 0;
    auto key = std::make_pair(std::string(file), line);
    auto it = sites.find(key);
    if (it == sites.end()) {
        if (!next) next = bridge->ub_bytes - bridge->scratch_bytes;
        next = (next - sizeof(A)) & ~uint64_t(31);
        it = sites.emplace(key, next).first;
    }
    return *reinterpret_cast<A *>(bridge->ub + it->second);
}
}  // namespace pipev

extern "C" void pipev_set_bridge(pipev_bridge *b) { pipev::bridge = b; }
