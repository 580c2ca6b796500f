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
}  // namespace AscendC
#endif
