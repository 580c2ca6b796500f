// Compare in its two result forms on half data: bits in UB (the first-n form, and CompareScalar)
// and bits in CMPMASK (the high-dimensional form without a destination, read back with
// GetCmpMask). NaN compares unequal to everything and +0 equals -0, as IEEE 754 says. One command:
//     pipev run programs/ascendc/compare.cpp
// writes compare_in_{a,b}.bin and compare_out_{lt,eq,ge}.bin (one bit per element) here.
#include "data_utils.h"
#include "tikicpulib.h"

constexpr uint32_t N = 256;            // halves: 2 repeats of 128
constexpr uint32_t BITS_BYTES = N / 8;  // one result bit per element

class KernelCompare {
public:
    __aicore__ inline KernelCompare() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out)
    {
        aGm.SetGlobalBuffer((__gm__ half*)a, N);
        bGm.SetGlobalBuffer((__gm__ half*)b, N);
        outGm.SetGlobalBuffer((__gm__ uint8_t*)out, 3 * BITS_BYTES);
        pipe.InitBuffer(inA, 1, N * sizeof(half));
        pipe.InitBuffer(inB, 1, N * sizeof(half));
        pipe.InitBuffer(outBits, 1, 3 * BITS_BYTES);
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
        AscendC::LocalTensor<half> a = inA.AllocTensor<half>();
        AscendC::LocalTensor<half> b = inB.AllocTensor<half>();
        AscendC::DataCopy(a, aGm, N);
        AscendC::DataCopy(b, bGm, N);
        inA.EnQue(a);
        inB.EnQue(b);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<half> a = inA.DeQue<half>();
        AscendC::LocalTensor<half> b = inB.DeQue<half>();
        AscendC::LocalTensor<uint8_t> bits = outBits.AllocTensor<uint8_t>();

        // UB form: a < b for all N elements
        AscendC::Compare(bits, a, b, AscendC::CMPMODE::LT, N);

        // CMPMASK form: a == b for the first repeat (128 lanes), then CMPMASK to UB
        AscendC::LocalTensor<uint8_t> eq = bits[BITS_BYTES];
        AscendC::Duplicate(eq.ReinterpretCast<uint16_t>(), (uint16_t)0, BITS_BYTES / 2);
        AscendC::BinaryRepeatParams repeatParams = {1, 1, 1, 8, 8, 8};
        AscendC::Compare(a, b, AscendC::CMPMODE::EQ, 128, repeatParams);
        AscendC::GetCmpMask(eq);

        // with a scalar: a >= 0.5
        AscendC::CompareScalar(bits[2 * BITS_BYTES], a, static_cast<half>(0.5f),
                               AscendC::CMPMODE::GE, N);

        outBits.EnQue(bits);
        inA.FreeTensor(a);
        inB.FreeTensor(b);
    }
    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<uint8_t> bits = outBits.DeQue<uint8_t>();
        AscendC::DataCopy(outGm, bits, 3 * BITS_BYTES);
        outBits.FreeTensor(bits);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inA, inB;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outBits;
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<uint8_t> outGm;
};

extern "C" __global__ __aicore__ void compare(GM_ADDR a, GM_ADDR b, GM_ADDR out)
{
    KernelCompare op;
    op.Init(a, b, out);
    op.Process();
}

static half FromBits(uint16_t bits)
{
    half h;
    std::memcpy(&h, &bits, sizeof h);
    return h;
}

int main()
{
    half* a = (half*)AscendC::GmAlloc(N * sizeof(half));
    half* b = (half*)AscendC::GmAlloc(N * sizeof(half));
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(3 * BITS_BYTES);
    demo::FillGrid(a, N, 31);
    demo::FillGrid(b, N, 32);
    for (uint32_t i = 0; i < N; i += 5) b[i] = a[i];  // some equal pairs
    a[1] = FromBits(0x7e00);                          // NaN
    a[2] = FromBits(0x0000);                          // +0 against -0
    b[2] = FromBits(0x8000);
    a[3] = FromBits(0x7c00);                          // +inf

    ICPU_RUN_KF(compare, 1, (uint8_t*)a, (uint8_t*)b, out);

    bool ok = demo::WriteFile("compare_in_a.bin", a, N * sizeof(half)) &&
              demo::WriteFile("compare_in_b.bin", b, N * sizeof(half)) &&
              demo::WriteFile("compare_out_lt.bin", out, BITS_BYTES) &&
              demo::WriteFile("compare_out_eq.bin", out + BITS_BYTES, BITS_BYTES) &&
              demo::WriteFile("compare_out_ge.bin", out + 2 * BITS_BYTES, BITS_BYTES);
    AscendC::GmFree(a);
    AscendC::GmFree(b);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
