// pipev's own custom operator in the msopgen layout: z = x * scale + y over float tensors, each
// core a slice, each slice in tiles. The kernel reads its tiling with GET_TILING_DATA alone, as
// a project's op_kernel does (the build supplies the struct from op_host's header).
#include "kernel_operator.h"

class KernelScaleAdd {
public:
    __aicore__ inline KernelScaleAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                                float scale, uint32_t tileLength, uint32_t tileNum)
    {
        uint32_t blockLength = totalLength / AscendC::GetBlockNum();
        uint32_t offset = blockLength * AscendC::GetBlockIdx();
        this->scale = scale;
        this->tileLength = tileLength;
        this->tileNum = tileNum;
        xGm.SetGlobalBuffer((__gm__ float*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ float*)z + offset, blockLength);
        pipe.InitBuffer(inX, 1, tileLength * sizeof(float));
        pipe.InitBuffer(inY, 1, tileLength * sizeof(float));
        pipe.InitBuffer(outZ, 1, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; ++i) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        AscendC::LocalTensor<float> x = inX.AllocTensor<float>();
        AscendC::LocalTensor<float> y = inY.AllocTensor<float>();
        AscendC::DataCopy(x, xGm[i * tileLength], tileLength);
        AscendC::DataCopy(y, yGm[i * tileLength], tileLength);
        inX.EnQue(x);
        inY.EnQue(y);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> x = inX.DeQue<float>();
        AscendC::LocalTensor<float> y = inY.DeQue<float>();
        AscendC::LocalTensor<float> z = outZ.AllocTensor<float>();
        AscendC::Muls(z, x, scale, tileLength);
        AscendC::Add(z, z, y, tileLength);
        outZ.EnQue(z);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        AscendC::LocalTensor<float> z = outZ.DeQue<float>();
        AscendC::DataCopy(zGm[i * tileLength], z, tileLength);
        outZ.FreeTensor(z);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inX, inY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    float scale = 0;
    uint32_t tileLength = 0, tileNum = 0;
};

extern "C" __global__ __aicore__ void scale_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelScaleAdd op;
    op.Init(x, y, z, tiling_data.totalLength, tiling_data.scale, tiling_data.tile.tileLength,
            tiling_data.tile.tileNum);
    op.Process();
}
