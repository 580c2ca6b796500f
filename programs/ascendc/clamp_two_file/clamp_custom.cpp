/*
 * clamp_custom.cpp: the kernel file of a two-file project (the vendor's layout: the kernel and
 * its `<<<>>>` wrapper here, the host in main.cpp): z = min(max(x, lo), hi) in float over 4
 * cores, the bounds from a tiling struct in GM.
 * Run: pipev run programs/ascendc/clamp_two_file/main.cpp programs/ascendc/clamp_two_file/clamp_custom.cpp
 */
#include "kernel_operator.h"

#include "clamp_tiling.h"

using namespace AscendC;

class KernelClamp {
public:
    __aicore__ inline KernelClamp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, const ClampTiling &tiling)
    {
        t = tiling;
        uint32_t offset = t.blockLength * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, t.blockLength);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, t.blockLength);
        pipe.InitBuffer(inQueue, 2, t.tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, 2, t.tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < t.blockLength / t.tileLength; ++i) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[i * t.tileLength], t.tileLength);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            LocalTensor<float> zLocal = outQueue.AllocTensor<float>();
            Maxs(zLocal, xLocal, t.lo, t.tileLength);
            Mins(zLocal, zLocal, t.hi, t.tileLength);
            outQueue.EnQue(zLocal);
            inQueue.FreeTensor(xLocal);
            zLocal = outQueue.DeQue<float>();
            DataCopy(zGm[i * t.tileLength], zLocal, t.tileLength);
            outQueue.FreeTensor(zLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, zGm;
    ClampTiling t;
};

extern "C" __global__ __aicore__ void clamp_custom(GM_ADDR x, GM_ADDR z, GM_ADDR tiling)
{
    ClampTiling t = *reinterpret_cast<__gm__ ClampTiling *>(tiling);
    KernelClamp op;
    op.Init(x, z, t);
    op.Process();
}

void clamp_custom_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *z, uint8_t *tiling)
{
    clamp_custom<<<blockDim, nullptr, stream>>>(x, z, tiling);
}
