// DeQue of a queue nothing was enqueued on (pipev's own test).
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void deque_empty(GM_ADDR x)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    pipe.InitBuffer(inQueue, 1, 1024);
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    AscendC::LocalTensor<float> t = inQueue.AllocTensor<float>();
    AscendC::DataCopy(t, xGm, 256);
    AscendC::LocalTensor<float> u = inQueue.DeQue<float>();
    inQueue.FreeTensor(u);
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(1024);
    ICPU_RUN_KF(deque_empty, 1, x);
    AscendC::GmFree(x);
    return 0;
}
