// The scalar helpers (GetBitCount, CountLeadingZero, CountBitsCntSameAsSignBit, GetSFFValue,
// CeilDivision, ToFloat, scalar Cast; the C API's asc_popc ... asc_float2int32_*), run in the
// kernel's scalar code; each result is printed for the test to check against its own
// reference (pipev's own kernel).
#include "tikicpulib.h"
#include "c_api/asc_simd.h"

using namespace AscendC;

constexpr uint64_t BITS[] = {0, 1, 28, 0xffff, 0x0f00000000000000ull, 0x8000000000000000ull,
                             0xffffffffffffffffull, 0x123456789abcdef0ull, 0xfffffffffffffff0ull};
constexpr float FLOATS[] = {0.0f, -0.0f, 0.5f, 1.5f, 2.5f, -2.5f, -0.7f, 1e10f, -1e10f, 3.4e38f,
                            1e-45f, 6.1e-5f, 65519.0f, 65520.0f, 1.00048828125f, 3.0e-8f,
                            2147483520.0f, -2147483648.0f};

extern "C" __global__ __aicore__ void scalars(GM_ADDR x)
{
    (void)x;
    for (uint64_t b : BITS) {
        int64_t s = int64_t(b);
        printf("bits %llx %lld %lld %lld %lld %lld %lld %lld %lld %lld\n", (unsigned long long)b,
               (long long)GetBitCount<1>(b), (long long)GetBitCount<0>(b),
               (long long)CountLeadingZero(b), (long long)CountBitsCntSameAsSignBit(s),
               (long long)GetSFFValue<1>(b), (long long)GetSFFValue<0>(b),
               (long long)asc_popc(b), (long long)asc_ffz(b), (long long)asc_sflbits(s));
    }
    for (float f : FLOATS) {
        half h = Cast<float, half, RoundMode::CAST_ODD>(f);
        uint16_t hb;
        std::memcpy(&hb, &h, 2);
        printf("float %08x %x %d %d %d %d %d\n", pipev::detail::bits_of(f), hb,
               Cast<float, int32_t, RoundMode::CAST_RINT>(f),
               Cast<float, int32_t, RoundMode::CAST_ROUND>(f),
               ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(f),
               Cast<float, int32_t, RoundMode::CAST_CEIL>(f), asc_float2int32_rna(f));
        bfloat16_t b = ToBfloat16(f);
        printf("bf16 %08x %08x\n", pipev::detail::bits_of(f), pipev::detail::bits_of(ToFloat(b)));
    }
    printf("ceil %d %d %d %d\n", CeilDivision(5000, 4096), CeilDivision(4096, 4096),
           CeilDivision(1, 32), CeilDivision(7, 0));
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(32);
    ICPU_RUN_KF(scalars, 1, x);
    AscendC::GmFree(x);
    return 0;
}
