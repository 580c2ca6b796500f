// Softmax of each row of x (40 rows of 96 floats) with the SoftMax advanced API, in tiles of 16
// rows, with max and sum written out as the API gives them (a 32-byte block a row: 8 copies).
// The host sizes the temporary space and fills the tiling as an op_host tiling function does
// (GetSoftMaxMinTmpSize, SoftMaxTilingFunc); the kernel passes a sharedTmpBuffer of that size.
// One command:
//     pipev run programs/ascendc/softmax_rows.cpp
// writes softmax_rows_in_x.bin and softmax_rows_out_{y,max,sum}.bin.
#include "acl/acl.h"
#include "data_utils.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

constexpr uint32_t COLS = 96;  // a row: 12 blocks of floats
constexpr uint32_t ROWS = 40;
constexpr uint32_t TILE = 16;  // rows a tile (the last tile has 8)
constexpr uint32_t BLOCK = 8;  // floats in 32 bytes: max and sum a row

struct SoftmaxRowsTiling {
    uint32_t tmpBytes;
    SoftMaxTiling softmax;
};

class KernelSoftmaxRows {
public:
    __aicore__ inline KernelSoftmaxRows() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR max, GM_ADDR sum,
                                const SoftmaxRowsTiling& t)
    {
        tiling = t.softmax;
        xGm.SetGlobalBuffer((__gm__ float*)x, ROWS * COLS);
        yGm.SetGlobalBuffer((__gm__ float*)y, ROWS * COLS);
        maxGm.SetGlobalBuffer((__gm__ float*)max, ROWS * BLOCK);
        sumGm.SetGlobalBuffer((__gm__ float*)sum, ROWS * BLOCK);
        pipe.InitBuffer(inQueue, 1, TILE * COLS * sizeof(float));
        pipe.InitBuffer(outQueue, 1, TILE * COLS * sizeof(float));
        pipe.InitBuffer(statQueue, 1, 2 * TILE * BLOCK * sizeof(float));
        pipe.InitBuffer(tmpBuf, t.tmpBytes);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < ROWS; row += TILE) {
            uint32_t rows = ROWS - row < TILE ? ROWS - row : TILE;
            CopyIn(row, rows);
            Compute(rows);
            CopyOut(row, rows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t rows)
    {
        AscendC::LocalTensor<float> x = inQueue.AllocTensor<float>();
        AscendC::DataCopy(x, xGm[row * COLS], rows * COLS);
        inQueue.EnQue(x);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<float> x = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> y = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> stats = statQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> max = stats, sum = stats[TILE * BLOCK];
        AscendC::SoftMaxShapeInfo shape = {rows, COLS, rows, COLS};
        AscendC::SoftMax<float>(y, sum, max, x, tmpBuf.Get<uint8_t>(), tiling, shape);
        outQueue.EnQue(y);
        statQueue.EnQue(stats);
        inQueue.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(uint32_t row, uint32_t rows)
    {
        AscendC::LocalTensor<float> y = outQueue.DeQue<float>();
        AscendC::LocalTensor<float> stats = statQueue.DeQue<float>();
        AscendC::DataCopy(yGm[row * COLS], y, rows * COLS);
        AscendC::DataCopy(maxGm[row * BLOCK], stats, rows * BLOCK);
        AscendC::DataCopy(sumGm[row * BLOCK], stats[TILE * BLOCK], rows * BLOCK);
        outQueue.FreeTensor(y);
        statQueue.FreeTensor(stats);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue, statQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> xGm, yGm, maxGm, sumGm;
    SoftMaxTiling tiling;
};

__global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y, GM_ADDR max, GM_ADDR sum,
                                        GM_ADDR tiling)
{
    SoftmaxRowsTiling t;
    t = *reinterpret_cast<__gm__ SoftmaxRowsTiling*>(tiling);
    KernelSoftmaxRows op;
    op.Init(x, y, max, sum, t);
    op.Process();
}

int main()
{
    // the host's tiling: the least temporary space for a tile, and the API's tiling for it
    SoftmaxRowsTiling tiling;
    ge::Shape tile({TILE, COLS});
    tiling.tmpBytes = AscendC::GetSoftMaxMinTmpSize(tile, sizeof(float), false);
    AscendC::SoftMaxTilingFunc(tile, sizeof(float), tiling.tmpBytes, tiling.softmax);

    size_t bytes = ROWS * COLS * sizeof(float), statBytes = ROWS * BLOCK * sizeof(float);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t *xHost, *yHost, *maxHost, *sumHost, *xDevice, *yDevice, *maxDevice, *sumDevice,
        *tilingDevice;
    aclrtMallocHost((void**)&xHost, bytes);
    aclrtMallocHost((void**)&yHost, bytes);
    aclrtMallocHost((void**)&maxHost, statBytes);
    aclrtMallocHost((void**)&sumHost, statBytes);
    demo::FillGrid((float*)xHost, ROWS * COLS, 81);
    aclrtMalloc((void**)&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&maxDevice, statBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&sumDevice, statBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&tilingDevice, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(tilingDevice, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE);

    softmax_rows<<<1, nullptr, stream>>>(xDevice, yDevice, maxDevice, sumDevice, tilingDevice);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(yHost, bytes, yDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(maxHost, statBytes, maxDevice, statBytes, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(sumHost, statBytes, sumDevice, statBytes, ACL_MEMCPY_DEVICE_TO_HOST);

    bool ok = demo::WriteFile("softmax_rows_in_x.bin", xHost, bytes) &&
              demo::WriteFile("softmax_rows_out_y.bin", yHost, bytes) &&
              demo::WriteFile("softmax_rows_out_max.bin", maxHost, statBytes) &&
              demo::WriteFile("softmax_rows_out_sum.bin", sumHost, statBytes);
    for (uint8_t* p : {xDevice, yDevice, maxDevice, sumDevice, tilingDevice}) aclrtFree(p);
    for (uint8_t* p : {xHost, yHost, maxHost, sumHost}) aclrtFreeHost(p);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return ok ? 0 : 1;
}
