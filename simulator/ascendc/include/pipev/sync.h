// pipev/sync.h: SetFlag / WaitFlag, PipeBarrier (pipev's set_flag, wait_flag, pipe_barrier) and
// the core's identity (GetBlockIdx, GetBlockNum).
#ifndef PIPEV_SYNC_H
#define PIPEV_SYNC_H
#include "cores.h"

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
// ascend950's Mutex (#34): `mutex_lock PIPE, ID` / `mutex_unlock PIPE, ID`.
inline void mutex(bool lock, pipe_t p, int id, Loc loc) {
    const char* api = lock ? "Mutex::Lock" : "Mutex::Unlock";
    const char* name = p == PIPE_S ? "S" : p == PIPE_V ? "V" : p == PIPE_MTE2 ? "MTE2"
                       : p == PIPE_MTE3 ? "MTE3" : nullptr;
    if (!name) error(loc, "%s: pipe %d is not modelled by pipev (PIPE_S, PIPE_V, PIPE_MTE2, "
                     "PIPE_MTE3)", api, int(p));
    if (id < 0 || id > 31) error(loc, "%s: MutexID %d is out of range (0..31)", api, id);
    Stmt("%s %s, %d", lock ? "mutex_lock" : "mutex_unlock", name, id).issue(loc);
}
// AllocMutexID's pool: ids 0..27 (the Mutex page reserves 28..31 for the system).
constexpr int kMutexIds = 28;
}  // namespace pipev::detail

namespace AscendC {
using MutexID = uint8_t;
// Mutex::Lock<pipe>(id) / Mutex::Unlock<pipe>(id) (Ascend 950; the Mutex, Lock and Unlock pages).
class Mutex {
public:
    template <pipe_t pipe> static void Lock(MutexID id, PIPEV_LOC) {
        pipev::detail::mutex(true, pipe, id, loc);
    }
    template <pipe_t pipe> static void Unlock(MutexID id, PIPEV_LOC) {
        pipev::detail::mutex(false, pipe, id, loc);
    }
};
inline MutexID AllocMutexID(PIPEV_LOC) {
    auto& ids = pipev::detail::g.mutex_ids;
    for (int id = 0; id < pipev::detail::kMutexIds; ++id)
        if (!(ids & (1u << id))) {
            ids |= 1u << id;
            return MutexID(id);
        }
    pipev::detail::error(loc, "AllocMutexID: all %d MutexIDs are in use (ReleaseMutexID frees "
                         "one)", pipev::detail::kMutexIds);
}
inline void ReleaseMutexID(MutexID id, PIPEV_LOC) {
    auto& ids = pipev::detail::g.mutex_ids;
    if (id >= pipev::detail::kMutexIds || !(ids & (1u << id)))
        pipev::detail::error(loc, "ReleaseMutexID: MutexID %d was not handed out by AllocMutexID",
                             int(id));
    ids &= ~(1u << id);
}
template <HardEvent event> void SetFlag(int32_t eventID, PIPEV_LOC) {
    pipev::detail::flag(true, event, eventID, loc);
}
template <HardEvent event> void WaitFlag(int32_t eventID, PIPEV_LOC) {
    pipev::detail::flag(false, event, eventID, loc);
}
template <pipe_t pipe> void PipeBarrier(PIPEV_LOC) { pipev::detail::barrier(pipe, loc); }

inline int64_t GetBlockIdx() { return pipev::detail::bridge().block_idx; }
inline int64_t GetBlockNum() { return pipev::detail::bridge().block_num; }
// SyncAll: a barrier of the core's own pipes, then, in a launch of several cores, a wait until
// every core of the launch reached it (pipev/cores.h; docs/cores.md, "SyncAll").
inline void sync_all(pipev::Loc loc) {
    using namespace pipev::detail;
    barrier(PIPE_ALL, loc);
    if (GetBlockNum() == 1) return;
    if (g_cores == nullptr) error(loc, "SyncAll outside a kernel launch");
    g_cores->arrive(uint32_t(GetBlockIdx()), loc);
}
template <bool isAIVOnly = true> void SyncAll(PIPEV_LOC) { sync_all(loc); }
// The software form: the page's rules for its workspaces are checked (each at least 32 bytes a
// core; usedCores at most the launch's cores); pipev synchronises the cores itself and leaves
// both workspaces as they are (docs/decisions.md, "SyncAll across cores").
template <bool isAIVOnly = true, class T, class U>
void SyncAll(const GlobalTensor<T>& gmWorkspace, const LocalTensor<U>& ubWorkspace,
             int32_t usedCores = 0, PIPEV_LOC) {
    using pipev::detail::error;
    uint64_t cores = uint64_t(GetBlockNum()), need = cores * 32;
    if (!isAIVOnly)
        error(loc, "SyncAll: the software form (gmWorkspace, ubWorkspace) synchronises vector "
              "cores only (isAIVOnly = true)");
    if (usedCores < 0 || uint64_t(usedCores) > cores)
        error(loc, "SyncAll: usedCores %d is outside 0..%llu (the launch's blockDim)", usedCores,
              (unsigned long long)cores);
    if (usedCores != 0 && uint64_t(usedCores) != cores)
        error(loc, "SyncAll: a barrier of %d of the launch's %llu cores is not modelled (pass 0 "
              "or blockDim: every core)", usedCores, (unsigned long long)cores);
    auto holds = [&](const char* name, uint64_t bytes) {
        if (bytes < need)
            error(loc, "SyncAll: %s holds %llu bytes; the software form needs 32 a core (%llu "
                  "for %llu cores)", name, (unsigned long long)bytes, (unsigned long long)need,
                  (unsigned long long)cores);
    };
    if (gmWorkspace.GetSize() != 0)  // (a GlobalTensor set without its size: not known)
        holds("gmWorkspace", gmWorkspace.GetSize() * sizeof(T));
    holds("ubWorkspace", uint64_t(ubWorkspace.GetSize()) * sizeof(U));
    sync_all(loc);
}
// The machine is in its reset state when a launch starts: nothing to do.
inline void InitSocState() {}
// The scalar unit's data cache is not modelled: GetValue / SetValue on GM read and write GM
// itself, as after a clean and invalidate, so DataCacheCleanAndInvalid has nothing to do (its
// page's three forms, with the CacheLine and DcciDst values it names).
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <class T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}
template <class T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>&) {}
template <class T, CacheLine entireType>
void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}
}  // namespace AscendC
#endif
