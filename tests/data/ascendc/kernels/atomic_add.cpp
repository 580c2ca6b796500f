// GM atomics on 8 blocks: each block sums its 16 rows of 64 int32 counts and adds that row into
// one shared histogram with SetAtomicAdd<int32_t> (pipev's own kernel); a `// => X` comment
// names what the line must issue.
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t BINS = 64, ROWS = 16;

extern "C" __global__ __aicore__ void histogram(GM_ADDR counts, GM_ADDR hist)
{
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, BINS * ROWS * sizeof(int32_t));
    LocalTensor<int32_t> x = buf.Get<int32_t>();
    GlobalTensor<int32_t> cGm, hGm;
    cGm.SetGlobalBuffer((__gm__ int32_t*)counts + GetBlockIdx() * BINS * ROWS, BINS * ROWS);
    hGm.SetGlobalBuffer((__gm__ int32_t*)hist, BINS);
    DataCopy(x, cGm, BINS * ROWS);
    PipeBarrier<PIPE_ALL>();
    for (int32_t n = BINS * ROWS / 2; n >= BINS; n /= 2) Add(x, x, x[n], n);
    SetAtomicAdd<int32_t>();  // => set_atomic.s32 atomic=add
    PipeBarrier<PIPE_ALL>();
    DataCopy(hGm, x, BINS);
    SetAtomicNone();  // => set_atomic.f32 atomic=none
}

int main()
{
    uint8_t* counts = (uint8_t*)AscendC::GmAlloc(8 * BINS * ROWS * sizeof(int32_t));
    uint8_t* hist = (uint8_t*)AscendC::GmAlloc(BINS * sizeof(int32_t));
    ICPU_RUN_KF(histogram, 8, counts, hist);
    AscendC::GmFree(counts);
    AscendC::GmFree(hist);
    return 0;
}
