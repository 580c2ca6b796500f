// Sum (pipev/sum.h) in the style of a third-party top-k kernel that sums a row of counts in place
// (`AscendC::Sum(calcRet, calcRet, params)`). Kernel-only mode (tests/cli/test_sum.py);
// p = {outter, inner, n, tmpBytes, inPlace}.
#include "kernel_operator.h"

template <class T> __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, GM_ADDR p)
{
    AscendC::GlobalTensor<uint32_t> pGm;
    pGm.SetGlobalBuffer((__gm__ uint32_t*)p);
    AscendC::SumParams params;
    params.outter = pGm.GetValue(0);
    params.inner = pGm.GetValue(1);
    params.n = pGm.GetValue(2);
    uint32_t tmpBytes = pGm.GetValue(3);
    bool inPlace = pGm.GetValue(4) != 0;
    uint32_t len = params.outter * params.inner, per = 32 / sizeof(T);
    uint32_t outLen = (params.outter + per - 1) / per * per;
    AscendC::GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x);
    yGm.SetGlobalBuffer((__gm__ T*)y);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xBuf, yBuf, tmpBuf;
    pipe.InitBuffer(xBuf, len * sizeof(T));
    pipe.InitBuffer(yBuf, outLen * sizeof(T));
    if (tmpBytes) pipe.InitBuffer(tmpBuf, tmpBytes);
    AscendC::LocalTensor<T> xLocal = xBuf.Get<T>(), yLocal = yBuf.Get<T>();
    AscendC::DataCopy(xLocal, xGm, len);
    AscendC::Duplicate(yLocal, T(0), int32_t(outLen));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<T> dst = inPlace ? xLocal : yLocal;
    if (tmpBytes)
        AscendC::Sum(dst, xLocal, tmpBuf.Get<uint8_t>(), params);
    else
        AscendC::Sum(dst, xLocal, params);
    AscendC::PipeBarrier<PIPE_ALL>();
    if (inPlace) AscendC::Copy(yLocal, xLocal, int32_t(params.outter));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, yLocal, outLen);
}

extern "C" __global__ __aicore__ void sum_f32(GM_ADDR x, GM_ADDR y, GM_ADDR p) { Run<float>(x, y, p); }
extern "C" __global__ __aicore__ void sum_f16(GM_ADDR x, GM_ADDR y, GM_ADDR p) { Run<half>(x, y, p); }

// inner not a whole number of 32-byte blocks
extern "C" __global__ __aicore__ void sum_unaligned(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::SumParams params{2, 12, 12};
    AscendC::Sum(t, t, params);  // inner 12 floats
}
