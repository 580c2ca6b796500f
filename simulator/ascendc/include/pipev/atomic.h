// pipev/atomic.h: GM atomics (issue #27) — SetAtomicAdd/Max/Min<T>, SetAtomicNone and
// SetAtomicType<T> issue pipev's `set_atomic.T atomic=OP`; the UB -> GM DataCopy / DataCopyPad
// calls that follow accumulate into GM (docs/ascendc.md).
#ifndef PIPEV_ATOMIC_H
#define PIPEV_ATOMIC_H
#include "core.h"

namespace pipev::detail {
template <class T> void set_atomic(const char* op, Loc loc) {
    Stmt s("set_atomic.%s", type_name<T>);
    if (op) s.op("atomic=%s", op);
    s.issue(loc);
}
}  // namespace pipev::detail

namespace AscendC {
template <typename T> void SetAtomicAdd(PIPEV_LOC) { pipev::detail::set_atomic<T>("add", loc); }
template <typename T> void SetAtomicMax(PIPEV_LOC) { pipev::detail::set_atomic<T>("max", loc); }
template <typename T> void SetAtomicMin(PIPEV_LOC) { pipev::detail::set_atomic<T>("min", loc); }
// the operation in force, now on elements of T
template <typename T> void SetAtomicType(PIPEV_LOC) { pipev::detail::set_atomic<T>(nullptr, loc); }
// plain stores again (set_atomic's type is then immaterial: float)
inline void SetAtomicNone(PIPEV_LOC) { pipev::detail::set_atomic<float>("none", loc); }
// SetStoreAtomicConfig<type, op>() (ISASI; #27 h27e): the page's enums, the same set_atomic —
// ATOMIC_NONE plain stores, ATOMIC_F32 ... ATOMIC_BF16 the sum (its only op) on that type
enum class AtomicDtype { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8,
                         ATOMIC_BF16 };
enum class AtomicOp { ATOMIC_SUM = 0 };
template <AtomicDtype type, AtomicOp op> void SetStoreAtomicConfig(PIPEV_LOC) {
    using pipev::detail::set_atomic;
    if constexpr (type == AtomicDtype::ATOMIC_NONE) set_atomic<float>("none", loc);
    else if constexpr (type == AtomicDtype::ATOMIC_F32) set_atomic<float>("add", loc);
    else if constexpr (type == AtomicDtype::ATOMIC_F16) set_atomic<half>("add", loc);
    else if constexpr (type == AtomicDtype::ATOMIC_S16) set_atomic<int16_t>("add", loc);
    else if constexpr (type == AtomicDtype::ATOMIC_S32) set_atomic<int32_t>("add", loc);
    else if constexpr (type == AtomicDtype::ATOMIC_S8) set_atomic<int8_t>("add", loc);
    else set_atomic<bfloat16_t>("add", loc);
}
}  // namespace AscendC
#endif
