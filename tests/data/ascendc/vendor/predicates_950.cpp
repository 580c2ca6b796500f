// pipev's own kernel calling the Ascend 950 predicate and select advanced APIs (#32 class 4)
// in the vendor samples' style: IsNan (bool), IsInf (float), IsFinite (int8_t), Where (a
// tensor and a scalar), LogicalAnd, LogicalNot, Clamp (a scalar min and a tensor max), each
// on the first C of N elements. Run in kernel-only mode on ascend950; numpy checks every byte
// against tests/reference/predicates.py.
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t N = 256, C = 200;  // buffer elements, elements a call takes
extern "C" __global__ __aicore__ void predicates(GM_ADDR xf, GM_ADDR cond, GM_ADDR a, GM_ADDR b, GM_ADDR o1, GM_ADDR o2, GM_ADDR o3, GM_ADDR o4, GM_ADDR o5, GM_ADDR o6, GM_ADDR o7) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> fb, cb, ab, bb, r1, r2, r3, r4, r5, r6, r7;
    pipe.InitBuffer(fb, N * 4); pipe.InitBuffer(cb, N); pipe.InitBuffer(ab, N * 4); pipe.InitBuffer(bb, N * 4);
    pipe.InitBuffer(r1, N); pipe.InitBuffer(r2, N * 4); pipe.InitBuffer(r3, N); pipe.InitBuffer(r4, N * 4);
    pipe.InitBuffer(r5, N); pipe.InitBuffer(r6, N); pipe.InitBuffer(r7, N * 4);
    GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float*)xf, N);
    GlobalTensor<uint8_t> gc; gc.SetGlobalBuffer((__gm__ uint8_t*)cond, N);
    GlobalTensor<float> ga; ga.SetGlobalBuffer((__gm__ float*)a, N);
    GlobalTensor<float> gb; gb.SetGlobalBuffer((__gm__ float*)b, N);
    auto f = fb.Get<float>(); auto c = cb.Get<bool>(); auto av = ab.Get<float>(); auto bv = bb.Get<float>();
    DataCopy(f, g, N); DataCopy(c.ReinterpretCast<uint8_t>(), gc, N); DataCopy(av, ga, N); DataCopy(bv, gb, N);
    auto d1 = r1.Get<bool>(); auto d2 = r2.Get<float>(); auto d3 = r3.Get<int8_t>(); auto d4 = r4.Get<float>();
    auto d5 = r5.Get<bool>(); auto d6 = r6.Get<bool>(); auto d7 = r7.Get<float>();
    Duplicate(d1.ReinterpretCast<uint8_t>(), (uint8_t)0, N); Duplicate(d2, 0.0f, N); Duplicate(d3.ReinterpretCast<uint8_t>(), (uint8_t)0, N);
    Duplicate(d4, 0.0f, N); Duplicate(d5.ReinterpretCast<uint8_t>(), (uint8_t)0, N); Duplicate(d6.ReinterpretCast<uint8_t>(), (uint8_t)0, N); Duplicate(d7, 0.0f, N);
    PipeBarrier<PIPE_ALL>();
    IsNan(d1, f, C);
    IsInf(d2, f, C);
    IsFinite(d3, f, C);
    Where<float>(d4, av, 7.5f, c, C);
    LogicalAnd(d5, av, bv, C);
    LogicalNot(d6, av, C);
    Clamp(d7, f, -1.0f, av, N);
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<uint8_t> q1; q1.SetGlobalBuffer((__gm__ uint8_t*)o1, N); DataCopy(q1, d1.ReinterpretCast<uint8_t>(), N);
    GlobalTensor<float> q2; q2.SetGlobalBuffer((__gm__ float*)o2, N); DataCopy(q2, d2, N);
    GlobalTensor<uint8_t> q3; q3.SetGlobalBuffer((__gm__ uint8_t*)o3, N); DataCopy(q3, d3.ReinterpretCast<uint8_t>(), N);
    GlobalTensor<float> q4; q4.SetGlobalBuffer((__gm__ float*)o4, N); DataCopy(q4, d4, N);
    GlobalTensor<uint8_t> q5; q5.SetGlobalBuffer((__gm__ uint8_t*)o5, N); DataCopy(q5, d5.ReinterpretCast<uint8_t>(), N);
    GlobalTensor<uint8_t> q6; q6.SetGlobalBuffer((__gm__ uint8_t*)o6, N); DataCopy(q6, d6.ReinterpretCast<uint8_t>(), N);
    GlobalTensor<float> q7; q7.SetGlobalBuffer((__gm__ float*)o7, N); DataCopy(q7, d7, N);
}
