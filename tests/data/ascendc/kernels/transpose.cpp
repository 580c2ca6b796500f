// Transpose (issue 28) in AscendC: the plain 16 x 16 form and the enhanced form with
// TRANSPOSE_ND2ND_B16. pipev's own test kernel: x = 0..255 as halves.
#include "kernel_operator.h"
using namespace AscendC;

__global__ __aicore__ void transpose16() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<half> x = buf.Get<half>();  // 4 matrices of 256
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(32, 2048 - 32);
    for (int i = 0; i < 256; i++) x.SetValue(i, half(float(i)));
    PipeBarrier<PIPE_ALL>();
    Transpose(x[256], x);
    Transpose(x[512], x, tmp, TransposeParamsExt(1, 1, 16, 16, TransposeType::TRANSPOSE_ND2ND_B16));
    Transpose(x[768], x[512]);  // back again
}

extern "C" int run_all() {
    transpose16<<<1, nullptr, nullptr>>>();
    return 0;
}
