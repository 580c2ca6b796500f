// pipev/activation.h: the advanced APIs Sigmoid, Tanh and Silu, from their pages' formulas
// (Sigmoid(x) = 1 / (1 + e^-x), tanh(x) = (e^2x - 1) / (e^2x + 1), Silu(x) = x / (1 + e^-x))
// built from pipev's basic instructions. The pages give the formula, not the vendor's
// instruction sequence: the sequences here are pipev's own (docs/ascendc.md, "Advanced math"),
// so a result may differ from silicon's in the last bit.
// - Sigmoid and Tanh compute in float (a half source is Cast to float in the temporary space and
//   the result Cast back, CAST_NONE) in passes of as many elements as the temporary space holds
//   (4 bytes an element for float, 8 for half; a pass a multiple of 64 elements).
// - Silu has no temporary space on its page and forbids dst overlapping src: its steps run in
//   dst, in T.
#ifndef PIPEV_ACTIVATION_H
#define PIPEV_ACTIVATION_H
#include "advanced.h"

namespace pipev::detail {
// Bytes of temporary space an element of a Sigmoid / Tanh pass takes: one float work value, and
// for half a second (the float result before the Cast back)
template <class T> constexpr uint32_t activation_bytes() { return std::is_same_v<T, half> ? 8 : 4; }
constexpr uint32_t kActivationGrain = 64;  // a pass's elements: a multiple of a float repeat

// The space of COUNT elements' passes: GIVEN, or the framework's free UB (as much as the whole
// count takes, or what is free); the elements a pass takes (an error at the call when not even
// one grain fits)
template <class T>
AscendC::LocalTensor<uint8_t> activation_space(const AscendC::LocalTensor<uint8_t>* given,
                                               uint32_t count, uint32_t& per, const char* api,
                                               Loc loc) {
    constexpr uint32_t bytes = activation_bytes<T>(), least = kActivationGrain * bytes;
    uint32_t whole = (count + kActivationGrain - 1) / kActivationGrain * kActivationGrain;
    uint64_t room = given ? given->GetSize() : framework_free();
    if (room < least) {
        if (given) tmp_fits(*given, least, api, loc);
        framework_tmp(least, api, loc);  // (reports what is free)
    }
    per = uint32_t(std::min<uint64_t>(whole, room / least * kActivationGrain));
    return given ? *given : framework_tmp(per * bytes, api, loc);
}

template <class T> void activation_types() {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Sigmoid / Tanh / Silu take half or float");
}

// Sigmoid of N elements in float, SRC to DST (both float; DST may be SRC): W = -src, W = e^W,
// W = W + 1, DST = 1, DST = DST / W
inline void sigmoid_f32(const AscendC::LocalTensor<float>& dst,
                        const AscendC::LocalTensor<float>& src,
                        const AscendC::LocalTensor<float>& w, int32_t n, Loc loc) {
    AscendC::Muls(w, src, -1.0f, n, loc);
    AscendC::Exp(w, w, n, loc);
    AscendC::Adds(w, w, 1.0f, n, loc);
    AscendC::Duplicate(dst, 1.0f, n, loc);
    AscendC::Div(dst, dst, w, n, loc);
}
// tanh of N elements in float, SRC to DST (DST may be SRC): W = min(max(src, -10), 10) (tanh
// of 10 is 1 in float, and e^2x stays finite), W = e^(2W), DST = W + 1, W = W - 1, DST = W / DST
inline void tanh_f32(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                     const AscendC::LocalTensor<float>& w, int32_t n, Loc loc) {
    AscendC::Mins(w, src, 10.0f, n, loc);
    AscendC::Maxs(w, w, -10.0f, n, loc);
    AscendC::Muls(w, w, 2.0f, n, loc);
    AscendC::Exp(w, w, n, loc);
    AscendC::Adds(dst, w, 1.0f, n, loc);
    AscendC::Adds(w, w, -1.0f, n, loc);
    AscendC::Div(dst, w, dst, n, loc);
}

template <class T, class F>
void activation(const char* api, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* given,
                uint32_t count, F f32, Loc loc) {
    activation_types<T>();
    if (!count) return;
    if (count > src.GetSize() || count > dst.GetSize())
        error(loc, "%s of %u elements: src holds %u and dst %u", api, count, src.GetSize(),
              dst.GetSize());
    uint32_t per = 0;
    AscendC::LocalTensor<uint8_t> space = activation_space<T>(given, count, per, api, loc);
    AscendC::LocalTensor<float> w = space.ReinterpretCast<float>(loc);
    for (uint32_t done = 0; done < count; done += per) {
        int32_t n = int32_t(std::min(count - done, per));
        if constexpr (std::is_same_v<T, float>) {
            f32(dst[done], src[done], w, n, loc);
        } else {
            AscendC::LocalTensor<float> out = space[per * 4].ReinterpretCast<float>(loc);
            AscendC::Cast(out, src[done], AscendC::RoundMode::CAST_NONE, n, loc);
            f32(out, out, w, n, loc);
            AscendC::Cast(dst[done], out, AscendC::RoundMode::CAST_NONE, n, loc);
        }
    }
}
}  // namespace pipev::detail

namespace AscendC {
#define PIPEV_ACTIVATION_FORMS(NAME, F32)                                                          \
    template <typename T, bool isReuseSource = false>                                              \
    void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                    \
              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, PIPEV_LOC) {   \
        pipev::detail::activation(#NAME, dstTensor, srcTensor, &sharedTmpBuffer, calCount,         \
                                  pipev::detail::F32, loc);                                        \
    }                                                                                              \
    template <typename T, bool isReuseSource = false>                                              \
    void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                    \
              const LocalTensor<uint8_t>& sharedTmpBuffer, PIPEV_LOC) {                            \
        pipev::detail::activation(#NAME, dstTensor, srcTensor, &sharedTmpBuffer,                   \
                                  srcTensor.GetSize(), pipev::detail::F32, loc);                   \
    }                                                                                              \
    template <typename T, bool isReuseSource = false>                                              \
    void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                    \
              const uint32_t calCount, PIPEV_LOC) {                                                \
        pipev::detail::activation<T>(#NAME, dstTensor, srcTensor, nullptr, calCount,               \
                                     pipev::detail::F32, loc);                                     \
    }                                                                                              \
    template <typename T, bool isReuseSource = false>                                              \
    void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PIPEV_LOC) {       \
        pipev::detail::activation<T>(#NAME, dstTensor, srcTensor, nullptr, srcTensor.GetSize(),    \
                                     pipev::detail::F32, loc);                                     \
    }
PIPEV_ACTIVATION_FORMS(Sigmoid, sigmoid_f32)
PIPEV_ACTIVATION_FORMS(Tanh, tanh_f32)
#undef PIPEV_ACTIVATION_FORMS

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
