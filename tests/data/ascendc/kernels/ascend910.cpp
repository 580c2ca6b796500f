// Count forms on ascend910 (no counter mode; compiled with -D__NPU_ARCH__=1001): full repeats and
// a masked tail. pipev's own test kernel; `// => X` names what the line must issue.
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 336;  // halves: 2 full repeats of 128 and a tail of 80

extern "C" __global__ __aicore__ void chunks(GM_ADDR x, GM_ADDR out)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<> selBuf;
    pipe.InitBuffer(inQ, 1, N * sizeof(half));
    pipe.InitBuffer(outQ, 1, N * sizeof(half));
    pipe.InitBuffer(selBuf, 32);
    GlobalTensor<half> xGm, outGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, N);
    outGm.SetGlobalBuffer((__gm__ half*)out, N);
    LocalTensor<half> a = inQ.AllocTensor<half>();
    DataCopy(a, xGm, N);
    inQ.EnQue(a);
    a = inQ.DeQue<half>();
    LocalTensor<half> z = outQ.AllocTensor<half>();
    LocalTensor<uint16_t> sel = selBuf.Get<uint16_t>();
    Duplicate(sel, (uint16_t)0x00ff, 16);  // => duplicate.u16 tbuf2[x1], 255, count=16
    Select(z, sel, a, a, SELMODE::VSEL_CMPMASK_SPR, N);  // => select.f16 que1_0[x1], tbuf2[x2], que0_0[x3], que0_0[x4], mode=0, count=336
    Add(z, z, a, N);  // => add.f16 que1_0[x1], que1_0[x2], que0_0[x3], count=336
    outQ.EnQue(z);
    inQ.FreeTensor(a);
    z = outQ.DeQue<half>();
    DataCopy(outGm, z, N);
    outQ.FreeTensor(z);
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * sizeof(half));
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(N * sizeof(half));
    ICPU_RUN_KF(chunks, 1, x, out);  // => launch chunks
    AscendC::GmFree(x);
    AscendC::GmFree(out);
    return 0;
}
