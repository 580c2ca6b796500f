// operator() of a LocalTensor as a reference to the element (pipev's LocalRef): compound
// assignments, increments and an assignment from another element, in the style of third-party
// kernels that accumulate into a UB row element by element (`outRow(d) += p * vRow(d)`), and
// TPipe::Init on a new pipe, as they call it. Run in kernel-only mode (tests/cli/test_local_ref.py).
#include "kernel_operator.h"

template <class T> __aicore__ inline void Edit(AscendC::LocalTensor<T>& a);

template <> __aicore__ inline void Edit(AscendC::LocalTensor<float>& a)
{
    const float invDen = 0.25f;
    a(0) += 1.5f;
    a(1) -= 2;
    a(2) *= 3.0f;
    a(3) *= invDen;
    a(4) /= 3.0f;
    a(5) = a(6);
    a(7)++;
    ++a(8);
    a(9)--;
    --a(10);
    float old = a(11)++;
    a(12) = old;
    for (int d = 0; d < 8; ++d) a(16 + d) += a(d) * 2.0f;
}

template <> __aicore__ inline void Edit(AscendC::LocalTensor<int32_t>& a)
{
    a(0) %= 5;
    a(1) &= 0xF0;
    a(2) |= 0x0F;
    a(3) ^= 0xFF;
    a(4) <<= 3;
    a(5) >>= 2;
    a(6) += 7;
    a(7) = a(8);
    a(9)++;
    --a(10);
}

template <class T> __aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    pipe.Init();  // a new pipe: ready already
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32 * sizeof(T));
    AscendC::LocalTensor<T> a = buf.Get<T>();
    AscendC::GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x);
    yGm.SetGlobalBuffer((__gm__ T*)y);
    AscendC::DataCopy(a, xGm, 32);
    AscendC::PipeBarrier<PIPE_ALL>();
    Edit<T>(a);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, a, 32);
}

extern "C" __global__ __aicore__ void local_ref_f32(GM_ADDR x, GM_ADDR y) { Run<float>(x, y); }
extern "C" __global__ __aicore__ void local_ref_s32(GM_ADDR x, GM_ADDR y) { Run<int32_t>(x, y); }

// Init after Destroy: the pipe is used again, as the Init page's example does with a second pipe
extern "C" __global__ __aicore__ void pipe_init_again(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x);
    yGm.SetGlobalBuffer((__gm__ float*)y);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 32 * sizeof(float));
    AscendC::LocalTensor<float> t = q.AllocTensor<float>();
    AscendC::DataCopy(t, xGm, 32);
    q.EnQue(t);
    t = q.DeQue<float>();
    AscendC::Muls(t, t, 2.0f, 32);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, t, 32);
    q.FreeTensor(t);
    pipe.Destroy();
    pipe.Init();
    AscendC::TPipe pipe2;
    pipe2.Init();
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe2.InitBuffer(buf, 32 * sizeof(float));
    AscendC::LocalTensor<float> u = buf.Get<float>();
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(u, yGm, 32);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Adds(u, u, 1.0f, 32);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, u, 32);
    pipe2.Destroy();
}

// A pipe a row, as a third-party MLP kernel makes one in its row function: each pipe's 100 KB
// start where the destroyed one's did (two would not fit in UB together)
__aicore__ inline void PipeRow(GM_ADDR y, uint32_t r)
{
    AscendC::TPipe pipe;
    pipe.Init();
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 100 * 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y);
    AscendC::Duplicate(t, float(r) + 0.5f, 8);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm[r * 8], t, 8);
}
extern "C" __global__ __aicore__ void pipe_a_row(GM_ADDR x, GM_ADDR y)
{
    for (uint32_t r = 0; r < 4; ++r) PipeRow(y, r);
}

// two pipes alive at once: their buffers do not share UB (the second goes beyond it)
extern "C" __global__ __aicore__ void two_live_pipes(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe a;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bufA, bufB;
    a.InitBuffer(bufA, 100 * 1024);
    AscendC::TPipe b;
    b.InitBuffer(bufB, 100 * 1024);  // beyond UB
}
