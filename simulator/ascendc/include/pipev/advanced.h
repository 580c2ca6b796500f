// pipev/advanced.h: advanced math APIs whose results are exactly defined, built from the basic
// instructions pipev has (so checks, timing and traces apply to every step). The instruction
// sequences are pipev's own: an API's cycles are a model of pipev's sequence, not of the
// vendor's (docs/ascendc.md, "Advanced math").
// Temporary space: the sharedTmpBuffer form uses the caller's uint8_t tensor; the form without
// it takes the space from the UB the kernel's buffers leave free above them, as the vendor's
// framework does (an error at the call when too little is free).
#ifndef PIPEV_ADVANCED_H
#define PIPEV_ADVANCED_H
#include <cstring>
#include <limits>

#include "queue.h"
#include "tmp_sizes.h"
#include "vector.h"

namespace pipev::detail {
using tmp::round32;

// The UB the kernel's buffers leave free above them, from the 32-byte aligned ADDR on (the
// framework hands out what GetCoreMemSize gives).
inline uint64_t framework_free(uint64_t* addr = nullptr) {
    uint64_t at = (g.ub_top + 31) & ~uint64_t(31), top = ub_usable();
    if (addr) *addr = at;
    return at < top ? top - at : 0;
}
// BYTES of temporary UB above the kernel's buffers (one region per launch, grown as needed).
inline AscendC::LocalTensor<uint8_t> framework_tmp(uint32_t bytes, const char* api, Loc loc) {
    uint64_t addr = 0, avail = framework_free(&addr);
    uint32_t need = round32(bytes);
    if (need > avail)
        error(loc, "%s takes %u bytes of temporary space from the UB the kernel's buffers leave "
              "free, and %llu are free above UB 0x%llx: pass a sharedTmpBuffer or leave room",
              api, need, (unsigned long long)avail, (unsigned long long)addr);
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
// The space of a call that needs NEED bytes: GIVEN (a sharedTmpBuffer; smaller is an error at
// the call) or NEED bytes of the framework's
inline AscendC::LocalTensor<uint8_t> call_space(const AscendC::LocalTensor<uint8_t>* given,
                                                uint32_t need, const char* api, Loc loc) {
    if (!given) return framework_tmp(need, api, loc);
    tmp_fits(*given, need, api, loc);
    return *given;
}
// The space of a call that runs in passes (SoftMax, Broadcast, the activations): GIVEN (a sharedTmpBuffer) or
// BYTES of the framework's space, the passes' ROWS worked out from the room there is (its
// size, or framework_free); no row fits is an error at the call naming LEAST, a pass's fewest
// bytes
inline AscendC::LocalTensor<uint8_t> pass_space(const AscendC::LocalTensor<uint8_t>* given,
                                                uint32_t rows, uint32_t least, uint32_t bytes,
                                                const char* api, Loc loc) {
    if (!rows) {
        if (given) tmp_fits(*given, least, api, loc);
        framework_tmp(least, api, loc);  // (reports what is free)
    }
    return given ? *given : framework_tmp(bytes, api, loc);
}

// ClampMax/ClampMin: the compare's bits (src > scalar, or src < scalar) inverted, then a select
// of src where the inverted bit is set and the scalar elsewhere. NaN compares false and -0 does
// not compare greater or less than +0, so a NaN source, a NaN scalar and signed zeros give the
// documentation's rule exactly ("replace the elements greater (less) than the scalar"). Mins
// and Maxs would not: on a tie of -0 and +0 their result is one operand, not the source. The
// compare reads its source in whole 256-byte repeats, as the instruction does: whole groups
// of 256 elements (32 bytes of bits each) are compared in place, and the elements past them
// through a copy (a 16-bit Or of each word with itself, bit-exact), zero-filled to whole
// repeats after the bits: the API reads only the elements its count covers.
template <class T> uint32_t clamp_tmp_bytes(uint32_t count) { return tmp::clamp(count, sizeof(T)); }
// COPY = the TAIL elements at SRC (16-bit Or of each word with itself, bit-exact), zero-filled
// to whole 256-byte repeats: what a compare of the tail may read
template <class T>
void copy_tail(const AscendC::LocalTensor<uint8_t>& copy, const AscendC::LocalTensor<T>& src,
               uint32_t tail, Loc loc) {
    uint32_t per = 256 / sizeof(T);
    auto words = copy.ReinterpretCast<uint16_t>(loc);
    AscendC::Duplicate(words, uint16_t(0), int32_t(128 * ((tail + per - 1) / per)), loc);
    auto from = src.template ReinterpretCast<uint16_t>(loc);
    AscendC::Or(words, from, from, int32_t(tail * sizeof(T) / 2), loc);
}
template <class T>
void clamp(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
           const AscendC::LocalTensor<uint8_t>& tmp, T scalar, uint32_t count,
           AscendC::CMPMODE replaced, Loc loc) {
    static_assert(sizeof(T) >= 2, "the tail's copy moves 16-bit words");
    uint32_t per = 256 / sizeof(T), whole = (count + per - 1) / per * per;
    uint32_t tail = tmp::clamp_tail(count), head = count - tail;
    if (head) AscendC::Compares(tmp, src, scalar, replaced, head, loc);
    if (tail) {
        auto copy = tmp[round32(whole / 8)];
        copy_tail(copy, src[head], tail, loc);
        AscendC::Compares(tmp[head / 8], copy.ReinterpretCast<T>(loc), scalar, replaced, tail,
                          loc);
    }
    AscendC::LocalTensor<uint16_t> bits = tmp.ReinterpretCast<uint16_t>(loc);
    AscendC::Not(bits, bits, int32_t((count + 15) / 16), loc);
    AscendC::Select(dst, tmp, src, scalar, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, count, loc);
}
template <class T>
void clamp_max_min(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const AscendC::LocalTensor<uint8_t>& tmp, T scalar, uint32_t count,
                   AscendC::CMPMODE replaced, Loc loc) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "ClampMax/ClampMin take half or float");
    clamp(dst, src, tmp, scalar, count, replaced, loc);
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
    if (need) space = call_space(tmp, need, api, loc);
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

// ---- Ascend 950: IsNan/IsInf/IsFinite, Where, LogicalAnd/Or/Not, Clamp -------------------------
// Each makes the bits of a compare (Compares against a scalar; Compare of two tensors for a
// tensor Clamp bound), then a select of the result. A byte result (bool, int8_t, uint8_t) is
// selected as uint8_t 1 or 0. Temporary space: the bits first, then a values region.
inline void need_950(const char* api, Loc loc) {
    if (__NPU_ARCH__ != 3510)
        error(loc, "%s is an Ascend 950 API (the documentation lists no other chip); this "
              "chip's __NPU_ARCH__ is %d", api, __NPU_ARCH__);
}
template <class U> constexpr bool is_byte_v =
    std::is_same_v<U, bool> || std::is_same_v<U, int8_t> || std::is_same_v<U, uint8_t>;
// the temporary space: bits of COUNT elements of SRC_SIZE in whole repeats, then VALUES bytes
struct Tmp {
    AscendC::LocalTensor<uint8_t> bits, bits2, values;
};
inline Tmp split_tmp(const AscendC::LocalTensor<uint8_t>* given, uint32_t count, uint32_t src_size,
                     uint32_t values, bool two_bits, const char* api, Loc loc) {
    uint32_t bits = tmp::bits(count, src_size);
    uint32_t need = tmp::predicate(count, src_size, values, two_bits);
    AscendC::LocalTensor<uint8_t> space = call_space(given, need, api, loc);
    Tmp t;
    t.bits = space;
    t.bits2 = two_bits ? space[bits] : space;
    t.values = space[bits * (two_bits ? 2 : 1)];
    return t;
}
// DST[i] = BITS bit i ? 1 : 0, in DST's type (a byte type as uint8_t), ONES in VALUES
template <class U>
void select_one_zero(const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<uint8_t>& bits,
                     const AscendC::LocalTensor<uint8_t>& values, uint32_t count, Loc loc) {
    using V = std::conditional_t<is_byte_v<U>, uint8_t, U>;
    auto ones = values.ReinterpretCast<V>(loc);
    auto out = dst.template ReinterpretCast<V>(loc);
    AscendC::Duplicate(ones, static_cast<V>(1), int32_t(count), loc);
    AscendC::Select(out, bits, ones, static_cast<V>(0),
                    AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, count, loc);
}
inline void invert_bits(const AscendC::LocalTensor<uint8_t>& bits, uint32_t count, Loc loc) {
    AscendC::LocalTensor<uint16_t> words = bits.ReinterpretCast<uint16_t>(loc);
    AscendC::Not(words, words, int32_t((count + 15) / 16), loc);
}
// IsNan / IsInf / IsFinite: |src| compared with +inf (<= : not NaN; == : inf; < : finite)
enum class FloatClass { NAN_, INF, FINITE };
template <class U, class T>
void classify(const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src,
              const AscendC::LocalTensor<uint8_t>* given, uint32_t count, FloatClass what,
              const char* api, Loc loc) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "the source is half or float");
    static_assert(is_byte_v<U> || std::is_same_v<U, T>,
                  "the destination is bool (or a byte type) or the source's type");
    need_950(api, loc);
    uint32_t per = 256 / sizeof(T), whole = (count + per - 1) / per * per;
    Tmp t = split_tmp(given, count, sizeof(T), whole * sizeof(T), false, api, loc);
    auto mag = t.values.ReinterpretCast<T>(loc);
    AscendC::Duplicate(mag, static_cast<T>(0.0f), int32_t(whole), loc);  // the compare reads
    AscendC::Abs(mag, src, int32_t(count), loc);                          // whole repeats
    T inf = static_cast<T>(std::numeric_limits<float>::infinity());
    AscendC::CMPMODE mode = what == FloatClass::INF ? AscendC::CMPMODE::EQ
                            : what == FloatClass::FINITE ? AscendC::CMPMODE::LT
                                                         : AscendC::CMPMODE::LE;
    AscendC::Compares(t.bits, mag, inf, mode, count, loc);
    if (what == FloatClass::NAN_) invert_bits(t.bits, count, loc);
    select_one_zero(dst, t.bits, t.values, count, loc);
}
template <class T> constexpr uint32_t src_size() { return is_byte_v<T> ? 1 : sizeof(T); }
template <class T> uint32_t whole_repeats(uint32_t count) {
    uint32_t per = 256 / src_size<T>();
    return (count + per - 1) / per * per;
}
// the bits of SRC != 0 (LogicalAnd/Or/Not, Where's condition; a byte source as uint8_t). The
// compare reads whole repeats, so SRC's bytes are copied (a 16-bit Or of each word with
// itself) into COPY, zero-filled to whole repeats: no read past the caller's COUNT elements.
template <class T>
void nonzero_bits(const AscendC::LocalTensor<uint8_t>& bits, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<uint8_t>& copy, uint32_t count, Loc loc) {
    using V = std::conditional_t<is_byte_v<T>, uint8_t, T>;
    auto words = copy.ReinterpretCast<uint16_t>(loc);
    uint32_t bytes = count * src_size<T>();
    AscendC::Duplicate(words, uint16_t(0), int32_t(whole_repeats<T>(count) * src_size<T>() / 2),
                       loc);
    auto from = src.template ReinterpretCast<uint16_t>(loc);
    AscendC::Or(words, from, from, int32_t((bytes + 1) / 2), loc);
    AscendC::Compares(bits, copy.ReinterpretCast<V>(loc), static_cast<V>(0), AscendC::CMPMODE::NE,
                      count, loc);
}
}  // namespace pipev::detail

