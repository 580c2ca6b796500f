// Select, the first-n (count) form, in its three modes on half data, as an AscendC kernel with
// TPipe/TQue and a CPU-twin harness (GmAlloc, ICPU_RUN_KF). One command:
//     pipev run programs/ascendc/select_count.cpp
// writes select_count_in_{a,b,sel}.bin and select_count_out_mode{0,1,2}.bin here.
//   mode 0 (VSEL_CMPMASK_SPR):        sel's first 128 bits choose a or b in every repeat
//   mode 1 (VSEL_TENSOR_SCALAR_MODE): bit k chooses a[k] or the scalar 0.5
//   mode 2 (VSEL_TENSOR_TENSOR_MODE): bit k chooses a[k] or b[k]
#include "data_utils.h"
#include "tikicpulib.h"

constexpr uint32_t N = 512;            // halves: 4 repeats of 128
constexpr uint32_t SEL_BYTES = N / 8;  // one bit per element

class KernelSelectCount {
public:
    __aicore__ inline KernelSelectCount() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR sel, GM_ADDR out)
    {
        aGm.SetGlobalBuffer((__gm__ half*)a, N);
        bGm.SetGlobalBuffer((__gm__ half*)b, N);
        selGm.SetGlobalBuffer((__gm__ uint8_t*)sel, SEL_BYTES);
        outGm.SetGlobalBuffer((__gm__ half*)out, 3 * N);
        pipe.InitBuffer(inA, 1, N * sizeof(half));
        pipe.InitBuffer(inB, 1, N * sizeof(half));
        pipe.InitBuffer(inSel, 1, SEL_BYTES);
        pipe.InitBuffer(outQueue, 1, N * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        CopyIn();
        for (int mode = 0; mode < 3; ++mode) {
            Compute(static_cast<AscendC::SELMODE>(mode));
            CopyOut(mode);
        }
        inA.FreeTensor(a);
        inB.FreeTensor(b);
        inSel.FreeTensor(sel);
    }

private:
    __aicore__ inline void CopyIn()
    {
        AscendC::LocalTensor<half> aLocal = inA.AllocTensor<half>();
        AscendC::LocalTensor<half> bLocal = inB.AllocTensor<half>();
        AscendC::LocalTensor<uint8_t> selLocal = inSel.AllocTensor<uint8_t>();
        AscendC::DataCopy(aLocal, aGm, N);
        AscendC::DataCopy(bLocal, bGm, N);
        AscendC::DataCopy(selLocal, selGm, SEL_BYTES);
        inA.EnQue(aLocal);
        inB.EnQue(bLocal);
        inSel.EnQue(selLocal);
        a = inA.DeQue<half>();
        b = inB.DeQue<half>();
        sel = inSel.DeQue<uint8_t>();
    }
    __aicore__ inline void Compute(AscendC::SELMODE mode)
    {
        AscendC::LocalTensor<half> dst = outQueue.AllocTensor<half>();
        if (mode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE) {
            AscendC::Select(dst, sel, a, static_cast<half>(0.5f), mode, N);
        } else {
            AscendC::Select(dst, sel, a, b, mode, N);
        }
        outQueue.EnQue(dst);
    }
    __aicore__ inline void CopyOut(int mode)
    {
        AscendC::LocalTensor<half> dst = outQueue.DeQue<half>();
        AscendC::DataCopy(outGm[mode * N], dst, N);
        outQueue.FreeTensor(dst);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inA, inB, inSel;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<half> aGm, bGm, outGm;
    AscendC::GlobalTensor<uint8_t> selGm;
    AscendC::LocalTensor<half> a, b;
    AscendC::LocalTensor<uint8_t> sel;
};

extern "C" __global__ __aicore__ void select_count(GM_ADDR a, GM_ADDR b, GM_ADDR sel, GM_ADDR out)
{
    KernelSelectCount op;
    op.Init(a, b, sel, out);
    op.Process();
}

int main()
{
    half* a = (half*)AscendC::GmAlloc(N * sizeof(half));
    half* b = (half*)AscendC::GmAlloc(N * sizeof(half));
    uint8_t* sel = (uint8_t*)AscendC::GmAlloc(SEL_BYTES);
    half* out = (half*)AscendC::GmAlloc(3 * N * sizeof(half));
    demo::FillGrid(a, N, 1);
    demo::FillGrid(b, N, 2);
    demo::FillBytes(sel, SEL_BYTES, 3);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(select_count, 1, (uint8_t*)a, (uint8_t*)b, sel, (uint8_t*)out);

    bool ok = demo::WriteFile("select_count_in_a.bin", a, N * sizeof(half)) &&
              demo::WriteFile("select_count_in_b.bin", b, N * sizeof(half)) &&
              demo::WriteFile("select_count_in_sel.bin", sel, SEL_BYTES);
    for (int mode = 0; mode < 3 && ok; ++mode) {
        char name[64];
        std::snprintf(name, sizeof name, "select_count_out_mode%d.bin", mode);
        ok = demo::WriteFile(name, out + mode * N, N * sizeof(half));
    }
    AscendC::GmFree(a);
    AscendC::GmFree(b);
    AscendC::GmFree(sel);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
