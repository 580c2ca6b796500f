// pipev/queue.h: TPipe, TQue/TQueBind, TBuf and LocalMemAllocator: UB buffers, each declared to
// pipev as a typed tensor, and the set_flag/wait_flag pairs the queues imply on the hardware.
//
// A queue has a producer pipe (writes a buffer before EnQue) and a consumer pipe (reads it after
// DeQue): VECIN MTE2 -> V, VECOUT V -> MTE3, VECIN->VECOUT (TQueBind) MTE2 -> MTE3, VECCALC none.
//   EnQue       set_flag  PROD, CONS, id      DeQue        wait_flag PROD, CONS, id
//   FreeTensor  set_flag  CONS, PROD, id'     AllocTensor  wait_flag CONS, PROD, id' (buffer reuse)
// Event ids come from a pool per pipe pair, so double-buffered queues overlap in the timing.
// The CPU twin's queue rules are errors at the kernel's line.
#ifndef PIPEV_QUEUE_H
#define PIPEV_QUEUE_H
#include <exception>

#include "tensor.h"

namespace pipev::detail {
inline int g_generation = 0;  // launches so far: handles from an earlier launch are stale

// Producer and consumer pipes of a queue between positions SRC and DST.
inline void queue_pipes(AscendC::TPosition src, AscendC::TPosition dst, int& prod, int& cons) {
    using P = AscendC::TPosition;
    prod = cons = -1;
    if (src == P::GM) {
        prod = kMte2;
        cons = kV;
    } else if (dst == P::GM) {
        prod = kV;
        cons = kMte3;
    } else if (src == P::VECIN && dst == P::VECOUT) {
        prod = kMte2;
        cons = kMte3;
    }
}
inline bool vector_position(AscendC::TPosition p) {
    using P = AscendC::TPosition;
    return p == P::GM || p == P::VECIN || p == P::VECOUT || p == P::VECCALC;
}

struct QueueBase {
    int id_ = -1, gen_ = -1;
    AscendC::TPosition src_, dst_;
    int depth_;
    QueueBase(AscendC::TPosition src, AscendC::TPosition dst, int depth)
        : src_(src), dst_(dst), depth_(depth) {}
    QueueState& state(Loc loc, const char* what) const {
        if (id_ < 0 || gen_ != g_generation)
            error(loc, "%s on a queue without InitBuffer (call pipe.InitBuffer(queue, num, len) "
                  "first)", what);
        return g.queues[size_t(id_)];
    }
    int slot_of(QueueState& q, int region, Loc loc, const char* what) const {
        for (size_t i = 0; i < q.slots.size(); ++i)
            if (q.slots[i].region == region) return int(i);
        error(loc, "%s of a tensor that is not a buffer of this queue (initialised at %s:%d)", what,
              q.init.file, q.init.line);
    }

