// pipev/launch.h: kernel launches and GM memory. GmAlloc / aclrtMalloc buffers are host memory,
// declared to pipev as GM buffers at every launch; pipev::launch runs a kernel body once per block
// (the `kernel<<<blockDim, l2ctrl, stream>>>(args)` rewrite and ICPU_RUN_KF both call it), and
// ubuf_array places the C API's `__ubuf__` local arrays in UB.
#ifndef PIPEV_LAUNCH_H
#define PIPEV_LAUNCH_H
#include <cctype>

#include "cores.h"

namespace pipev {
namespace detail {
struct GmAllocation {
    uint8_t* host;
    uint64_t bytes;
    std::string name;       // from the launch's argument text, else gm<k>
    bool declared = false;  // declared by pipev itself (pipev_gm_declared): only named here
    size_t esize = 1;       // element size of pipev's declaration
    uint64_t data = 0;      // the size asked for (BYTES holds the runtime's slack too)
};
inline std::vector<GmAllocation> g_allocs;  // live GmAlloc / aclrtMalloc buffers (host side)
inline uint64_t g_tiling_key = 0;         // ICPU_SET_TILING_KEY (a TilingKey is 64-bit)

// The bytes a device allocation of BYTES really holds: the runtime rounds the size up to 32
// bytes and adds 32 more (the documented aclrtMalloc rule), so a kernel may read whole blocks a
// little past its data; past that slack is an error (docs/ascendc.md, "Memory").
constexpr size_t gm_slack(size_t bytes) { return ((bytes + 31) & ~size_t(31)) + 32; }
inline void* gm_alloc(size_t bytes) {
    size_t held = gm_slack(bytes);
    size_t size = (held + 63) & ~size_t(63);
    void* p = std::aligned_alloc(64, size);
    if (!p) return nullptr;
    std::memset(p, 0, size);
    g_allocs.push_back({static_cast<uint8_t*>(p), held, "", false, 1, bytes});
    return p;
}
inline void gm_free(void* p) {
    for (size_t i = 0; i < g_allocs.size(); ++i)
        if (g_allocs[i].host == p) {
            g_allocs.erase(g_allocs.begin() + long(i));
            std::free(p);
            return;
        }
}

// The top-level comma-separated pieces of a macro's argument text ("k<float, 8>, n, (T*)x").
inline std::vector<std::string> split_args(const char* text) {
    std::vector<std::string> out(1);
    int depth = 0;
    for (const char* c = text; c && *c; ++c) {
        if (*c == '(' || *c == '<' || *c == '[' || *c == '{') ++depth;
        if (*c == ')' || *c == '>' || *c == ']' || *c == '}') --depth;
        if (*c == ',' && depth == 0) out.emplace_back();
        else out.back() += *c;
    }
    return out;
}
inline std::string last_identifier(const std::string& s) {
    std::string id, last;
    for (char c : s + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') id += c;
        else if (!id.empty()) {
            if (!std::isdigit(static_cast<unsigned char>(id[0]))) last = id;
            id.clear();
        }
    }
    return last;
}
// Names the allocation an argument points into after the argument's text (gm_x).
template <class A> void name_arg(const A& a, const std::string& text) {
    if constexpr (std::is_pointer_v<A>) {
        auto* p = reinterpret_cast<const uint8_t*>(a);
        for (auto& al : g_allocs)
            if (p >= al.host && p < al.host + al.bytes && al.name.empty() && !al.declared) {
                std::string id = last_identifier(text);
                if (!id.empty()) al.name = "gm_" + id;
            }
    }
}

inline bool reserved_name(const char* n) {  // pipev's register names x0..x31
    if (n[0] != 'x' || !n[1]) return false;
    for (const char* c = n + 1; *c; ++c)
        if (!std::isdigit(static_cast<unsigned char>(*c))) return false;
    return std::atoi(n + 1) <= 31;
}
}  // namespace detail

// A launch of KERNEL on blockDim cores, run one after another; ARG_TEXT, the launch's argument list as
// written (or null), names the GM buffers the arguments point into (gm_x for `(uint8_t *)x`).
template <class F, class... A>
void launch_named(const char* file, int line, const char* name, const char* arg_text,
                  uint32_t blockDim, F&& kernel, A... args) {
    using namespace detail;
    if (g_stopped) return;
    Loc loc(file, line);
    g_last = loc;
    if (bridge().launch(file, line, name, blockDim) != 0) {
        g_stopped = true;
        return;
    }
    g = State{};
    ++g_generation;
    g.active = true;
    Cores cores(blockDim, [&] { kernel(args...); });
    g_cores = &cores;
    try {
        if (bridge().npu_arch != __NPU_ARCH__)
            error(loc, "the kernel was compiled for __NPU_ARCH__=%d but the chip's npu_arch is %d "
                  "(compile with -D__NPU_ARCH__=%d)", __NPU_ARCH__, bridge().npu_arch,
                  bridge().npu_arch);
        if (arg_text) {
            std::vector<std::string> texts = split_args(arg_text);
            size_t k = 0;
            (name_arg(args, k < texts.size() ? texts[k++] : std::string()), ...);
            (void)k;
        }
        for (size_t i = 0; i < g_allocs.size(); ++i) {
            GmAllocation& al = g_allocs[i];
            if (al.declared) {
                g.names.push_back(al.name);
                g.gm.push_back({al.name, al.host, al.bytes, al.esize});
                continue;
            }
            int k = gm_declare(al.name.empty() ? format("gm%zu", i) : al.name, al.host, al.bytes,
                               loc);
            check(bridge().gm_data(g.gm[size_t(k)].name.c_str(), al.data));
            al.name.clear();
        }
        // one core after another in block order (pipev's multi-core model: docs/cores.md);
        // the bridge starts a new core's machine when block_idx changes. A SyncAll of core 0
        // puts the cores on threads (cores.h): the loop then runs no further core.
        bridge().block_num = blockDim;
        for (uint32_t block = 0; block < blockDim && !cores.threaded(); ++block) {
            bridge().block_idx = block;
            if (block) reset_core();
            cores.run(block);
        }
    } catch (Stopped&) {
    }
    cores.join();
    g_cores = nullptr;
    g.active = false;
    bridge().launch_end();
}

// `kernel<<<blockDim, l2ctrl, stream>>>(args...)` is rewritten by pipev into this call.
template <class F, class... A>
void launch(const char* file, int line, const char* name, uint32_t blockDim, F&& kernel,
            A... args) {
    launch_named(file, line, name, nullptr, blockDim, kernel, args...);
}

namespace detail {
// ICPU_RUN_KF(func, blockDim, args...): TEXT is the macro's argument text.
template <class F, class... A>
void icpu_run(const char* file, int line, const char* text, F&& kernel, uint32_t blockDim,
              A... args) {
    std::vector<std::string> pieces = split_args(text);
    std::string name = pieces[0], rest;
    name.erase(0, name.find_first_not_of(" \t\n"));
    for (size_t i = 2; i < pieces.size(); ++i) rest += (i > 2 ? "," : "") + pieces[i];
    ::pipev::launch_named(file, line, name.c_str(), rest.c_str(), blockDim, kernel, args...);
}
}  // namespace detail

// `__ubuf__ T name[N];` is rewritten by pipev into `auto& name = pipev::ubuf_array<T[N]>("name");`:
// an array in UB (placed once per declaration site and launch), declared as a typed tensor.
template <class A> A& ubuf_array(const char* name, PIPEV_LOC) {
    using namespace detail;
    using E = std::remove_all_extents_t<A>;
    static_assert(std::is_array_v<A>, "ubuf_array<T[N]>");
    if (!g.active) error(loc, "__ubuf__ array %s outside a kernel launch", name);
    for (auto& s : g.ubuf_sites)
        if (s.line == loc.line && s.name == name && std::strcmp(s.file, loc.file) == 0)
            return *reinterpret_cast<A*>(bridge().ub + s.addr);
    uint64_t addr = ub_alloc(sizeof(A), "__ubuf__ array", loc);
    std::string base = reserved_name(name) ? std::string("ub_") + name : std::string(name);
    typed(new_region(base, addr, sizeof(A)), type_name<E>, sizeof(E), loc);
    g.ubuf_sites.push_back({loc.file, loc.line, name, addr});
    return *reinterpret_cast<A*>(bridge().ub + addr);
}
}  // namespace pipev

