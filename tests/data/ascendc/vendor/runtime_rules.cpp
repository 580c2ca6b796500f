// pipev's own kernel in the vendor's style, leaning on the runtime's real rules (#32 class 3):
// - the three queues take the whole Unified Buffer (196,608 bytes on A2/A3);
// - the last core's copy of whole 256-byte repeats of a 1016-float tensor reads 32 bytes past
//   its end, inside aclrtMalloc's slack (the size rounded up to 32 bytes plus 32 more);
//   -D EXTRA=8 reads 8 floats more: past the slack, an error;
// - Compare writes its bits into an int8_t tensor (the docs allow uint8_t and int8_t);
// - a count-form Cast narrows float to half in place, from the same start address;
// - the third core has no work: SetGlobalBuffer(past-the-end pointer, 0), then returns;
// - -D SCALAR_SELECT adds a Select with a scalar, whose temporaries pipev keeps in its scratch
//   area at the top of UB, where outQ's buffer is: an error at the Select naming the buffer.
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "kernel_operator.h"

using namespace AscendC;

#ifndef EXTRA
#define EXTRA 0
#endif
constexpr uint32_t LEN = 1016;     // elements per working core (not whole repeats)
constexpr uint32_t PADDED = 1024;  // what is copied and compared: whole 256-byte repeats
constexpr uint32_t QUEUE_BYTES = 65536;

class KernelRules {
public:
    __aicore__ inline KernelRules() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR bits, GM_ADDR z, uint32_t cores)
    {
        work = GetBlockIdx() < cores;
        uint32_t offset = LEN * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, work ? LEN : 0);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, work ? LEN : 0);
        bitsGm.SetGlobalBuffer((__gm__ int8_t *)bits + PADDED / 8 * GetBlockIdx(), work ? PADDED / 8 : 0);
        zGm.SetGlobalBuffer((__gm__ half *)z + PADDED * GetBlockIdx(), work ? PADDED : 0);
        pipe.InitBuffer(inX, 1, QUEUE_BYTES);
        pipe.InitBuffer(inY, 1, QUEUE_BYTES);
        pipe.InitBuffer(outQ, 1, QUEUE_BYTES);
    }
    __aicore__ inline void Process()
    {
        if (!work) return;
        LocalTensor<float> xLocal = inX.AllocTensor<float>();
        LocalTensor<float> yLocal = inY.AllocTensor<float>();
        DataCopy(xLocal, xGm, PADDED + EXTRA);  // the last core reads 8 floats of slack
        DataCopy(yLocal, yGm, PADDED);
        inX.EnQue(xLocal);
        inY.EnQue(yLocal);
        xLocal = inX.DeQue<float>();
        yLocal = inY.DeQue<float>();
        LocalTensor<int8_t> bits = outQ.AllocTensor<int8_t>();
        Compare(bits, xLocal, yLocal, CMPMODE::LT, PADDED);
#ifdef SCALAR_SELECT
        Select(yLocal, bits.ReinterpretCast<uint8_t>(), yLocal, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE,
               PADDED);
#endif
        LocalTensor<half> narrow = xLocal.ReinterpretCast<half>();
        Cast(narrow, xLocal, RoundMode::CAST_NONE, LEN);
        outQ.EnQue(bits);
        bits = outQ.DeQue<int8_t>();
        DataCopy(bitsGm, bits, PADDED / 8);
        PipeBarrier<PIPE_ALL>();
        DataCopy(zGm, narrow, PADDED);  // LEN halves and 8 more: whole repeats
        outQ.FreeTensor(bits);
        inX.FreeTensor(xLocal);
        inY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inX, inY;
    TQue<QuePosition::VECOUT, 1> outQ;
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int8_t> bitsGm;
    GlobalTensor<half> zGm;
    bool work = false;
};

extern "C" __global__ __aicore__ void rules_custom(GM_ADDR x, GM_ADDR y, GM_ADDR bits, GM_ADDR z,
                                                   uint32_t cores)
{
    KernelRules op;
    op.Init(x, y, bits, z, cores);
    op.Process();
}

int32_t main()
{
    constexpr uint32_t cores = 2, blockDim = 3;
    size_t inBytes = cores * LEN * sizeof(float), bitBytes = cores * PADDED / 8;
    size_t outBytes = cores * PADDED * sizeof(uint16_t);
    aclInit(nullptr);
    aclrtSetDevice(0);
    float xHost[cores * LEN], yHost[cores * LEN];
    for (uint32_t i = 0; i < cores * LEN; ++i) {
        xHost[i] = float(int(i * 7 % 61) - 30) / 4.0f;
        yHost[i] = float(int(i * 5 % 53) - 26) / 4.0f;
    }
    uint8_t *x, *y, *bits, *z;
    aclrtMalloc((void **)&x, inBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&y, inBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&bits, bitBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&z, outBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, inBytes, xHost, inBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, inBytes, yHost, inBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    rules_custom<<<blockDim, nullptr, nullptr>>>(x, y, bits, z, cores);
    aclrtSynchronizeDevice();
    uint8_t bitHost[cores * PADDED / 8];
    half zHost[cores * PADDED];
    aclrtMemcpy(bitHost, sizeof bitHost, bits, sizeof bitHost, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(zHost, sizeof zHost, z, sizeof zHost, ACL_MEMCPY_DEVICE_TO_HOST);
    uint32_t wrong = 0;
    for (uint32_t c = 0; c < cores; ++c)
        for (uint32_t i = 0; i < LEN; ++i) {
            uint32_t k = c * LEN + i;
            bool lt = (bitHost[c * PADDED / 8 + i / 8] >> (i % 8)) & 1;
            wrong += lt != (xHost[k] < yHost[k]);
            wrong += float(zHost[c * PADDED + i]) != xHost[k];
        }
    std::printf("%u wrong\n", wrong);
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(bits);
    aclrtFree(z);
    aclFinalize();
    return wrong == 0 ? 0 : 1;
}
