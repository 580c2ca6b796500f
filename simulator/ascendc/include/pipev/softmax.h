// pipev/softmax.h: the SoftMax and SimpleSoftMax advanced APIs (ND format), built from basic
// instructions as pipev/advanced.h's APIs are, so checks, timing and traces apply to every step.
// The steps are the SoftMax page's seven, for the rows of the [m, k] source in passes of up to
// 255 rows (a repeat a row):
//   row max (the columns in 64-float chunks folded with Max, then WholeReduceMax of the 64);
//   its broadcast to one 32-byte block a row (Brcb), written out as max;
//   subtract (Sub reading that block with block stride 0), exp (Exp);
//   row sum (Add folds, WholeReduceSum), its broadcast, written out as sum;
//   divide (Div by the sum's block).
// A half source is computed in float (Cast to float into the temporary space, the steps, Cast
// back with CAST_NONE); max/sum of half are the float values cast with CAST_NONE. The sequence,
// and so the rounding of the sums and the cycle figures, are pipev's own (docs/ascendc.md,
// "Advanced math"): the page does not publish the vendor's.
// The shape: SoftMaxShapeInfo's srcM x srcK (the tiling's when they are 0); the reductions
// take the first oriSrcK columns (the rest padding, which the page says "takes part in part
// of the computation": subtract, exp and divide run over all srcK).
#ifndef PIPEV_SOFTMAX_H
#define PIPEV_SOFTMAX_H
#include <type_traits>

#include "advanced.h"
#include "layout.h"
#include "softmax_tiling.h"

