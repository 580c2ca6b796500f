// LeakyRelu in the AscendC style: y = x < 0 ? x * alpha : x over N halves, tiled through a
// double-buffered VECIN / VECOUT queue pair. One command:
//     pipev run programs/ascendc/leaky_relu.cpp
// writes leaky_relu_in_x.bin and leaky_relu_out_y.bin here. The same kernel with Relu(y, x, n)
// is a ReLU; LeakyRelu is exact in pipev (the product rounded once in half, docs/semantics.md).
#include "data_utils.h"
#include "tikicpulib.h"

constexpr uint32_t TOTAL = 4096;
constexpr uint32_t TILE = 512;
constexpr uint32_t BUFFER_NUM = 2;

class KernelLeakyRelu {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, half alpha)
    {
        this->alpha = alpha;
        xGm.SetGlobalBuffer((__gm__ half*)x, TOTAL);
        yGm.SetGlobalBuffer((__gm__ half*)y, TOTAL);
        pipe.InitBuffer(inQueue, BUFFER_NUM, TILE * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, TILE * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < TOTAL / TILE; ++i) {
            AscendC::LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
            AscendC::DataCopy(xLocal, xGm[i * TILE], TILE);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<half>();
            AscendC::LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
            AscendC::LeakyRelu(yLocal, xLocal, alpha, TILE);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<half>();
            AscendC::DataCopy(yGm[i * TILE], yLocal, TILE);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::GlobalTensor<half> xGm, yGm;
    half alpha;
};

extern "C" __global__ __aicore__ void leaky_relu(GM_ADDR x, GM_ADDR y)
{
    KernelLeakyRelu op;
    op.Init(x, y, half(0.1f));
    op.Process();
}

int main()
{
    size_t bytes = TOTAL * sizeof(half);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    demo::FillGrid((half*)x, TOTAL, 27);
    ICPU_RUN_KF(leaky_relu, 1, x, y);
    bool ok = demo::WriteFile("leaky_relu_in_x.bin", x, bytes) &&
              demo::WriteFile("leaky_relu_out_y.bin", y, bytes);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return ok ? 0 : 1;
}
