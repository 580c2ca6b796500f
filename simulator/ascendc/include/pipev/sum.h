// pipev/sum.h: the advanced API Sum (the page: the sum of each row's first n elements, rows of
// `inner` elements — n rounded up to 32 bytes — `outter` rows, at most two dimensions). The page
// gives what is summed, not the instructions or their order, so the sequence is pipev's own (as
// SoftMax's sum, docs/ascendc.md): a group of rows (8 float, 16 half: the rows whose sums fill a
// 32-byte block of dst) at a time, each row's first n columns folded into 64 float lanes (`Copy`
// of the first 64, then `Add` of a further 64 columns at a time, the rows as repeats), then
// `WholeReduceSum` of the lanes, a row a repeat, into a block of the temporary space, copied
// (float) or Cast (half, CAST_NONE) to dst. A half source is summed in float: each chunk of 64
// columns is Cast to float first.
#ifndef PIPEV_SUM_H
#define PIPEV_SUM_H
#include "advanced.h"

namespace AscendC {
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner = 0;
    uint32_t n = 0;
};
}  // namespace AscendC

namespace pipev::detail {
// temporary bytes of a Sum: the 64 float lanes of a group's rows, the group's sums (a block), and
// for half a float copy of a 64-column chunk of the group's rows
template <class T> constexpr uint32_t sum_tmp_bytes() {
    constexpr uint32_t group = 32 / sizeof(T);
    return group * 256 * (std::is_same_v<T, half> ? 2 : 1) + 64;
}

template <class T>
void sum(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
         const AscendC::LocalTensor<uint8_t>* given, const AscendC::SumParams& p, Loc loc) {
    using namespace AscendC;
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Sum takes half or float");
    constexpr bool kHalf = std::is_same_v<T, half>;
    constexpr uint32_t kGroup = 32 / sizeof(T), kLanes = 64;
    if (p.inner * sizeof(T) % 32)
        error(loc, "Sum: SumParams inner %u is not a whole number of 32-byte blocks (the page: "
              "inner = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T))", p.inner);
    if (p.n == 0 || p.n > p.inner)
        error(loc, "Sum: SumParams n %u is not in [1, inner %u]", p.n, p.inner);
    if (uint64_t(p.outter) * p.inner > src.GetSize())
        error(loc, "Sum of %u rows of %u elements: srcTensor holds %u", p.outter, p.inner,
              src.GetSize());
    if (p.outter > dst.GetSize())
        error(loc, "Sum of %u rows: dstTensor holds %u elements", p.outter, dst.GetSize());
    if (!p.outter) return;
    LocalTensor<uint8_t> space = call_space(given, sum_tmp_bytes<T>(), "Sum", loc);
    LocalTensor<float> acc = space.ReinterpretCast<float>(loc);
    LocalTensor<float> red = space[kGroup * 256].ReinterpretCast<float>(loc);
    LocalTensor<float> tile = space[kGroup * 256 + 64].ReinterpretCast<float>(loc);
    uint32_t rs = p.inner * sizeof(T) / 32;  // a source row's stride, in blocks
    for (uint32_t g0 = 0; g0 < p.outter; g0 += kGroup) {
        uint32_t rows = std::min(kGroup, p.outter - g0);
        // the rows as repeats when their stride fits the 8-bit repeat stride, else a row at a time
        uint32_t per = rows > 1 && rs > 255 ? 1 : rows;
        for (uint32_t r = 0; r < rows; r += per) {
            LocalTensor<T> x = src[(g0 + r) * p.inner];
            LocalTensor<float> a = acc[r * kLanes], t = tile[r * kLanes];
            uint8_t srep = per > 1 ? uint8_t(rs) : 0, frep = per > 1 ? 8 : 0;
            for (uint32_t c = 0; c < p.n; c += kLanes) {
                uint64_t m = std::min(kLanes, p.n - c);
                if constexpr (kHalf) {
                    LocalTensor<float> into = c ? t : a;
                    Cast(into, x[c], RoundMode::CAST_NONE, m, uint8_t(per),
                         UnaryRepeatParams(1, 1, frep, srep), loc);
                    if (c)
                        Add(a, a, t, m, uint8_t(per), BinaryRepeatParams(1, 1, 1, frep, frep, frep),
                            loc);
                } else if (!c) {
                    Copy(a, x, m, uint8_t(per), CopyRepeatParams(1, 1, frep, srep), loc);
                } else {
                    Add(a, a, x[c], m, uint8_t(per), BinaryRepeatParams(1, 1, 1, frep, frep, srep),
                        loc);
                }
            }
        }
        WholeReduceSum(red, acc, uint64_t(std::min(kLanes, p.n)), uint8_t(rows), 1, 1,
                       rows > 1 ? 8 : 0, loc);
        if constexpr (kHalf)
            Cast(dst[g0], red, RoundMode::CAST_NONE, int32_t(rows), loc);
        else
            Copy(dst[g0], red, int32_t(rows), loc);
    }
}
}  // namespace pipev::detail

namespace AscendC {
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams, PIPEV_LOC) {
    pipev::detail::sum(dstTensor, srcTensor, &sharedTmpBuffer, sumParams, loc);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const SumParams& sumParams, PIPEV_LOC) {
    pipev::detail::sum<T>(dstTensor, srcTensor, nullptr, sumParams, loc);
}
}  // namespace AscendC
#endif
