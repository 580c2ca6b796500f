// Cast, Abs, And, Or, Not, DataCopyPad and SetPadValue: argument "cast" converts f32 to f16 and
// runs the bitwise ones; "pad" round-trips 4 rows of 31 floats through a padded UB buffer (one
// pad element a row); no argument takes the other branch of the `if constexpr`.
#include <cstring>

#include "tikicpulib.h"

using namespace AscendC;

template <bool kConvert> __global__ __aicore__ void maybe_convert(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<> f32Buf, f16Buf, s16Buf;
    pipe.InitBuffer(f32Buf, 1024);
    pipe.InitBuffer(f16Buf, 512);
    pipe.InitBuffer(s16Buf, 512);
    LocalTensor<float> f = f32Buf.Get<float>();
    LocalTensor<half> h = f16Buf.Get<half>();
    LocalTensor<int16_t> s = s16Buf.Get<int16_t>();
    GlobalTensor<float> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    yGm.SetGlobalBuffer((__gm__ half*)y, 256);
    DataCopy(f, xGm, 256);
    PipeBarrier<PIPE_ALL>();
    if constexpr (kConvert) {
        Cast(h, f, RoundMode::CAST_RINT, 256);  // => cast.f16.f32
        Abs(h, h, 256);  // => abs.f16
        Duplicate(s, (int16_t)0x0ff0, 256);
        And(s, s, s, 256);  // => and.s16
        Or(s, s, s, 256);
        Not(s, s, 256);
    } else {
        Duplicate(h, (half)1, 256);  // => duplicate.f16
        DataCopyParams rows{1, 8, 0, 0};  // the params forms and UB -> UB, on f's halves
        DataCopy(f, xGm, rows);  // => copy_gm_to_ub tbuf0[x1], gm_x[x2], nburst=x3, burst=x4, src_gap=x5, dst_gap=x6$
        PipeBarrier<PIPE_ALL>();
        DataCopy(f[128], f, 64);  // => copy_ub_to_ub tbuf0[x1], tbuf0[x2], nburst=1, burst=x3$
        DataCopy(f[192], f[64], rows);  // => copy_ub_to_ub tbuf0[x1], tbuf0[x2], nburst=x3, burst=x4, src_gap=x5, dst_gap=x6$
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, h, rows);  // => copy_ub_to_gm gm_y[x1], tbuf1[x2], nburst=x3, burst=x4, src_gap=x5, dst_gap=x6$
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, h, 256);
}

extern "C" __global__ __aicore__ void pad_copy(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 4 * 32 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 4 * 31);
    yGm.SetGlobalBuffer((__gm__ float*)y, 4 * 31);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopyExtParams params{4, 31 * sizeof(float), 0, 0, 0};
    DataCopyPadExtParams<float> pad{true, 0, 1, 0.0f};
    SetPadValue(37.0f);  // used by isPad false copies only
    DataCopyPad(t, xGm, params, pad);  // => copy_gm_to_ub_pad.f32 que0_0[x1], gm_x[x2], nburst=x3
    q.EnQue(t);
    t = q.DeQue<float>();
    PipeBarrier<PIPE_ALL>();  // MTE2 wrote what MTE3 reads: the VECIN queue syncs only V
    DataCopyPad(yGm, t, params);  // => copy_ub_to_gm_pad.f32 gm_y[x1], que0_0[x2], nburst=x3
    q.FreeTensor(t);
}

int main(int argc, char** argv)
{
    const char* which = argc > 1 ? argv[1] : "";
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(1024);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(1024);
    if (std::strcmp(which, "pad") == 0) ICPU_RUN_KF(pad_copy, 1, x, y);
    else if (std::strcmp(which, "cast") == 0) ICPU_RUN_KF(maybe_convert<true>, 1, x, y);
    else ICPU_RUN_KF(maybe_convert<false>, 1, x, y);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return 0;
}
