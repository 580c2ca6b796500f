// Cast between the A2/A3 pairs issue #27 added (int16 -> float, bfloat16 -> int32, int32 <->
// int16 / int64, float -> int16 / float / int64, int64 -> float): pipev's own kernel, count and
// high-dimensional forms; a `// => X` comment names what the line must issue.
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 64;  // int64: two repeats; float: one

extern "C" __global__ __aicore__ void cast_pairs(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<> fBuf, gBuf, iBuf, sBuf, lBuf, bBuf;
    pipe.InitBuffer(fBuf, N * sizeof(float));
    pipe.InitBuffer(gBuf, N * sizeof(float));
    pipe.InitBuffer(iBuf, N * sizeof(int32_t));
    pipe.InitBuffer(sBuf, N * sizeof(int16_t));
    pipe.InitBuffer(lBuf, N * sizeof(int64_t));
    pipe.InitBuffer(bBuf, N * sizeof(bfloat16_t));
    LocalTensor<float> f = fBuf.Get<float>();
    LocalTensor<float> g = gBuf.Get<float>();
    LocalTensor<int32_t> i = iBuf.Get<int32_t>();
    LocalTensor<int16_t> s = sBuf.Get<int16_t>();
    LocalTensor<int64_t> l = lBuf.Get<int64_t>();
    LocalTensor<bfloat16_t> b = bBuf.Get<bfloat16_t>();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    yGm.SetGlobalBuffer((__gm__ float*)y, N);
    DataCopy(f, xGm, N);
    PipeBarrier<PIPE_ALL>();
    Cast(g, f, RoundMode::CAST_FLOOR, N);  // => cast.f32.f32 tbuf1[x1], tbuf0[x2], round=floor, count=x3
    Cast(l, g, RoundMode::CAST_RINT, N);  // => cast.s64.f32 tbuf4[x1], tbuf1[x2], round=rint, count=x3
    Cast(i, l, RoundMode::CAST_NONE, N);  // => cast.s32.s64 tbuf2[x1], tbuf4[x2], round=none, count=x3
    Cast(s, i, RoundMode::CAST_NONE, N);  // => cast.s16.s32
    Cast(f, s, RoundMode::CAST_NONE, N);  // => cast.f32.s16
    Cast(s, f, RoundMode::CAST_TRUNC, N);  // => cast.s16.f32
    Cast(l, i, RoundMode::CAST_NONE, 32, 2, {1, 1, 8, 4});  // => cast.s64.s32 tbuf4[x1], tbuf2[x2], round=none, repeat=x3, stride=1,1,8,4, mask=x4
    Cast(f, l, RoundMode::CAST_CEIL, N);  // => cast.f32.s64
    Cast(b, f, RoundMode::CAST_RINT, N);  // => cast.bf16.f32
    Cast(i, b, RoundMode::CAST_ROUND, N);  // => cast.s32.bf16
    Cast(g, i, RoundMode::CAST_NONE, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, g, N);
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));
    ICPU_RUN_KF(cast_pairs, 1, x, y);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return 0;
}