namespace pipev::detail {
inline size_t type_size(const char* t) {  // pipev type names and their C aliases (docs/machine.md §3)
    static const struct { const char* name; size_t size; } table[] = {
        {"s8", 1}, {"u8", 1}, {"int8_t", 1}, {"uint8_t", 1}, {"s16", 2}, {"u16", 2},
        {"f16", 2}, {"bf16", 2}, {"half", 2}, {"bfloat16_t", 2}, {"int16_t", 2},
        {"uint16_t", 2}, {"s32", 4}, {"u32", 4}, {"f32", 4}, {"c32", 4}, {"float", 4},
        {"int32_t", 4}, {"uint32_t", 4}, {"s64", 8}, {"u64", 8}, {"c64", 8}, {"int64_t", 8},
        {"uint64_t", 8}, {"s4", 0}};  // s4: half a byte (0: two elements a byte)
    for (auto& e : table)
        if (std::strcmp(e.name, t) == 0) return e.size;
    return 1;
}
}  // namespace pipev::detail

// pipev tells the headers about a GM buffer it declared itself (gm_buffer outside a launch, e.g.
// the arguments of a kernel-only run), so GlobalTensors and C API pointers into it name it.
extern "C" __attribute__((used, visibility("default"))) inline void pipev_gm_declared(
    const char* name, const char* type, void* host, uint64_t bytes) {
    auto& allocs = pipev::detail::g_allocs;
    for (size_t i = allocs.size(); i-- > 0;)
        if (allocs[i].host == host) allocs.erase(allocs.begin() + long(i));
    allocs.push_back({static_cast<uint8_t*>(host), bytes, name, true,
                      pipev::detail::type_size(type)});
}
#endif
