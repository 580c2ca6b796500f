// pipev's own kernel: the whole-tensor operators of the Add, Sub, Mul, Div, And, Or and Compare
// pages (`dst = src0 OP src1;`), each result copied out: x, y 256 floats; p, q 256 int16_t.
// SHORT (a one-element input) makes y's tensor hold 64 floats: `sum = a + b` reads 256 (an
// error at that line).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 256;

extern "C" __global__ __aicore__ void tensor_ops(GM_ADDR x, GM_ADDR y, GM_ADDR p, GM_ADDR q,
                                                 GM_ADDR shortY, GM_ADDR sum, GM_ADDR diff,
                                                 GM_ADDR prod, GM_ADDR quot, GM_ADDR both,
                                                 GM_ADDR either, GM_ADDR bits)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, cb, pb, qb, rb, mb;
    pipe.InitBuffer(xb, N * sizeof(float));
    pipe.InitBuffer(yb, N * sizeof(float));
    pipe.InitBuffer(cb, N * sizeof(float));
    pipe.InitBuffer(pb, N * sizeof(int16_t));
    pipe.InitBuffer(qb, N * sizeof(int16_t));
    pipe.InitBuffer(rb, N * sizeof(int16_t));
    pipe.InitBuffer(mb, N / 8);
    GlobalTensor<uint32_t> shortG;
    shortG.SetGlobalBuffer((__gm__ uint32_t*)shortY, 1);
    LocalTensor<float> a = xb.Get<float>();
    LocalTensor<float> b = shortG.GetValue(0) ? yb.Get<float>(64) : yb.Get<float>();
    LocalTensor<float> c = cb.Get<float>();
    LocalTensor<int16_t> s = pb.Get<int16_t>(), t = qb.Get<int16_t>(), r = rb.Get<int16_t>();
    LocalTensor<uint8_t> m = mb.Get<uint8_t>();
    GlobalTensor<float> xg, yg, sumG, diffG, prodG, quotG;
    GlobalTensor<int16_t> pg, qg, bothG, eitherG;
    GlobalTensor<uint8_t> bitsG;
    xg.SetGlobalBuffer((__gm__ float*)x, N);
    yg.SetGlobalBuffer((__gm__ float*)y, N);
    sumG.SetGlobalBuffer((__gm__ float*)sum, N);
    diffG.SetGlobalBuffer((__gm__ float*)diff, N);
    prodG.SetGlobalBuffer((__gm__ float*)prod, N);
    quotG.SetGlobalBuffer((__gm__ float*)quot, N);
    pg.SetGlobalBuffer((__gm__ int16_t*)p, N);
    qg.SetGlobalBuffer((__gm__ int16_t*)q, N);
    bothG.SetGlobalBuffer((__gm__ int16_t*)both, N);
    eitherG.SetGlobalBuffer((__gm__ int16_t*)either, N);
    bitsG.SetGlobalBuffer((__gm__ uint8_t*)bits, 6 * N / 8);
    DataCopy(a, xg, N);
    DataCopy(yb.Get<float>(), yg, N);
    DataCopy(s, pg, N);
    DataCopy(t, qg, N);
    PipeBarrier<PIPE_ALL>();
    c = a + b;
    PipeBarrier<PIPE_ALL>();
    DataCopy(sumG, c, N);
    PipeBarrier<PIPE_ALL>();
    c = a - b;
    PipeBarrier<PIPE_ALL>();
    DataCopy(diffG, c, N);
    PipeBarrier<PIPE_ALL>();
    c = a / b;
    PipeBarrier<PIPE_ALL>();
    DataCopy(quotG, c, N);
    r = s & t;
    PipeBarrier<PIPE_ALL>();
    DataCopy(bothG, r, N);
    PipeBarrier<PIPE_ALL>();
    r = s | t;
    PipeBarrier<PIPE_ALL>();
    DataCopy(eitherG, r, N);
    for (int k = 0; k < 6; ++k) {  // LT GT EQ LE GE NE, CMPMODE's order
        PipeBarrier<PIPE_ALL>();
        switch (k) {
            case 0: m = a < b; break;
            case 1: m = a > b; break;
            case 2: m = a == b; break;
            case 3: m = a <= b; break;
            case 4: m = a >= b; break;
            default: m = a != b; break;
        }
        PipeBarrier<PIPE_ALL>();
        DataCopy(bitsG[k * N / 8], m, N / 8);
    }
    PipeBarrier<PIPE_ALL>();
    a = a * b;  // in place, as kernels write it
    PipeBarrier<PIPE_ALL>();
    DataCopy(prodG, a, N);
}
