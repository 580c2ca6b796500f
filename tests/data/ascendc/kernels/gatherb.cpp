// Gatherb (issue 28) in AscendC (Gatherb, GatherRepeatParams) and the C API
// (asc_gather_datablock). pipev's own test kernel: the test reads the results from UB.
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

__global__ __aicore__ void blocks() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<uint16_t> x = buf.Get<uint16_t>();                       // UB 0: 0 .. 255
    LocalTensor<uint32_t> off = buf.GetWithOffset<uint32_t>(16, 512);    // UB 512
    LocalTensor<uint16_t> y = buf.GetWithOffset<uint16_t>(512, 1024);    // UB 1024
    for (int i = 0; i < 256; i++) x.SetValue(i, uint16_t(i));
    for (int j = 0; j < 16; j++) off.SetValue(j, uint32_t(32 * ((3 * j) % 16)));
    Duplicate(y, uint16_t(0), 512);
    PipeBarrier<PIPE_ALL>();
    GatherRepeatParams params{2, 16};
    Gatherb(y, x, off, 2, params);
}

__global__ __aicore__ void c_blocks() {
    auto& src = pipev::ubuf_array<uint32_t[128]>("src");
    auto& off = pipev::ubuf_array<uint32_t[16]>("off");
    auto& dst = pipev::ubuf_array<uint32_t[128]>("dst");
    for (int i = 0; i < 128; i++) src[i] = uint32_t(i);
    for (int j = 0; j < 16; j++) off[j] = uint32_t(32 * (15 - j));
    asc_gather_datablock_sync(dst, src, off, 8, 1, 2);
}

extern "C" int run_all() {
    blocks<<<1, nullptr, nullptr>>>();
    c_blocks<<<1, nullptr, nullptr>>>();
    return 0;
}
