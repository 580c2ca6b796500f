// A kernel that does not compile: a misspelt API name (pipev's own test).
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void compile_error(GM_ADDR x)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::Adds(t, t, 1.0f, 256);
    AscendC::Selekt(t, t, t, 256);
    (void)x;
}

int main() { return 0; }
