// pipev/advanced.h: advanced math APIs whose results are exactly defined, built from the basic
// instructions pipev has (so checks, timing and traces apply to every step). The instruction
// sequences are pipev's own: an API's cycles are a model of pipev's sequence, not of the
// vendor's (docs/ascendc.md, "Advanced math").
// Temporary space: the sharedTmpBuffer form uses the caller's uint8_t tensor; the form without
// it takes the space from the UB the kernel's buffers leave free above them, as the vendor's
// framework does (an error at the call when too little is free).
#ifndef PIPEV_ADVANCED_H
#define PIPEV_ADVANCED_H
#include "queue.h"
#include "tmp_sizes.h"
#include "vector.h"

namespace pipev::detail {
inline uint32_t round32(uint64_t bytes) { return uint32_t((bytes + 31) & ~uint64_t(31)); }

// BYTES of temporary UB above the kernel's buffers (one region per launch, grown as needed).
inline AscendC::LocalTensor<uint8_t> framework_tmp(uint32_t bytes, const char* api, Loc loc) {
    uint64_t addr = (g.ub_top + 31) & ~uint64_t(31);
    uint32_t need = round32(bytes);
    if (addr + need > bridge().ub_bytes)
        error(loc, "%s takes %u bytes of temporary space from the UB the kernel's buffers leave "
              "free, and %llu are free above UB 0x%llx: pass a sharedTmpBuffer or leave room",
              api, need, (unsigned long long)(bridge().ub_bytes - addr),
              (unsigned long long)addr);
    int region = -1;
    for (size_t i = 0; i < g.regions.size(); ++i)
        if (g.regions[i].base == "api_tmp" && g.regions[i].addr == addr &&
            g.regions[i].bytes >= need)
            region = int(i);
    if (region < 0) region = new_region("api_tmp", addr, need);
    return view<uint8_t>(region, AscendC::TPosition::VECCALC, loc);
}
inline void tmp_fits(const AscendC::LocalTensor<uint8_t>& tmp, uint32_t need, const char* api,
                     Loc loc) {
    if (tmp.GetSize() < need)
        error(loc, "%s: sharedTmpBuffer holds %u bytes, the call needs %u", api, tmp.GetSize(),
              need);
}

// ClampMax/ClampMin: the compare's bits (src > scalar, or src < scalar) inverted, then a select
// of src where the inverted bit is set and the scalar elsewhere. NaN compares false and -0 does
// not compare greater or less than +0, so a NaN source, a NaN scalar and signed zeros give the
// documentation's rule exactly ("replace the elements greater (less) than the scalar"). Mins
// and Maxs would not: on a tie of -0 and +0 their result is one operand, not the source. The
// compare reads its source in whole 256-byte repeats, as the instruction does.
template <class T> uint32_t clamp_tmp_bytes(uint32_t count) { return tmp::clamp(count, sizeof(T)); }
template <class T>
void clamp(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
           const AscendC::LocalTensor<uint8_t>& tmp, T scalar, uint32_t count,
           AscendC::CMPMODE replaced, Loc loc) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "ClampMax/ClampMin take half or float");
    AscendC::Compares(tmp, src, scalar, replaced, count, loc);
    AscendC::LocalTensor<uint16_t> words = tmp.ReinterpretCast<uint16_t>(loc);
    AscendC::Not(words, words, int32_t((count + 15) / 16), loc);
    AscendC::Select(dst, tmp, src, scalar, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, count, loc);
}

// Xor: (a | b) & ~(a & b), the complement kept in the temporary space.
template <class T> uint32_t xor_tmp_bytes(uint32_t count) { return tmp::xor_(count, sizeof(T)); }
template <class T>
void xor_(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
          const AscendC::LocalTensor<T>& b, const AscendC::LocalTensor<uint8_t>& tmp,
          uint32_t count, Loc loc) {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>,
                  "Xor takes int16_t or uint16_t");
    AscendC::LocalTensor<T> both = tmp.ReinterpretCast<T>(loc);
    AscendC::And(both, a, b, count, loc);
    AscendC::Not(both, both, count, loc);
    AscendC::Or(dst, a, b, count, loc);
    AscendC::And(dst, dst, both, count, loc);
}

