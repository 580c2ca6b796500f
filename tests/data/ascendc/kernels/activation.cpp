// Sigmoid, Tanh and Silu (pipev/activation.h) in the style of third-party kernels: a tile copied
// in, the API with a sharedTmpBuffer from a TBuf (or the framework's space), the tile copied out.
// Kernel-only mode (tests/cli/test_activation.py); p = {api, n, tmpBytes, inPlace, whole}; api 0
// Sigmoid, 1 Tanh, 2 Silu, 3 Gelu, 4 FasterGeluV2, 5 Log.
#include "kernel_operator.h"

template <class T> __aicore__ inline void Act(GM_ADDR x, GM_ADDR y, GM_ADDR p)
{
    AscendC::GlobalTensor<uint32_t> pGm;
    pGm.SetGlobalBuffer((__gm__ uint32_t*)p);
    uint32_t api = pGm.GetValue(0), n = pGm.GetValue(1), tmpBytes = pGm.GetValue(2);
    bool inPlace = pGm.GetValue(3) != 0, whole = pGm.GetValue(4) != 0;
    uint32_t len = (n + 63) / 64 * 64;
    AscendC::GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x);
    yGm.SetGlobalBuffer((__gm__ T*)y);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, len * sizeof(T));
    pipe.InitBuffer(outQ, 1, len * sizeof(T));
    if (tmpBytes) pipe.InitBuffer(tmpBuf, tmpBytes);
    AscendC::LocalTensor<T> xLocal = inQ.AllocTensor<T>();
    AscendC::DataCopy(xLocal, xGm, len);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<T>();
    AscendC::LocalTensor<T> yLocal = outQ.AllocTensor<T>();
    AscendC::Duplicate(yLocal, T(0), int32_t(len));  // the elements past n go out as 0
    AscendC::LocalTensor<T> dst = inPlace ? xLocal : yLocal;
    if (tmpBytes) {
        AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        if (api == 0 && whole) AscendC::Sigmoid(dst, xLocal, tmp);
        if (api == 0 && !whole) AscendC::Sigmoid<T, false>(dst, xLocal, tmp, n);
        if (api == 1 && whole) AscendC::Tanh(dst, xLocal, tmp);
        if (api == 1 && !whole) AscendC::Tanh<T, true>(dst, xLocal, tmp, n);
        if (api == 3) AscendC::Gelu(dst, xLocal, tmp, n);
        if (api == 4 && whole) AscendC::FasterGeluV2<T, false, true>(dst, xLocal, tmp, n);
        if (api == 4 && !whole) AscendC::FasterGeluV2<T, true, false>(dst, xLocal, tmp, n);
    } else {
        if (api == 0 && whole) AscendC::Sigmoid(dst, xLocal);
        if (api == 0 && !whole) AscendC::Sigmoid(dst, xLocal, n);
        if (api == 1 && whole) AscendC::Tanh(dst, xLocal);
        if (api == 1 && !whole) AscendC::Tanh(dst, xLocal, n);
        if (api == 3) AscendC::Gelu<T, true, true>(dst, xLocal, n);
        if (api == 4) AscendC::FasterGeluV2(dst, xLocal, n);
    }
    if (api == 2) AscendC::Silu(dst, xLocal, n);
    if (api == 5 && whole) AscendC::Log(dst, xLocal);
    if (api == 5 && !whole) AscendC::Log<T, false>(dst, xLocal, n);
    if (inPlace) AscendC::DataCopy(yLocal, xLocal, len);
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xLocal);
    yLocal = outQ.DeQue<T>();
    AscendC::DataCopy(yGm, yLocal, len);
    outQ.FreeTensor(yLocal);
}

extern "C" __global__ __aicore__ void act_f32(GM_ADDR x, GM_ADDR y, GM_ADDR p) { Act<float>(x, y, p); }
extern "C" __global__ __aicore__ void act_f16(GM_ADDR x, GM_ADDR y, GM_ADDR p) { Act<half>(x, y, p); }

// Silu with dst over its source: the page does not allow it
extern "C" __global__ __aicore__ void silu_overlap(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::Duplicate(t, 1.0f, 128);
    AscendC::Silu(t[8], t, 64);  // overlap
}

// a sharedTmpBuffer smaller than one pass (64 float elements: 256 bytes)
extern "C" __global__ __aicore__ void sigmoid_small_tmp(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf, tmpBuf;
    pipe.InitBuffer(buf, 512);
    pipe.InitBuffer(tmpBuf, 128);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::Duplicate(t, 1.0f, 128);
    AscendC::Sigmoid(t, t, tmpBuf.Get<uint8_t>(), 128);  // too small
}