    int alloc(Loc loc) {
        QueueState& q = state(loc, "AllocTensor");
        size_t n = q.slots.size();
        for (size_t k = 0; k < n; ++k) {
            Slot& s = q.slots[(q.next + k) % n];
            if (s.state != kFree) continue;
            q.next = (q.next + k + 1) % n;
            if (s.rev_event >= 0) {  // the buffer's last reader must be done before it is rewritten
                wait_flag(q.cons, q.prod, s.rev_event, loc);
                release_event(q.cons, q.prod, s.rev_event);
                s.rev_event = -1;
            }
            s.state = kAllocated;
            s.line = loc.line;
            return s.region;
        }
        std::string lines;
        for (auto& s : q.slots) lines += (lines.empty() ? "" : ", ") + std::to_string(s.line);
        error(loc, "AllocTensor beyond the queue's %zu buffer%s: all are in use (allocated or "
              "dequeued at line%s %s and not freed; InitBuffer at %s:%d, depth %d); FreeTensor one "
              "first", n, n == 1 ? "" : "s", n == 1 ? "" : "s", lines.c_str(), q.init.file,
              q.init.line, q.depth);
    }
    void enque(int region, Loc loc) {
        QueueState& q = state(loc, "EnQue");
        int k = slot_of(q, region, loc, "EnQue");
        Slot& s = q.slots[size_t(k)];
        // a dequeued tensor may be queued again (an accumulator kept in its queue: DeQue, add,
        // EnQue): on the chip EnQue passes the buffer on whatever came before
        if (s.state != kAllocated && s.state != kDequeued)
            error(loc, "EnQue of a tensor that is %s (line %d); EnQue takes a tensor from "
                  "AllocTensor or DeQue", s.state == kFree ? "free" : "already queued", s.line);
        if (q.depth > 0 && int(q.fifo.size()) >= q.depth)
            error(loc, "EnQue beyond the queue's depth %d: DeQue first (TQue<pos, depth> allows "
                  "depth consecutive EnQue)", q.depth);
        if (q.prod >= 0) {
            s.fwd_event = alloc_event(q.prod, q.cons, loc);
            set_flag(q.prod, q.cons, s.fwd_event, loc);
        }
        s.state = kQueued;
        s.line = loc.line;
        q.fifo.push_back(k);
    }
    int deque(Loc loc) {
        QueueState& q = state(loc, "DeQue");
        if (q.fifo.empty())
            error(loc, "DeQue on an empty queue: no EnQue on this queue since its last DeQue, so "
                  "on the NPU this DeQue waits forever (a deadlock); EnQue the tensor before "
                  "(queue initialised at %s:%d)", q.init.file, q.init.line);
        Slot& s = q.slots[size_t(q.fifo.front())];
        q.fifo.erase(q.fifo.begin());
        if (s.fwd_event >= 0) {
            wait_flag(q.prod, q.cons, s.fwd_event, loc);
            release_event(q.prod, q.cons, s.fwd_event);
            s.fwd_event = -1;
        }
        s.state = kDequeued;
        s.line = loc.line;
        return s.region;
    }
    void free(int region, Loc loc) {
        QueueState& q = state(loc, "FreeTensor");
        Slot& s = q.slots[size_t(slot_of(q, region, loc, "FreeTensor"))];
        if (s.state == kFree)
            error(loc, "FreeTensor twice: this buffer was already freed at line %d", s.line);
        if (s.state == kQueued)
            error(loc, "FreeTensor of a tensor that is still in the queue (EnQue at line %d); "
                  "DeQue it first", s.line);
        if (q.prod >= 0) {
            s.rev_event = alloc_event(q.cons, q.prod, loc);
            set_flag(q.cons, q.prod, s.rev_event, loc);
        }
        s.state = kFree;
        s.line = loc.line;
    }
};
struct BufBase {
    int region_ = -1, gen_ = -1;
    int region(Loc loc) const {
        if (region_ < 0 || gen_ != g_generation)
            error(loc, "TBuf without InitBuffer (call pipe.InitBuffer(buf, len) first)");
        return region_;
    }
};
template <class T> AscendC::LocalTensor<T> view(int region, AscendC::TPosition pos, Loc loc) {
    const Region& r = g.regions[size_t(region)];
    AscendC::LocalTensor<T> t;
    t.region_ = region;
    t.addr_ = r.addr;
    t.size_ = uint32_t(is_int4<T> ? r.bytes * 2 : r.bytes / sizeof(T));  // int4b_t: 2 a byte
    t.pos_ = pos;
    typed(region, type_name<T>, sizeof(T), loc);
    return t;
}
}  // namespace pipev::detail

