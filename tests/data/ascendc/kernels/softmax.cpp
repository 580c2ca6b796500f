// pipev's own kernels calling SoftMax and SimpleSoftMax (pipev/softmax.h), run in kernel-only
// mode by tests/cli/test_softmax.py: an [m, k] source (rows of K elements, the reductions over
// the first ORI), max and sum a 32-byte block a row. TMP is the sharedTmpBuffer's size in
// bytes (0: the framework's space above the buffers), so a small one makes several passes.
#include "kernel_operator.h"
#include "tiling/tiling_api.h"  // in_place fills a tiling itself (one program: host and kernel)

using namespace AscendC;

constexpr uint32_t MAX_ELEMENTS = 8192;  // m * k at most
constexpr uint32_t MAX_ROWS = 300;

template <class T, class U>
struct Buffers {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, mb, sb, tb;
    LocalTensor<T> x, y;
    LocalTensor<U> max, sum;
    GlobalTensor<T> xg, yg;
    GlobalTensor<U> mg, sg;
    uint32_t n, blocks;  // elements copied (whole blocks), max/sum elements

    Buffers(GM_ADDR xp, GM_ADDR yp, GM_ADDR mp, GM_ADDR sp, uint32_t m, uint32_t k)
    {
        constexpr uint32_t per = 32 / sizeof(T);
        n = (m * k + per - 1) / per * per;
        blocks = m * (32 / sizeof(U));
        pipe.InitBuffer(xb, MAX_ELEMENTS * sizeof(T));
        pipe.InitBuffer(yb, MAX_ELEMENTS * sizeof(T));
        pipe.InitBuffer(mb, MAX_ROWS * 32);
        pipe.InitBuffer(sb, MAX_ROWS * 32);
        x = xb.Get<T>(), y = yb.Get<T>(), max = mb.Get<U>(), sum = sb.Get<U>();
        xg.SetGlobalBuffer((__gm__ T*)xp, n);
        yg.SetGlobalBuffer((__gm__ T*)yp, n);
        mg.SetGlobalBuffer((__gm__ U*)mp, blocks);
        sg.SetGlobalBuffer((__gm__ U*)sp, blocks);
        DataCopy(x, xg, n);
        Duplicate(y, T(0), int32_t(n));
        PipeBarrier<PIPE_ALL>();
    }
    void Out(bool stats)
    {
        PipeBarrier<PIPE_ALL>();
        DataCopy(yg, y, n);
        if (stats) {
            DataCopy(mg, max, blocks);
            DataCopy(sg, sum, blocks);
        }
    }
};

template <class T, class U>
void softmax(GM_ADDR x, GM_ADDR y, GM_ADDR mx, GM_ADDR sm, uint32_t m, uint32_t k, uint32_t ori,
             uint32_t tmp)
{
    Buffers<T, U> b(x, y, mx, sm, m, k);
    SoftMaxTiling tiling;
    SoftMaxShapeInfo shape = {m, k, m, ori};
    if (tmp) {
        b.pipe.InitBuffer(b.tb, tmp);
        SoftMax<T>(b.y, b.sum, b.max, b.x, b.tb.template Get<uint8_t>(), tiling, shape);
    } else {
        SoftMax<T>(b.y, b.sum, b.max, b.x, tiling, shape);
    }
    b.Out(true);
}

// SimpleSoftMax: max and sum read from MX and SM
template <class T, class U>
void simple(GM_ADDR x, GM_ADDR y, GM_ADDR mx, GM_ADDR sm, uint32_t m, uint32_t k, uint32_t tmp)
{
    Buffers<T, U> b(x, y, mx, sm, m, k);
    DataCopy(b.max, b.mg, b.blocks);
    DataCopy(b.sum, b.sg, b.blocks);
    PipeBarrier<PIPE_ALL>();
    SoftMaxTiling tiling;
    SoftMaxShapeInfo shape = {m, k, m, k};
    if (tmp) {
        b.pipe.InitBuffer(b.tb, tmp);
        SimpleSoftMax<T>(b.y, b.sum, b.max, b.x, b.tb.template Get<uint8_t>(), tiling, shape);
    } else {
        SimpleSoftMax<T>(b.y, b.sum, b.max, b.x, tiling, shape);
    }
    b.Out(false);
}

// SoftMax without max and sum, in place, its shape from a tiling SoftMaxTilingFunc filled
// on the kernel's side (as a host would)
template <class T>
void in_place(GM_ADDR x, GM_ADDR y, GM_ADDR mx, GM_ADDR sm, uint32_t m, uint32_t k)
{
    Buffers<T, T> b(x, y, mx, sm, m, k);
    SoftMaxTiling tiling;
    SoftMaxTilingFunc(ge::Shape({int64_t(m), int64_t(k)}), sizeof(T), 16384, tiling);
    SoftMax<T>(b.x, b.x, tiling);
    PipeBarrier<PIPE_ALL>();
    DataCopy(b.y, b.x, b.n);
    b.Out(false);
}

#define PIPEV_SOFTMAX_KERNEL(NAME, T, U)                                                         \
    extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR y, GM_ADDR mx, GM_ADDR sm,     \
                                               uint32_t m, uint32_t k, uint32_t ori,           \
                                               uint32_t tmp)                                     \
    {                                                                                            \
        softmax<T, U>(x, y, mx, sm, m, k, ori, tmp);                                             \
    }
PIPEV_SOFTMAX_KERNEL(softmax_f32, float, float)
PIPEV_SOFTMAX_KERNEL(softmax_f16, half, half)
PIPEV_SOFTMAX_KERNEL(softmax_f16_f32, half, float)

extern "C" __global__ __aicore__ void simple_f32(GM_ADDR x, GM_ADDR y, GM_ADDR mx, GM_ADDR sm,
                                                 uint32_t m, uint32_t k, uint32_t tmp)
{
    simple<float, float>(x, y, mx, sm, m, k, tmp);
}
extern "C" __global__ __aicore__ void simple_f16(GM_ADDR x, GM_ADDR y, GM_ADDR mx, GM_ADDR sm,
                                                 uint32_t m, uint32_t k, uint32_t tmp)
{
    simple<half, half>(x, y, mx, sm, m, k, tmp);
}
extern "C" __global__ __aicore__ void in_place_f32(GM_ADDR x, GM_ADDR y, GM_ADDR mx, GM_ADDR sm,
                                                   uint32_t m, uint32_t k)
{
    in_place<float>(x, y, mx, sm, m, k);
}
