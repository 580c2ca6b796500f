// pipev's own kernel and host in the vendor samples' style, touching the non-vector names every
// sample has (#32 class 2): kernel type, global GetTPipePtr, AscendC::Std, KERNEL_LOG,
// ASCENDC_ASSERT, GetSystemCycle, block_idx/block_num, acl error codes and device calls.
#include <cstdio>

#include "acl/acl.h"
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 256;
#ifndef KERNEL_TYPE
#define KERNEL_TYPE KERNEL_TYPE_AIV_ONLY
#endif

template <typename T> class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, TPipe *pipeIn)
    {
        static_assert(Std::is_same<T, half>::value, "a half kernel");
        static_assert(IsSameType<T, half>::value, "IsSameType");
        auto shape = Std::make_tuple(TILE, 2U);
        uint32_t len = Std::min(Std::get<0>(shape), static_cast<uint32_t>(1024));
        ASCENDC_ASSERT(len == TILE, KERNEL_LOG(KERNEL_ERROR, "tile %u", len));
        xGm.SetGlobalBuffer((__gm__ T *)x + TILE * block_idx, TILE);
        yGm.SetGlobalBuffer((__gm__ T *)y + TILE * GetBlockIdx(), TILE);
        pipeIn->InitBuffer(inQueue, 1, TILE * sizeof(T));
        GetTPipePtr()->InitBuffer(outQueue, 1, TILE * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        int64_t before = GetSystemCycle();
        LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        DataCopy(xLocal, xGm, TILE);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<T>();
        LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        Muls(yLocal, xLocal, static_cast<T>(2.0), TILE);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<T>();
        DataCopy(yGm, yLocal, TILE);
        outQueue.FreeTensor(yLocal);
        PipeBarrier<PIPE_ALL>();
        int64_t after = GetSystemCycle();
        KERNEL_LOG(KERNEL_INFO, "block %lld of %lld: %s", (long long)block_idx, (long long)block_num,
                   after > before ? "the clock moved" : "the clock stood still");
    }

private:
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<T> xGm, yGm;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE);
    TPipe pipe;
    KernelScale<half> op;
    op.Init(x, y, &pipe);
    op.Process();
}

#define CHECK_ACL(x)                                                                    \
    do {                                                                                \
        aclError __ret = x;                                                             \
        if (__ret != ACL_ERROR_NONE) std::fprintf(stderr, "%s failed: %d\n", #x, __ret); \
    } while (0)

int32_t main()
{
    constexpr uint32_t blockDim = 2;
    size_t bytes = blockDim * TILE * sizeof(half);
    CHECK_ACL(aclInit(nullptr));
    uint32_t devices = 0;
    CHECK_ACL(aclrtGetDeviceCount(&devices));
    CHECK_ACL(aclrtSetDevice(0));
    int32_t device = -1;
    CHECK_ACL(aclrtGetDevice(&device));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    half *xHost, *yHost;
    uint8_t *xDevice, *yDevice;
    CHECK_ACL(aclrtMallocHost((void **)&xHost, bytes));
    CHECK_ACL(aclrtMallocHost((void **)&yHost, bytes));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    for (uint32_t i = 0; i < blockDim * TILE; ++i) xHost[i] = half(float(i % 64) / 4.0f);
    CHECK_ACL(aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    scale_custom<<<blockDim, nullptr, stream>>>(xDevice, yDevice);
    CHECK_ACL(aclrtSynchronizeDevice());
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(yHost, bytes, yDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < blockDim * TILE; ++i) wrong += float(yHost[i]) != float(xHost[i]) * 2;
    std::printf("devices %u, device %d, %u wrong\n", devices, device, wrong);
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return wrong == 0 ? 0 : 1;
}
