// y = 2 x over 256 floats in tiles of TILE elements (a -D macro the sweep varies).
#include "kernel_operator.h"

#ifndef TILE
#define TILE 64
#endif

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    yGm.SetGlobalBuffer((__gm__ float*)y, 256);
    for (int i = 0; i < 256; i += TILE) {
        AscendC::DataCopy(t, xGm[i], TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Muls(t, t, 2.0f, TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yGm[i], t, TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
