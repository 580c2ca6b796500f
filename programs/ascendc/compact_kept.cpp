// Compact the elements a compare kept (GatherMask): m = x > y as bits (Compare), then one
// GatherMask of x with m as its pattern tensor (reduceMode true: one repeat of all TOTAL
// elements); out holds the kept elements first, in order, zeros after; GetRsvdCnt says how many
// (written as out's last element, a uint32 in a float's slot). One command:
//     pipev run programs/ascendc/compact_kept.cpp
// writes compact_kept_in_{x,y}.bin and compact_kept_out_kept.bin.
#include "acl/acl.h"
#include "data_utils.h"
#include "kernel_operator.h"

constexpr uint32_t TOTAL = 256;  // floats
constexpr uint32_t OUT = TOTAL + 8;  // the kept elements, then a block holding the count

class KernelCompactKept {
public:
    __aicore__ inline KernelCompactKept() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR out)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x, TOTAL);
        yGm.SetGlobalBuffer((__gm__ float*)y, TOTAL);
        outGm.SetGlobalBuffer((__gm__ float*)out, OUT);
        pipe.InitBuffer(inQueueX, 1, TOTAL * sizeof(float));
        pipe.InitBuffer(inQueueY, 1, TOTAL * sizeof(float));
        pipe.InitBuffer(outQueue, 1, OUT * sizeof(float));
        pipe.InitBuffer(maskBuf, TOTAL / 8);
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
        AscendC::LocalTensor<uint32_t> mask = maskBuf.Get<uint32_t>();
        AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
        AscendC::Duplicate(out, 0.0f, OUT);
        AscendC::Compare(mask.ReinterpretCast<uint8_t>(), x, y, AscendC::CMPMODE::GT, TOTAL);
        AscendC::PipeBarrier<PIPE_V>();
        uint64_t kept = 0;
        // reduceMode true: mask = TOTAL elements in the one repeat; src0 block/repeat strides 1, 0
        AscendC::GatherMask(out, x, mask, true, TOTAL, {1, 1, 0, 0}, kept);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        out.ReinterpretCast<uint32_t>().SetValue(TOTAL, uint32_t(kept));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
        outQueue.EnQue(out);
        inQueueX.FreeTensor(x);
        inQueueY.FreeTensor(y);

        out = outQueue.DeQue<float>();
        AscendC::DataCopy(outGm, out, OUT);
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf;
    AscendC::GlobalTensor<float> xGm, yGm, outGm;
};

__global__ __aicore__ void compact_kept(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    KernelCompactKept op;
    op.Init(x, y, out);
    op.Process();
}

int main()
{
    size_t bytes = TOTAL * sizeof(float), outBytes = OUT * sizeof(float);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t *xHost, *yHost, *outHost, *xDevice, *yDevice, *outDevice;
    aclrtMallocHost((void**)&xHost, bytes);
    aclrtMallocHost((void**)&yHost, bytes);
    aclrtMallocHost((void**)&outHost, outBytes);
    demo::FillGrid((float*)xHost, TOTAL, 81);
    demo::FillGrid((float*)yHost, TOTAL, 82);
    aclrtMalloc((void**)&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&outDevice, outBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(yDevice, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);

    compact_kept<<<1, nullptr, stream>>>(xDevice, yDevice, outDevice);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(outHost, outBytes, outDevice, outBytes, ACL_MEMCPY_DEVICE_TO_HOST);

    bool ok = demo::WriteFile("compact_kept_in_x.bin", xHost, bytes) &&
              demo::WriteFile("compact_kept_in_y.bin", yHost, bytes) &&
              demo::WriteFile("compact_kept_out_kept.bin", outHost, outBytes);
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
