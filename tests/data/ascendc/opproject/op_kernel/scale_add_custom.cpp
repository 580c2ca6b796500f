// pipev's own custom operator in the msopgen layout: z = x * scale + y, each core a slice, each
// slice in tiles. As a project's op_kernel does, the kernel reads its tiling with GET_TILING_DATA
// alone and names the struct from the global namespace (the build supplies it from op_host's
// header), and its element types are the DTYPE_ macros of op_host's OpDef.
#include "kernel_operator.h"

class KernelScaleAdd {
public:
    __aicore__ inline KernelScaleAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                const ScaleAddCustomTilingData* tiling)
    {
        uint32_t totalLength = tiling->totalLength, tileLength = tiling->tile.tileLength;
        uint32_t tileNum = tiling->tile.tileNum;
        float scale = tiling->scale;
        uint32_t blockLength = totalLength / AscendC::GetBlockNum();
        uint32_t offset = blockLength * AscendC::GetBlockIdx();
        this->scale = scale;
        this->tileLength = tileLength;
        this->tileNum = tileNum;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, blockLength);
        pipe.InitBuffer(inX, 1, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(inY, 1, tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(outZ, 1, tileLength * sizeof(DTYPE_Z));
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
        AscendC::LocalTensor<DTYPE_X> x = inX.AllocTensor<DTYPE_X>();
        AscendC::LocalTensor<DTYPE_Y> y = inY.AllocTensor<DTYPE_Y>();
        AscendC::DataCopy(x, xGm[i * tileLength], tileLength);
        AscendC::DataCopy(y, yGm[i * tileLength], tileLength);
        inX.EnQue(x);
        inY.EnQue(y);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<DTYPE_X> x = inX.DeQue<DTYPE_X>();
        AscendC::LocalTensor<DTYPE_Y> y = inY.DeQue<DTYPE_Y>();
        AscendC::LocalTensor<DTYPE_Z> z = outZ.AllocTensor<DTYPE_Z>();
        AscendC::Muls(z, x, static_cast<DTYPE_Z>(scale), tileLength);
        AscendC::Add(z, z, y, tileLength);
        outZ.EnQue(z);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        AscendC::LocalTensor<DTYPE_Z> z = outZ.DeQue<DTYPE_Z>();
        AscendC::DataCopy(zGm[i * tileLength], z, tileLength);
        outZ.FreeTensor(z);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inX, inY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outZ;
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;
    AscendC::GlobalTensor<DTYPE_Z> zGm;
    float scale = 0;
    uint32_t tileLength = 0, tileNum = 0;
};

extern "C" __global__ __aicore__ void scale_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelScaleAdd op;
    op.Init(x, y, z, &tiling_data);
    op.Process();
}