namespace AscendC {
struct SoftMaxShapeInfo {
    uint32_t srcM = 0, srcK = 0, oriSrcM = 0, oriSrcK = 0;
};
enum class SoftmaxMode : uint8_t { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0, oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG{true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};
}  // namespace AscendC

namespace pipev::detail::softmax {
constexpr uint32_t kChunk = 64;  // floats a repeat

// The call's shape: rows M, row length K (elements), the columns the reductions take (VALID)
struct Shape {
    uint32_t m, k, valid;
};
inline Shape shape_of(const AscendC::SoftMaxShapeInfo& info, const SoftMaxTiling& tiling,
                      const AscendC::SoftmaxConfig& config, uint32_t src_size, const char* api,
                      Loc loc) {
    Shape s{info.srcM ? info.srcM : tiling.srcM, info.srcK ? info.srcK : tiling.srcK, 0};
    uint32_t ori = config.oriSrcK ? config.oriSrcK : info.oriSrcK;
    s.valid = ori && ori < s.k ? ori : s.k;
    if (!s.m || !s.k)
        error(loc, "%s: the shape is %u x %u: give SoftMaxShapeInfo {srcM, srcK, oriSrcM, "
              "oriSrcK} or a tiling SoftMaxTilingFunc filled", api, s.m, s.k);
    // a row's start must be 32-byte aligned for the next row's repeat (the page: "srcK 32B
    // aligned"); a single row has no next row, and runs as the count forms would
    if (s.m > 1 && s.k * src_size % 32)
        error(loc, "%s: srcK = %u elements is %u bytes a row, not a multiple of 32 (the page: "
              "the last axis is 32-byte aligned; pad the rows and give the length as oriSrcK)",
              api, s.k, s.k * src_size);
    return s;
}

// The float views of one pass's temporary space (tmp_sizes.h softmax_pass, in its order)
struct Pass {
    AscendC::LocalTensor<float> copy, acc, red, bmax, bsum;
    AscendC::LocalTensor<half> red_h, bhalf;
};
inline Pass carve(const AscendC::LocalTensor<uint8_t>& tmp, uint32_t rows, uint32_t k, bool copy,
                  Loc loc) {
    uint32_t r8 = (rows + 7) / 8 * 8, at = 0;
    auto take = [&](uint32_t bytes) {
        auto t = tmp[at];
        at += round32(bytes);
        return t;
    };
    Pass p;
    if (copy) p.copy = take(rows * k * 4).ReinterpretCast<float>(loc);
    p.acc = take(rows * 256).ReinterpretCast<float>(loc);
    p.red = take(r8 * 4).ReinterpretCast<float>(loc);
    p.red_h = take(r8 * 2).ReinterpretCast<half>(loc);
    p.bmax = take(r8 * 64).ReinterpretCast<float>(loc);
    p.bsum = take(r8 * 64).ReinterpretCast<float>(loc);
    p.bhalf = take(r8 * 32).ReinterpretCast<half>(loc);
    return p;
}

// the row stride of float rows K long, in blocks (0 for one row: no next repeat)
inline uint8_t rows_stride(uint32_t rows, uint32_t k) { return rows > 1 ? uint8_t(k * 4 / 32) : 0; }
inline uint64_t chunk_mask(uint32_t k, uint32_t c) {
    return k - c < kChunk ? k - c : kChunk;
}

// RED[r] = max (MAX) or sum of the first VALID elements of float row r of X (ROWS rows, K long)
template <bool MAX>
void reduce_rows(const AscendC::LocalTensor<float>& red, const AscendC::LocalTensor<float>& x,
                 const AscendC::LocalTensor<float>& acc, uint32_t rows, uint32_t k,
                 uint32_t valid, Loc loc) {
    using namespace AscendC;
    uint8_t rs = rows_stride(rows, k), as = rows > 1 ? 8 : 0;
    auto whole = [&](const LocalTensor<float>& src, uint64_t mask, uint8_t stride) {
        if constexpr (MAX)
            WholeReduceMax(red, src, mask, uint8_t(rows), 1, 1, stride,
                           ReduceOrder::ORDER_ONLY_VALUE, loc);
        else
            WholeReduceSum(red, src, mask, uint8_t(rows), 1, 1, stride, loc);
    };
    if (valid <= kChunk) return whole(x, valid, rs);
    Copy(acc, x, uint64_t(kChunk), uint8_t(rows), CopyRepeatParams(1, 1, as, rs), loc);
    for (uint32_t c = kChunk; c < valid; c += kChunk) {
        BinaryRepeatParams p(1, 1, 1, as, as, rs);
        if constexpr (MAX)
            Max(acc, acc, x[c], chunk_mask(valid, c), uint8_t(rows), p, loc);
        else
            Add(acc, acc, x[c], chunk_mask(valid, c), uint8_t(rows), p, loc);
    }
    whole(acc, kChunk, as);
}

// B = RED's ROWS values each filled into a 32-byte block (float), Brcb's groups of 8 whole
inline void broadcast(const AscendC::LocalTensor<float>& b, const AscendC::LocalTensor<float>& red,
                      uint32_t rows, Loc loc) {
    AscendC::Brcb(b, red, uint8_t((rows + 7) / 8), AscendC::BrcbRepeatParams(1, 8), loc);
}

// OUT's ROWS rows (a 32-byte block each, of U) from the float values RED / their float blocks B
template <class U>
void write_blocks(const AscendC::LocalTensor<U>& out, const Pass& p,
                  const AscendC::LocalTensor<float>& b, uint32_t rows, Loc loc) {
    using namespace AscendC;
    if constexpr (std::is_same_v<U, float>) {
        Copy(out, b, rows * 8, loc);
    } else {
        uint32_t r8 = (rows + 7) / 8 * 8;
        Cast(p.red_h, p.red, RoundMode::CAST_NONE, r8, loc);
        Brcb(p.bhalf, p.red_h, uint8_t(r8 / 8), BrcbRepeatParams(1, 8), loc);
        Copy(out, p.bhalf, rows * 16, loc);
    }
}

// Y = X - B (SUB) or X / B over ROWS float rows of K, B a block a row, BSTRIDE blocks apart
template <bool SUB>
void by_row(const AscendC::LocalTensor<float>& y, const AscendC::LocalTensor<float>& x,
            const AscendC::LocalTensor<float>& b, uint8_t bstride, uint32_t rows, uint32_t k,
            Loc loc) {
    uint8_t rs = rows_stride(rows, k), bs = rows > 1 ? bstride : 0;
    for (uint32_t c = 0; c < k; c += kChunk) {
        AscendC::BinaryRepeatParams p(1, 1, 0, rs, rs, bs);
        if constexpr (SUB)
            AscendC::Sub(y[c], x[c], b, chunk_mask(k, c), uint8_t(rows), p, loc);
        else
            AscendC::Div(y[c], x[c], b, chunk_mask(k, c), uint8_t(rows), p, loc);
    }
}

// The rows' max and sum given (SimpleSoftMax) as blocks of U: their float blocks, and the
// stride between rows' blocks in 32-byte blocks (a half block cast to float is two)
template <class U>
AscendC::LocalTensor<float> given_blocks(const AscendC::LocalTensor<U>& in,
                                         const AscendC::LocalTensor<float>& b, uint32_t rows,
                                         uint8_t* stride, Loc loc) {
    if constexpr (std::is_same_v<U, float>) {
        *stride = 1;
        return in;
    } else {
        *stride = 2;
        AscendC::Cast(b, in, AscendC::RoundMode::CAST_NONE, rows * 16, loc);
        return b;
    }
}

// One pass over ROWS rows: SoftMax (SIMPLE false: max and sum worked out, written to MAX/SUM
// when WRITE) or SimpleSoftMax (MAX/SUM read). DST/SRC start at the pass's first row.
template <bool SIMPLE, class T, class U>
void pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sum,
          const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<T>& src, bool write,
          const Pass& p, uint32_t rows, const Shape& s, Loc loc) {
    using namespace AscendC;
    constexpr bool kHalf = std::is_same_v<T, half>;
    LocalTensor<float> x, y;
    if constexpr (kHalf) {
        Cast(p.copy, src, RoundMode::CAST_NONE, rows * s.k, loc);
        x = y = p.copy;
    } else {
        x = src;
        y = dst;
    }
    uint8_t ms = 1, ss = 1;
    LocalTensor<float> bmax = p.bmax, bsum = p.bsum;
    if constexpr (SIMPLE) {
        bmax = given_blocks(max, p.bmax, rows, &ms, loc);
        bsum = given_blocks(sum, p.bsum, rows, &ss, loc);
    } else {
        if (rows % 8)  // the last group's other lanes, which Brcb reads: zeros, not unwritten UB
            Duplicate(p.red, 0.0f, int32_t((rows + 7) / 8 * 8), loc);
        reduce_rows<true>(p.red, x, p.acc, rows, s.k, s.valid, loc);
        broadcast(p.bmax, p.red, rows, loc);
        if (write) write_blocks(max, p, p.bmax, rows, loc);
    }
    by_row<true>(y, x, bmax, ms, rows, s.k, loc);
    Exp(y, y, int32_t(rows * s.k), loc);
    if constexpr (!SIMPLE) {
        reduce_rows<false>(p.red, y, p.acc, rows, s.k, s.valid, loc);
        broadcast(p.bsum, p.red, rows, loc);
        if (write) write_blocks(sum, p, p.bsum, rows, loc);
    }
    by_row<false>(y, y, bsum, ss, rows, s.k, loc);
    if constexpr (kHalf) Cast(dst, p.copy, RoundMode::CAST_NONE, rows * s.k, loc);
}

// The whole call: the rows in passes as large as the temporary space holds (GIVEN, a
// sharedTmpBuffer, or the framework's space above the kernel's buffers); BASIC and NZ, the
// template's isBasicBlock and isDataFormatNZ
template <bool SIMPLE, bool BASIC, bool NZ, class T, class U>
void run(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sum,
         const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<T>& src, bool write,
         const AscendC::LocalTensor<uint8_t>* given, const SoftMaxTiling& tiling,
         const AscendC::SoftMaxShapeInfo& info, const AscendC::SoftmaxConfig& config, Loc loc) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "T is half or float");
    static_assert(std::is_same_v<U, T> || std::is_same_v<U, float>,
                  "max and sum are of the source's type, or float for a half source");
    if (NZ) error(loc, "%s: the NZ format (isDataFormatNZ) is not modelled; pipev runs ND", api);
    Shape s = shape_of(info, tiling, config, sizeof(T), api, loc);
    if (BASIC && !tmp::softmax_basic_block(s.m, s.k, sizeof(T)))
        error(loc, "%s with isBasicBlock: the page asks srcK a multiple of 64 in [%u, 2048) and "
              "srcM a multiple of 8, and the shape is %u x %u", api, unsigned(256 / sizeof(T)),
              s.m, s.k);
    constexpr bool kCopy = std::is_same_v<T, half>;
    uint32_t rows = tmp::softmax_rows(s.m, s.k, kCopy, given ? given->GetSize() : framework_free());
    AscendC::LocalTensor<uint8_t> tmp =
        pass_space(given, rows, tmp::softmax_pass(1, s.k, kCopy),
                   tmp::softmax_pass(rows, s.k, kCopy), api, loc);
    constexpr uint32_t kBlock = 32 / sizeof(U);  // max/sum elements a row
    for (uint32_t r = 0; r < s.m; r += rows) {
        uint32_t n = s.m - r < rows ? s.m - r : rows;
        Pass p = carve(tmp, n, s.k, kCopy, loc);
        pass<SIMPLE>(dst[r * s.k], write ? sum[r * kBlock] : sum, write ? max[r * kBlock] : max,
                     src[r * s.k], write, p, n, s, loc);
    }
}
}  // namespace pipev::detail::softmax

