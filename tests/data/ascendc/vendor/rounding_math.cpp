// pipev's own kernel calling the rounding advanced APIs (#32 class 4) in the vendor samples'
// style: Floor, Ceil, Trunc, Rint, Round and Frac of half and float, in the count form with a
// sharedTmpBuffer sized by the host helper, the framework form (temporary space above the
// kernel's buffers) and the whole-tensor forms. Rint on the 950 only, as documented. Run in kernel-only mode; numpy checks every
// byte against the documented rules (tests/reference/rounding.py).
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

constexpr uint32_t N = 1024;      // elements in each buffer
constexpr uint32_t COUNT = 1000;  // elements the count forms take

template <typename T>
__aicore__ inline void RoundAll(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LocalTensor<uint8_t>& tmp)
{
    Floor(dst[0 * N], src, tmp, COUNT);      // the caller's temporary space
    Ceil(dst[1 * N], src, COUNT);            // the framework's
    Trunc<T, false>(dst[2 * N], src, tmp);   // whole tensor
#if __NPU_ARCH__ == 3510
    Rint(dst[3 * N], src, tmp, COUNT);       // an Ascend 950 API
#endif
    Round(dst[4 * N], src, COUNT);
    Frac<T, false>(dst[5 * N], src, tmp, COUNT);
}

extern "C" __global__ __aicore__ void rounding_math(GM_ADDR xf, GM_ADDR xh, GM_ADDR outF,
                                                   GM_ADDR outH)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fBuf, hBuf, rfBuf, rhBuf, tmpBuf;
    uint32_t maxF = 0, minF = 0, maxH = 0, minH = 0;
    GetFracMaxMinTmpSize(ge::Shape({int64_t(N)}), sizeof(float), false, maxF, minF);
    GetFloorMaxMinTmpSize(AscendC::TensorShape{{N}}, sizeof(half), false, maxH, minH);
    pipe.InitBuffer(fBuf, N * sizeof(float));
    pipe.InitBuffer(hBuf, N * sizeof(half));
    pipe.InitBuffer(rfBuf, 6 * N * sizeof(float));
    pipe.InitBuffer(rhBuf, 6 * N * sizeof(half));
    pipe.InitBuffer(tmpBuf, maxF > maxH ? maxF : maxH);
    GlobalTensor<float> xfGm, outFGm;
    GlobalTensor<half> xhGm, outHGm;
    xfGm.SetGlobalBuffer((__gm__ float*)xf, N);
    xhGm.SetGlobalBuffer((__gm__ half*)xh, N);
    outFGm.SetGlobalBuffer((__gm__ float*)outF, 6 * N);
    outHGm.SetGlobalBuffer((__gm__ half*)outH, 6 * N);
    LocalTensor<float> f = fBuf.Get<float>(), rf = rfBuf.Get<float>();
    LocalTensor<half> h = hBuf.Get<half>(), rh = rhBuf.Get<half>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    DataCopy(f, xfGm, N);
    DataCopy(h, xhGm, N);
    Duplicate(rf, 0.0f, 6 * N);  // what no call writes is copied out as zeros
    Duplicate(rh, static_cast<half>(0.0f), 6 * N);
    PipeBarrier<PIPE_ALL>();
    RoundAll(rf, f, tmp);
    RoundAll(rh, h, tmp);
    PipeBarrier<PIPE_ALL>();
    DataCopy(outFGm, rf, 6 * N);
    DataCopy(outHGm, rh, 6 * N);
}
