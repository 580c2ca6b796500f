// pipev/sync.h: SetFlag / WaitFlag, PipeBarrier (pipev's set_flag, wait_flag, pipe_barrier) and
// the core's identity (GetBlockIdx, GetBlockNum).
#ifndef PIPEV_SYNC_H
#define PIPEV_SYNC_H
#include "core.h"

namespace pipev::detail {
inline void flag(bool set, AscendC::HardEvent e, int32_t id, Loc loc) {
    int src, dst;
    if (!event_pipes(e, src, dst))
        error(loc, "%s: HardEvent %d involves a cube pipe (MTE1, M or FIX), which pipev does not "
              "model", set ? "SetFlag" : "WaitFlag", int(e));
    if (id < 0 || id >= event_ids())
        error(loc, "%s: event id %d is out of range (0..%d)", set ? "SetFlag" : "WaitFlag", id,
              event_ids() - 1);
    if (set) set_flag(src, dst, id, loc);
    else wait_flag(src, dst, id, loc);
}
inline void barrier(pipe_t p, Loc loc) {
    const char* name = p == PIPE_V ? "V" : p == PIPE_MTE2 ? "MTE2" : p == PIPE_MTE3 ? "MTE3"
                       : p == PIPE_ALL ? "ALL" : nullptr;
    if (!name) error(loc, "PipeBarrier: pipe %d is not modelled by pipev (PIPE_V, PIPE_MTE2, "
                     "PIPE_MTE3, PIPE_ALL)", int(p));
    Stmt("pipe_barrier %s", name).issue(loc);
}
}  // namespace pipev::detail

namespace AscendC {
template <HardEvent event> void SetFlag(int32_t eventID, PIPEV_LOC) {
    pipev::detail::flag(true, event, eventID, loc);
}
template <HardEvent event> void WaitFlag(int32_t eventID, PIPEV_LOC) {
    pipev::detail::flag(false, event, eventID, loc);
}
template <pipe_t pipe> void PipeBarrier(PIPEV_LOC) { pipev::detail::barrier(pipe, loc); }

inline int64_t GetBlockIdx() { return pipev::detail::bridge().block_idx; }
inline int64_t GetBlockNum() { return pipev::detail::bridge().block_num; }
// Inter-core synchronisation is out of pipev's model: its cores run one after another, so a
// kernel that waits for the others would wait for cores that have not run yet.
inline void sync_all(pipev::Loc loc) {
    pipev::detail::error(loc, "SyncAll: inter-core synchronisation is not modelled (pipev runs "
                         "a launch's cores one after another; split the kernel into two "
                         "launches at the SyncAll)");
}
template <bool isAIVOnly = true> void SyncAll(PIPEV_LOC) { sync_all(loc); }
template <bool isAIVOnly = true, class G, class L>
void SyncAll(const G&, const L&, int32_t = 0, PIPEV_LOC) { sync_all(loc); }
// The machine is in its reset state when a launch starts: nothing to do.
inline void InitSocState() {}
}  // namespace AscendC
#endif
