// Brcb and CreateVecIndex (issue 28) in AscendC (both, with the count and mask forms) and Brcb
// in the C API (asc_brcb). pipev's own test kernel: the test reads the results from UB.
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

__global__ __aicore__ void index_rows() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<float> x = buf.Get<float>();  // 64 indices at 0, then 64 rows of 8
    LocalTensor<float> rows = x[64];
    LocalTensor<half> h = buf.GetWithOffset<half>(256, 4096);
    CreateVecIndex(x, 1.0f, 64);  // 1 .. 64
    Brcb(rows, x, 8, {1, 8});     // each index over one block
    Duplicate(h, half(0), 256);
    CreateVecIndex(h, half(100), uint64_t(10), 2, 1, 8);  // the first 10 of each repeat
}

__global__ __aicore__ void c_rows() {
    auto& src = pipev::ubuf_array<uint32_t[16]>("src");
    auto& dst = pipev::ubuf_array<uint32_t[128]>("dst");
    for (int i = 0; i < 16; i++) src[i] = 0xABCD0000u + uint32_t(i);
    asc_brcb_config config{};
    config.dst_block_stride = 1;
    config.dst_repeat_stride = 8;
    config.repeat = 2;
    asc_brcb(dst, src, config);
}

extern "C" int run_all() {
    index_rows<<<1, nullptr, nullptr>>>();
    c_rows<<<1, nullptr, nullptr>>>();
    return 0;
}
