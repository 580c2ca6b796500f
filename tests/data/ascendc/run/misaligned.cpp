// Select into dstLocal[1]: a destination 4 bytes past a 32-byte boundary (pipev's own test).
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void misaligned(GM_ADDR x, GM_ADDR sel, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    AscendC::LocalTensor<float> src = buf.Get<float>();
    AscendC::LocalTensor<float> dstLocal = src[256];
    AscendC::LocalTensor<uint8_t> mask = src[512].ReinterpretCast<uint8_t>();
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<uint8_t> selGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    selGm.SetGlobalBuffer((__gm__ uint8_t*)sel, 32);
    AscendC::DataCopy(src, xGm, 256);
    AscendC::DataCopy(mask, selGm, 32);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Select(dstLocal[1], mask, src, src, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, 128);
    (void)z;
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(1024);
    uint8_t* sel = (uint8_t*)AscendC::GmAlloc(32);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(1024);
    ICPU_RUN_KF(misaligned, 1, x, sel, z);
    std::printf("after the launch\n");
    return 0;
}
