// The ascend950 flexible scalar position of Select (BinaryConfig) and an 8-bit select, compiled
// with -D__NPU_ARCH__=3510. pipev's own test kernel; `// => X` names what the line must issue.
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;  // halves: 2 repeats

extern "C" __global__ __aicore__ void flex_select(GM_ADDR a, GM_ADDR b, GM_ADDR sel, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufA, bufB, bufSel, bufOut, bufBytes;
    pipe.InitBuffer(bufA, N * sizeof(half));
    pipe.InitBuffer(bufB, N * sizeof(half));
    pipe.InitBuffer(bufSel, 32);
    pipe.InitBuffer(bufOut, N * sizeof(half));
    pipe.InitBuffer(bufBytes, 512);
    LocalTensor<half> x = bufA.Get<half>();
    LocalTensor<half> y = bufB.Get<half>();
    LocalTensor<uint8_t> mask = bufSel.Get<uint8_t>();
    LocalTensor<half> dst = bufOut.Get<half>();
    GlobalTensor<half> aGm, bGm, outGm;
    GlobalTensor<uint8_t> selGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, N);
    bGm.SetGlobalBuffer((__gm__ half*)b, N);
    selGm.SetGlobalBuffer((__gm__ uint8_t*)sel, 32);
    outGm.SetGlobalBuffer((__gm__ half*)out, N);
    DataCopy(x, aGm, N);
    DataCopy(y, bGm, N);
    DataCopy(mask, selGm, 32);
    PipeBarrier<PIPE_ALL>();

    static constexpr BinaryConfig scalarRight{1};
    static constexpr BinaryConfig scalarLeft{0};
    Select<BinaryDefaultType, uint8_t, scalarRight>(dst, mask, x, y[3], SELMODE::VSEL_TENSOR_SCALAR_MODE, N);  // => select.f16 tbuf3[x1], tbuf2[x2], tbuf0[x3], scalar(tbuf1[x4]), mode=1, count=x5
    Select<BinaryDefaultType, uint8_t, scalarLeft>(dst, mask, x[5], y, SELMODE::VSEL_TENSOR_SCALAR_MODE, N);  // => select.f16 tbuf3[x1], tbuf2[x2], scalar(tbuf0[x3]), tbuf1[x4], mode=1, count=x5
    Select(dst, mask, (half)2, y, SELMODE::VSEL_TENSOR_SCALAR_MODE, N);  // => select.f16 tbuf3[x1], tbuf2[x2], raw(0x4000), tbuf1[x3], mode=1, count=x4
    BinaryRepeatParams rp;
    Select<BinaryDefaultType, uint8_t, true, scalarRight>(dst, mask, x, y[0], SELMODE::VSEL_TENSOR_SCALAR_MODE, 128, 2, rp);  // => select.f16 tbuf3[x1], tbuf2[x2], tbuf0[x3], scalar(tbuf1[x4]), mode=1, repeat=x5, stride=1,1,1,8,8,8, mask=x6
    Select(dst, mask, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, N);  // => select.f16 tbuf3[x1], tbuf2[x2], tbuf0[x3], tbuf1[x4], mode=2, count=x5

    LocalTensor<uint8_t> bytes = bufBytes.Get<uint8_t>();
    Duplicate(bytes, (uint8_t)7, 512);  // => duplicate.u8 tbuf4[x1], 7, count=x2
    Select(bytes, mask, bytes, bytes, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);  // => select.u8 tbuf4[x1], tbuf2[x2], tbuf4[x3], tbuf4[x4], mode=2, count=x5
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, dst, N);
}

int main()
{
    uint8_t* a = (uint8_t*)AscendC::GmAlloc(N * sizeof(half));
    uint8_t* b = (uint8_t*)AscendC::GmAlloc(N * sizeof(half));
    uint8_t* sel = (uint8_t*)AscendC::GmAlloc(32);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(N * sizeof(half));
    ICPU_RUN_KF(flex_select, 1, a, b, sel, out);  // => launch flex_select
    AscendC::GmFree(a);
    AscendC::GmFree(b);
    AscendC::GmFree(sel);
    AscendC::GmFree(out);
    return 0;
}