// BitwiseAnd/BitwiseOr (Ascend 950): bits are bits whatever the element type, so the 16-bit
// And/Or over the same bytes; an 8-bit type needs an even count (no 8-bit logic instruction).
template <class T>
int32_t bitwise_words(uint32_t count, const char* api, const char* op, Loc loc) {
    static_assert(std::is_integral_v<T>, "BitwiseAnd/BitwiseOr take integer types");
    if (__NPU_ARCH__ != 3510)
        error(loc, "%s is an Ascend 950 API (the documentation lists no other chip); this "
              "chip's __NPU_ARCH__ is %d", api, __NPU_ARCH__);
    uint64_t bytes = uint64_t(count) * sizeof(T);
    if (bytes % 2)
        error(loc, "%s of %u 8-bit elements: pipev builds it from 16-bit %s, which needs an "
              "even count", api, count, op);
    return int32_t(bytes / 2);
}

// The rounding APIs (Floor, Ceil, Trunc, Rint, Round, Frac): pipev's API statements of those
// names (isa/api.py): vconv with the round mode, a half source through float in the temporary
// space, Frac a vsub of the truncation. One statement takes up to 255 float repeats; a larger
// count is issued in chunks of that many elements (the temporary space holds one chunk).
template <class T>
void rounding(const char* stmt, const char* api, const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
              uint32_t count, Loc loc) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Floor/Ceil/Trunc/Rint/Round/Frac take half or float");
    uint32_t need = tmp::rounding(count, sizeof(T), std::string(stmt) == "frac");
    AscendC::LocalTensor<uint8_t> space;
    if (need) {
        if (tmp) tmp_fits(*tmp, need, api, loc);
        space = tmp ? *tmp : framework_tmp(need, api, loc);
    }
    for (uint32_t done = 0; done < count; done += tmp::kRoundingChunk) {
        uint32_t n = std::min(count - done, tmp::kRoundingChunk);
        Stmt s("%s.%s", stmt, pipev::type_name<T>);
        if (need)
            ub_ops(s, loc, dst[done], src[done], space.ReinterpretCast<T>(loc));
        else
            ub_ops(s, loc, dst[done], src[done]);
        count_key(s, "count", n, counter_mode());
        s.issue(loc);
    }
}
}  // namespace pipev::detail

namespace AscendC {
struct BitwiseAndConfig {
    bool isReuseSource;
};
struct BitwiseOrConfig {
    bool isReuseSource;
};
constexpr BitwiseAndConfig DEFAULT_BITWISE_AND_CONFIG{false};
constexpr BitwiseOrConfig DEFAULT_BITWISE_OR_CONFIG{false};
template <const BitwiseAndConfig& config = DEFAULT_BITWISE_AND_CONFIG, typename T>
void BitwiseAnd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const uint32_t count, PIPEV_LOC) {
    int32_t words = pipev::detail::bitwise_words<T>(count, "BitwiseAnd", "And", loc);
    And(dst.template ReinterpretCast<uint16_t>(loc), src0.template ReinterpretCast<uint16_t>(loc),
        src1.template ReinterpretCast<uint16_t>(loc), words, loc);
}
template <const BitwiseOrConfig& config = DEFAULT_BITWISE_OR_CONFIG, typename T>
void BitwiseOr(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
               const uint32_t count, PIPEV_LOC) {
    int32_t words = pipev::detail::bitwise_words<T>(count, "BitwiseOr", "Or", loc);
    Or(dst.template ReinterpretCast<uint16_t>(loc), src0.template ReinterpretCast<uint16_t>(loc),
       src1.template ReinterpretCast<uint16_t>(loc), words, loc);
}

template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar,
              const uint32_t calCount, PIPEV_LOC) {
    using namespace pipev::detail;
    tmp_fits(sharedTmpBuffer, clamp_tmp_bytes<T>(calCount), "ClampMax", loc);
    clamp(dstTensor, srcTensor, sharedTmpBuffer, scalar, calCount, CMPMODE::GT, loc);
}
template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount, PIPEV_LOC) {
    using namespace pipev::detail;
    auto tmp = framework_tmp(clamp_tmp_bytes<T>(calCount), "ClampMax", loc);
    clamp(dstTensor, srcTensor, tmp, scalar, calCount, CMPMODE::GT, loc);
}
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar,
              const uint32_t calCount, PIPEV_LOC) {
    using namespace pipev::detail;
    tmp_fits(sharedTmpBuffer, clamp_tmp_bytes<T>(calCount), "ClampMin", loc);
    clamp(dstTensor, srcTensor, sharedTmpBuffer, scalar, calCount, CMPMODE::LT, loc);
}
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount, PIPEV_LOC) {
    using namespace pipev::detail;
    auto tmp = framework_tmp(clamp_tmp_bytes<T>(calCount), "ClampMin", loc);
    clamp(dstTensor, srcTensor, tmp, scalar, calCount, CMPMODE::LT, loc);
}

