// Transpose's enhanced NCHW <-> NHWC forms (issue 28 item 5) in AscendC: pipev's own test
// kernel. x = 0..95 as halves, shape [3,2,2,8]: to NHWC, then back to NCHW; the same with
// floats (shape [2,3,1,8]); int8_t (shape [1,3,1,32], h28: bytes 0..95 - 48).
#include "kernel_operator.h"
using namespace AscendC;

__global__ __aicore__ void transpose4d() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16384);
    LocalTensor<half> x = buf.Get<half>();  // 0: src, 96: NHWC, 192: NCHW again
    LocalTensor<float> f = buf.GetWithOffset<float>(192, 1024);  // 0: src, 64, 128
    LocalTensor<int8_t> b = buf.GetWithOffset<int8_t>(512, 2048);  // 0: src, 128, 256
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(8192, 8192);
    for (int i = 0; i < 96; i++) x.SetValue(i, half(float(i)));
    for (int i = 0; i < 48; i++) f.SetValue(i, float(i) + 0.5f);
    for (int i = 0; i < 96; i++) b.SetValue(i, int8_t(i - 48));
    PipeBarrier<PIPE_ALL>();
    Transpose(x[96], x, tmp, TransposeParamsExt(3, 2, 2, 8, TransposeType::TRANSPOSE_NCHW2NHWC));
    PipeBarrier<PIPE_V>();
    Transpose(x[192], x[96], tmp,
              TransposeParamsExt(3, 2, 2, 8, TransposeType::TRANSPOSE_NHWC2NCHW));
    Transpose(f[64], f, tmp, TransposeParamsExt(2, 3, 1, 8, TransposeType::TRANSPOSE_NCHW2NHWC));
    PipeBarrier<PIPE_V>();
    Transpose(f[128], f[64], tmp,
              TransposeParamsExt(2, 3, 1, 8, TransposeType::TRANSPOSE_NHWC2NCHW));
    Transpose(b[128], b, tmp, TransposeParamsExt(1, 3, 1, 32, TransposeType::TRANSPOSE_NCHW2NHWC));
    PipeBarrier<PIPE_V>();
    Transpose(b[256], b[128], tmp,
              TransposeParamsExt(1, 3, 1, 32, TransposeType::TRANSPOSE_NHWC2NCHW));
}

extern "C" int run_all() {
    transpose4d<<<1, nullptr, nullptr>>>();
    return 0;
}
