// Select without a mask argument: the kernel sets MASK (SetVectorMask) and CMPMASK (SetCmpMask)
// itself, then calls the no-mask overloads. Mode 0 takes the selection bits from CMPMASK; mode 1
// takes the scalar from CMPMASK (the first element of a tensor set there) and the bits from sel.
// One command:
//     pipev run programs/ascendc/select_nomask.cpp
// writes select_nomask_in_{a,b,sel}.bin and select_nomask_out_{mode0,mode1}.bin here.
#include "data_utils.h"
#include "tikicpulib.h"

constexpr uint32_t N = 256;  // floats: 4 repeats of 64
constexpr uint32_t SEL_BYTES = N / 8;

class KernelSelectNoMask {
public:
    __aicore__ inline KernelSelectNoMask() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR sel, GM_ADDR out)
    {
        aGm.SetGlobalBuffer((__gm__ float*)a, N);
        bGm.SetGlobalBuffer((__gm__ float*)b, N);
        selGm.SetGlobalBuffer((__gm__ uint8_t*)sel, SEL_BYTES);
        outGm.SetGlobalBuffer((__gm__ float*)out, 2 * N);
        pipe.InitBuffer(inA, 1, N * sizeof(float));
        pipe.InitBuffer(inB, 1, N * sizeof(float));
        pipe.InitBuffer(inSel, 1, SEL_BYTES);
        pipe.InitBuffer(outQueue, 1, 2 * N * sizeof(float));
        pipe.InitBuffer(scalarBuf, 64 * sizeof(float));
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
        AscendC::BinaryRepeatParams repeatParams = {1, 1, 1, 8, 8, 8};

        // mode 0: CMPMASK holds the bits, MASK all 64 lanes
        AscendC::SetCmpMask(sel);
        AscendC::SetVectorMask<float>(0, 0xffffffffffffffffull);
        AscendC::Select<float, AscendC::SELMODE::VSEL_CMPMASK_SPR>(dst, a, b, 4, repeatParams);

        // mode 1: CMPMASK holds the scalar 2.5
        AscendC::LocalTensor<float> scalar = scalarBuf.Get<float>();
        AscendC::Duplicate(scalar, 2.5f, 64);
        AscendC::SetCmpMask(scalar);
        AscendC::Select(dst[N], sel, a, 4, repeatParams);
        AscendC::ResetMask();

        outQueue.EnQue(dst);
        inA.FreeTensor(a);
        inB.FreeTensor(b);
        inSel.FreeTensor(sel);
    }
    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<float> dst = outQueue.DeQue<float>();
        AscendC::DataCopy(outGm, dst, 2 * N);
        outQueue.FreeTensor(dst);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inA, inB, inSel;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scalarBuf;
    AscendC::GlobalTensor<float> aGm, bGm, outGm;
    AscendC::GlobalTensor<uint8_t> selGm;
};

extern "C" __global__ __aicore__ void select_nomask(GM_ADDR a, GM_ADDR b, GM_ADDR sel, GM_ADDR out)
{
    KernelSelectNoMask op;
    op.Init(a, b, sel, out);
    op.Process();
}

int main()
{
    float* a = (float*)AscendC::GmAlloc(N * sizeof(float));
    float* b = (float*)AscendC::GmAlloc(N * sizeof(float));
    uint8_t* sel = (uint8_t*)AscendC::GmAlloc(SEL_BYTES);
    float* out = (float*)AscendC::GmAlloc(2 * N * sizeof(float));
    demo::FillGrid(a, N, 21);
    demo::FillGrid(b, N, 22);
    demo::FillBytes(sel, SEL_BYTES, 23);

    ICPU_RUN_KF(select_nomask, 1, (uint8_t*)a, (uint8_t*)b, sel, (uint8_t*)out);

    bool ok = demo::WriteFile("select_nomask_in_a.bin", a, N * sizeof(float)) &&
              demo::WriteFile("select_nomask_in_b.bin", b, N * sizeof(float)) &&
              demo::WriteFile("select_nomask_in_sel.bin", sel, SEL_BYTES) &&
              demo::WriteFile("select_nomask_out_mode0.bin", out, N * sizeof(float)) &&
              demo::WriteFile("select_nomask_out_mode1.bin", out + N, N * sizeof(float));
    AscendC::GmFree(a);
    AscendC::GmFree(b);
    AscendC::GmFree(sel);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
