// #27 (h27e), AscendC on ascend950: Ands / Ors on int64_t and uint64_t (the pages: count form
// only), the scalar after or before the tensor, as a value or a tensor element (BinaryConfig).
// pipev's own test kernel (`pipev run --chip ascend950`): it writes flex_bitwise64_950_in.bin
// and flex_bitwise64_950_out.bin here; tests/cli/test_flex_bitwise64_kernel.py checks them
// against tests/reference/bitwise64.py.
#include <cstdio>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 100;  // three full repeats of 32 and a part
constexpr uint32_t NB = 104;  // N rounded up to 32 bytes of elements
constexpr BinaryConfig SCALAR_FIRST{0};

extern "C" __global__ __aicore__ void flex_bitwise64_950(GM_ADDR x, GM_ADDR out)
{
    TPipe pipe;
    TBuf<> xb, zb;
    pipe.InitBuffer(xb, NB * 8);
    pipe.InitBuffer(zb, 4 * NB * 8);
    LocalTensor<int64_t> xl = xb.Get<int64_t>(), zl = zb.Get<int64_t>();
    LocalTensor<uint64_t> xu = xl.ReinterpretCast<uint64_t>(), zu = zl.ReinterpretCast<uint64_t>();
    GlobalTensor<int64_t> xg, og;
    xg.SetGlobalBuffer((__gm__ int64_t*)x, NB);
    og.SetGlobalBuffer((__gm__ int64_t*)out, 4 * NB);
    DataCopy(xl, xg, NB);
    Duplicate(zl.ReinterpretCast<int32_t>(), (int32_t)0x5A5A5A5A, 8 * NB);
    PipeBarrier<PIPE_ALL>();
    Ands(zl, xl, (int64_t)0x7FFFFFFF80000001LL, N);  // => ands.s64
    Ors<BinaryDefaultType, true, SCALAR_FIRST>(zl[NB], xl[3], xl, N);  // => ors.s64
    Ands(zu[2 * NB], (uint64_t)0xF0F0F0F0F0F0F0F0ULL, xu, N);  // => ands.u64
    Ors(zu[3 * NB], xu, xu[7], N);  // => ors.u64
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, zl, 4 * NB);
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "flex_bitwise64_950_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(NB * 8);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(4 * NB * 8);
    const int64_t extremes[] = {0, 1, -1, INT64_MIN, INT64_MAX, 0x5555555555555555LL};
    uint64_t r = 88172645463325252ULL;
    for (uint32_t i = 0; i < NB; ++i) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        ((int64_t*)x)[i] = i < 6 ? extremes[i] : (int64_t)r;
    }
    ICPU_RUN_KF(flex_bitwise64_950, 1, x, out);
    bool ok = write("in", x, NB * 8) && write("out", out, 4 * NB * 8);
    AscendC::GmFree(x);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
