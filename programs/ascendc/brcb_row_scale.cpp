// Scale each row of x (8 rows of 64 floats) by its own factor (Brcb): Brcb spreads the 8
// factors over 8 blocks, one factor a block; one Mul then reads row r's block for all 8 blocks
// of repeat r (src1 block stride 0, repeat stride 1 block). One command:
//     pipev run programs/ascendc/brcb_row_scale.cpp
// writes brcb_row_scale_in_{x,s}.bin and brcb_row_scale_out_y.bin.
#include "acl/acl.h"
#include "data_utils.h"
#include "kernel_operator.h"

constexpr uint32_t COLS = 64;  // floats: one repeat a row
constexpr uint32_t ROWS = 8;   // one Brcb repeat: 8 factors
constexpr uint32_t TOTAL = ROWS * COLS;

class KernelBrcbRowScale {
public:
    __aicore__ inline KernelBrcbRowScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR s, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x, TOTAL);
        sGm.SetGlobalBuffer((__gm__ float*)s, ROWS);
        yGm.SetGlobalBuffer((__gm__ float*)y, TOTAL);
        pipe.InitBuffer(inQueueX, 1, TOTAL * sizeof(float));
        pipe.InitBuffer(inQueueS, 1, ROWS * sizeof(float));
        pipe.InitBuffer(outQueue, 1, TOTAL * sizeof(float));
        pipe.InitBuffer(blockBuf, 64 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> x = inQueueX.AllocTensor<float>();
        AscendC::LocalTensor<float> s = inQueueS.AllocTensor<float>();
        AscendC::DataCopy(x, xGm, TOTAL);
        AscendC::DataCopy(s, sGm, ROWS);
        inQueueX.EnQue(x);
        inQueueS.EnQue(s);

        x = inQueueX.DeQue<float>();
        s = inQueueS.DeQue<float>();
        AscendC::LocalTensor<float> b = blockBuf.Get<float>();
        AscendC::LocalTensor<float> y = outQueue.AllocTensor<float>();
        AscendC::Brcb(b, s, 1, {1, 8});  // block r of b = 8 copies of s[r]
        AscendC::PipeBarrier<PIPE_V>();
        // repeat r: row r of x times block r of b (src1 block stride 0, repeat stride 1)
        AscendC::Mul(y, x, b, COLS, ROWS, {1, 1, 0, 8, 8, 1});
        outQueue.EnQue(y);
        inQueueX.FreeTensor(x);
        inQueueS.FreeTensor(s);

        y = outQueue.DeQue<float>();
        AscendC::DataCopy(yGm, y, TOTAL);
        outQueue.FreeTensor(y);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX, inQueueS;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> blockBuf;
    AscendC::GlobalTensor<float> xGm, sGm, yGm;
};

__global__ __aicore__ void brcb_row_scale(GM_ADDR x, GM_ADDR s, GM_ADDR y)
{
    KernelBrcbRowScale op;
    op.Init(x, s, y);
    op.Process();
}

int main()
{
    size_t bytes = TOTAL * sizeof(float), sBytes = 32;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t *xHost, *sHost, *yHost, *xDevice, *sDevice, *yDevice;
    aclrtMallocHost((void**)&xHost, bytes);
    aclrtMallocHost((void**)&sHost, sBytes);
    aclrtMallocHost((void**)&yHost, bytes);
    demo::FillGrid((float*)xHost, TOTAL, 91);
    demo::FillGrid((float*)sHost, ROWS, 92);
    aclrtMalloc((void**)&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&sDevice, sBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(sDevice, sBytes, sHost, sBytes, ACL_MEMCPY_HOST_TO_DEVICE);

    brcb_row_scale<<<1, nullptr, stream>>>(xDevice, sDevice, yDevice);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(yHost, bytes, yDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST);

    bool ok = demo::WriteFile("brcb_row_scale_in_x.bin", xHost, bytes) &&
              demo::WriteFile("brcb_row_scale_in_s.bin", sHost, sBytes) &&
              demo::WriteFile("brcb_row_scale_out_y.bin", yHost, bytes);
    aclrtFree(xDevice);
    aclrtFree(sDevice);
    aclrtFree(yDevice);
    aclrtFreeHost(xHost);
    aclrtFreeHost(sHost);
    aclrtFreeHost(yHost);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return ok ? 0 : 1;
}
