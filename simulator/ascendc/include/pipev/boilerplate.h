// pipev/boilerplate.h: the non-vector names every vendor sample touches (#32 class 2), from the
// public API documentation: kernel types, the global GetTPipePtr, AscendC::Std, AscendCUtils,
// the logging and assert macros, GetSystemCycle, block facts and the C API's block_idx /
// block_num. Each works, or stops with a pipev error at the call that says why; merely naming
// one never fails to compile.
#ifndef PIPEV_BOILERPLATE_H
#define PIPEV_BOILERPLATE_H
#include <algorithm>
#include <tuple>
#include <type_traits>
#include <utility>

#include "debug.h"
#include "launch.h"
#include "queue.h"
#include "sync.h"

// Kernel types (KERNEL_TASK_TYPE_DEFAULT): which cores a launch starts. pipev runs vector (AIV)
// cores; a type that starts cube cores stops at the macro.
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2, KERNEL_TYPE_AICORE, KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE, KERNEL_TYPE_MIX_VECTOR_CORE, KERNEL_TYPE_MAX
};
namespace pipev::detail {
inline void kernel_task_type(KernelMetaType type, const char* text, Loc loc) {
    if (type == KERNEL_TYPE_AIC_ONLY || type == KERNEL_TYPE_MIX_AIC_1_0 ||
        type == KERNEL_TYPE_MIX_AIC_1_1 || type == KERNEL_TYPE_MIX_AIC_1_2)
        error(loc, "kernel type %s starts cube (AIC) cores, which pipev does not model (it runs "
              "vector cores: KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_MIX_AIV_1_0)", text);
}
}  // namespace pipev::detail
#define KERNEL_TASK_TYPE_DEFAULT(value) \
    ::pipev::detail::kernel_task_type(value, #value, ::pipev::Loc(__FILE__, __LINE__))
#define KERNEL_TASK_TYPE(key, value) \
    ((void)(key), ::pipev::detail::kernel_task_type(value, #value, ::pipev::Loc(__FILE__, __LINE__)))

// The core a kernel body runs on, in the vendor's `if ASCEND_IS_AIC { return; }` idiom (the
// macros carry their parentheses): pipev runs the body on vector (AIV) cores only.
#define ASCEND_IS_AIV (true)
#define ASCEND_IS_AIC (false)

// The vendor declares GetTPipePtr at global scope as well (the same function: no ambiguity
// after `using namespace AscendC`).
using AscendC::GetTPipePtr;

namespace AscendC {
// Block facts of an AIV-only launch: one vector core per block, no sub-blocks.
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetSubBlockNum() { return 1; }
inline int64_t GetTaskRation() { return 1; }
inline int64_t GetSystemCycle() { return pipev::detail::system_cycle(); }

constexpr int32_t ONE_BLK_SIZE = 32;          // bytes in a data block
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;  // bytes one repeat of a vector instruction reads
constexpr int32_t DEFAULT_BLK_NUM = 8;         // blocks in a repeat
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t ONE_BYTE_BIT_SIZE = 8;
constexpr int32_t BLOCK_CUBE = 16;

template <class A, class B> struct IsSameType { static constexpr bool value = false; };
template <class A> struct IsSameType<A, A> { static constexpr bool value = true; };

// AscendC::Std: the standard-library subset the documentation lists, as the host's std.
namespace Std {
using std::max;
using std::min;
using std::is_same;
template <class A, class B> inline constexpr bool is_same_v = std::is_same_v<A, B>;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::forward;
using std::forward_as_tuple;
using std::get;
using std::index_sequence;
using std::integer_sequence;
using std::integral_constant;
using std::is_base_of;
using std::is_convertible;
using std::is_floating_point;
using std::is_integral;
using std::is_pointer;
using std::is_void;
using std::make_index_sequence;
using std::make_tuple;
using std::move;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_reference;
using std::remove_reference_t;
using std::tie;
using std::true_type;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
template <class T> inline constexpr size_t tuple_size_v = std::tuple_size_v<T>;
template <size_t I, class T> using tuple_element_t = std::tuple_element_t<I, T>;
}  // namespace Std

// AscendCUtils: the register helpers kernels call around their vector code.
class AscendCUtils {
public:
    // The floating-point overflow mode (saturation or IEEE Inf/NaN): pipev computes in the
    // chip's default IEEE Inf/NaN mode and says so at the call (a warning).
    static void SetOverflow(uint64_t ctrlValue, PIPEV_LOC) {
        pipev::detail::warning(loc, "AscendCUtils::SetOverflow(%llu): pipev computes in the "
                               "chip's default IEEE Inf/NaN overflow mode; the setting is not "
                               "modelled", (unsigned long long)ctrlValue);
    }
};

// SetCtrlSpr / GetCtrlSpr / ResetCtrlSpr (their pages, issue 34): CTRL[endBit:startBit] of the
// core's CTRL register, machine state (`set_ctrl` / `reset_ctrl` on S; a read asks the machine).
// The saturation bits decide Cast's SatMode on ascend950 (docs/semantics.md §15.4).
namespace detail_ctrl {
template <int8_t startBit, int8_t endBit> constexpr void check_range() {
    static_assert(0 <= startBit && startBit <= endBit && endBit <= 63, "CTRL bits: 0 <= "
                  "startBit <= endBit <= 63 (the GetCtrlSpr page)");
}
}  // namespace detail_ctrl
template <int8_t startBit, int8_t endBit> void SetCtrlSpr(int64_t value, PIPEV_LOC) {
    detail_ctrl::check_range<startBit, endBit>();
    pipev::detail::Stmt s("set_ctrl");
    s.op("%d", int(startBit)).op("%d", int(endBit)).op("x%d", s.r(uint64_t(value))).issue(loc);
}
template <int8_t startBit, int8_t endBit> int64_t GetCtrlSpr(PIPEV_LOC) {
    detail_ctrl::check_range<startBit, endBit>();
    (void)loc;  // a register read: nothing is issued
    uint64_t v = pipev::detail::special("ctrl") >> startBit;
    return int64_t(endBit - startBit == 63 ? v : v & ((uint64_t(1) << (endBit - startBit + 1)) - 1));
}
template <int8_t startBit, int8_t endBit> void ResetCtrlSpr(PIPEV_LOC) {
    detail_ctrl::check_range<startBit, endBit>();
    pipev::detail::Stmt s("reset_ctrl");
    s.op("%d", int(startBit)).op("%d", int(endBit)).issue(loc);
}

// Workspace (the workspace pages): the system workspace pointer SetSysWorkspace records and
// GetSysWorkSpacePtr returns; the user's workspace starts GetLibApiWorkSpaceSize() bytes into the
// launch's workspace, and pipev's APIs take none (0, tiling/platform), so it is the workspace.
inline __gm__ uint8_t*& pipev_sys_workspace() {
    static __gm__ uint8_t* p = nullptr;
    return p;
}
inline void SetSysWorkspace(GM_ADDR workspace) { pipev_sys_workspace() = workspace; }
inline __gm__ uint8_t* GetSysWorkSpacePtr() { return pipev_sys_workspace(); }
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace; }
}  // namespace AscendC

// The API's namespace under its earlier name (the vendor's 2023 samples: `using namespace tik2`).
namespace tik2 = AscendC;

// Logging of the CPU twin: KERNEL_LOG(level, fmt, ...) prints a line on the kernel's stdout.
enum KernelLogLevel { KERNEL_DEBUG = 0, KERNEL_INFO, KERNEL_WARN, KERNEL_ERROR };
namespace pipev::detail {
inline const char* log_level(int level) {
    static const char* names[] = {"DEBUG", "INFO", "WARN", "ERROR"};
    return level >= 0 && level < 4 ? names[level] : "LOG";
}
template <class... A>
void kernel_log(int level, const char* file, int line, const char* fmt, const A&... args) {
    char text[4096];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
    std::snprintf(text, sizeof text, fmt, printf_arg(args)...);
#pragma GCC diagnostic pop
    std::string s = format("[%s] %s:%d %s", log_level(level), file, line, text);
    if (s.empty() || s.back() != '\n') s += '\n';
    if (g_bridge != nullptr && g.active) message(Loc(file, line), -1, s);
    else std::fputs(s.c_str(), stdout);
}
[[noreturn]] inline void assert_behavior_failed(const char* file, int line, const char* expr) {
    error(Loc(file, line), "ASCENDC_ASSERT failed: %s", expr);
}
}  // namespace pipev::detail
#define KERNEL_LOG(level, fmt, ...) \
    ::pipev::detail::kernel_log(level, __FILE__, __LINE__, fmt, ##__VA_ARGS__)
// ASCENDC_ASSERT(cond, behavior): when COND is false, BEHAVIOR runs (typically a KERNEL_LOG),
// then the run stops with an error at the assert's line.
#define ASCENDC_ASSERT(cond, behavior)                                                  \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            behavior;                                                                   \
            ::pipev::detail::assert_behavior_failed(__FILE__, __LINE__, #cond);         \
        }                                                                               \
    } while (0)
// ascendc_assert(cond[, fmt, args...]): the message is printed, then the run stops there.
namespace pipev::detail {
template <class... A>
void ascendc_assert_check(const char* file, int line, const char* text, bool cond,
                          const A&... message) {
    if (cond) return;
    if constexpr (sizeof...(A) > 0) kernel_log(KERNEL_ERROR, file, line, message...);
    std::string what = split_args(text)[0];  // the condition, without the message
    assert_behavior_failed(file, line, what.c_str());
}
}  // namespace pipev::detail
#define ascendc_assert(...) \
    ::pipev::detail::ascendc_assert_check(__FILE__, __LINE__, #__VA_ARGS__, __VA_ARGS__)

// The C API's (and CCE's) built-in block variables: read them as integers.
struct pipev_block_value {
    bool idx;
    operator int64_t() const {  // NOLINT: implicit, as the built-in variable reads
        return idx ? AscendC::GetBlockIdx() : AscendC::GetBlockNum();
    }
};
inline constexpr pipev_block_value block_idx{true};
inline constexpr pipev_block_value block_num{false};
#endif
