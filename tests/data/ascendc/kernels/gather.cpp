// Gather (issue 28) in AscendC: the count form and the contiguous-mask form with a base
// address. pipev's own test kernel: x = 0..127, offsets (127 - j)·4 reverse it.
#include "kernel_operator.h"
using namespace AscendC;

__global__ __aicore__ void reverse() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> x = buf.Get<float>();                            // 128 at 0
    LocalTensor<uint32_t> off = buf.GetWithOffset<uint32_t>(128, 512);  // 128 at 512
    LocalTensor<float> out = buf.GetWithOffset<float>(128, 1024);       // 128 at 1024
    for (int i = 0; i < 128; i++) {
        x.SetValue(i, float(i));
        off.SetValue(i, uint32_t((127 - i) * 4));
    }
    Duplicate(out, 0.0f, 128);
    PipeBarrier<PIPE_ALL>();
    Gather(out, x, off, 0, 64);                      // out[j] = x[127 - j]
    Gather(out[64], x, off[8], 4, uint64_t(10), 1, 8);  // base 4: x[120 - j], 10 of them
}

extern "C" int run_all() {
    reverse<<<1, nullptr, nullptr>>>();
    return 0;
}
