// pipev/cores.h: the cores of one launch, and SyncAll across them.
//
// A launch runs its cores one after another on the launching thread (core 0 to its end, then
// core 1, ...) until core 0 reaches a SyncAll. From there each core runs on a thread of its own
// so that its C++ stack survives while it waits at the barrier, but only one core runs at a
// time: the one holding the baton (`turn_`), handed on in block order. Core 0 runs to its first
// SyncAll, then core 1 to its first, ...; when the last core arrives pipev times the barrier
// and core 0 goes on to its next SyncAll (or its end), then core 1, and so on. The bridge's
// Python side is single-threaded: a thread calls it only while it holds the baton.
//
// The per-core bookkeeping `g` is saved and restored when the baton moves (one core's state is
// in `g` at a time), not thread_local: the headers read `g` on every API call and a
// thread_local in a shared object costs a lookup each time (docs/decisions.md, "SyncAll across
// cores").
#ifndef PIPEV_CORES_H
#define PIPEV_CORES_H
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "queue.h"

namespace pipev::detail {
// A core's bookkeeping when it starts: UB, queues, pipes and event ids afresh (each core has its
// own machine), the launch's GM buffers as FROM knows them.
inline State core_state(const State& from) {
    State next{};
    next.active = true;
    next.gm = from.gm;
    for (auto& buf : next.gm) next.names.push_back(buf.name);
    return next;
}
// The next core of a launch run one after another: handles of the earlier core are stale.
inline void reset_core() {
    g = core_state(g);
    ++g_generation;
}

// "0, 2 and 5"
inline std::string core_list(const std::vector<uint32_t>& cores) {
    std::string out;
    for (size_t i = 0; i < cores.size(); ++i)
        out += (i == 0 ? "" : i + 1 == cores.size() ? " and " : ", ") + std::to_string(cores[i]);
    return out;
}

class Cores {
public:
    Cores(uint32_t n, std::function<void()> body) : n_(n), body_(std::move(body)) {}
    Cores(const Cores&) = delete;
    Cores& operator=(const Cores&) = delete;
    ~Cores() { join(); }

    // Whether a SyncAll put the cores on threads (the launch's loop then runs no further core).
    bool threaded() const { return !cores_.empty(); }

    // Run core K's kernel body; its end hands the baton on (a Stopped unwinds through here).
    void run(uint32_t k) {
        try {
            body_();
        } catch (Stopped&) {
            ended(k);
            throw;
        } catch (...) {  // the kernel's own exception: an error, the waiting cores unwind
            if (!threaded()) throw;  // (as before SyncAll: it leaves the launch)
            escaped(k);
            ended(k);
            throw Stopped{};
        }
        ended(k);
    }

    // Core K reached a SyncAll at LOC (a launch of several cores): it waits there until every
    // core arrived; throws Stopped when the run stopped meanwhile.
    void arrive(uint32_t k, Loc loc) {
        if (!threaded()) {
            std::vector<uint32_t> before;  // cores before K ran to their end
            for (uint32_t c = 0; c < k; ++c) before.push_back(c);
            if (!before.empty()) deadlock(loc, {k}, before);
            cores_.resize(n_);  // core 0: the others run on threads from now
            cores_[0].status = kRunning;
            top_generation_ = g_generation;
        }
        std::vector<uint32_t> ended = with(kDone);
        if (!ended.empty()) deadlock(loc, {k}, ended);
        check(bridge().sync_all(loc.file, loc.line));
        cores_[k].status = kWaiting;
        cores_[k].at = loc;
        hand_on(k);
        wait_turn(k);
        if (g_stopped) throw Stopped{};  // unwound while others ended the run
    }

    // The launching thread after the launch's loop: the threads' cores have ended; join them.
    void join() {
        for (auto& c : cores_)
            if (c.thread.joinable()) c.thread.join();
        if (threaded()) g_generation = top_generation_;
    }

private:
    enum Status { kFresh, kRunning, kWaiting, kReady, kDone };
    struct Core {
        Status status = kFresh;
        State state;         // its bookkeeping while another core runs
        int generation = 0;  // its handles' g_generation
        Loc at{"", 0};       // the SyncAll it waits at
        std::thread thread;
    };
    static constexpr uint32_t kNone = ~0u;

