// pipev/scalar.h: the scalar helpers (issue #27) — GetBitCount, CountLeadingZero,
// CountBitsCntSameAsSignBit, GetSFFValue, CeilDivision, ToFloat / ToBfloat16 and the scalar
// Cast (float -> half in CAST_ODD, float -> int32_t in CAST_RINT/ROUND/FLOOR/CEIL), with their
// older Scalar* names. They run in the kernel's own C++ scalar code, as on the hardware (no
// statement is issued), bit-exact by the vendor's definitions (docs/ascendc.md).
#ifndef PIPEV_SCALAR_H
#define PIPEV_SCALAR_H
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "types.h"

namespace pipev::detail {
inline int64_t popcount(uint64_t v) { return __builtin_popcountll(v); }
inline int64_t clz(uint64_t v) { return v ? __builtin_clzll(v) : 64; }
// the position of the first 1 from the least significant bit, -1 when there is none
inline int64_t ffs(uint64_t v) { return v ? __builtin_ctzll(v) : -1; }
// the bits after the sign bit equal to it, -1 for 0 and -1 (every bit equal)
inline int64_t sign_bits(int64_t v) {
    if (v == 0 || v == -1) return -1;
    uint64_t u = v < 0 ? ~uint64_t(v) : uint64_t(v);
    return __builtin_clzll(u) - 1;
}
inline uint32_t bits_of(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
// float -> int32_t, rounded in MODE (rint, round: half away from zero, floor, ceil, trunc);
// out of range saturates and NaN gives 0, as the vector Cast does (docs/decisions.md)
inline int32_t float_to_int32(float f, int mode) {
    if (std::isnan(f)) return 0;
    double d = f;  // exact
    double r = mode == 1 ? std::nearbyint(d) : mode == 2 ? std::floor(d) : mode == 3 ? std::ceil(d)
             : mode == 4 ? std::round(d) : std::trunc(d);
    if (r >= 2147483647.0) return INT32_MAX;
    if (r <= -2147483648.0) return INT32_MIN;
    return int32_t(r);
}
// float -> half, round to odd (truncate, then set the last bit when inexact); a finite value
// beyond half's range saturates, NaN keeps its sign and top payload bits, quiet
inline half float_to_half_odd(float f) {
    uint32_t u = bits_of(f);
    uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    int32_t e = int32_t((u >> 23) & 0xff);
    uint32_t m = u & 0x7fffffu;
    uint16_t out;
    if (e == 0xff) {
        out = m ? uint16_t(0x7e00u | (m >> 13)) : uint16_t(0x7c00u);
    } else if (e == 0 && m == 0) {
        out = 0;
    } else {
        uint32_t sig = e ? (m | 0x800000u) : m;  // |value| = sig * 2^(E - 150), E = max(e, 1)
        int32_t E = e ? e : 1, exp = E - 127;    // exp: the leading bit's (normal f32)
        bool normal = e && exp >= -14;           // a normal half; else a subnormal one (or 0)
        int32_t shift = normal ? 13 : 126 - E;   // sig's bits below half's quantum there
        uint32_t q = shift >= 32 ? 0 : sig >> shift;
        bool inexact = shift >= 32 ? sig != 0 : (sig & ((1u << shift) - 1)) != 0;
        q |= inexact ? 1u : 0u;                  // round to odd: never carries
        out = exp > 15 ? uint16_t(0x7bff)        // saturates
            : normal ? uint16_t(((exp + 14) << 10) + q) : uint16_t(q);
    }
    out |= sign;
    half h;
    std::memcpy(&h, &out, 2);
    return h;
}
}  // namespace pipev::detail

namespace AscendC {
template <int countValue> inline int64_t GetBitCount(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "GetBitCount counts 0s or 1s");
    int64_t ones = pipev::detail::popcount(valueIn);
    return countValue ? ones : 64 - ones;
}
template <int countValue> inline int64_t ScalarGetCountOfValue(uint64_t valueIn) {
    return GetBitCount<countValue>(valueIn);
}
inline int64_t CountLeadingZero(uint64_t valueIn) { return pipev::detail::clz(valueIn); }
inline int64_t ScalarCountLeadingZero(uint64_t valueIn) { return pipev::detail::clz(valueIn); }
inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn) { return pipev::detail::sign_bits(valueIn); }
template <int countValue> inline int64_t GetSFFValue(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "GetSFFValue finds a 0 or a 1");
    return pipev::detail::ffs(countValue ? valueIn : ~valueIn);
}
template <int countValue> inline int64_t ScalarGetSFFValue(uint64_t valueIn) {
    return GetSFFValue<countValue>(valueIn);
}
// positive operands; a zero divisor gives 0 (the vendor's page)
constexpr inline int32_t CeilDivision(int32_t num1, int32_t num2) {
    return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}
// DivCeil / AlignUp: the helpers the vendor's reduction examples call qualified
// (`AscendC::DivCeil(n, perRepeat)`): a / b rounded up, and a rounded up to a multiple of b
// (a zero divisor gives 0, as CeilDivision's)
template <class T, class U> constexpr auto DivCeil(T a, U b) -> decltype(a / b) {
    return b == 0 ? 0 : (a + b - 1) / b;
}
template <class T, class U> constexpr auto AlignUp(T a, U b) -> decltype(a / b) {
    return DivCeil(a, b) * b;
}
inline float ToFloat(const bfloat16_t& bVal) { return static_cast<float>(bVal); }
inline bfloat16_t ToBfloat16(const float& fVal) { return bfloat16_t(fVal); }  // nearest even
// scalar Cast: float -> half (CAST_ODD), float -> int32_t (CAST_RINT, ROUND, FLOOR, CEIL)
template <typename T, typename U, RoundMode roundMode> inline U Cast(T valueIn) {
    static_assert(std::is_same_v<T, float>, "scalar Cast converts float (f322f16, f322s32)");
    if constexpr (std::is_same_v<U, half>) {
        static_assert(roundMode == RoundMode::CAST_ODD, "scalar Cast float -> half: CAST_ODD");
        return pipev::detail::float_to_half_odd(valueIn);
    } else {
        static_assert(std::is_same_v<U, int32_t>, "scalar Cast converts to half or int32_t");
        static_assert(roundMode == RoundMode::CAST_RINT || roundMode == RoundMode::CAST_ROUND ||
                      roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_CEIL,
                      "scalar Cast float -> int32_t: CAST_RINT, ROUND, FLOOR or CEIL");
        return pipev::detail::float_to_int32(valueIn, int(roundMode));
    }
}
template <typename T, typename U, RoundMode roundMode> inline U ScalarCast(T valueIn) {
    return Cast<T, U, roundMode>(valueIn);
}
}  // namespace AscendC
#endif
