// GatherMask (issue 28): compact the elements a compare kept, in AscendC (GatherMask with a
// user pattern, a built-in pattern, counter mode; GetRsvdCnt) and in the C API (asc_reduce,
// asc_get_rsvd_count). pipev's own test kernel: x[i] = i - 40 for 128 floats; the count of
// each step is written after the data so the test can read it back from UB.
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

__global__ __aicore__ void compact_positive() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> x = buf.Get<float>();      // 128 floats at 0
    LocalTensor<float> zero = x[128];             // 64 zeros at 512
    LocalTensor<uint32_t> bits = buf.GetWithOffset<uint32_t>(16, 1024);  // 2 rows of 32 bytes
    LocalTensor<float> out = buf.GetWithOffset<float>(256, 1280);
    for (int i = 0; i < 128; i++) x.SetValue(i, float(i - 40));
    Duplicate(zero, 0.0f, 64);
    Duplicate(out, -1.0f, 256);
    // one row of bits per repeat, 32 bytes apart: x > 0 for each half of x
    Compare(bits.ReinterpretCast<uint8_t>(), x, zero, CMPMODE::GT, 64);
    Compare(bits[8].ReinterpretCast<uint8_t>(), x[64], zero, CMPMODE::GT, 64);
    uint64_t kept = 0;
    GatherMask(out, x, bits, false, 0, {1, 2, 8, 1}, kept);  // normal mode: two repeats
    uint64_t odd = 0;
    GatherMask(out[128], x, uint8_t(2), true, 70, {1, 1, 8, 0}, odd);  // counter: 70 elements
    PipeBarrier<PIPE_ALL>();  // V's writes before the scalar unit's
    out.SetValue(252, float(kept));
    out.SetValue(253, float(odd));
    out.SetValue(254, float(GetRsvdCnt()));
}

__global__ __aicore__ void c_compact() {
    auto& x = pipev::ubuf_array<uint32_t[128]>("x");
    auto& bits = pipev::ubuf_array<uint32_t[8]>("bits");
    auto& out = pipev::ubuf_array<uint32_t[192]>("out");
    for (int i = 0; i < 128; i++) x[i] = uint32_t(i);
    for (int i = 0; i < 8; i++) bits[i] = 0x80000001u;
    for (int i = 0; i < 192; i++) out[i] = 0xFFFFFFFFu;
    asc_reduce(out, x, bits, 64);  // first 64: bits 0 and 31 of each word
    uint32_t first = uint32_t(asc_get_rsvd_count());
    asc_reduce(out + 64, x, bits, 2, 1, 6, 8, 0);  // pattern 6 (element 3 of each four), 2 repeats
    uint32_t second = uint32_t(asc_get_rsvd_count());
    asc_sync();  // V's writes before the scalar unit's
    out[190] = first;
    out[191] = second;
}

extern "C" int run_all() {
    compact_positive<<<1, nullptr, nullptr>>>();
    c_compact<<<1, nullptr, nullptr>>>();
    return 0;
}
