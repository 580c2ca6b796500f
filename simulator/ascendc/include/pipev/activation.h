// pipev/activation.h: the advanced APIs Sigmoid, Tanh, Silu, Gelu and FasterGeluV2, from their
// pages' formulas (Sigmoid(x) = 1 / (1 + e^-x), tanh(x) = (e^2x - 1) / (e^2x + 1),
// Silu(x) = x / (1 + e^-x), Gelu's tanh approximation, FasterGeluV2's polynomial) built from
// pipev's basic instructions. The pages give the formula, not the vendor's
// instruction sequence: the sequences here are pipev's own (docs/ascendc.md, "Advanced math"),
// so a result may differ from silicon's in the last bit.
// - Sigmoid, Tanh, Gelu and FasterGeluV2 compute in float (a half source is Cast to float in the
//   temporary space and the result Cast back, CAST_NONE) in passes of as many elements as the
//   temporary space holds (4 bytes an element for each float work buffer, and 4 more for a half
//   source's float copy; a pass a multiple of 64 elements).
// - Silu has no temporary space on its page and forbids dst overlapping src: its steps run in
//   dst, in T.
#ifndef PIPEV_ACTIVATION_H
#define PIPEV_ACTIVATION_H
#include "advanced.h"

namespace pipev::detail {
constexpr uint32_t kActivationGrain = 64;  // a pass's elements: a multiple of a float repeat

// The space of COUNT elements' passes of BYTES an element: GIVEN, or the framework's free UB (as
// much as the whole count takes, or what is free); the elements a pass takes (an error at the
// call when not even one grain fits)
inline AscendC::LocalTensor<uint8_t> activation_space(const AscendC::LocalTensor<uint8_t>* given,
                                                      uint32_t count, uint32_t bytes,
                                                      uint32_t& per, const char* api, Loc loc) {
    uint32_t least = kActivationGrain * bytes;
    uint32_t whole = (count + kActivationGrain - 1) / kActivationGrain * kActivationGrain;
    uint64_t room = given ? given->GetSize() : framework_free();
    per = uint32_t(std::min<uint64_t>(whole, room / least * kActivationGrain));
    return pass_space(given, per, least, per * bytes, api, loc);
}

template <class T> void activation_types() {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Sigmoid / Tanh / Silu / Gelu / FasterGeluV2 / Log take half or float");
}

// Each sequence: N float elements from SRC to DST (DST may be SRC), with work buffers W[0],
// W[PER], ... (PER floats apart) in the temporary space.

// Sigmoid: w = -src, w = e^w, w = w + 1, dst = 1, dst = dst / w
inline void sigmoid_f32(const AscendC::LocalTensor<float>& dst,
                        const AscendC::LocalTensor<float>& src, const AscendC::LocalTensor<float>& w,
                        uint32_t, int32_t n, Loc loc) {
    AscendC::Muls(w, src, -1.0f, n, loc);
    AscendC::Exp(w, w, n, loc);
    AscendC::Adds(w, w, 1.0f, n, loc);
    AscendC::Duplicate(dst, 1.0f, n, loc);
    AscendC::Div(dst, dst, w, n, loc);
}
// tanh: w = min(max(src, -10), 10) (tanh of 10 is 1 in float, and e^2x stays finite),
// w = e^(2w), dst = w + 1, w = w - 1, dst = w / dst
inline void tanh_f32(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                     const AscendC::LocalTensor<float>& w, uint32_t, int32_t n, Loc loc) {
    AscendC::Mins(w, src, 10.0f, n, loc);
    AscendC::Maxs(w, w, -10.0f, n, loc);
    AscendC::Muls(w, w, 2.0f, n, loc);
    AscendC::Exp(w, w, n, loc);
    AscendC::Adds(dst, w, 1.0f, n, loc);
    AscendC::Adds(w, w, -1.0f, n, loc);
    AscendC::Div(dst, w, dst, n, loc);
}
// Gelu, the tanh approximation 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))) written as
// x / (1 + e^(-2 sqrt(2/pi) (x + 0.044715x^3))): w = src * src, w = w * src, w = w * 0.044715,
// w = w + src, w = w * -1.5957691216, w = e^w, w = w + 1, dst = src / w
constexpr float kGeluTwoSqrtTwoOverPi = 1.5957691216057308f;
inline void gelu_f32(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                     const AscendC::LocalTensor<float>& w, uint32_t, int32_t n, Loc loc) {
    AscendC::Mul(w, src, src, n, loc);
    AscendC::Mul(w, w, src, n, loc);
    AscendC::Muls(w, w, 0.044715f, n, loc);
    AscendC::Add(w, w, src, n, loc);
    AscendC::Muls(w, w, -kGeluTwoSqrtTwoOverPi, n, loc);
    AscendC::Exp(w, w, n, loc);
    AscendC::Adds(w, w, 1.0f, n, loc);
    AscendC::Div(dst, src, w, n, loc);
}
// FasterGeluV2 (the formula of the vendor's FasterGeluV2 sample): x * (sgn(x) * [-0.1444 *
// (clip(|0.7071x|, max = 1.769) - 1.769)^2 + 0.5] + 0.5), sgn(x) = (x + 1e-12) / |x + 1e-12|:
// a = |src * 0.7071|, a = min(a, 1.769), a = a - 1.769, a = a * a, a = a * -0.1444, a = a + 0.5,
// b = src + 1e-12, c = |b| (in dst's place: b's second buffer), b = b / c, a = a * b,
// a = a + 0.5, dst = src * a
inline void faster_gelu_v2_f32(const AscendC::LocalTensor<float>& dst,
                               const AscendC::LocalTensor<float>& src,
                               const AscendC::LocalTensor<float>& w, uint32_t per, int32_t n,
                               Loc loc) {
    AscendC::LocalTensor<float> a = w, b = w[per];
    AscendC::Muls(a, src, 0.7071f, n, loc);
    AscendC::Abs(a, a, n, loc);
    AscendC::Mins(a, a, 1.769f, n, loc);
    AscendC::Adds(a, a, -1.769f, n, loc);
    AscendC::Mul(a, a, a, n, loc);
    AscendC::Muls(a, a, -0.1444f, n, loc);
    AscendC::Adds(a, a, 0.5f, n, loc);
    AscendC::Adds(b, src, 1e-12f, n, loc);
    AscendC::Abs(w[2 * per], b, n, loc);
    AscendC::Div(b, b, w[2 * per], n, loc);
    AscendC::Mul(a, a, b, n, loc);
    AscendC::Adds(a, a, 0.5f, n, loc);
    AscendC::Mul(dst, src, a, n, loc);
}

using ActivationF32 = void (*)(const AscendC::LocalTensor<float>&,
                               const AscendC::LocalTensor<float>&,
                               const AscendC::LocalTensor<float>&, uint32_t, int32_t, Loc);

// API of COUNT elements, SRC to DST, with F32's sequence and WORK float buffers an element; a half
// source is Cast to float (one more buffer), and the result back with CAST_NONE
template <class T>
void activation(const char* api, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* given,
                uint32_t count, ActivationF32 f32, uint32_t work, Loc loc) {
    activation_types<T>();
    if (!count) return;
    if (count > src.GetSize() || count > dst.GetSize())
        error(loc, "%s of %u elements: src holds %u and dst %u", api, count, src.GetSize(),
              dst.GetSize());
    constexpr bool kHalf = std::is_same_v<T, half>;
    uint32_t per = 0;
    AscendC::LocalTensor<uint8_t> space =
        activation_space(given, count, 4 * (work + (kHalf ? 1 : 0)), per, api, loc);
    AscendC::LocalTensor<float> floats = space.ReinterpretCast<float>(loc);
    for (uint32_t done = 0; done < count; done += per) {
        int32_t n = int32_t(std::min(count - done, per));
        if constexpr (!kHalf) {
            f32(dst[done], src[done], floats, per, n, loc);
        } else {
            AscendC::LocalTensor<float> x = floats[work * per];
            AscendC::Cast(x, src[done], AscendC::RoundMode::CAST_NONE, n, loc);
            f32(x, x, floats, per, n, loc);
            AscendC::Cast(dst[done], x, AscendC::RoundMode::CAST_NONE, n, loc);
        }
    }
}
}  // namespace pipev::detail

