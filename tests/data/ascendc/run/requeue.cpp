// An accumulator kept in its queue (pipev's own test): DeQue it, add to it, EnQue it again —
// what an operator's reduction loop does — then copy it out. y = 3 · x, in the kernel's
// `--kernel requeue` mode with --arg x=… --arg y=out:f32[256].
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void requeue(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> sumQueue;
    pipe.InitBuffer(inQueue, 1, 1024);
    pipe.InitBuffer(sumQueue, 1, 1024);
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    yGm.SetGlobalBuffer((__gm__ float*)y, 256);
    AscendC::LocalTensor<float> sum = sumQueue.AllocTensor<float>();
    AscendC::Duplicate(sum, 0.0f, 256);
    sumQueue.EnQue(sum);
    for (int i = 0; i < 3; ++i) {
        AscendC::LocalTensor<float> t = inQueue.AllocTensor<float>();
        AscendC::DataCopy(t, xGm, 256);
        inQueue.EnQue(t);
        AscendC::LocalTensor<float> in = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> acc = sumQueue.DeQue<float>();
        AscendC::Add(acc, acc, in, 256);
        sumQueue.EnQue(acc);  // a dequeued tensor queued again
        inQueue.FreeTensor(in);
    }
    AscendC::LocalTensor<float> out = sumQueue.DeQue<float>();
    AscendC::DataCopy(yGm, out, 256);
    sumQueue.FreeTensor(out);
}
