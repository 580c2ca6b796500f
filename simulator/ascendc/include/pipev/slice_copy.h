// pipev/slice_copy.h: DataCopy with SliceInfo (the "GM与UB切片数据搬运" page), GM -> UB and UB ->
// GM. The page calls it a software interface (软仿接口): a loop of copies. pipev issues one
// count-form DataCopy a burst, so checks, timing and traces see each.
// A dimension's slice picks, from startIndex to endIndex (inclusive), runs of LEN elements
// STRIDE apart: on dimension 0 LEN is burstLen blocks (burstLen * 32 / sizeof(T) elements);
// above it a run is one index (burstLen must be 1). The source's runs, in row-major order of
// the dimensions (0 fastest), land in the destination's runs in the same order; an index i of
// dimension d is i times the product of the lower dimensions' shapeValue elements.
#ifndef PIPEV_SLICE_COPY_H
#define PIPEV_SLICE_COPY_H
#include "data_copy.h"

namespace AscendC {
struct SliceInfo {
    uint32_t startIndex = 0;
    uint32_t endIndex = 0;
    uint32_t stride = 0;
    uint32_t burstLen = 0;
    uint32_t shapeValue = 0;
};
}  // namespace AscendC

namespace pipev::detail::slice {
constexpr uint32_t kMaxDims = 8;

// A side's walk: each dimension's runs, their first index, step and length (elements), pitch
struct Walk {
    uint32_t runs[kMaxDims], first[kMaxDims], step[kMaxDims], len[kMaxDims];
    uint64_t pitch[kMaxDims];
};

// The runs of one dimension's slice (the page's rule: end - start + 1 = (N - 1) * stride + N *
// LEN for a positive integer N), or an error naming the side and dimension
inline uint32_t runs_of(const AscendC::SliceInfo& s, uint32_t len, const char* side, uint32_t d,
                        Loc loc) {
    if (!(s.startIndex < s.endIndex && s.endIndex <= s.shapeValue))
        error(loc, "DataCopy with SliceInfo: %sSliceInfo[%u] has startIndex %u, endIndex %u, "
              "shapeValue %u (the page: startIndex < endIndex <= shapeValue)", side, d,
              s.startIndex, s.endIndex, s.shapeValue);
    uint64_t span = uint64_t(s.endIndex) - s.startIndex + 1 + s.stride, unit = uint64_t(s.stride) + len;
    if (span % unit)
        error(loc, "DataCopy with SliceInfo: %sSliceInfo[%u] spans %u elements, which is not N "
              "runs of %u elements %u apart (the page: endIndex - startIndex + 1 = (N - 1) * "
              "stride + N * burstLen * 32 / sizeof(T))", side, d, s.endIndex - s.startIndex + 1,
              len, s.stride);
    return uint32_t(span / unit);
}

template <class T>
Walk walk_of(const AscendC::SliceInfo info[], uint32_t dims, const char* side, Loc loc) {
    Walk w{};
    uint64_t pitch = 1;
    for (uint32_t d = 0; d < dims; ++d) {
        const AscendC::SliceInfo& s = info[d];
        if (d && s.burstLen != 1)
            error(loc, "DataCopy with SliceInfo: %sSliceInfo[%u].burstLen is %u; above the first "
                  "dimension it must be 1 (the page)", side, d, s.burstLen);
        if (!d && !s.burstLen)
            error(loc, "DataCopy with SliceInfo: %sSliceInfo[0].burstLen is 0", side);
        w.len[d] = d ? 1 : s.burstLen * (32 / sizeof(T));
        w.runs[d] = runs_of(s, w.len[d], side, d, loc);
        w.first[d] = s.startIndex;
        w.step[d] = s.stride + w.len[d];
        w.pitch[d] = pitch;
        pitch *= s.shapeValue;
    }
    return w;
}

// The element offset of run IDX (row-major, dimension 0 fastest) on side W
inline uint64_t offset(const Walk& w, uint32_t dims, uint64_t idx) {
    uint64_t at = 0;
    for (uint32_t d = 0; d < dims; ++d) {
        at += (w.first[d] + idx % w.runs[d] * uint64_t(w.step[d])) * w.pitch[d];
        idx /= w.runs[d];
    }
    return at;
}

template <class T, class D, class S>
void copy(const D& dst, const S& src, const AscendC::SliceInfo dst_info[],
          const AscendC::SliceInfo src_info[], uint32_t dims, Loc loc) {
    if (dims < 1 || dims > kMaxDims)
        error(loc, "DataCopy with SliceInfo: dimValue is %u (the page: 1 to %u)", dims, kMaxDims);
    Walk sw = walk_of<T>(src_info, dims, "src", loc), dw = walk_of<T>(dst_info, dims, "dst", loc);
    uint64_t runs = 1;
    for (uint32_t d = 0; d < dims; ++d) {
        if (src_info[d].burstLen != dst_info[d].burstLen || sw.runs[d] != dw.runs[d])
            error(loc, "DataCopy with SliceInfo: dimension %u takes %u runs of burstLen %u from "
                  "the source and %u of burstLen %u in the destination (the page: the same "
                  "burstLen; pipev: the same runs)", d, sw.runs[d], src_info[d].burstLen,
                  dw.runs[d], dst_info[d].burstLen);
        runs *= sw.runs[d];
    }
    for (uint64_t r = 0; r < runs; ++r)
        copy_count<T>(dst[offset(dw, dims, r)], src[offset(sw, dims, r)], sw.len[0], loc);
}
}  // namespace pipev::detail::slice

namespace AscendC {
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, PIPEV_LOC) {
    pipev::detail::slice::copy<T>(dst, src, dstSliceInfo, srcSliceInfo, dimValue, loc);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, PIPEV_LOC) {
    pipev::detail::slice::copy<T>(dst, src, dstSliceInfo, srcSliceInfo, dimValue, loc);
}
}  // namespace AscendC
#endif
