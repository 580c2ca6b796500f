// Copy, UB to UB, in its three forms (pipev's own kernel): the count form, a contiguous mask
// with CopyRepeatParams given as a braced list, and a bitwise mask with the block strides
// apart; then from a queue buffer of an unaligned length. A `// => X` comment names what the
// line must issue.
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 2048;

extern "C" __global__ __aicore__ void copy_ub(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<> in, out;
    pipe.InitBuffer(in, N * sizeof(float));
    pipe.InitBuffer(out, N * sizeof(float));
    LocalTensor<float> a = in.Get<float>(), d = out.Get<float>();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    yGm.SetGlobalBuffer((__gm__ float*)y, N);
    DataCopy(a, xGm, N);
    Duplicate(d, 0.0f, N);
    PipeBarrier<PIPE_ALL>();
    Copy(d, a, 100);  // => copy.f32
    Copy(d[256], a[256], 64, 2, {1, 1, 8, 8});  // => copy.f32
    uint64_t mask[2] = {0xF0F0F0F0F0F0F0F0ull, 0};
    CopyRepeatParams params(2, 1, 16, 8);  // dst blocks 2 apart, dst repeats 16 blocks apart
    Copy(d[1024], a[512], mask, 2, params);  // => copy.f32
    // a buffer of an unaligned length is padded to whole blocks (the InitBuffer page), which
    // DataCopyPad of that length fills to the block boundary
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 100 * sizeof(float));
    LocalTensor<float> u = q.AllocTensor<float>();
    DataCopyPad(u, xGm, {1, 100 * sizeof(float), 0, 0, 0}, {false, 0, 0, 0});  // => copy_gm_to_ub_pad
    PipeBarrier<PIPE_ALL>();
    Copy(d[1536], u, 100);  // => copy.f32
    q.FreeTensor(u);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, d, N);
    PipeBarrier<PIPE_ALL>();
    // the scalar unit's data cache is not modelled: these compile and issue nothing
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
    DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(yGm);
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));
    ICPU_RUN_KF(copy_ub, 1, x, y);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return 0;
}