template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const uint32_t calCount, PIPEV_LOC) {
    using namespace pipev::detail;
    tmp_fits(sharedTmpBuffer, xor_tmp_bytes<T>(calCount), "Xor", loc);
    xor_(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const uint32_t calCount, PIPEV_LOC) {
    using namespace pipev::detail;
    auto tmp = framework_tmp(xor_tmp_bytes<T>(calCount), "Xor", loc);
    xor_(dstTensor, src0Tensor, src1Tensor, tmp, calCount, loc);
}
// the whole-tensor forms: the count is the source's size
template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         PIPEV_LOC) {
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer,
                          src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, PIPEV_LOC) {
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Floor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding("floor", "Floor", dstTensor, srcTensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Floor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding<T>("floor", "Floor", dstTensor, srcTensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Floor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, PIPEV_LOC) {
    pipev::detail::rounding("floor", "Floor", dstTensor, srcTensor, &sharedTmpBuffer,
                            srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void Floor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PIPEV_LOC) {
    pipev::detail::rounding<T>("floor", "Floor", dstTensor, srcTensor, nullptr,
                               srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Ceil(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding("ceil", "Ceil", dstTensor, srcTensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Ceil(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding<T>("ceil", "Ceil", dstTensor, srcTensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Ceil(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, PIPEV_LOC) {
    pipev::detail::rounding("ceil", "Ceil", dstTensor, srcTensor, &sharedTmpBuffer,
                            srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void Ceil(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PIPEV_LOC) {
    pipev::detail::rounding<T>("ceil", "Ceil", dstTensor, srcTensor, nullptr,
                               srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Trunc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding("trunc", "Trunc", dstTensor, srcTensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Trunc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding<T>("trunc", "Trunc", dstTensor, srcTensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Trunc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, PIPEV_LOC) {
    pipev::detail::rounding("trunc", "Trunc", dstTensor, srcTensor, &sharedTmpBuffer,
                            srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void Trunc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PIPEV_LOC) {
    pipev::detail::rounding<T>("trunc", "Trunc", dstTensor, srcTensor, nullptr,
                               srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Rint(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding("rint", "Rint", dstTensor, srcTensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Rint(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding<T>("rint", "Rint", dstTensor, srcTensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Rint(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, PIPEV_LOC) {
    pipev::detail::rounding("rint", "Rint", dstTensor, srcTensor, &sharedTmpBuffer,
                            srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void Rint(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PIPEV_LOC) {
    pipev::detail::rounding<T>("rint", "Rint", dstTensor, srcTensor, nullptr,
                               srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Round(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding("round", "Round", dstTensor, srcTensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Round(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding<T>("round", "Round", dstTensor, srcTensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Round(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, PIPEV_LOC) {
    pipev::detail::rounding("round", "Round", dstTensor, srcTensor, &sharedTmpBuffer,
                            srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void Round(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PIPEV_LOC) {
    pipev::detail::rounding<T>("round", "Round", dstTensor, srcTensor, nullptr,
                               srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Frac(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding("frac", "Frac", dstTensor, srcTensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Frac(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount, PIPEV_LOC) {
    pipev::detail::rounding<T>("frac", "Frac", dstTensor, srcTensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Frac(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, PIPEV_LOC) {
    pipev::detail::rounding("frac", "Frac", dstTensor, srcTensor, &sharedTmpBuffer,
                            srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void Frac(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PIPEV_LOC) {
    pipev::detail::rounding<T>("frac", "Frac", dstTensor, srcTensor, nullptr,
                               srcTensor.GetSize(), loc);
}
}  // namespace AscendC
#endif
