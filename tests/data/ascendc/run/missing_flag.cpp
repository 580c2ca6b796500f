// DataCopy into UB, then a vector op on it with no SetFlag/WaitFlag between (pipev's own test).
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void missing_flag(GM_ADDR x, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    zGm.SetGlobalBuffer((__gm__ float*)z, 256);
    AscendC::DataCopy(t, xGm, 256);
    AscendC::Muls(t, t, 2.0f, 256);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zGm, t, 256);
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(1024);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(1024);
    ICPU_RUN_KF(missing_flag, 1, x, z);
    AscendC::GmFree(x);
    AscendC::GmFree(z);
    return 0;
}
