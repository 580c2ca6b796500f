// Select, the high-dimensional form (repeat times, repeat strides and a MASK per repeat), on float
// data: a bitwise mask in mode 2, a contiguous mask in mode 0 and in mode 1 (tensor and scalar).
// Elements the mask leaves out keep the destination's old value (-9 here). One command:
//     pipev run programs/ascendc/select_highdim.cpp
// writes select_highdim_in_{a,b,sel}.bin and select_highdim_out_{bitwise,mode0,mode1}.bin here.
#include "data_utils.h"
#include "tikicpulib.h"

constexpr uint32_t N = 256;            // floats: 4 repeats of 64
constexpr uint32_t SEL_BYTES = N / 8;

class KernelSelectHighDim {
public:
    __aicore__ inline KernelSelectHighDim() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR sel, GM_ADDR out)
    {
        aGm.SetGlobalBuffer((__gm__ float*)a, N);
        bGm.SetGlobalBuffer((__gm__ float*)b, N);
        selGm.SetGlobalBuffer((__gm__ uint8_t*)sel, SEL_BYTES);
        outGm.SetGlobalBuffer((__gm__ float*)out, 3 * N);
        pipe.InitBuffer(inA, 1, N * sizeof(float));
        pipe.InitBuffer(inB, 1, N * sizeof(float));
        pipe.InitBuffer(inSel, 1, SEL_BYTES);
        pipe.InitBuffer(outQueue, 1, 3 * N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        CopyIn();
        Compute();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn()
    {
        AscendC::LocalTensor<float> a = inA.AllocTensor<float>();
        AscendC::LocalTensor<float> b = inB.AllocTensor<float>();
        AscendC::LocalTensor<uint8_t> sel = inSel.AllocTensor<uint8_t>();
        AscendC::DataCopy(a, aGm, N);
        AscendC::DataCopy(b, bGm, N);
        AscendC::DataCopy(sel, selGm, SEL_BYTES);
        inA.EnQue(a);
        inB.EnQue(b);
        inSel.EnQue(sel);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> a = inA.DeQue<float>();
        AscendC::LocalTensor<float> b = inB.DeQue<float>();
        AscendC::LocalTensor<uint8_t> sel = inSel.DeQue<uint8_t>();
        AscendC::LocalTensor<float> dst = outQueue.AllocTensor<float>();
        AscendC::Duplicate(dst, -9.0f, 3 * N);

        AscendC::BinaryRepeatParams repeatParams = {1, 1, 1, 8, 8, 8};
        uint64_t bitwise[2] = {0xffff0000ffff0000ull, 0};  // elements 16..31 and 48..63 of a repeat
        AscendC::Select(dst, sel, a, b, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, bitwise, 4,
                        repeatParams);
        AscendC::Select(dst[N], sel, a, b, AscendC::SELMODE::VSEL_CMPMASK_SPR, 32, 4, repeatParams);
        AscendC::Select(dst[2 * N], sel, a, 1.5f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, 64, 2,
                        repeatParams);

        outQueue.EnQue(dst);
        inA.FreeTensor(a);
        inB.FreeTensor(b);
        inSel.FreeTensor(sel);
    }
    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<float> dst = outQueue.DeQue<float>();
        AscendC::DataCopy(outGm, dst, 3 * N);
        outQueue.FreeTensor(dst);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inA, inB, inSel;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> aGm, bGm, outGm;
    AscendC::GlobalTensor<uint8_t> selGm;
};

extern "C" __global__ __aicore__ void select_highdim(GM_ADDR a, GM_ADDR b, GM_ADDR sel,
                                                     GM_ADDR out)
{
    KernelSelectHighDim op;
    op.Init(a, b, sel, out);
    op.Process();
}

int main()
{
    float* a = (float*)AscendC::GmAlloc(N * sizeof(float));
    float* b = (float*)AscendC::GmAlloc(N * sizeof(float));
    uint8_t* sel = (uint8_t*)AscendC::GmAlloc(SEL_BYTES);
    float* out = (float*)AscendC::GmAlloc(3 * N * sizeof(float));
    demo::FillGrid(a, N, 11);
    demo::FillGrid(b, N, 12);
    demo::FillBytes(sel, SEL_BYTES, 13);

    ICPU_RUN_KF(select_highdim, 1, (uint8_t*)a, (uint8_t*)b, sel, (uint8_t*)out);

    bool ok = demo::WriteFile("select_highdim_in_a.bin", a, N * sizeof(float)) &&
              demo::WriteFile("select_highdim_in_b.bin", b, N * sizeof(float)) &&
              demo::WriteFile("select_highdim_in_sel.bin", sel, SEL_BYTES) &&
              demo::WriteFile("select_highdim_out_bitwise.bin", out, N * sizeof(float)) &&
              demo::WriteFile("select_highdim_out_mode0.bin", out + N, N * sizeof(float)) &&
              demo::WriteFile("select_highdim_out_mode1.bin", out + 2 * N, N * sizeof(float));
    AscendC::GmFree(a);
    AscendC::GmFree(b);
    AscendC::GmFree(sel);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
