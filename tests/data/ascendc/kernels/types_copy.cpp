// DataCopy of the element types it refused before issue #27 — int64_t, uint64_t, double and
// bool (one byte a value) — GM -> UB -> GM (pipev's own kernel); a `// => X` comment names what
// the line must issue.
#include "tikicpulib.h"

using namespace AscendC;

template <class T> void round_trip(TPipe& pipe, GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TBuf<> buf;
    pipe.InitBuffer(buf, n * sizeof(T));
    LocalTensor<T> t = buf.Get<T>();
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, n);
    yGm.SetGlobalBuffer((__gm__ T*)y, n);
    DataCopy(t, xGm, n);  // => copy_gm_to_ub
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, n);  // => copy_ub_to_gm
    PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void types_copy(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    round_trip<int64_t>(pipe, x, y, 32);
    round_trip<uint64_t>(pipe, x, y, 32);
    round_trip<double>(pipe, x, y, 32);
    round_trip<bool>(pipe, x, y, 256);
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(256);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(256);
    ICPU_RUN_KF(types_copy, 1, x, y);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return 0;
}