namespace AscendC {

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : public pipev::detail::QueueBase {
public:
    TQueBind() : QueueBase(src, dst, depth) {}
    template <class T> LocalTensor<T> AllocTensor(PIPEV_LOC) {
        return pipev::detail::view<T>(alloc(loc), dst, loc);
    }
    template <class T> void AllocTensor(LocalTensor<T>& t, PIPEV_LOC) { t = AllocTensor<T>(loc); }
    template <class T> bool EnQue(const LocalTensor<T>& t, PIPEV_LOC) {
        enque(t.region_, loc);
        return true;
    }
    template <class T> LocalTensor<T> DeQue(PIPEV_LOC) {
        return pipev::detail::view<T>(deque(loc), dst, loc);
    }
    template <class T> void FreeTensor(LocalTensor<T>& t, PIPEV_LOC) { free(t.region_, loc); }
    int32_t GetTensorCountInQue(PIPEV_LOC) const {
        return int32_t(state(loc, "GetTensorCountInQue").fifo.size());
    }
    bool HasTensorInQue(PIPEV_LOC) const { return GetTensorCountInQue(loc) > 0; }
    bool VacantInQue(PIPEV_LOC) const { return depth == 0 || GetTensorCountInQue(loc) < depth; }
    bool HasIdleBuffer(PIPEV_LOC) const {
        for (auto& s : state(loc, "HasIdleBuffer").slots)
            if (s.state == pipev::detail::kFree) return true;
        return false;
    }
};
// TQue<pos>: VECIN is filled from GM, VECOUT drained to GM, VECCALC stays on the vector pipe.
template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos == TPosition::VECIN ? TPosition::GM : pos,
                             pos == TPosition::VECOUT ? TPosition::GM : pos, depth, mask> {};

template <TPosition pos = TPosition::LCM> class TBuf : public pipev::detail::BufBase {
public:
    template <class T> LocalTensor<T> Get(PIPEV_LOC) {
        return pipev::detail::view<T>(region(loc), pos, loc);
    }
    template <class T> LocalTensor<T> Get(uint32_t len, PIPEV_LOC) {
        LocalTensor<T> t = Get<T>(loc);
        if (len > t.size_)
            pipev::detail::error(loc, "TBuf::Get of %u elements: the buffer holds %u", len, t.size_);
        t.size_ = len;
        return t;
    }
    template <class T> LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, PIPEV_LOC) {
        LocalTensor<T> t = Get<T>(loc);
        t.addr_ += bufOffset;
        t.size_ = size;
        return t;
    }
    template <class T> LocalTensor<T> AllocTensor(PIPEV_LOC) { return Get<T>(loc); }
    template <class T> void FreeTensor(LocalTensor<T>&) {}
};

class TPipe;
namespace detail_pipe {
inline TPipe*& current() {
    return reinterpret_cast<TPipe*&>(pipev::detail::g.current_pipe);
}
}  // namespace detail_pipe

