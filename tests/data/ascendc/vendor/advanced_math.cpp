// pipev's own kernel calling the advanced math APIs pipev builds from basic instructions
// (#32 class 4): ClampMax and ClampMin in both temporary-space forms (a sharedTmpBuffer, and
// the framework's space above the kernel's buffers), Xor in both forms. Run in kernel-only
// mode with inputs holding NaN, infinities and signed zeros, and bounds that may be NaN;
// numpy checks every byte against the documented rule.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t N = 1024;      // elements in each buffer: whole repeats
constexpr uint32_t COUNT = 1000;  // elements each API call takes: the count forms' tails

extern "C" __global__ __aicore__ void advanced_math(GM_ADDR xf, GM_ADDR xh, GM_ADDR a, GM_ADDR b,
                                                    GM_ADDR maxOut, GM_ADDR minOut,
                                                    GM_ADDR xorOut, GM_ADDR xorOut2, float hi,
                                                    half lo)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fBuf, hBuf, aBuf, bBuf, tmpBuf, f2Buf, h2Buf, x1Buf, x2Buf;
    pipe.InitBuffer(fBuf, N * sizeof(float));
    pipe.InitBuffer(f2Buf, N * sizeof(float));
    pipe.InitBuffer(hBuf, N * sizeof(half));
    pipe.InitBuffer(h2Buf, N * sizeof(half));
    pipe.InitBuffer(aBuf, N * sizeof(int16_t));
    pipe.InitBuffer(bBuf, N * sizeof(int16_t));
    pipe.InitBuffer(x1Buf, N * sizeof(int16_t));
    pipe.InitBuffer(x2Buf, N * sizeof(int16_t));
    pipe.InitBuffer(tmpBuf, N * sizeof(int16_t));
    GlobalTensor<float> xfGm, maxGm;
    GlobalTensor<half> xhGm, minGm;
    GlobalTensor<int16_t> aGm, bGm, xorGm, xor2Gm;
    xfGm.SetGlobalBuffer((__gm__ float *)xf, N);
    maxGm.SetGlobalBuffer((__gm__ float *)maxOut, N);
    xhGm.SetGlobalBuffer((__gm__ half *)xh, N);
    minGm.SetGlobalBuffer((__gm__ half *)minOut, N);
    aGm.SetGlobalBuffer((__gm__ int16_t *)a, N);
    bGm.SetGlobalBuffer((__gm__ int16_t *)b, N);
    xorGm.SetGlobalBuffer((__gm__ int16_t *)xorOut, N);
    xor2Gm.SetGlobalBuffer((__gm__ int16_t *)xorOut2, N);

    LocalTensor<float> f = fBuf.Get<float>(), f2 = f2Buf.Get<float>();
    LocalTensor<half> h = hBuf.Get<half>(), h2 = h2Buf.Get<half>();
    LocalTensor<int16_t> av = aBuf.Get<int16_t>(), bv = bBuf.Get<int16_t>();
    LocalTensor<int16_t> x1 = x1Buf.Get<int16_t>(), x2 = x2Buf.Get<int16_t>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    DataCopy(f, xfGm, N);
    DataCopy(h, xhGm, N);
    DataCopy(av, aGm, N);
    DataCopy(bv, bGm, N);
    Duplicate(f2, 0.0f, N);  // what no call writes is copied out as zeros
    Duplicate(h2, static_cast<half>(0.0f), N);
    Duplicate(x1, static_cast<int16_t>(0), N);
    Duplicate(x2, static_cast<int16_t>(0), N);
    PipeBarrier<PIPE_ALL>();
    ClampMax(f2, f, tmp, hi, COUNT);  // the caller's temporary space
    ClampMin(h2, h, lo, COUNT);       // the framework's, above the buffers
    PipeBarrier<PIPE_ALL>();
    Xor(x1, av, bv, tmp, COUNT);
    Xor(x2, av, bv, COUNT);
    PipeBarrier<PIPE_ALL>();
    DataCopy(maxGm, f2, N);
    DataCopy(minGm, h2, N);
    DataCopy(xorGm, x1, N);
    DataCopy(xor2Gm, x2, N);
}
