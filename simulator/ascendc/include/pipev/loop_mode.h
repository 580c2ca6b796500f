// pipev/loop_mode.h: ascend950's DMA loop mode for the byte-granular copies GM -> UB and UB -> GM
// (issue 34): two loops around a copy, each iteration moving the copy's source and destination
// by its strides (bytes). The one state both faces set — AscendC's SetLoopModePara /
// ResetLoopModePara (LoopModeParams, DataCopyMVType) and the C API's asc_set_gm2ub_loop_size /
// _loop1_stride / _loop2_stride and their ub2gm twins — and the one loop DataCopyPad and
// asc_copy_*_align run; each iteration is issued as one statement. Clean room, from the pages.
#ifndef PIPEV_LOOP_MODE_H
#define PIPEV_LOOP_MODE_H
#include <cstdint>
#include "core.h"

namespace pipev::detail {
// The loop-mode registers of one direction (S-pipe writes: pipev keeps their values; each copy
// reads them). Reset: sizes 1 (one iteration), strides 0, as the pages' examples restore them.
struct AlignLoops {
    uint64_t size1 = 1, size2 = 1;
    uint64_t src1 = 0, dst1 = 0, src2 = 0, dst2 = 0;
};
inline AlignLoops& gm2ub_loops() { static AlignLoops l; return l; }
inline AlignLoops& ub2gm_loops() { static AlignLoops l; return l; }
// The loop mode: BODY(src_offset, dst_offset) in bytes once per iteration, loop 1 inner. A size
// of 0 runs once, as 1 does (the registers' reset state is one copy; docs/decisions.md).
template <class Body> void align_loops(const AlignLoops& l, Body body) {
    for (uint64_t j = 0; j < (l.size2 ? l.size2 : 1); ++j)
        for (uint64_t i = 0; i < (l.size1 ? l.size1 : 1); ++i)
            body(i * l.src1 + j * l.src2, i * l.dst1 + j * l.dst2);
}
// An iteration's byte offset as elements of T (AscendC's tensors index by element): an offset
// that is not a whole number of them is an error at the copy.
template <class T> uint64_t loop_elements(uint64_t bytes, const char* side, Loc loc) {
    if (bytes % sizeof(T))
        error(loc, "DataCopyPad in loop mode: a %s offset of %llu bytes is not a whole number of "
              "%zu-byte elements", side, (unsigned long long)bytes, sizeof(T));
    return bytes / sizeof(T);
}
}  // namespace pipev::detail

namespace AscendC {
// SetLoopModePara's type: the path whose loop registers it sets (UB -> GM, GM -> UB)
enum class DataCopyMVType : uint8_t { UB_TO_OUT = 0, OUT_TO_UB = 1 };
struct LoopModeParams {
    uint32_t loop1Size = 0;
    uint32_t loop2Size = 0;
    uint64_t loop1SrcStride = 0;
    uint64_t loop1DstStride = 0;
    uint64_t loop2SrcStride = 0;
    uint64_t loop2DstStride = 0;
};
inline pipev::detail::AlignLoops& loop_mode_of(DataCopyMVType type) {
    return type == DataCopyMVType::OUT_TO_UB ? pipev::detail::gm2ub_loops()
                                             : pipev::detail::ub2gm_loops();
}
// The loop mode of TYPE's path for the DataCopyPad calls after it (loop 1 inner). The page: the
// UB side's strides 32-byte aligned, sizes below 2^21.
inline void SetLoopModePara(const LoopModeParams& p, DataCopyMVType type, PIPEV_LOC) {
    bool to_ub = type == DataCopyMVType::OUT_TO_UB;
    uint64_t ub1 = to_ub ? p.loop1DstStride : p.loop1SrcStride;
    uint64_t ub2 = to_ub ? p.loop2DstStride : p.loop2SrcStride;
    if (ub1 % 32 || ub2 % 32)
        pipev::detail::error(loc, "SetLoopModePara: the UB side's strides (%llu, %llu) must be "
                             "32-byte aligned", (unsigned long long)ub1, (unsigned long long)ub2);
    if (p.loop1Size >= (1u << 21) || p.loop2Size >= (1u << 21))
        pipev::detail::error(loc, "SetLoopModePara: loop1Size %u / loop2Size %u must be below "
                             "2^21", p.loop1Size, p.loop2Size);
    loop_mode_of(type) = {p.loop1Size, p.loop2Size, p.loop1SrcStride, p.loop1DstStride,
                          p.loop2SrcStride, p.loop2DstStride};
}
inline void ResetLoopModePara(DataCopyMVType type, PIPEV_LOC) {
    (void)loc;
    loop_mode_of(type) = {};
}
}  // namespace AscendC
#endif
