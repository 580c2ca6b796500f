// tiling/tiling_api.h (pipev): the host helpers of the tiling API that size the advanced math
// APIs' temporary space, for the APIs pipev has (docs/ascendc.md, "Advanced math"). Each
// gives pipev's own figure (pipev/tmp_sizes.h): min = max, the space pipev's sequence takes
// for the whole shape (0: none needed). ge::Shape and AscendC::TensorShape hold the dims; each
// helper also takes the platform object first, as the newer documentation gives them.
#ifndef PIPEV_TILING_API_H
#define PIPEV_TILING_API_H
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "pipev/softmax_tiling.h"
#include "pipev/tmp_sizes.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace ge {
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    std::vector<int64_t> GetDims() const { return dims_; }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }

private:
    std::vector<int64_t> dims_;
};
}  // namespace ge

namespace AscendC {
using TensorShape = ge::Shape;

namespace pipev_tiling {
inline uint64_t elements(const ge::Shape& s) {
    int64_t n = s.GetShapeSize();
    return n > 0 ? uint64_t(n) : 0;
}
}  // namespace pipev_tiling

#define PIPEV_TMP_HELPER(NAME, BYTES)                                                              \
    inline void NAME(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, \
                     uint32_t& maxValue, uint32_t& minValue) {                                     \
        (void)isReuseSource;                                                                       \
        uint64_t count = pipev_tiling::elements(srcShape);                                         \
        (void)count;                                                                               \
        maxValue = minValue = (BYTES);                                                             \
    }                                                                                              \
    inline void NAME(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape,          \
                     const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,        \
                     uint32_t& minValue) {                                                         \
        NAME(srcShape, typeSize, isReuseSource, maxValue, minValue);                               \
    }
PIPEV_TMP_HELPER(GetFloorMaxMinTmpSize, pipev::tmp::rounding(count, typeSize, false))
PIPEV_TMP_HELPER(GetCeilMaxMinTmpSize, pipev::tmp::rounding(count, typeSize, false))
PIPEV_TMP_HELPER(GetTruncMaxMinTmpSize, pipev::tmp::rounding(count, typeSize, false))
PIPEV_TMP_HELPER(GetRintMaxMinTmpSize, pipev::tmp::rounding(count, typeSize, false))
PIPEV_TMP_HELPER(GetRoundMaxMinTmpSize, pipev::tmp::rounding(count, typeSize, false))
PIPEV_TMP_HELPER(GetFracMaxMinTmpSize, pipev::tmp::rounding(count, typeSize, true))
PIPEV_TMP_HELPER(GetClampMaxMinTmpSize, pipev::tmp::clamp(count, typeSize))
PIPEV_TMP_HELPER(GetXorMaxMinTmpSize, pipev::tmp::xor_(count, typeSize))
PIPEV_TMP_HELPER(GetIsNanMaxMinTmpSize, pipev::tmp::classify(count, typeSize))
PIPEV_TMP_HELPER(GetIsInfMaxMinTmpSize, pipev::tmp::classify(count, typeSize))
PIPEV_TMP_HELPER(GetIsFiniteMaxMinTmpSize, pipev::tmp::classify(count, typeSize))
PIPEV_TMP_HELPER(GetLogicalAndMaxMinTmpSize, pipev::tmp::logical(count, typeSize, true))
PIPEV_TMP_HELPER(GetLogicalOrMaxMinTmpSize, pipev::tmp::logical(count, typeSize, true))
PIPEV_TMP_HELPER(GetLogicalXorMaxMinTmpSize, pipev::tmp::logical(count, typeSize, true))
PIPEV_TMP_HELPER(GetLogicalNotMaxMinTmpSize, pipev::tmp::logical(count, typeSize, false))
// LogicalAnds/Ors: a tensor element as the scalar takes two sets of bits (the largest form)
PIPEV_TMP_HELPER(GetLogicalAndsMaxMinTmpSize, pipev::tmp::logical(count, typeSize, true))
PIPEV_TMP_HELPER(GetLogicalOrsMaxMinTmpSize, pipev::tmp::logical(count, typeSize, true))
PIPEV_TMP_HELPER(GetWhereMaxMinTmpSize, pipev::tmp::where(count, typeSize))
#undef PIPEV_TMP_HELPER

// Get...TmpBufferFactorSize: maxLiveNodeCount and extraBuf for pipev's figures (pipev/tmp_sizes.h)
#define PIPEV_FACTOR_HELPER(NAME, FACTOR)                                                         \
    inline void NAME(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {   \
        (void)typeSize;                                                                           \
        pipev::tmp::Factor f = (FACTOR);                                                          \
        maxLiveNodeCount = f.live;                                                                \
        extraBuf = f.extra;                                                                       \
    }                                                                                             \
    inline void NAME(const platform_ascendc::PlatformAscendC&, const uint32_t typeSize,           \
                     uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {                            \
        NAME(typeSize, maxLiveNodeCount, extraBuf);                                               \
    }
PIPEV_FACTOR_HELPER(GetFloorTmpBufferFactorSize, pipev::tmp::rounding_factor(typeSize, false))
PIPEV_FACTOR_HELPER(GetCeilTmpBufferFactorSize, pipev::tmp::rounding_factor(typeSize, false))
PIPEV_FACTOR_HELPER(GetTruncTmpBufferFactorSize, pipev::tmp::rounding_factor(typeSize, false))
PIPEV_FACTOR_HELPER(GetRintTmpBufferFactorSize, pipev::tmp::rounding_factor(typeSize, false))
PIPEV_FACTOR_HELPER(GetRoundTmpBufferFactorSize, pipev::tmp::rounding_factor(typeSize, false))
PIPEV_FACTOR_HELPER(GetFracTmpBufferFactorSize, pipev::tmp::rounding_factor(typeSize, true))
PIPEV_FACTOR_HELPER(GetClampTmpBufferFactorSize, pipev::tmp::clamp_factor(typeSize))
PIPEV_FACTOR_HELPER(GetXorTmpBufferFactorSize, pipev::tmp::xor_factor())
PIPEV_FACTOR_HELPER(GetIsNanTmpBufferFactorSize, pipev::tmp::classify_factor())
PIPEV_FACTOR_HELPER(GetIsInfTmpBufferFactorSize, pipev::tmp::classify_factor())
PIPEV_FACTOR_HELPER(GetIsFiniteTmpBufferFactorSize, pipev::tmp::classify_factor())
PIPEV_FACTOR_HELPER(GetLogicalAndTmpBufferFactorSize, pipev::tmp::logical_factor())
PIPEV_FACTOR_HELPER(GetLogicalOrTmpBufferFactorSize, pipev::tmp::logical_factor())
PIPEV_FACTOR_HELPER(GetLogicalXorTmpBufferFactorSize, pipev::tmp::logical_factor())
PIPEV_FACTOR_HELPER(GetLogicalNotTmpBufferFactorSize, pipev::tmp::logical_factor())
PIPEV_FACTOR_HELPER(GetLogicalAndsTmpBufferFactorSize, pipev::tmp::logical_factor())
PIPEV_FACTOR_HELPER(GetLogicalOrsTmpBufferFactorSize, pipev::tmp::logical_factor())
PIPEV_FACTOR_HELPER(GetWhereTmpBufferFactorSize, pipev::tmp::where_factor())
#undef PIPEV_FACTOR_HELPER

// SoftMax / SimpleSoftMax (the "SoftMax/SimpleSoftMax Tiling" page): the shape's rows M (the
// product of every axis but the last) and row length K; the sizes are pipev's passes'
// (pipev/tmp_sizes.h), the tiling pipev's own figures for them (pipev/softmax_tiling.h).
namespace pipev_tiling {
inline void rows_cols(const ge::Shape& s, uint64_t& m, uint64_t& k) {
    size_t n = s.GetDimNum();
    k = n && s.GetDim(n - 1) > 0 ? uint64_t(s.GetDim(n - 1)) : 0;
    m = n ? 1 : 0;
    for (size_t i = 0; i + 1 < n; ++i) m *= s.GetDim(i) > 0 ? uint64_t(s.GetDim(i)) : 0;
}
}  // namespace pipev_tiling
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
    (void)dataTypeSize, (void)isReuseSource;
    uint64_t m, k;
    pipev_tiling::rows_cols(srcShape, m, k);
    return m && k ? pipev::tmp::softmax_pass(pipev::tmp::softmax_rows_max(m, k), k, true) : 0;
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
    (void)dataTypeSize, (void)isReuseSource;
    uint64_t m, k;
    pipev_tiling::rows_cols(srcShape, m, k);
    return m && k ? pipev::tmp::softmax_pass(1, k, true) : 0;
}
// DATATYPESIZE: max's and sum's element size (the page); LOCALWORKSPACESIZE: the bytes of
// temporary space the kernel will have, which set the rows a pass (splitM)
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, SoftMaxTiling& softmaxTiling) {
    uint64_t m, k;
    pipev_tiling::rows_cols(srcShape, m, k);
    SoftMaxTiling& t = softmaxTiling;
    t = SoftMaxTiling{};
    t.srcM = uint32_t(m), t.srcK = uint32_t(k), t.srcSize = uint32_t(m * k);
    uint32_t block = dataTypeSize ? 32 / dataTypeSize : 0;
    t.outMaxM = t.srcM, t.outMaxK = block, t.outMaxSize = t.srcM * block;
    t.splitM = m && k ? pipev::tmp::softmax_rows(m, k, true, localWorkSpaceSize) : 0;
    t.splitK = t.srcK, t.splitSize = t.splitM * t.srcK;
    t.reduceM = t.splitM, t.reduceK = block, t.reduceSize = t.splitM * block;
    t.rangeM = t.splitM ? t.srcM / t.splitM : 0, t.tailM = t.splitM ? t.srcM % t.splitM : 0;
    t.tailSplitSize = t.tailM * t.srcK, t.tailReduceSize = t.tailM * block;
}
// whether the isBasicBlock form may run this tiling's shape (DATATYPESIZE: the source's)
inline bool IsBasicBlockInSoftMax(const SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
    return pipev::tmp::softmax_basic_block(tiling.srcM, tiling.srcK, dataTypeSize);
}

// Broadcast (the GetBroadCastMaxMinTmpSize page): the shapes as the kernel reads them (dim 1
// or 2, one axis broadcast); max the pass over every row, min the pass over the fewest rows a
// pass takes (pipev/tmp_sizes.h broadcast_pass). 0 and 0 when the sequence takes no space (a
// 16- or 32-bit [1, k] -> [m, k], or a shape that broadcasts nothing) and for shapes the
// kernel refuses.
namespace pipev_tiling {
inline bool broadcast_shape(const ge::Shape& src, const ge::Shape& dst, uint64_t& m, uint64_t& k,
                            pipev::tmp::BroadcastKind& kind) {
    size_t n = dst.GetDimNum();
    if ((n != 1 && n != 2) || src.GetDimNum() != n) return false;
    int axis = -1;
    for (size_t i = 0; i < n; ++i) {
        if (dst.GetDim(i) < 1 || src.GetDim(i) < 1) return false;
        if (src.GetDim(i) == dst.GetDim(i)) continue;
        if (src.GetDim(i) != 1 || axis >= 0) return false;
        axis = int(i);
    }
    m = n == 2 ? uint64_t(dst.GetDim(0)) : 1;
    k = uint64_t(dst.GetDim(n - 1));
    kind = axis < 0 ? pipev::tmp::BroadcastKind::COPY
           : axis == int(n) - 1 ? pipev::tmp::BroadcastKind::COLS
                                : pipev::tmp::BroadcastKind::ROWS;
    return true;
}
}  // namespace pipev_tiling
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC&,
                                      const ge::Shape& srcShape, const ge::Shape& dstShape,
                                      uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint64_t m = 0, k = 0;
    pipev::tmp::BroadcastKind kind;
    maxValue = minValue = 0;
    if (typeSize != 1 && typeSize != 2 && typeSize != 4) return;
    if (!pipev_tiling::broadcast_shape(srcShape, dstShape, m, k, kind)) return;
    maxValue = pipev::tmp::broadcast_pass(m, k, kind, typeSize == 1);
    minValue = pipev::tmp::broadcast_min(m, k, kind, typeSize);
}
}  // namespace AscendC
namespace optiling {
using AscendC::GetBroadCastMaxMinTmpSize;
using AscendC::GetSoftMaxMaxTmpSize;
using AscendC::GetSoftMaxMinTmpSize;
using AscendC::IsBasicBlockInSoftMax;
using AscendC::SoftMaxTilingFunc;
}  // namespace optiling
#endif
