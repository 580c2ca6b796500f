// A masked row-max: for each of ROWS rows of 64 floats, the largest x among the elements where
// x > y, and its column (Compare → Select → WholeReduceMax). Elements the compare drops become
// -inf, so a row whose compare keeps nothing gives -inf at column 0. One command:
//     pipev run programs/ascendc/masked_row_max.cpp
// writes masked_row_max_in_{x,y}.bin and masked_row_max_out_max.bin: per row the value and the
// column's raw bits (a uint32 in a float's slot, as WholeReduceMax stores it).
#include <cmath>

#include "acl/acl.h"
#include "data_utils.h"
#include "kernel_operator.h"

constexpr uint32_t COLS = 64;  // floats: one repeat a row
constexpr uint32_t ROWS = 16;
constexpr uint32_t TOTAL = ROWS * COLS;

class KernelMaskedRowMax {
public:
    __aicore__ inline KernelMaskedRowMax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR out)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x, TOTAL);
        yGm.SetGlobalBuffer((__gm__ float*)y, TOTAL);
        outGm.SetGlobalBuffer((__gm__ float*)out, 2 * ROWS);
        pipe.InitBuffer(inQueueX, 1, TOTAL * sizeof(float));
        pipe.InitBuffer(inQueueY, 1, TOTAL * sizeof(float));
        pipe.InitBuffer(outQueue, 1, 2 * ROWS * sizeof(float));
        pipe.InitBuffer(maskBuf, TOTAL / 8);
        pipe.InitBuffer(keptBuf, TOTAL * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> x = inQueueX.AllocTensor<float>();
        AscendC::LocalTensor<float> y = inQueueY.AllocTensor<float>();
        AscendC::DataCopy(x, xGm, TOTAL);
        AscendC::DataCopy(y, yGm, TOTAL);
        inQueueX.EnQue(x);
        inQueueY.EnQue(y);

        x = inQueueX.DeQue<float>();
        y = inQueueY.DeQue<float>();
        AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        AscendC::LocalTensor<float> kept = keptBuf.Get<float>();
        AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
        AscendC::Compare(mask, x, y, AscendC::CMPMODE::GT, TOTAL);
        AscendC::Select(kept, mask, x, -INFINITY, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE,
                        TOTAL);
        // one repeat a row: dst_rep 1 (a value and an index a row), src_blk 1, src_rep 8
        AscendC::WholeReduceMax(out, kept, COLS, ROWS, 1, 1, 8);
        outQueue.EnQue(out);
        inQueueX.FreeTensor(x);
        inQueueY.FreeTensor(y);

        out = outQueue.DeQue<float>();
        AscendC::DataCopy(outGm, out, 2 * ROWS);
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf, keptBuf;
    AscendC::GlobalTensor<float> xGm, yGm, outGm;
};

__global__ __aicore__ void masked_row_max(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    KernelMaskedRowMax op;
    op.Init(x, y, out);
    op.Process();
}

int main()
{
    size_t bytes = TOTAL * sizeof(float), outBytes = 2 * ROWS * sizeof(float);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t *xHost, *yHost, *outHost, *xDevice, *yDevice, *outDevice;
    aclrtMallocHost((void**)&xHost, bytes);
    aclrtMallocHost((void**)&yHost, bytes);
    aclrtMallocHost((void**)&outHost, outBytes);
    demo::FillGrid((float*)xHost, TOTAL, 71);
    demo::FillGrid((float*)yHost, TOTAL, 72);
    for (uint32_t c = 0; c < COLS; ++c) ((float*)yHost)[3 * COLS + c] = 100.0f;  // row 3: none
    aclrtMalloc((void**)&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&outDevice, outBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(yDevice, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);

    masked_row_max<<<1, nullptr, stream>>>(xDevice, yDevice, outDevice);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(outHost, outBytes, outDevice, outBytes, ACL_MEMCPY_DEVICE_TO_HOST);

    bool ok = demo::WriteFile("masked_row_max_in_x.bin", xHost, bytes) &&
              demo::WriteFile("masked_row_max_in_y.bin", yHost, bytes) &&
              demo::WriteFile("masked_row_max_out_max.bin", outHost, outBytes);
    aclrtFree(xDevice);
    aclrtFree(yDevice);
    aclrtFree(outDevice);
    aclrtFreeHost(xHost);
    aclrtFreeHost(yHost);
    aclrtFreeHost(outHost);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return ok ? 0 : 1;
}