class TPipe {
public:
    TPipe(PIPEV_LOC) : loc_(loc) {  // NOLINT: `TPipe pipe;` captures its line
        id_ = pipev::detail::g.pipes++;
        gen_ = pipev::detail::g_generation;
        base_ = top_ = pipev::detail::g.ub_top;
        detail_pipe::current() = this;
    }
    ~TPipe() {
        if (std::uncaught_exceptions() == 0) Destroy(loc_);
        if (detail_pipe::current() == this) detail_pipe::current() = nullptr;
    }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    // NUM buffers of LEN bytes for a queue.
    bool InitBuffer(pipev::detail::QueueBase& que, uint8_t num, uint32_t len, PIPEV_LOC) {
        using namespace pipev::detail;
        if (!vector_position(que.src_) || !vector_position(que.dst_))
            error(loc, "InitBuffer: the queue's TPosition is a cube buffer; pipev models the "
                  "vector core only (VECIN, VECOUT, VECCALC)");
        if (num == 0) error(loc, "InitBuffer with 0 buffers");
        QueueState q;
        queue_pipes(que.src_, que.dst_, q.prod, q.cons);
        q.depth = que.depth_;
        q.init = loc;
        q.pipe = id_;
        int qid = int(g.queues.size());
        for (int k = 0; k < num; ++k) {
            uint64_t addr = ub_alloc(len, "InitBuffer", loc);
            q.slots.push_back({new_region(format("que%d_%d", qid, k), addr, block_up(len))});
        }
        top_ = g.ub_top;
        g.queues.push_back(q);
        que.id_ = qid;
        que.gen_ = g_generation;
        return true;
    }
    // One buffer of LEN bytes for a TBuf (rounded up to 32 bytes, as a queue's buffers).
    bool InitBuffer(pipev::detail::BufBase& buf, uint32_t len, PIPEV_LOC) {
        using namespace pipev::detail;
        uint64_t addr = ub_alloc(len, "InitBuffer", loc);
        buf.region_ = new_region(format("tbuf%zu", g.regions.size()), addr, block_up(len));
        buf.gen_ = g_generation;
        top_ = g.ub_top;
        return true;
    }
    // The queues' three-argument form on a TBuf (the vendor's InitBuffer is a template over the
    // queue type, and third-party kernels call it so): one buffer, as the two-argument form; a
    // TBuf holds one, so another NUM is an error
    bool InitBuffer(pipev::detail::BufBase& buf, uint8_t num, uint32_t len, PIPEV_LOC) {
        if (num != 1)
            pipev::detail::error(loc, "InitBuffer of a TBuf with %u buffers: a TBuf holds one "
                                 "(pipe.InitBuffer(buf, len), or num 1)", unsigned(num));
        return InitBuffer(buf, len, loc);
    }
    template <HardEvent e> TEventID FetchEventID() { return FetchEventID(e); }
    TEventID FetchEventID(HardEvent e) {
        int s, d;
        return pipev::detail::event_pipes(e, s, d) ? TEventID(pipev::detail::fetch_event(s, d)) : 0;
    }
    template <HardEvent e> TEventID AllocEventID(PIPEV_LOC) {
        int s, d;
        if (!pipev::detail::event_pipes(e, s, d))
            pipev::detail::error(loc, "AllocEventID: HardEvent %d involves a cube pipe pipev does "
                                 "not model", int(e));
        return TEventID(pipev::detail::alloc_event(s, d, loc));
    }
    template <HardEvent e> void ReleaseEventID(TEventID id) {
        int s, d;
        if (pipev::detail::event_pipes(e, s, d)) pipev::detail::release_event(s, d, id);
    }
    // TPipe::Init (the page: initialises the memory and the event ids; a pipe that was
    // Destroyed is Init-ed before it is used again). pipev's pipe is ready when constructed, so
    // Init of a new pipe changes nothing; after Destroy it makes the pipe current again, and a
    // later Destroy waits for its buffers' readers again.
    void Init() {
        if (destroyed_) base_ = top_ = pipev::detail::g.ub_top;
        destroyed_ = false;
        detail_pipe::current() = this;
    }
    // Waits for the buffers' last readers (the reverse events of FreeTensor), as at the end of
    // the kernel, so no flag is left set, and frees the pipe's UB: the next pipe's buffers start
    // where this pipe's did (the TPipe page: one pipe at a time, the last Destroyed before the next
    // is made; a kernel that makes a pipe a loop iteration reuses the same UB). Only when nothing
    // was allocated above the pipe's buffers since (another live pipe, LocalMemAllocator).
    void Destroy(PIPEV_LOC) {
        using namespace pipev::detail;
        if (destroyed_ || gen_ != g_generation || g_stopped || !g.active) return;
        destroyed_ = true;
        for (auto& q : g.queues) {
            if (q.pipe != id_) continue;
            for (auto& s : q.slots)
                if (s.rev_event >= 0) {
                    wait_flag(q.cons, q.prod, s.rev_event, loc);
                    release_event(q.cons, q.prod, s.rev_event);
                    s.rev_event = -1;
                }
        }
        if (g.ub_top == top_) g.ub_top = base_;
    }

private:
    pipev::Loc loc_;
    uint64_t base_ = 0, top_ = 0;  // UB from where the pipe's buffers start to their end
    int id_ = 0, gen_ = 0;
    bool destroyed_ = false;
};
inline TPipe* GetTPipePtr() { return detail_pipe::current(); }

// Static tensor programming: buffers at increasing UB addresses (not mixed with TPipe).
template <Hardware hard = Hardware::UB> class LocalMemAllocator {
    static_assert(hard == Hardware::UB, "pipev models the Unified Buffer only (Hardware::UB)");

public:
    uint32_t GetCurAddr() const { return uint32_t((pipev::detail::g.ub_top + 31) & ~uint64_t(31)); }
    template <class T, uint32_t tileSize> LocalTensor<T> Alloc(PIPEV_LOC) {
        return Alloc<T>(tileSize, loc);
    }
    template <TPosition pos, class T, uint32_t tileSize> LocalTensor<T> Alloc(PIPEV_LOC) {
        return Alloc<pos, T>(tileSize, loc);
    }
    template <class T> LocalTensor<T> Alloc(uint32_t tileSize, PIPEV_LOC) {
        return Alloc<TPosition::VECCALC, T>(tileSize, loc);
    }
    template <TPosition pos, class T> LocalTensor<T> Alloc(uint32_t tileSize, PIPEV_LOC) {
        using namespace pipev::detail;
        uint64_t bytes = pipev::elem_bytes<T>(tileSize);
        uint64_t addr = ub_alloc(bytes, "LocalMemAllocator::Alloc", loc);
        return view<T>(new_region(format("lm%zu", g.regions.size()), addr, bytes), pos, loc);
    }
};
}  // namespace AscendC
#endif
