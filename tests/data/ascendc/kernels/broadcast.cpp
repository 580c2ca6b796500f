// pipev's own kernels calling Broadcast (pipev/broadcast.h), run in kernel-only mode by
// tests/cli/test_broadcast.py. MODE picks the page's shapes: 0 dim 1 ([1] -> [k]), 1 dim 2
// along axis 1 ([m, 1] -> [m, k]), 2 dim 2 along axis 0 ([1, k] -> [m, k]); FLAGS bit 0 gives
// the source dst's shape (a copy), bit 1 calls the older spelling BroadCast. TMP is the
// sharedTmpBuffer's size in bytes (0: the framework's space above the buffers), so a small one
// makes several passes. dst's bytes past the result are filled with 0xA5 first, and the test
// checks they stay so.
#include "kernel_operator.h"

using namespace AscendC;

inline uint32_t blocks_of(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

template <class T, int32_t dim, int32_t axis>
void call(const LocalTensor<T>& y, const LocalTensor<T>& x, const uint32_t* dshape,
          const uint32_t* sshape, TPipe& pipe, TBuf<TPosition::VECCALC>& tb, uint32_t tmp,
          bool older)
{
    if (tmp) {
        pipe.InitBuffer(tb, tmp);
        LocalTensor<uint8_t> shared = tb.Get<uint8_t>();
        if (older)
            BroadCast<T, dim, axis>(y, x, dshape, sshape, shared);
        else
            Broadcast<T, dim, axis>(y, x, dshape, sshape, shared);
    } else if (older) {
        BroadCast<T, dim, axis>(y, x, dshape, sshape);
    } else {
        Broadcast<T, dim, axis>(y, x, dshape, sshape);
    }
}

template <class T>
void broadcast(GM_ADDR xp, GM_ADDR yp, uint32_t m, uint32_t k, uint32_t mode, uint32_t tmp,
               uint32_t flags)
{
    bool same = flags & 1, older = flags & 2;
    uint32_t nx = mode == 0 ? (same ? k : 1) : mode == 1 ? (same ? m * k : m) : (same ? m * k : k);
    uint32_t xbytes = blocks_of(nx * sizeof(T)), ybytes = blocks_of(m * k * sizeof(T));
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, tb;
    pipe.InitBuffer(xb, xbytes);
    pipe.InitBuffer(yb, ybytes);
    LocalTensor<T> x = xb.Get<T>(), y = yb.Get<T>();
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T*)xp, xbytes / sizeof(T));
    yg.SetGlobalBuffer((__gm__ T*)yp, ybytes / sizeof(T));
    DataCopy(x, xg, xbytes / sizeof(T));
    Duplicate(yb.Get<uint16_t>(), uint16_t(0xA5A5), int32_t(ybytes / 2));
    PipeBarrier<PIPE_ALL>();
    if (mode == 0) {
        uint32_t d[1] = {k}, s[1] = {same ? k : 1};
        call<T, 1, 0>(y, x, d, s, pipe, tb, tmp, older);
    } else if (mode == 1) {
        uint32_t d[2] = {m, k}, s[2] = {m, same ? k : 1};
        call<T, 2, 1>(y, x, d, s, pipe, tb, tmp, older);
    } else {
        uint32_t d[2] = {m, k}, s[2] = {same ? m : 1, k};
        call<T, 2, 0>(y, x, d, s, pipe, tb, tmp, older);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, y, ybytes / sizeof(T));
}

#define PIPEV_BROADCAST_KERNEL(NAME, T)                                                          \
    extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR y, uint32_t m, uint32_t k,     \
                                               uint32_t mode, uint32_t tmp, uint32_t flags)      \
    {                                                                                            \
        broadcast<T>(x, y, m, k, mode, tmp, flags);                                              \
    }
PIPEV_BROADCAST_KERNEL(broadcast_f32, float)
PIPEV_BROADCAST_KERNEL(broadcast_f16, half)
PIPEV_BROADCAST_KERNEL(broadcast_s8, int8_t)
PIPEV_BROADCAST_KERNEL(broadcast_u8, uint8_t)
