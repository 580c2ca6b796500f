// pipev/core.h: the link between the AscendC headers and pipev (pipev_bridge.h). Call-site
// positions, diagnostics, the statement builder, and the bookkeeping of one kernel launch: UB
// regions and their typed tensors, GM buffers, queue state and event ids.
#ifndef PIPEV_CORE_H
#define PIPEV_CORE_H
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../pipev_bridge.h"
#include "types.h"

namespace pipev {

// The caller's position: a defaulted `Loc` parameter is evaluated at the kernel's call site.
// (GCC 12 has no __builtin_COLUMN: the column is always 0.)
struct Loc {
    const char* file;
    int line;
    explicit Loc(const char* f = __builtin_FILE(), int l = __builtin_LINE()) : file(f), line(l) {}
};
#define PIPEV_LOC ::pipev::Loc loc = ::pipev::Loc()

// Thrown when pipev has stopped the run (a callback returned nonzero); the launch wrapper catches it.
struct Stopped {};

constexpr uint64_t kOnes = ~uint64_t(0);

namespace detail {
inline pipev_bridge* g_bridge = nullptr;
inline bool g_stopped = false;  // pipev stopped the run: nothing more is issued
inline Loc g_last{"", 0};       // the last call site seen (printf has none of its own)

inline pipev_bridge& bridge() {
    if (g_bridge == nullptr) {
        std::fprintf(stderr, "pipev: no bridge: this program must be run by `pipev run`\n");
        std::abort();
    }
    return *g_bridge;
}
// Chip facts, from the chip's profile through the bridge (pipev_bridge.h).
inline bool counter_mode() { return bridge().counter_mode != 0; }
inline int event_ids() { return bridge().event_ids; }
[[noreturn]] inline void stop() {
    g_stopped = true;
    throw Stopped{};
}
inline void check(int rc) {
    if (rc != 0) stop();
}

inline std::string vformat(const char* fmt, va_list ap) {
    char buf[1024];
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    return buf;
}
__attribute__((format(printf, 1, 2))) inline std::string format(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string s = vformat(fmt, ap);
    va_end(ap);
    return s;
}
// severity: -1 printf output, 0 note, 1 warning, 2 error (stops the run).
inline void message(Loc loc, int severity, const std::string& text) {
    if (g_stopped) throw Stopped{};
    g_last = loc;
    check(bridge().message(loc.file, loc.line, 0, severity, text.c_str()));
    if (severity >= 2) stop();
}
[[noreturn]] __attribute__((format(printf, 2, 3))) inline void error(Loc loc, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string s = vformat(fmt, ap);
    va_end(ap);
    message(loc, 2, s);
    stop();
}
__attribute__((format(printf, 2, 3))) inline void warning(Loc loc, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string s = vformat(fmt, ap);
    va_end(ap);
    message(loc, 1, s);
}

// One .vasm statement: a fixed text per call site, the values that change in registers x1..x31.
class Stmt {
public:
    __attribute__((format(printf, 2, 3))) explicit Stmt(const char* fmt, ...) {
        va_list ap;
        va_start(ap, fmt);
        append(fmt, ap);
        va_end(ap);
    }
    // The next register, holding V; returns its number (write it as x%d).
    int r(uint64_t v) {
        if (nregs_ == 31) std::abort();  // no API statement needs more
        regs_[nregs_] = v;
        return ++nregs_;
    }
    // An operand or key: ' ' before the first, ', ' between the others.
    __attribute__((format(printf, 2, 3))) Stmt& op(const char* fmt, ...) {
        add(first_ ? " " : ", ");
        first_ = false;
        va_list ap;
        va_start(ap, fmt);
        append(fmt, ap);
        va_end(ap);
        return *this;
    }
    Stmt& key(const char* k, uint64_t v) { return op("%s=x%d", k, r(v)); }
    Stmt& reg(uint64_t v) { return op("x%d", r(v)); }
    void issue(Loc loc) {
        if (g_stopped) throw Stopped{};
        g_last = loc;
        check(bridge().issue(loc.file, loc.line, 0, text_, regs_, nregs_));
    }
    const char* text() const { return text_; }

private:
    void add(const char* s) {
        size_t n = std::strlen(s);
        if (len_ + n >= sizeof text_) std::abort();
        std::memcpy(text_ + len_, s, n + 1);
        len_ += n;
    }
    void append(const char* fmt, va_list ap) {
        int n = std::vsnprintf(text_ + len_, sizeof text_ - len_, fmt, ap);
        if (n < 0 || len_ + size_t(n) >= sizeof text_) std::abort();
        len_ += size_t(n);
    }
    char text_[512] = {};
    size_t len_ = 0;
    bool first_ = true;
    uint64_t regs_[31] = {};
    int nregs_ = 0;
};

// V's bits, as a 64-bit register that was set to it holds them
template <class T> uint64_t bits_of(T v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}
// The low SIZE bytes of a register's BITS as an immediate of that width (raw(0x...)): a pad
// value set through one type (the pages: fp8 values as int8_t) read by a copy of another
inline std::string raw_text(uint64_t bits, size_t size) {
    return format("raw(0x%llx)", (unsigned long long)(size >= 8 ? bits
                                                      : bits & ((1ull << (8 * size)) - 1)));
}
// A scalar immediate of type T: floats as raw bits (raw(0x...), so NaN payloads survive).
template <class T> std::string scalar_text(T v) {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        uint16_t b;
        std::memcpy(&b, &v, 2);
        return format("raw(0x%04x)", b);
    } else if constexpr (std::is_same_v<T, float>) {
        uint32_t b;
        std::memcpy(&b, &v, 4);
        return format("raw(0x%08x)", b);
    } else if constexpr (std::is_signed_v<T>) {
        return format("%lld", static_cast<long long>(v));
    } else {
        return format("%llu", static_cast<unsigned long long>(v));
    }
}

// ---- bookkeeping of one launch ------------------------------------------------------------------
struct UbTensor {  // a typed UB tensor declared to pipev (ub_tensor)
    std::string name, type;
    uint64_t addr, count;
    size_t esize;
};
struct Region {  // a UB buffer: a queue slot, a TBuf, an allocation or a __ubuf__ array
    std::string base;
    uint64_t addr, bytes;
    std::vector<int> tensors;  // its typed views (indices into State::tensors)
};
struct GmBuffer {  // a GM buffer declared to pipev (gm_buffer); named in DMA statements
    std::string name;
    uint8_t* host;
    uint64_t bytes;
    size_t esize = 1;  // its element size: the headers declare u8, pipev's own may differ (0: s4,
                       // two elements a byte)
};
enum SlotState { kFree, kAllocated, kQueued, kDequeued };
struct Slot {
    int region;
    SlotState state = kFree;
    int fwd_event = -1;  // EnQue's set_flag id, waited by DeQue
    int rev_event = -1;  // FreeTensor's set_flag id, waited by the next AllocTensor
    int line = 0;        // where the state last changed
};
struct QueueState {
    int prod = -1, cons = -1;  // pipev pipes that write before EnQue / read after DeQue (-1: none)
    int depth = 0;
    std::vector<Slot> slots;
    std::vector<int> fifo;  // enqueued slots, oldest first
    size_t next = 0;        // AllocTensor takes buffers round robin
    Loc init{"", 0};
    int pipe = -1;  // owning TPipe
};
enum Pipe { kS = 0, kV = 1, kMte2 = 2, kMte3 = 3 };
inline const char* pipe_name(int p) {
    static const char* names[] = {"S", "V", "MTE2", "MTE3"};
    return names[p];
}

struct State {
    bool active = false;  // inside a launch
    uint64_t ub_top = 0;  // next free UB byte for InitBuffer / LocalMemAllocator / __ubuf__ arrays
    std::vector<UbTensor> tensors;
    std::vector<Region> regions;
    std::vector<GmBuffer> gm;
    std::vector<QueueState> queues;
    std::vector<std::string> names;
    uint64_t events[4][4] = {};  // busy event ids per (src, dst) pipe, one bit each (ids < 64)
    uint32_t mutex_ids = 0;      // ascend950: the Mutex ids AllocMutexID handed out, one bit each
    int pipes = 0;              // TPipe objects constructed (ids)
    void* current_pipe = nullptr;
    struct Site { const char* file; int line; std::string name; uint64_t addr; };
    std::vector<Site> ubuf_sites;  // __ubuf__ arrays, once per declaration site
};
inline State g;

// A name unique in this launch (GM and UB tensors share one namespace).
inline std::string unique_name(const std::string& base) {
    std::string name = base;
    for (int k = 2;; ++k) {
        bool used = false;
        for (auto& n : g.names) used = used || n == name;
        if (!used) break;
        name = base + "_" + std::to_string(k);
    }
    g.names.push_back(name);
    return name;
}

// Kernels may have all of UB, as on silicon: pipev's scratch area (the top scratch_bytes) is
// checked when an API that keeps temporaries there runs (simulator/scratch_use.py).
inline uint64_t ub_limit() { return bridge().ub_bytes; }
// The UB GetCoreMemSize gives: all of it but the chip's register-spill reserve (ascend950).
inline uint64_t ub_usable() { return bridge().ub_bytes - bridge().spill_bytes; }

// LEN rounded up to whole 32-byte blocks: InitBuffer's buffer of an unaligned length (the
// page: "automatically padded up to 32-byte alignment"; a DataCopyPad of the length fills it)
inline uint64_t block_up(uint64_t len) { return (len + 31) & ~uint64_t(31); }
// Reserves BYTES of UB (32-byte aligned).
inline uint64_t ub_alloc(uint64_t bytes, const char* what, Loc loc) {
    uint64_t addr = (g.ub_top + 31) & ~uint64_t(31);
    uint64_t end = addr + block_up(bytes);
    if (end > ub_limit())
        error(loc, "%s of %llu bytes at UB 0x%llx goes beyond UB: the chip has %llu bytes and "
              "%llu are already in use", what, (unsigned long long)bytes,
              (unsigned long long)addr, (unsigned long long)ub_limit(), (unsigned long long)addr);
    uint64_t spill = bridge().spill_bytes;
    if (spill && end > ub_usable())
        warning(loc, "%s reaches UB 0x%llx, into the top %llu bytes the chip reserves for register "
                "spills (0x%llx..0x%llx; GetRuntimeUBSize gives 0x%llx): a vector function whose "
                "registers spill overwrites it", what, (unsigned long long)end,
                (unsigned long long)spill, (unsigned long long)ub_usable(),
                (unsigned long long)ub_limit(), (unsigned long long)ub_usable());
    g.ub_top = end;
    return addr;
}
inline int new_region(const std::string& base, uint64_t addr, uint64_t bytes) {
    g.regions.push_back({base, addr, bytes, {}});
    return int(g.regions.size()) - 1;
}
// The typed tensor of type TYPE over REGION, declared to pipev at its first use.
inline const UbTensor& typed(int region, const char* type, size_t esize, Loc loc) {
    Region& rg = g.regions[size_t(region)];
    for (int t : rg.tensors)
        if (g.tensors[size_t(t)].type == type) return g.tensors[size_t(t)];
    std::string name = unique_name(rg.tensors.empty() ? rg.base : rg.base + "_" + type);
    // s4 (int4b_t): two elements a byte
    uint64_t count = std::strcmp(type, "s4") == 0 ? rg.bytes * 2 : rg.bytes / esize;
    check(bridge().ub_tensor(loc.file, loc.line, name.c_str(), type, rg.addr, count));
    g.tensors.push_back({name, type, rg.addr, count, esize});
    rg.tensors.push_back(int(g.tensors.size()) - 1);
    return g.tensors.back();
}

// Event ids: a pool per (src, dst) pipe pair, as TPipe hands them out.
inline int alloc_event(int src, int dst, Loc loc) {
    for (int id = 0; id < event_ids(); ++id)
        if (!(g.events[src][dst] & (uint64_t(1) << id))) {
            g.events[src][dst] |= uint64_t(1) << id;
            return id;
        }
    error(loc, "no free %s->%s event id: all %d are in use", pipe_name(src), pipe_name(dst),
          event_ids());
}
inline void release_event(int src, int dst, int id) {
    g.events[src][dst] &= ~(uint64_t(1) << id);
}
inline int fetch_event(int src, int dst) {
    for (int id = 0; id < event_ids(); ++id)
        if (!(g.events[src][dst] & (uint64_t(1) << id))) return id;
    return 0;
}
// The pipev pipes of a HardEvent; false for the cube pipes (MTE1, M, FIX) pipev does not model.
inline bool event_pipes(AscendC::HardEvent e, int& src, int& dst) {
    using E = AscendC::HardEvent;
    static const struct { E e; int src, dst; } table[] = {
        {E::MTE2_V, kMte2, kV}, {E::V_MTE2, kV, kMte2}, {E::MTE3_V, kMte3, kV},
        {E::V_MTE3, kV, kMte3}, {E::V_V, kV, kV}, {E::MTE3_MTE2, kMte3, kMte2},
        {E::MTE2_MTE3, kMte2, kMte3}, {E::S_V, kS, kV}, {E::V_S, kV, kS},
        {E::S_MTE2, kS, kMte2}, {E::MTE2_S, kMte2, kS}, {E::S_MTE3, kS, kMte3},
        {E::MTE3_S, kMte3, kS},
    };
    for (auto& t : table)
        if (t.e == e) {
            src = t.src;
            dst = t.dst;
            return true;
        }
    return false;
}
inline void set_flag(int src, int dst, int id, Loc loc) {
    Stmt("set_flag %s, %s, %d", pipe_name(src), pipe_name(dst), id).issue(loc);
}
inline void wait_flag(int src, int dst, int id, Loc loc) {
    Stmt("wait_flag %s, %s, %d", pipe_name(src), pipe_name(dst), id).issue(loc);
}

// GM: the buffer holding host address P (declared at the launch or by SetGlobalBuffer).
inline int gm_find(const void* p) {
    auto* b = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < g.gm.size(); ++i)
        if (b >= g.gm[i].host && b < g.gm[i].host + g.gm[i].bytes) return int(i);
    return -1;
}
inline int gm_declare(const std::string& base, void* host, uint64_t bytes, Loc loc) {
    std::string name = unique_name(base);
    check(bridge().gm_buffer(loc.file, loc.line, name.c_str(), "u8", host, bytes));
    g.gm.push_back({name, static_cast<uint8_t*>(host), bytes});
    return int(g.gm.size()) - 1;
}

