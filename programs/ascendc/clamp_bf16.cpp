// clamp(x, lo, hi) on bfloat16_t, the way bf16 kernels are written: the vector unit has no bf16
// Maxs/Mins, so the tile is Cast to float, clamped with Maxs/Mins against the bounds turned into
// float scalars by ToFloat, and Cast back (exact: every value came from bf16). One command:
//     pipev run programs/ascendc/clamp_bf16.cpp
// writes clamp_bf16_in_x.bin and clamp_bf16_out_y.bin here.
#include "data_utils.h"
#include "tikicpulib.h"

constexpr uint32_t TOTAL = 2048, TILE = 512;

class KernelClamp {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, bfloat16_t lo, bfloat16_t hi)
    {
        xGm.SetGlobalBuffer((__gm__ bfloat16_t*)x, TOTAL);
        yGm.SetGlobalBuffer((__gm__ bfloat16_t*)y, TOTAL);
        pipe.InitBuffer(inQueue, 1, TILE * sizeof(bfloat16_t));
        pipe.InitBuffer(outQueue, 1, TILE * sizeof(bfloat16_t));
        pipe.InitBuffer(wide, TILE * sizeof(float));
        loF = AscendC::ToFloat(lo);  // scalar bf16 -> float: Maxs/Mins take a float scalar
        hiF = AscendC::ToFloat(hi);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < TOTAL / TILE; ++i) {
            AscendC::LocalTensor<bfloat16_t> xLocal = inQueue.AllocTensor<bfloat16_t>();
            AscendC::DataCopy(xLocal, xGm[i * TILE], TILE);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<bfloat16_t>();
            AscendC::LocalTensor<float> f = wide.Get<float>();
            AscendC::LocalTensor<bfloat16_t> yLocal = outQueue.AllocTensor<bfloat16_t>();
            AscendC::Cast(f, xLocal, AscendC::RoundMode::CAST_NONE, TILE);
            AscendC::Maxs(f, f, loF, TILE);
            AscendC::Mins(f, f, hiF, TILE);
            AscendC::Cast(yLocal, f, AscendC::RoundMode::CAST_RINT, TILE);
            inQueue.FreeTensor(xLocal);
            outQueue.EnQue(yLocal);
            yLocal = outQueue.DeQue<bfloat16_t>();
            AscendC::DataCopy(yGm[i * TILE], yLocal, TILE);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wide;
    AscendC::GlobalTensor<bfloat16_t> xGm, yGm;
    float loF = 0, hiF = 0;
};

__global__ __aicore__ void clamp_bf16(GM_ADDR x, GM_ADDR y)
{
    KernelClamp op;
    op.Init(x, y, AscendC::ToBfloat16(-2.5f), AscendC::ToBfloat16(2.5f));
    op.Process();
}

int main()
{
    size_t bytes = TOTAL * sizeof(bfloat16_t);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    demo::FillGrid((bfloat16_t*)x, TOTAL, 7);
    ICPU_RUN_KF(clamp_bf16, 1, x, y);
    bool ok = demo::WriteFile("clamp_bf16_in_x.bin", x, bytes) &&
              demo::WriteFile("clamp_bf16_out_y.bin", y, bytes);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return ok ? 0 : 1;
}
