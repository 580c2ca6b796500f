// DataCopy of 512 floats into a 256-float TBuf: past the end of the buffer (pipev's own test).
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void datacopy_overrun(GM_ADDR x)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 512);
    AscendC::DataCopy(t, xGm, 512);
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(2048);
    ICPU_RUN_KF(datacopy_overrun, 1, x);
    AscendC::GmFree(x);
    return 0;
}