namespace AscendC {
// SoftMax, max and sum written (same type, or half with float max/sum), with a sharedTmpBuffer
// or the framework's space
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, class U>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<U>& sumTensor,
             const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, PIPEV_LOC) {
    pipev::detail::softmax::run<false, isBasicBlock, isDataFormatNZ>(
        "SoftMax", dstTensor, sumTensor, maxTensor, srcTensor, true,
        &sharedTmpBuffer, tiling, softmaxShapeInfo, config, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, class U>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<U>& sumTensor,
             const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
             PIPEV_LOC) {
    pipev::detail::softmax::run<false, isBasicBlock, isDataFormatNZ>(
        "SoftMax", dstTensor, sumTensor, maxTensor, srcTensor, true,
        nullptr, tiling, softmaxShapeInfo, config, loc);
}
// SoftMax without max and sum (dst only): they stay in the temporary space
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, PIPEV_LOC) {
    pipev::detail::softmax::run<false, isBasicBlock, false>(
        "SoftMax", dstTensor, dstTensor, dstTensor, srcTensor, false,
        &sharedTmpBuffer, tiling, softmaxShapeInfo, config, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
             PIPEV_LOC) {
    pipev::detail::softmax::run<false, isBasicBlock, false>(
        "SoftMax", dstTensor, dstTensor, dstTensor, srcTensor, false,
        nullptr, tiling, softmaxShapeInfo, config, loc);
}

// SimpleSoftMax: dst = exp(src - max) / sum with the rows' max and sum given
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, class U>
void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<U>& inSumTensor,
                   const LocalTensor<U>& inMaxTensor, const LocalTensor<T>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}, PIPEV_LOC) {
    pipev::detail::softmax::run<true, isBasicBlock, isDataFormatNZ>(
        "SimpleSoftMax", dstTensor, inSumTensor, inMaxTensor, srcTensor, true,
        &sharedTmpBuffer, tiling, softmaxShapeInfo, config, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, class U>
void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<U>& inSumTensor,
                   const LocalTensor<U>& inMaxTensor, const LocalTensor<T>& srcTensor,
                   const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                   PIPEV_LOC) {
    pipev::detail::softmax::run<true, isBasicBlock, isDataFormatNZ>(
        "SimpleSoftMax", dstTensor, inSumTensor, inMaxTensor, srcTensor, true,
        nullptr, tiling, softmaxShapeInfo, config, loc);
}
}  // namespace AscendC
#endif