// Scalar code reading or writing GM (GlobalTensor GetValue, SetValue): the cross-core race
// check sees it. A pointer in no declared GM buffer is left alone (the copies report those).
inline void gm_access(const void* p, uint64_t bytes, bool write, Loc loc) {
    if (g_stopped) throw Stopped{};
    if (!g.active) return;
    int k = gm_find(p);
    if (k < 0) return;
    uint64_t offset = uint64_t(static_cast<const uint8_t*>(p) - g.gm[size_t(k)].host);
    check(bridge().gm_access(loc.file, loc.line, g.gm[size_t(k)].name.c_str(), offset, bytes,
                             write ? 1 : 0));
}

// UB: host pointer <-> UB byte address (UB is host memory; C-API pointers point into it).
inline bool in_ub(const void* p) {
    auto* b = static_cast<const uint8_t*>(p);
    return b >= bridge().ub && b < bridge().ub + bridge().ub_bytes;
}
inline uint64_t ub_addr(const void* p, Loc loc) {
    if (!in_ub(p)) error(loc, "pointer %p is not in UB (declare UB arrays as __ubuf__ T name[N])", p);
    return uint64_t(static_cast<const uint8_t*>(p) - bridge().ub);
}
// GetSystemCycle: the running core's S-pipe time in the model, in ticks of the 50 MHz system
// counter the documentation converts with (time_us = ticks / 50).
inline int64_t system_cycle() { return bridge().system_cycle(); }
// Scalar code reading or writing UB (GetValue, SetValue): the race checks see it.
inline void host_access(uint64_t addr, uint64_t bytes, bool write, Loc loc) {
    if (g_stopped) throw Stopped{};
    g_last = loc;
    check(bridge().host_access(loc.file, loc.line, addr, bytes, write ? 1 : 0));
}
}  // namespace detail
}  // namespace pipev

// pipev calls this before main(): defined once however many translation units include it.
extern "C" __attribute__((used, visibility("default"))) inline void pipev_set_bridge(
    pipev_bridge* bridge) {
    pipev::detail::g_bridge = bridge;
}
#endif