namespace pipev::detail {
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
    clamp_max_min(dstTensor, srcTensor, sharedTmpBuffer, scalar, calCount, CMPMODE::GT, loc);
}
template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount, PIPEV_LOC) {
    using namespace pipev::detail;
    auto tmp = framework_tmp(clamp_tmp_bytes<T>(calCount), "ClampMax", loc);
    clamp_max_min(dstTensor, srcTensor, tmp, scalar, calCount, CMPMODE::GT, loc);
}
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar,
              const uint32_t calCount, PIPEV_LOC) {
    using namespace pipev::detail;
    tmp_fits(sharedTmpBuffer, clamp_tmp_bytes<T>(calCount), "ClampMin", loc);
    clamp_max_min(dstTensor, srcTensor, sharedTmpBuffer, scalar, calCount, CMPMODE::LT, loc);
}
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount, PIPEV_LOC) {
    using namespace pipev::detail;
    auto tmp = framework_tmp(clamp_tmp_bytes<T>(calCount), "ClampMin", loc);
    clamp_max_min(dstTensor, srcTensor, tmp, scalar, calCount, CMPMODE::LT, loc);
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

// Rint: an Ascend 950 API in the documentation (an error at the call elsewhere; the rint.T
// statement itself runs wherever the profile has the float to float conversion), with a
// config, not isReuseSource
struct RintConfig {
    bool isReuseSource;
};
constexpr RintConfig DEFAULT_RINT_CONFIG{false};
template <const RintConfig& config = DEFAULT_RINT_CONFIG, typename T>
void Rint(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count, PIPEV_LOC) {
    pipev::detail::need_950("Rint", loc);
    pipev::detail::rounding("rint", "Rint", dst, src, &sharedTmpBuffer, count, loc);
}
template <const RintConfig& config = DEFAULT_RINT_CONFIG, typename T>
void Rint(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
          PIPEV_LOC) {
    pipev::detail::need_950("Rint", loc);
    pipev::detail::rounding<T>("rint", "Rint", dst, src, nullptr, count, loc);
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

// ---- Ascend 950 predicates and selects (pipev::detail::classify, nonzero_bits) ----------------
#define PIPEV_CONFIG(NAME, DEFAULT)                                                               \
    struct NAME {                                                                                 \
        bool isReuseSource;                                                                       \
    };                                                                                            \
    constexpr NAME DEFAULT{false};
PIPEV_CONFIG(IsNanConfig, DEFAULT_IS_NAN_CONFIG)
PIPEV_CONFIG(IsInfConfig, DEFAULT_IS_INF_CONFIG)
PIPEV_CONFIG(LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG)
PIPEV_CONFIG(LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG)
PIPEV_CONFIG(LogicalNotConfig, DEFAULT_LOGICAL_NOT_CONFIG)
PIPEV_CONFIG(LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG)
PIPEV_CONFIG(ClampConfig, DEFAULT_CLAMP_CONFIG)
#undef PIPEV_CONFIG

template <const IsNanConfig& config = DEFAULT_IS_NAN_CONFIG, typename T, typename U>
void IsNan(const LocalTensor<T>& dst, const LocalTensor<U>& src,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count, PIPEV_LOC) {
    pipev::detail::classify(dst, src, &sharedTmpBuffer, count, pipev::detail::FloatClass::NAN_,
                            "IsNan", loc);
}
template <const IsNanConfig& config = DEFAULT_IS_NAN_CONFIG, typename T, typename U>
void IsNan(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count,
           PIPEV_LOC) {
    pipev::detail::classify(dst, src, nullptr, count, pipev::detail::FloatClass::NAN_, "IsNan",
                            loc);
}
template <const IsInfConfig& config = DEFAULT_IS_INF_CONFIG, typename T, typename U>
void IsInf(const LocalTensor<T>& dst, const LocalTensor<U>& src,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count, PIPEV_LOC) {
    pipev::detail::classify(dst, src, &sharedTmpBuffer, count, pipev::detail::FloatClass::INF,
                            "IsInf", loc);
}
template <const IsInfConfig& config = DEFAULT_IS_INF_CONFIG, typename T, typename U>
void IsInf(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count,
           PIPEV_LOC) {
    pipev::detail::classify(dst, src, nullptr, count, pipev::detail::FloatClass::INF, "IsInf",
                            loc);
}
// IsFinite's template parameters are (source, destination), as the documentation gives them
template <typename T, typename U>
void IsFinite(const LocalTensor<U>& dst, const LocalTensor<T>& src, uint32_t calCount,
              PIPEV_LOC) {
    pipev::detail::classify(dst, src, nullptr, calCount, pipev::detail::FloatClass::FINITE,
                            "IsFinite", loc);
}

#define PIPEV_LOGICAL(NAME, CONFIG, DEFAULT, OP)                                                  \
    template <const CONFIG& config = DEFAULT, typename T, typename U>                             \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,  \
              const uint32_t count, PIPEV_LOC) {                                                  \
        using namespace pipev::detail;                                                            \
        static_assert(is_byte_v<T>, #NAME " writes bool");                                        \
        need_950(#NAME, loc);                                                                     \
        Tmp t = split_tmp(nullptr, count, src_size<U>(), whole_repeats<U>(count) * src_size<U>(), \
                          true, #NAME, loc);                                                      \
        nonzero_bits(t.bits, src0, t.values, count, loc);                                         \
        nonzero_bits(t.bits2, src1, t.values, count, loc);                                        \
        int32_t words = int32_t((count + 15) / 16);                                               \
        OP(t.bits.ReinterpretCast<uint16_t>(loc), t.bits.ReinterpretCast<uint16_t>(loc),          \
           t.bits2.ReinterpretCast<uint16_t>(loc), words, loc);                                   \
        select_one_zero(dst, t.bits, t.values, count, loc);                                       \
    }
PIPEV_LOGICAL(LogicalAnd, LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG, And)
PIPEV_LOGICAL(LogicalOr, LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG, Or)
#undef PIPEV_LOGICAL
template <const LogicalNotConfig& config = DEFAULT_LOGICAL_NOT_CONFIG, typename T, typename U>
void LogicalNot(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count,
                PIPEV_LOC) {
    using namespace pipev::detail;
    static_assert(is_byte_v<T>, "LogicalNot writes bool");
    need_950("LogicalNot", loc);
    Tmp t = split_tmp(nullptr, count, src_size<U>(), whole_repeats<U>(count) * src_size<U>(),
                      false, "LogicalNot", loc);
    nonzero_bits(t.bits, src, t.values, count, loc);
    invert_bits(t.bits, count, loc);
    select_one_zero(dst, t.bits, t.values, count, loc);
}

template <const LogicalXorConfig& config = DEFAULT_LOGICAL_XOR_CONFIG, typename T, typename U>
void LogicalXor(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                const uint32_t count, PIPEV_LOC) {
    using namespace pipev::detail;
    static_assert(is_byte_v<T>, "LogicalXor writes bool");
    need_950("LogicalXor", loc);
    Tmp t = split_tmp(nullptr, count, src_size<U>(), whole_repeats<U>(count) * src_size<U>(), true,
                      "LogicalXor", loc);
    nonzero_bits(t.bits, src0, t.values, count, loc);
    nonzero_bits(t.bits2, src1, t.values, count, loc);
    int32_t words = int32_t((count + 15) / 16);  // a ^ b = (a | b) & ~(a & b), on the bits
    auto a = t.bits.ReinterpretCast<uint16_t>(loc), b = t.bits2.ReinterpretCast<uint16_t>(loc);
    auto either = t.values.ReinterpretCast<uint16_t>(loc);
    Or(either, a, b, words, loc);
    And(a, a, b, words, loc);
    Not(a, a, words, loc);
    And(a, a, either, words, loc);
    select_one_zero(dst, t.bits, t.values, count, loc);
}

// LogicalAnds / LogicalOrs: one source a scalar, the other a tensor: x && s is
// (s ? x != 0 : false), x || s is (s ? true : x != 0). A scalar value's truth is known at the
// call. A tensor element as the scalar (two tensors; the config's scalarTensorIndex names the
// one whose first element is the scalar, 1 by default) is read by the vector unit: a zeroed
// copy compared with the element (the 950's flexible scalar position) gives the bits of
// s != 0 for every element, joined with the other tensor's bits by And / Or.
namespace pipev_logical {
template <class X> constexpr bool is_tensor = pipev::detail::is_local<X>;
template <bool AND, class T, class U, class S>
void with_scalar(const LocalTensor<T>& dst, const U& src0, const S& src1, uint32_t count,
                 int scalar_index, const char* api, pipev::Loc loc) {
    using namespace pipev::detail;
    static_assert(is_byte_v<T>, "LogicalAnds/LogicalOrs write bool");
    need_950(api, loc);
    if constexpr (is_tensor<U> && is_tensor<S>) {
        static_assert(std::is_same_v<U, S>, "LogicalAnds/LogicalOrs: both sources one type");
        using P = typename U::PrimType;
        using V = std::conditional_t<is_byte_v<P>, uint8_t, P>;
        if (scalar_index != 0 && scalar_index != 1)
            error(loc, "%s: scalarTensorIndex is %d (0: src0 holds the scalar, 1: src1)", api,
                  scalar_index);
        const U& x = scalar_index == 0 ? src1 : src0;
        const U& s = scalar_index == 0 ? src0 : src1;
        uint32_t copy = whole_repeats<P>(count) * src_size<P>();
        Tmp t = split_tmp(nullptr, count, src_size<P>(), copy, true, api, loc);
        nonzero_bits(t.bits, x, t.values, count, loc);
        Duplicate(t.values.ReinterpretCast<uint16_t>(loc), uint16_t(0), int32_t(copy / 2), loc);
        Compares(t.bits2, t.values.ReinterpretCast<V>(loc), s.template ReinterpretCast<V>(loc),
                 CMPMODE::NE, count, loc);
        auto a = t.bits.ReinterpretCast<uint16_t>(loc), b = t.bits2.ReinterpretCast<uint16_t>(loc);
        int32_t words = int32_t((count + 15) / 16);
        if constexpr (AND) And(a, a, b, words, loc); else Or(a, a, b, words, loc);
        select_one_zero(dst, t.bits, t.values, count, loc);
    } else if constexpr (is_tensor<U> || is_tensor<S>) {
        const auto& x = [&]() -> const auto& {
            if constexpr (is_tensor<U>) return src0; else return src1;
        }();
        bool s = [&]() { if constexpr (is_tensor<U>) return src1 != 0; else return src0 != 0; }();
        auto out = dst.template ReinterpretCast<uint8_t>(loc);
        if (s != AND) {  // AND with false, OR with true: every element the same
            Duplicate(out, uint8_t(AND ? 0 : 1), int32_t(count), loc);
            return;
        }
        using V = typename std::decay_t<decltype(x)>::PrimType;
        Tmp t = split_tmp(nullptr, count, src_size<V>(), whole_repeats<V>(count) * src_size<V>(),
                          false, api, loc);
        nonzero_bits(t.bits, x, t.values, count, loc);
        select_one_zero(dst, t.bits, t.values, count, loc);
    } else {
        bool v = AND ? (src0 != 0 && src1 != 0) : (src0 != 0 || src1 != 0);
        Duplicate(dst.template ReinterpretCast<uint8_t>(loc), uint8_t(v), int32_t(count), loc);
    }
}
}  // namespace pipev_logical
struct LogicalAndsConfig {
    bool isReuseSource;
    int8_t scalarTensorIndex;
};
struct LogicalOrsConfig {
    bool isReuseSource;
    int8_t scalarTensorIndex;
};
constexpr LogicalAndsConfig DEFAULT_LOGICAL_ANDS_CONFIG{false, 1};
constexpr LogicalOrsConfig DEFAULT_LOGICAL_ORS_CONFIG{false, 1};
template <const LogicalAndsConfig& config = DEFAULT_LOGICAL_ANDS_CONFIG, typename T, typename U,
          typename S>
void LogicalAnds(const LocalTensor<T>& dst, const U& src0, const S& src1, const uint32_t count,
                 PIPEV_LOC) {
    pipev_logical::with_scalar<true>(dst, src0, src1, count, config.scalarTensorIndex,
                                     "LogicalAnds", loc);
}
template <const LogicalOrsConfig& config = DEFAULT_LOGICAL_ORS_CONFIG, typename T, typename U,
          typename S>
void LogicalOrs(const LocalTensor<T>& dst, const U& src0, const S& src1, const uint32_t count,
                PIPEV_LOC) {
    pipev_logical::with_scalar<false>(dst, src0, src1, count, config.scalarTensorIndex,
                                      "LogicalOrs", loc);
}

// Where: dst[i] = condition[i] ? src0 : src1, each a tensor or a scalar of T
template <typename T, typename U, typename S, typename V>
void Where(const LocalTensor<T>& dst, const U& src0, const S& src1,
           const LocalTensor<V>& condition, const uint32_t count, PIPEV_LOC) {
    using namespace pipev::detail;
    using E = std::conditional_t<is_byte_v<T>, uint8_t, T>;  // the element the select moves
    need_950("Where", loc);
    constexpr bool t0 = !std::is_arithmetic_v<U> && !std::is_same_v<U, half>;
    constexpr bool t1 = !std::is_arithmetic_v<S> && !std::is_same_v<S, half>;
    uint32_t copy = whole_repeats<V>(count) * src_size<V>();
    uint32_t values = (t0 || t1) ? copy : std::max<uint32_t>(copy, count * sizeof(E));
    Tmp t = split_tmp(nullptr, count, src_size<V>(), values, false, "Where", loc);
    nonzero_bits(t.bits, condition, t.values, count, loc);
    auto out = dst.template ReinterpretCast<E>(loc);
    auto tensor = [&](const auto& x) { return x.template ReinterpretCast<E>(loc); };
    auto scalar = [&](const auto& x) { E v; std::memcpy(&v, &x, sizeof(E)); return v; };
    if constexpr (t0 && t1) {
        Select(out, t.bits, tensor(src0), tensor(src1), SELMODE::VSEL_TENSOR_TENSOR_MODE, count,
               loc);
    } else if constexpr (t0) {
        Select(out, t.bits, tensor(src0), scalar(static_cast<T>(src1)),
               SELMODE::VSEL_TENSOR_SCALAR_MODE, count, loc);
    } else if constexpr (t1) {  // the scalar where the condition holds: select on its inverse
        invert_bits(t.bits, count, loc);
        Select(out, t.bits, tensor(src1), scalar(static_cast<T>(src0)),
               SELMODE::VSEL_TENSOR_SCALAR_MODE, count, loc);
    } else {
        auto first = t.values.ReinterpretCast<E>(loc);
        Duplicate(first, scalar(static_cast<T>(src0)), int32_t(count), loc);
        Select(out, t.bits, first, scalar(static_cast<T>(src1)),
               SELMODE::VSEL_TENSOR_SCALAR_MODE, count, loc);
    }
}

// Clamp (Ascend 950): values below MIN become MIN, then values above MAX become MAX; a NaN
// compares false both times and stays (so, as documented, MIN > MAX gives MAX everywhere but
// at NaN). A bound is a tensor (Compare: whole 256-byte repeats) or a scalar: ClampMax/
// ClampMin's sequence (pipev::detail::clamp), which reads only the COUNT elements it covers; a
// tensor bound is compared in place in whole groups of 256 elements and, past them, through
// copies of both tails (tmp after the bits): neither reads past the COUNT elements either.
namespace pipev_clamp {
template <class B> constexpr bool is_scalar = std::is_arithmetic_v<B> || std::is_same_v<B, half>;
template <class T, class B>
void bound(const LocalTensor<T>& dst, const LocalTensor<T>& cur, const B& b,
           const LocalTensor<uint8_t>& bits, CMPMODE mode, uint32_t count, pipev::Loc loc) {
    if constexpr (is_scalar<B>) {
        pipev::detail::clamp(dst, cur, bits, static_cast<T>(b), count, mode, loc);
    } else {
        uint32_t per = 256 / sizeof(T), tail = pipev::tmp::clamp_tail(count), head = count - tail;
        uint32_t tail_whole = (tail + per - 1) / per * per;
        if (head) Compare(bits, cur, b, mode, head, loc);
        if (tail) {
            auto mine = bits[pipev::tmp::bits(count, sizeof(T))];
            auto theirs = mine[tail_whole * sizeof(T)];
            pipev::detail::copy_tail(mine, cur[head], tail, loc);
            pipev::detail::copy_tail(theirs, b[head], tail, loc);
            Compare(bits[head / 8], mine.template ReinterpretCast<T>(loc),
                    theirs.template ReinterpretCast<T>(loc), mode, tail_whole, loc);
        }
        Select(dst, bits, b, cur, SELMODE::VSEL_TENSOR_TENSOR_MODE, count, loc);
    }
}
}  // namespace pipev_clamp
template <const ClampConfig& config = DEFAULT_CLAMP_CONFIG, typename T, typename U, typename S>
void Clamp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& min, const S& max,
           const uint32_t count, PIPEV_LOC) {
    using namespace pipev::detail;
    need_950("Clamp", loc);
    // the tail's copy follows the bits (pipev/tmp_sizes.h, clamp): two where a bound is a tensor
    constexpr bool tensor = !pipev_clamp::is_scalar<U> || !pipev_clamp::is_scalar<S>;
    uint32_t copy = pipev::tmp::clamp(count, sizeof(T), tensor) - pipev::tmp::bits(count, sizeof(T));
    Tmp t = split_tmp(nullptr, count, sizeof(T), copy, false, "Clamp", loc);
    pipev_clamp::bound(dst, src, min, t.bits, CMPMODE::LT, count, loc);
    pipev_clamp::bound(dst, dst, max, t.bits, CMPMODE::GT, count, loc);
}
}  // namespace AscendC
#endif
