// A kernel-only run as pipev's driver makes it: the GM buffers are pipev's own (declared through
// the bridge and told to the headers with pipev_gm_declared), and the kernel is launched directly.
// A `// => X` comment names what the line must issue.
#include <cstdlib>

#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x);
    yGm.SetGlobalBuffer((__gm__ float*)y);
    AscendC::DataCopy(t, xGm[64], 128);  // => copy_gm_to_ub tbuf0[x1], x[x2], nburst=1, burst=x3
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, 2.0f, 128);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, t, 128);  // => copy_ub_to_gm y[x1], tbuf0[x2], nburst=1, burst=x3
}

int main()
{
    void* x = std::aligned_alloc(64, 1024);
    void* y = std::aligned_alloc(64, 1024);
    // what the driver does for `--arg x=... --arg y=out:f32[256]`
    pipev::detail::bridge().gm_buffer(__FILE__, __LINE__, "x", "f32", x, 1024);  // => gm x
    pipev::detail::bridge().gm_buffer(__FILE__, __LINE__, "y", "f32", y, 1024);
    pipev_gm_declared("x", "f32", x, 1024);
    pipev_gm_declared("y", "f32", y, 1024);
    pipev::launch(__FILE__, __LINE__, "scale", 1, scale, (uint8_t*)x, (uint8_t*)y);  // => launch scale
    std::free(x);
    std::free(y);
    return 0;
}
