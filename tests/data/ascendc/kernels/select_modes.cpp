// Select in its forms (count, high-dimensional with a bitwise or contiguous mask, no mask; modes
// 0, 1 and 2): pipev's own test kernel in the AscendC style, with a CPU-twin harness.
// A `// => X` comment names what the line must issue (tests/test_ascendc_headers.py).
#include "kernel_operator.h"
#include "tikicpulib.h"

constexpr uint32_t N = 256;              // floats per operand: 4 repeats of 64
constexpr uint32_t SEL_BYTES = N / 8;    // one selection bit per element

class SelectModes {
public:
    __aicore__ inline SelectModes() {}  // => wait_flag V, MTE2, 0 | wait_flag MTE3, V, 0
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR sel, GM_ADDR out)
    {
        aGm.SetGlobalBuffer((__gm__ float*)a, N);
        bGm.SetGlobalBuffer((__gm__ float*)b, N);
        selGm.SetGlobalBuffer((__gm__ uint8_t*)sel, SEL_BYTES);
        outGm.SetGlobalBuffer((__gm__ float*)out, N);
        pipe.InitBuffer(inA, 1, N * sizeof(float));
        pipe.InitBuffer(inB, 1, N * sizeof(float));
        pipe.InitBuffer(inSel, 1, SEL_BYTES);
        pipe.InitBuffer(outDst, 1, N * sizeof(float));
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
        AscendC::DataCopy(a, aGm, N);  // => copy_gm_to_ub que0_0[x1], gm_a[x2]
        AscendC::DataCopy(b, bGm, N);
        AscendC::DataCopy(sel, selGm, SEL_BYTES);
        inA.EnQue(a);  // => set_flag MTE2, V, 0
        inB.EnQue(b);  // => set_flag MTE2, V, 1
        inSel.EnQue(sel);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> a = inA.DeQue<float>();  // => wait_flag MTE2, V, 0
        AscendC::LocalTensor<float> b = inB.DeQue<float>();
        AscendC::LocalTensor<uint8_t> sel = inSel.DeQue<uint8_t>();
        AscendC::LocalTensor<float> dst = outDst.AllocTensor<float>();
        AscendC::BinaryRepeatParams rp = {1, 1, 1, 8, 8, 8};

        // the first n elements
        AscendC::Select(dst, sel, a, b, AscendC::SELMODE::VSEL_CMPMASK_SPR, N);  // => select.f32 que3_0[x1], que2_0[x2], que0_0[x3], que1_0[x4], mode=0, count=x5
        AscendC::Select(dst, sel, a, 0.5f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, N);  // => select.f32 que3_0[x1], que2_0[x2], que0_0[x3], raw(0x3f000000), mode=1, count=x4
        AscendC::Select(dst, sel, a, b, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, N);  // => select.f32 que3_0[x1], que2_0[x2], que0_0[x3], que1_0[x4], mode=2, count=x5

        // high-dimensional: bitwise and contiguous MASK
        uint64_t bits[2] = {0xffff0000ffff0000ull, 0};
        AscendC::Select(dst, sel, a, b, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, bits, 4, rp);  // => select.f32 que3_0[x1], que2_0[x2], que0_0[x3], que1_0[x4], mode=2, repeat=x5, stride=1,1,1,8,8,8, mask_lo=x6
        AscendC::Select(dst, sel, a, b, AscendC::SELMODE::VSEL_CMPMASK_SPR, 32, 4, rp);  // => select.f32 que3_0[x1], que2_0[x2], que0_0[x3], que1_0[x4], mode=0, repeat=x5, stride=1,1,1,8,8,8, mask=x6
        AscendC::Select(dst, sel, a, -1.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, 64, 2, rp);  // => select.f32 que3_0[x1], que2_0[x2], que0_0[x3], raw(0xbf800000), mode=1, repeat=x4

        // no mask: the kernel sets CMPMASK and MASK itself
        AscendC::SetCmpMask(sel);  // => set_cmp_mask que2_0[x1]
        AscendC::SetVectorMask<float>(0, 0xffffffffffffffffull);  // => set_vector_mask x1, x2
        AscendC::Select<float, AscendC::SELMODE::VSEL_CMPMASK_SPR>(dst, a, b, 4, rp);  // => select.f32 que3_0[x1], que0_0[x2], que1_0[x3], mode=0, repeat=x4
        AscendC::LocalTensor<float> scalars = scalarBuf.Get<float>();
        AscendC::Duplicate(scalars, 3.0f, 64);  // => duplicate.f32 tbuf4[x1], raw(0x40400000), count=x2
        AscendC::SetCmpMask(scalars);
        AscendC::Select(dst, sel, a, 4, rp);  // => select.f32 que3_0[x1], que2_0[x2], que0_0[x3], mode=1, repeat=x4
        AscendC::ResetMask();  // => set_vector_mask x1, x2

        outDst.EnQue<float>(dst);  // => set_flag V, MTE3, 0
        inA.FreeTensor(a);  // => set_flag V, MTE2, 0
        inB.FreeTensor(b);
        inSel.FreeTensor(sel);
    }
    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<float> dst = outDst.DeQue<float>();  // => wait_flag V, MTE3, 0
        AscendC::DataCopy(outGm, dst, N);  // => copy_ub_to_gm gm_out[x1], que3_0[x2]
        outDst.FreeTensor(dst);  // => set_flag MTE3, V, 0
    }

    AscendC::TPipe pipe;  // its destructor waits for the buffers' last readers (at the constructor)
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inA, inB, inSel;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outDst;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scalarBuf;
    AscendC::GlobalTensor<float> aGm, bGm, outGm;
    AscendC::GlobalTensor<uint8_t> selGm;
};

extern "C" __global__ __aicore__ void select_modes(GM_ADDR a, GM_ADDR b, GM_ADDR sel, GM_ADDR out)
{
    SelectModes op;
    op.Init(a, b, sel, out);
    op.Process();
}

int main()
{
    size_t bytes = N * sizeof(float);
    uint8_t* a = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* b = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* sel = (uint8_t*)AscendC::GmAlloc(SEL_BYTES);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(bytes);
    for (uint32_t i = 0; i < N; ++i) {
        reinterpret_cast<float*>(a)[i] = float(i);
        reinterpret_cast<float*>(b)[i] = -float(i);
    }
    for (uint32_t i = 0; i < SEL_BYTES; ++i) sel[i] = uint8_t(0x5a + i);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(select_modes, 1, a, b, sel, out);  // => launch select_modes | gm gm_a | gm gm_sel
    AscendC::GmFree(a);
    AscendC::GmFree(b);
    AscendC::GmFree(sel);
    AscendC::GmFree(out);
    return 0;
}
