// A tiled, double-buffered add in the AscendC style, with its CPU-twin harness: the tiling struct
// travels in GM (GET_TILING_DATA), each core takes its share by GetBlockIdx/GetBlockNum, and
// BUFFER_NUM = 2 buffers per TQue let copy-in, compute and copy-out of neighbouring tiles
// overlap (this kernel is bound by MTE2, so the gain is small: compare the cycles with
// `pipev run programs/ascendc/tiled_add.cpp -D BUFFER_NUM=1`). One command:
//     pipev run programs/ascendc/tiled_add.cpp
// writes tiled_add_in_{x,y}.bin and tiled_add_out_z.bin here. `-D BLOCK_DIM=4` launches four
// cores, each adding its quarter (docs/debugger.md debugs one of them).
#include "data_utils.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tikicpulib.h"

#ifndef BUFFER_NUM
#define BUFFER_NUM 2
#endif
#ifndef BLOCK_DIM
#define BLOCK_DIM 1
#endif

struct TiledAddTilingData {
    uint32_t totalLength;  // elements over all cores
    uint32_t tileNum;      // tiles per core
};

template <typename T> class KernelTiledAdd {
public:
    __aicore__ inline KernelTiledAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                                uint32_t tileNum)
    {
        blockLength = totalLength / AscendC::GetBlockNum();
        this->tileNum = tileNum;
        tileLength = blockLength / tileNum;
        uint64_t offset = uint64_t(blockLength) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ T*)z + offset, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
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
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.template AllocTensor<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.template AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[progress * tileLength], tileLength);
        AscendC::DataCopy(yLocal, yGm[progress * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.template DeQue<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.template DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ.template AllocTensor<T>();
        AscendC::Add(zLocal, xLocal, yLocal, tileLength);
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<T> zLocal = outQueueZ.template DeQue<T>();
        AscendC::DataCopy(zGm[progress * tileLength], zLocal, tileLength);
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<T> xGm, yGm, zGm;
    uint32_t blockLength = 0, tileNum = 0, tileLength = 0;
};

template <typename T>
__global__ __aicore__ void tiled_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TiledAddTilingData);
    GET_TILING_DATA(tilingData, tiling);
    KernelTiledAdd<T> op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}

int main()
{
    constexpr uint32_t blockDim = BLOCK_DIM;
    constexpr uint32_t total = 4096;
    size_t bytes = total * sizeof(float);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(sizeof(TiledAddTilingData));
    demo::FillGrid((float*)x, total, 41);
    demo::FillGrid((float*)y, total, 42);
    TiledAddTilingData tilingData{total, 8};
    std::memcpy(tiling, &tilingData, sizeof tilingData);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_SET_TILING_KEY(1);
    ICPU_RUN_KF(tiled_add<float>, blockDim, x, y, z, tiling);

    bool ok = demo::WriteFile("tiled_add_in_x.bin", x, bytes) &&
              demo::WriteFile("tiled_add_in_y.bin", y, bytes) &&
              demo::WriteFile("tiled_add_out_z.bin", z, bytes);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    AscendC::GmFree(tiling);
    return ok ? 0 : 1;
}
