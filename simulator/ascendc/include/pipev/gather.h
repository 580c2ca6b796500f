// pipev/gather.h: GatherMask, GetRsvdCnt and Gather (issue 28). GatherMask issues one `gather_mask`
// statement (isa/api.py expands it into vreducev2): reduceMode false is `repeat=` (normal
// mode, the mask argument ignored), true is `count=MASK, repeat=` (counter mode, each repeat
// taking MASK elements, as A2/A3 do); rsvdCnt is then read from the RSVD_CNT register the
// instruction left (the bridge's `special`, untimed like GetValue).
#ifndef PIPEV_GATHER_H
#define PIPEV_GATHER_H
#include "vector.h"

namespace AscendC {
// The strides of a GatherMask: src0's block and repeat strides, src1's (a user pattern's)
// repeat stride, all in 32-byte blocks; repeatTimes repeats.
struct GatherMaskParams {
    GatherMaskParams() = default;
    GatherMaskParams(uint8_t src0Blk, uint16_t repeat, uint16_t src0Rep, uint8_t src1Rep)
        : src0BlockStride(src0Blk), repeatTimes(repeat), src0RepeatStride(src0Rep),
          src1RepeatStride(src1Rep) {}
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 1;
};
enum class GatherMaskMode { V1, V2 };  // reserved by the API: one behaviour
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::V1;
constexpr GatherMaskMode defaultGahterMaskMode = GatherMaskMode::V1;  // the older spelling
}  // namespace AscendC

namespace pipev::detail {
inline uint64_t special(const char* name) {
    uint64_t v = 0;
    check(bridge().special(name, &v));
    return v;
}
template <class T>
void gather_mask_keys(Stmt& s, int pattern, bool reduceMode, uint32_t mask,
                      const AscendC::GatherMaskParams& p, uint64_t& rsvdCnt, Loc loc) {
    s.op("pattern=%d", pattern);
    if (reduceMode) s.key("count", mask);
    s.key("repeat", p.repeatTimes);
    s.op("stride=%u,%u,%u", unsigned(p.src0BlockStride), unsigned(p.src0RepeatStride),
         unsigned(p.src1RepeatStride));
    s.issue(loc);
    rsvdCnt = special("rsvd_cnt");
}
}  // namespace pipev::detail

namespace AscendC {
// User pattern: a tensor of uint16_t (16-bit T) or uint32_t (32-bit T) bits.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt, PIPEV_LOC) {
    static_assert(sizeof(U) == sizeof(T) && (sizeof(T) == 2 || sizeof(T) == 4),
                  "GatherMask: src1Pattern is uint16_t for 16-bit T, uint32_t for 32-bit T");
    pipev::detail::Stmt s("gather_mask.%s", pipev::type_name<T>);
    pipev::detail::ub_op(s, dst, loc);
    pipev::detail::ub_op(s, src0, loc);
    pipev::detail::ub_op(s, src1Pattern, loc);
    pipev::detail::gather_mask_keys<T>(s, 0, reduceMode, mask, gatherMaskParams, rsvdCnt, loc);
}
// Built-in pattern 1..7.
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt, PIPEV_LOC) {
    pipev::detail::Stmt s("gather_mask.%s", pipev::type_name<T>);
    pipev::detail::ub_op(s, dst, loc);
    pipev::detail::ub_op(s, src0, loc);
    if (src1Pattern < 1 || src1Pattern > 7)
        pipev::detail::error(loc, "GatherMask: a built-in src1Pattern is 1..7");
    pipev::detail::gather_mask_keys<T>(s, src1Pattern, reduceMode, mask, gatherMaskParams,
                                       rsvdCnt, loc);
}
// Gather: dst[j] = the element at src + srcBaseAddr + srcOffset[j] bytes (`gather` statement,
// base= a literal: one text per base value).
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const uint32_t count, PIPEV_LOC) {
    pipev::detail::Stmt s("gather.%s", pipev::type_name<T>);
    pipev::detail::ub_ops(s, loc, dst, src, srcOffset);
    s.op("base=%u", unsigned(srcBaseAddr));
    s.key("count", count);
    s.issue(loc);
}
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride,
            PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::hd_form<T>(pipev::detail::head<T>("gather"), &m, repeatTime,
                              pipev::detail::format("stride=%u, base=%u", unsigned(dstRepStride),
                                                    unsigned(srcBaseAddr)), loc,
                              [&](pipev::detail::Stmt& s) {
        pipev::detail::ub_ops(s, loc, dst, src, srcOffset);
    });
}
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride,
            PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::hd_form<T>(pipev::detail::head<T>("gather"), &m, repeatTime,
                              pipev::detail::format("stride=%u, base=%u", unsigned(dstRepStride),
                                                    unsigned(srcBaseAddr)), loc,
                              [&](pipev::detail::Stmt& s) {
        pipev::detail::ub_ops(s, loc, dst, src, srcOffset);
    });
}
// Gatherb: dst block j of repeat i = the 32-byte block at src + offset[8i + j] bytes
// (`gatherb` statement → vgatherb). GatherRepeatParams: dst's block and repeat strides in
// blocks (the other fields are reserved: not used).
struct GatherRepeatParams {
    GatherRepeatParams() = default;
    GatherRepeatParams(const uint8_t dstBlk, const uint8_t dstRep) : dstRepStride(dstRep),
        dstBlkStride(dstBlk) {}
    uint32_t blockNumber = 8;
    uint16_t dstRepStride = 8;
    uint8_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};
template <typename T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
             const GatherRepeatParams& repeatParams, PIPEV_LOC) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gatherb: T is uint16_t or uint32_t on A2/A3");
    pipev::detail::Stmt s("gatherb.%s", pipev::type_name<T>);
    pipev::detail::ub_ops(s, loc, dst, src, offset);
    s.key("repeat", repeatTime);
    s.op("stride=%u,%u", unsigned(repeatParams.dstBlkStride), unsigned(repeatParams.dstRepStride));
    s.issue(loc);
}
// The elements the last GatherMask wrote (RSVD_CNT).
inline int64_t GetRsvdCnt(PIPEV_LOC) {
    (void)loc;  // a register read: nothing is issued
    return int64_t(pipev::detail::special("rsvd_cnt"));
}
}  // namespace AscendC
#endif