    std::vector<uint32_t> with(Status s) const {
        std::vector<uint32_t> out;
        for (uint32_t c = 0; c < cores_.size(); ++c)
            if (cores_[c].status == s) out.push_back(c);
        return out;
    }

    // WAITING wait at LOC's SyncAll for ENDED, which returned without reaching it: on the
    // device the launch would hang.
    [[noreturn]] static void deadlock(Loc loc, const std::vector<uint32_t>& waiting,
                                      const std::vector<uint32_t>& ended) {
        bool one = waiting.size() == 1, none = ended.size() == 1;
        error(loc, "SyncAll: core%s %s wait%s here for core%s %s, which ended without reaching "
              "this SyncAll (a deadlock: on the device the launch would hang)", one ? "" : "s",
              core_list(waiting).c_str(), one ? "s" : "", none ? "" : "s",
              core_list(ended).c_str());
    }

    // An exception of the kernel's own left core K (on the device a kernel cannot throw): an
    // error at the last call, so the run stops and the waiting cores unwind.
    static void escaped(uint32_t k) {
        try {
            error(g_last, "a C++ exception left core %u's kernel (a kernel cannot throw on the "
                  "device)", k);
        } catch (Stopped&) {
        }
    }

    // Core K's kernel returned or unwound.
    void ended(uint32_t k) {
        if (!threaded()) return;
        cores_[k].status = kDone;
        std::vector<uint32_t> waiting = with(kWaiting);
        if (!waiting.empty() && !g_stopped) {
            try {
                deadlock(cores_[waiting[0]].at, waiting, {k});
            } catch (Stopped&) {
            }
        }
        hand_on(k);
        if (k == 0) wait_turn(kNone);  // the launching thread: until every core ended
    }

    // The core to run after K: the next one in block order that has not stopped at the
    // barrier; after the last, the barrier is complete (all wait: they go on from core 0) or the
    // launch is over. A stopped run only unwinds the cores that wait; none starts.
    uint32_t next(uint32_t k) {
        if (g_stopped) {
            for (uint32_t c = 0; c < n_; ++c) {
                if (cores_[c].status == kFresh) cores_[c].status = kDone;
                if (cores_[c].status == kWaiting || cores_[c].status == kReady) return c;
            }
            return kNone;
        }
        for (uint32_t c = k + 1; c < n_; ++c)
            if (cores_[c].status == kFresh || cores_[c].status == kReady) return c;
        if (with(kWaiting).size() != n_) return kNone;  // all ended (a mix is a deadlock above)
        for (auto& c : cores_) c.status = kReady;
        return 0;
    }

    // Hand the baton from core K (which stopped at a SyncAll or ended) to the next core: K's
    // bookkeeping put aside, the next one's in `g`, the bridge told, its thread woken.
    void hand_on(uint32_t k) {
        uint32_t j = next(k);
        Core& me = cores_[k];
        if (j == kNone) {
            give(kNone);
            return;
        }
        Core& to = cores_[j];
        State state = to.status == kFresh ? core_state(g) : std::move(to.state);
        if (me.status != kDone) {
            me.state = std::move(g);
            me.generation = g_generation;
        }
        g = std::move(state);
        if (to.status == kFresh) {
            to.generation = ++top_generation_;
            to.thread = std::thread([this, j] {
                wait_turn(j);
                try {
                    if (g_stopped) ended(j);
                    else run(j);
                } catch (Stopped&) {
                }
            });
        }
        g_generation = to.generation;
        to.status = kRunning;
        if (!g_stopped && bridge().switch_core(j) != 0) g_stopped = true;
        give(j);
    }

    void give(uint32_t j) {
        {
            std::lock_guard<std::mutex> lock(m_);
            turn_ = j;
        }
        cv_.notify_all();
    }
    void wait_turn(uint32_t k) {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return turn_ == k; });
    }

    uint32_t n_;
    std::function<void()> body_;
    std::vector<Core> cores_;  // empty until core 0 reaches a SyncAll
    uint32_t turn_ = 0;        // the core that runs (kNone: every core ended)
    int top_generation_ = 0;   // the highest g_generation handed out
    std::mutex m_;
    std::condition_variable cv_;
};
inline Cores* g_cores = nullptr;  // the running launch's cores
}  // namespace pipev::detail
#endif
