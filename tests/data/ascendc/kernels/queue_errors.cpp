// Kernels that break the rules the CPU twin checks: each must stop with an error at its line.
// Run with the case name as the argument. A `// => X` comment names the expected error.
#include <cstring>

#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void deque_empty(GM_ADDR x)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, 256);
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, g, 256);  // the EnQue is missing
    LocalTensor<float> u = q.DeQue<float>();  // => error: DeQue on an empty queue
    q.FreeTensor(u);
}

extern "C" __global__ __aicore__ void alloc_beyond(GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 1024);
    LocalTensor<float> a = q.AllocTensor<float>();
    LocalTensor<float> b = q.AllocTensor<float>();
    LocalTensor<float> c = q.AllocTensor<float>();  // => error: AllocTensor beyond the queue's 2 buffers
    (void)a, (void)b, (void)c;
}

extern "C" __global__ __aicore__ void free_twice(GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<half> t = q.AllocTensor<half>();
    Duplicate(t, (half)0, 512);
    q.EnQue(t);
    t = q.DeQue<half>();
    q.FreeTensor(t);
    q.FreeTensor(t);  // => error: FreeTensor twice
}

extern "C" __global__ __aicore__ void init_beyond_ub(GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 100 * 1024);  // => error: InitBuffer of 102400 bytes at UB 0x19000 goes beyond UB
}

extern "C" __global__ __aicore__ void enque_beyond_depth(GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 1024);
    LocalTensor<float> a = q.AllocTensor<float>();
    LocalTensor<float> b = q.AllocTensor<float>();
    q.EnQue(a);
    q.EnQue(b);  // => error: EnQue beyond the queue's depth 1
}

extern "C" __global__ __aicore__ void no_init_buffer(GM_ADDR)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    LocalTensor<float> a = q.AllocTensor<float>();  // => error: AllocTensor on a queue without InitBuffer
    (void)a;
}

extern "C" __global__ __aicore__ void assert_fails(GM_ADDR)
{
    ASSERT(GetBlockNum() == 8);  // => error: ASSERT failed: GetBlockNum() == 8
}

int main(int argc, char** argv)
{
    const char* which = argc > 1 ? argv[1] : "";
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(1024);
    void (*kernels[])(GM_ADDR) = {deque_empty, alloc_beyond, free_twice, init_beyond_ub,
                                  enque_beyond_depth, no_init_buffer, assert_fails};
    const char* names[] = {"deque_empty", "alloc_beyond", "free_twice", "init_beyond_ub",
                           "enque_beyond_depth", "no_init_buffer", "assert_fails"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (std::strcmp(which, names[i]) == 0) ICPU_RUN_KF(kernels[i], 1, x);
    AscendC::GmFree(x);
    return 0;
}