namespace AscendC {
#define PIPEV_ACTIVATION_FORMS(NAME, F32, WORK)                                                    \
    template <typename T, bool isReuseSource = false>                                              \
    void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                    \
              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, PIPEV_LOC) {   \
        pipev::detail::activation(#NAME, dstTensor, srcTensor, &sharedTmpBuffer, calCount,         \
                                  pipev::detail::F32, WORK, loc);                                  \
    }                                                                                              \
    template <typename T, bool isReuseSource = false>                                              \
    void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                    \
              const LocalTensor<uint8_t>& sharedTmpBuffer, PIPEV_LOC) {                            \
        pipev::detail::activation(#NAME, dstTensor, srcTensor, &sharedTmpBuffer,                   \
                                  srcTensor.GetSize(), pipev::detail::F32, WORK, loc);             \
    }                                                                                              \
    template <typename T, bool isReuseSource = false>                                              \
    void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                    \
              const uint32_t calCount, PIPEV_LOC) {                                                \
        pipev::detail::activation<T>(#NAME, dstTensor, srcTensor, nullptr, calCount,               \
                                     pipev::detail::F32, WORK, loc);                               \
    }                                                                                              \
    template <typename T, bool isReuseSource = false>                                              \
    void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PIPEV_LOC) {       \
        pipev::detail::activation<T>(#NAME, dstTensor, srcTensor, nullptr, srcTensor.GetSize(),    \
                                     pipev::detail::F32, WORK, loc);                               \
    }
