// The C API's Gather (asc_gather: count and repeat forms, _sync) and Transpose (asc_transpose)
// (issue 28). pipev's own test kernel: __ubuf__ arrays placed one after another from UB 0.
#include "kernel_operator.h"
#include "c_api/asc_simd.h"

__global__ __aicore__ void c_layout() {
    auto& src = pipev::ubuf_array<float[128]>("src");      // UB 0
    auto& off = pipev::ubuf_array<uint32_t[128]>("off");   // UB 512
    auto& dst = pipev::ubuf_array<float[128]>("dst");      // UB 1024
    auto& dst2 = pipev::ubuf_array<float[128]>("dst2");    // UB 1536
    auto& m = pipev::ubuf_array<int16_t[256]>("m");        // UB 2048
    auto& mt = pipev::ubuf_array<int16_t[256]>("mt");      // UB 2560
    for (int i = 0; i < 128; i++) {
        src[i] = float(i) + 0.5f;
        off[i] = uint32_t(4 * ((5 * i + 3) % 128));
        dst2[i] = -1.0f;
    }
    for (int i = 0; i < 256; i++) m[i] = int16_t(i - 100);
    asc_gather(dst, src, off, 100);                 // the first 100, counter mode
    asc_set_vector_mask(0, 0xFFFF);                 // 16 elements a repeat
    asc_gather_sync(dst2, src, off, 8, 2);          // 2 repeats, dst 8 blocks apart
    asc_transpose(mt, m);
}

extern "C" int run_all() {
    c_layout<<<1, nullptr, nullptr>>>();
    return 0;
}