PIPEV_ACTIVATION_FORMS(Sigmoid, sigmoid_f32, 1)
PIPEV_ACTIVATION_FORMS(Tanh, tanh_f32, 1)
#undef PIPEV_ACTIVATION_FORMS

// Gelu and FasterGeluV2: the two documented forms, with a sharedTmpBuffer or without.
// highPrecision (half only, on the pages) and highPerformance change nothing: pipev computes a
// half source in float whatever they say.
#define PIPEV_GELU_FORMS(NAME, F32, WORK)                                                          \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                \
    void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                      \
              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize, PIPEV_LOC) {   \
        pipev::detail::activation(#NAME, dstLocal, srcLocal, &sharedTmpBuffer, dataSize,           \
                                  pipev::detail::F32, WORK, loc);                                  \
    }                                                                                              \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                \
    void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                      \
              const uint32_t dataSize, PIPEV_LOC) {                                                \
        pipev::detail::activation<T>(#NAME, dstLocal, srcLocal, nullptr, dataSize,                 \
                                     pipev::detail::F32, WORK, loc);                               \
    }
PIPEV_GELU_FORMS(Gelu, gelu_f32, 1)
PIPEV_GELU_FORMS(FasterGeluV2, faster_gelu_v2_f32, 3)
#undef PIPEV_GELU_FORMS

// Log (base e; the page's forms without temporary space): the vector unit's natural logarithm,
// one Ln (vln) in T. Log2 and Log10 are not modelled.
template <typename T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount,
         PIPEV_LOC) {
    pipev::detail::activation_types<T>();
    if (calCount > srcTensor.GetSize() || calCount > dstTensor.GetSize())
        pipev::detail::error(loc, "Log of %u elements: srcTensor holds %u and dstTensor %u",
                             calCount, srcTensor.GetSize(), dstTensor.GetSize());
    if (calCount) Ln(dstTensor, srcTensor, int32_t(calCount), loc);
}
template <typename T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PIPEV_LOC) {
    Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

// Silu(dst, src, dataSize): the page gives no temporary space and forbids src and dst to
// overlap, so the steps run in dst, in T: dst = -src, dst = e^dst, dst = dst + 1, dst = src / dst
template <typename T, bool isReuseSource = false>
void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
          PIPEV_LOC) {
    using namespace pipev::detail;
    activation_types<T>();
    if (!dataSize) return;
    if (dataSize > srcLocal.GetSize() || dataSize > dstLocal.GetSize())
        error(loc, "Silu of %u elements: srcLocal holds %u and dstLocal %u", dataSize,
              srcLocal.GetSize(), dstLocal.GetSize());
    uint64_t bytes = uint64_t(dataSize) * sizeof(T);
    if (dstLocal.addr_ < srcLocal.addr_ + bytes && srcLocal.addr_ < dstLocal.addr_ + bytes)
        error(loc, "Silu: dstLocal (UB 0x%llx) and srcLocal (UB 0x%llx) overlap over %u "
              "elements; the page does not allow it (its steps run in dstLocal)",
              (unsigned long long)dstLocal.addr_, (unsigned long long)srcLocal.addr_, dataSize);
    int32_t n = int32_t(dataSize);
    Muls(dstLocal, srcLocal, T(-1), n, loc);
    Exp(dstLocal, dstLocal, n, loc);
    Adds(dstLocal, dstLocal, T(1), n, loc);
    Div(dstLocal, srcLocal, dstLocal, n, loc);
}
}  // namespace AscendC
#endif
