// pipev/broadcast.h: the Broadcast advanced API (and its older spelling BroadCast), built from
// basic instructions as pipev/advanced.h's APIs are, so checks, timing and traces apply to
// every step. A broadcast is a copy: every result is exactly defined (raw bits: NaN payloads,
// -0 and denormals come out as they went in).
// The shapes are the page's: dim 1 ([1] -> [k]) or dim 2 along axis 1 ([m, 1] -> [m, k]) or
// axis 0 ([1, k] -> [m, k]), dense in UB (a row's start is k elements after the last row's).
// The steps for [m, 1] -> [m, k] are the page's:
//   Brcb: each source element to a 32-byte block;
//   k a whole number of 32-byte blocks: Copy of each block along its row (source block stride
//   0), the result;
//   k not: GatherMask writes the rows back to back, k elements a row. pipev's GatherMask reads
//   each row's block over and over (block stride 0, counter mode, k elements a repeat, the
//   built-in pattern 7: every element) instead of Copy to [m, k'] first: the same elements,
//   without the [m, k'] space or the 255-block limit of its repeat stride.
// [1, k] -> [m, k] needs no blocks: Copy of the row with source repeat stride 0 (k aligned), or
// GatherMask reading the row in every repeat (repeat stride 0). A shape that broadcasts nothing
// (the source's dimension already dst's) is a Copy.
// int8_t / uint8_t: no 8-bit Brcb, Copy or GatherMask on A2/A3, so the source goes to half
// (Cast: exact for every 8-bit value), the steps run in half, and the result comes back (Cast
// to the 8-bit type: exact, the values being the source's).
// The rows go in passes as large as the temporary space holds (pipev/tmp_sizes.h
// broadcast_pass); the sequence and so the cycle figures are pipev's own (docs/ascendc.md,
// "Advanced math").
#ifndef PIPEV_BROADCAST_H
#define PIPEV_BROADCAST_H
#include <type_traits>

#include "advanced.h"
#include "gather.h"
#include "layout.h"

namespace AscendC {
// the tiling of the dynamic-shape form (Ascend 950 only; pipev does not model it)
struct BroadcastTiling {};
}  // namespace AscendC

namespace pipev::detail::broadcast {
using tmp::BroadcastKind;
constexpr uint32_t kMaxRepeat = 255;
// Brcb groups an instruction: 254 groups of 8 elements keep the next group's source 32-byte
// aligned for half (255 would not)
constexpr uint32_t kBrcbGroups = 254;
inline uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

// The call's shape as the result's rows M of K elements and what fills them
struct Shape {
    uint32_t m, k;
    BroadcastKind kind;
};
template <int32_t dim, int32_t axis>
Shape shape_of(const uint32_t* dst, const uint32_t* src, uint32_t dst_size, uint32_t src_size,
               const char* api, Loc loc) {
    if (dim != 1 && dim != 2)
        error(loc, "%s: dim is %d: the page takes dim 1 or 2", api, int(dim));
    if (axis < 0 || axis >= dim)
        error(loc, "%s: axis is %d with dim %d: the page takes axis 0 for dim 1, 0 or 1 for dim 2",
              api, int(axis), int(dim));
    for (int i = 0; i < dim; ++i) {
        if (!dst[i] || !src[i])
            error(loc, "%s: dstShape[%d] is %u and srcShape[%d] is %u: every dimension is at "
                  "least 1", api, i, dst[i], i, src[i]);
        if (i != axis && src[i] != dst[i])
            error(loc, "%s along axis %d: srcShape[%d] is %u and dstShape[%d] is %u: only the "
                  "axis broadcasts, the other dimension is the same in both", api, int(axis), i,
                  src[i], i, dst[i]);
        if (i == axis && src[i] != 1 && src[i] != dst[i])
            error(loc, "%s along axis %d: srcShape[%d] is %u and dstShape[%d] is %u: the "
                  "source's axis is 1 (broadcast) or dst's (a copy)", api, int(axis), i, src[i],
                  i, dst[i]);
    }
    Shape s;
    s.m = dim == 2 ? dst[0] : 1;
    s.k = dst[dim - 1];
    s.kind = src[axis] == dst[axis] ? BroadcastKind::COPY
             : dim == 1 || axis == 1 ? BroadcastKind::COLS
                                     : BroadcastKind::ROWS;
    uint64_t n = uint64_t(s.m) * s.k;
    uint64_t from = s.kind == BroadcastKind::COLS ? s.m : s.kind == BroadcastKind::ROWS ? s.k : n;
    if (n > dst_size)
        error(loc, "%s: dstLocal holds %u elements and dstShape needs %llu", api, dst_size,
              (unsigned long long)n);
    if (from > src_size)
        error(loc, "%s: srcLocal holds %u elements and srcShape needs %llu", api, src_size,
              (unsigned long long)from);
    return s;
}

// B = block r filled with SRC[r] for ROWS rows (Brcb; its groups of 8 whole). The rows past the
// source's last whole 32 bytes go through TAIL, a block zeroed first: Brcb reads whole groups,
// and the call reads only the source's ROWS elements.
template <class T>
void blocks(const AscendC::LocalTensor<T>& b, const AscendC::LocalTensor<T>& src,
            const AscendC::LocalTensor<T>& tail, uint32_t rows, Loc loc) {
    using namespace AscendC;
    constexpr uint32_t per = 32 / sizeof(T);
    uint32_t whole = rows / per * per, groups = whole / 8;
    for (uint32_t g = 0; g < groups; g += kBrcbGroups)
        Brcb(b[g * 8 * per], src[g * 8], uint8_t(min_u32(groups - g, kBrcbGroups)),
             BrcbRepeatParams(1, 8), loc);
    if (rows == whole) return;
    Duplicate(tail.template ReinterpretCast<uint16_t>(loc), uint16_t(0), 16, loc);
    Copy(tail, src[whole], uint64_t(rows - whole), 1, CopyRepeatParams(1, 1, 8, 8), loc);
    Brcb(b[whole * per], tail, uint8_t((rows - whole + 7) / 8), BrcbRepeatParams(1, 8), loc);
}

// DST's ROWS rows of K (a whole number of blocks) from SRC: the Copy step. SRC_BLK / SRC_REP
// (0 or 1) say how the source moves along a row and from row to row: [m, 1]'s blocks (0, 1:
// one block a row, repeated) or [1, k]'s row (1, 0). Rows as repeats (dst repeat stride K's
// blocks: at most 255), or a row at a time (its 8-block chunks as repeats), whichever issues
// fewer instructions.
template <class T>
void copy_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
               uint32_t rows, uint32_t k, uint16_t src_blk, uint16_t src_rep, Loc loc) {
    using namespace AscendC;
    constexpr uint32_t per = 32 / sizeof(T);
    uint32_t kb = k / per, chunks = (kb + 7) / 8, full = kb / 8;
    uint64_t by_rows = kb <= kMaxRepeat ? uint64_t(chunks) * ((rows + kMaxRepeat - 1) / kMaxRepeat)
                                        : ~uint64_t(0);
    uint64_t by_row = uint64_t(rows) * ((full + kMaxRepeat - 1) / kMaxRepeat + (kb % 8 ? 1 : 0));
    if (by_rows <= by_row) {
        for (uint32_t r = 0; r < rows; r += kMaxRepeat)
            for (uint32_t c = 0; c < kb; c += 8)
                Copy(dst[r * k + c * per], src[r * src_rep * per + c * src_blk * per],
                     uint64_t(min_u32(kb - c, 8) * per), uint8_t(min_u32(rows - r, kMaxRepeat)),
                     CopyRepeatParams(1, src_blk, uint16_t(kb), src_rep), loc);
        return;
    }
    for (uint32_t r = 0; r < rows; ++r) {
        LocalTensor<T> row = dst[r * k], from = src[r * src_rep * per];
        for (uint32_t c = 0; c < full; c += kMaxRepeat)
            Copy(row[c * 8 * per], from[c * 8 * per * src_blk], uint64_t(8 * per),
                 uint8_t(min_u32(full - c, kMaxRepeat)), CopyRepeatParams(1, src_blk, 8,
                 uint16_t(8 * src_blk)), loc);
        if (kb % 8)
            Copy(row[full * 8 * per], from[full * 8 * per * src_blk], uint64_t(kb % 8 * per), 1,
                 CopyRepeatParams(1, src_blk, 8, 8), loc);
    }
}

// DST's ROWS rows of K, back to back (any K), from SRC: one GatherMask repeat a row in counter
// mode, K elements of the built-in pattern 7 (every element), read at SRC_BLK / SRC_REP as
// copy_rows's. A GatherMask writes its elements one after another from its dst, so each
// instruction starts at a row whose start is 32-byte aligned. It reads the 32-byte blocks its
// elements are in, so a [1, k] row's last block is read whole.
template <class T>
void gather_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                 uint32_t rows, uint32_t k, uint8_t src_blk, uint16_t src_rep, Loc loc) {
    using namespace AscendC;
    constexpr uint32_t per = 32 / sizeof(T);
    uint32_t step = tmp::broadcast_step(k, BroadcastKind::ROWS, sizeof(T));
    uint32_t most = kMaxRepeat / step * step;
    uint64_t written = 0;
    for (uint32_t r = 0; r < rows; r += most)
        GatherMask(dst[r * k], src[r * src_rep * per], uint8_t(7), true, k,
                   GatherMaskParams(src_blk, uint16_t(min_u32(rows - r, most)), src_rep, 0),
                   written, loc);
}

// One pass over ROWS rows of a 16- or 32-bit result (DST and SRC at the pass's first row),
// TMP its temporary space (tmp_sizes.h broadcast_pass, in its order)
template <class T>
void pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
          const AscendC::LocalTensor<uint8_t>& tmp, uint32_t rows, uint32_t k, BroadcastKind kind,
          Loc loc) {
    constexpr uint32_t per = 32 / sizeof(T);
    bool aligned = k % per == 0;
    if (kind == BroadcastKind::COPY) return AscendC::Copy(dst, src, rows * k, loc);
    if (kind == BroadcastKind::ROWS) {
        if (aligned) return copy_rows(dst, src, rows, k, 1, 0, loc);
        return gather_rows(dst, src, rows, k, 1, 0, loc);
    }
    uint32_t r8 = (rows + 7) / 8 * 8;
    AscendC::LocalTensor<T> b = tmp.ReinterpretCast<T>(loc);
    blocks(b, src, tmp[r8 * 32].ReinterpretCast<T>(loc), rows, loc);
    if (aligned) return copy_rows(dst, b, rows, k, 0, 1, loc);
    gather_rows(dst, b, rows, k, 0, 1, loc);
}

// The same pass of an 8-bit result, through half
template <class T>
void pass_bytes(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<uint8_t>& tmp, uint32_t rows, uint32_t k,
                BroadcastKind kind, Loc loc) {
    using namespace AscendC;
    uint32_t n = rows * k;
    LocalTensor<half> from = tmp.ReinterpretCast<half>(loc);
    if (kind == BroadcastKind::COPY) {
        Cast(from, src, RoundMode::CAST_NONE, n, loc);
        Cast(dst, from, RoundMode::CAST_NONE, n, loc);
        return;
    }
    uint32_t count = kind == BroadcastKind::COLS ? rows : k, at = round32(count * 2);
    LocalTensor<half> wide = tmp[at].ReinterpretCast<half>(loc);
    if (kind == BroadcastKind::ROWS && k % 16)  // GatherMask reads the row's last block whole
        Duplicate(tmp.ReinterpretCast<uint16_t>(loc), uint16_t(0), int32_t(at / 2), loc);
    Cast(from, src, RoundMode::CAST_NONE, count, loc);
    pass<half>(wide, from, tmp[at + round32(uint64_t(n) * 2)], rows, k, kind, loc);
    Cast(dst, wide, RoundMode::CAST_NONE, n, loc);
}

// The whole call: the rows in passes as large as the temporary space holds (GIVEN, a
// sharedTmpBuffer, or the framework's space above the kernel's buffers); a shape whose
// sequence takes none asks for none
template <class T, int32_t dim, int32_t axis>
void run(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
         const uint32_t* dst_shape, const uint32_t* src_shape,
         const AscendC::LocalTensor<uint8_t>* given, Loc loc) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> ||
                      std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>,
                  "Broadcast: T is uint8_t, int8_t, half or float (the page's A2/A3 types)");
    Shape s = shape_of<dim, axis>(dst_shape, src_shape, dst.GetSize(), src.GetSize(), api, loc);
    constexpr bool kBytes = sizeof(T) == 1;
    uint32_t rows = s.m, need = tmp::broadcast_min(s.m, s.k, s.kind, sizeof(T));
    AscendC::LocalTensor<uint8_t> space;
    if (need) {
        rows = tmp::broadcast_rows(s.m, s.k, s.kind, sizeof(T),
                                   given ? given->GetSize() : framework_free());
        space = pass_space(given, rows, need, tmp::broadcast_pass(rows, s.k, s.kind, kBytes),
                           api, loc);
    }
    // the source elements a row of the result moves on
    uint32_t src_row = s.kind == BroadcastKind::COLS ? 1 : s.kind == BroadcastKind::ROWS ? 0 : s.k;
    for (uint32_t r = 0; r < s.m; r += rows) {
        uint32_t n = min_u32(s.m - r, rows);
        if constexpr (kBytes)
            pass_bytes(dst[r * s.k], src[r * src_row], space, n, s.k, s.kind, loc);
        else
            pass(dst[r * s.k], src[r * src_row], space, n, s.k, s.kind, loc);
    }
}
inline void a2_a3_only(const char* api, Loc loc) {
    if (__NPU_ARCH__ != 2201)
        error(loc, "%s: pipev builds it for Atlas A2/A3 (__NPU_ARCH__ 2201: its steps take Brcb, "
              "which pipev has there); this chip's __NPU_ARCH__ is %d", api, __NPU_ARCH__);
}
// The call of API (Broadcast or BroadCast, the older pages' spelling) in either form
template <class T, int32_t dim, int32_t axis>
void call(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
          const uint32_t* dst_shape, const uint32_t* src_shape,
          const AscendC::LocalTensor<uint8_t>* given, Loc loc) {
    a2_a3_only(api, loc);
    run<T, dim, axis>(api, dst, src, dst_shape, src_shape, given, loc);
}
}  // namespace pipev::detail::broadcast

namespace AscendC {
// Broadcast with a sharedTmpBuffer, or with the framework's space
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               const LocalTensor<uint8_t>& sharedTmpBuffer, PIPEV_LOC) {
    pipev::detail::broadcast::call<T, dim, axis>("Broadcast", dstLocal, srcLocal, dstShape,
                                                 srcShape, &sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim], PIPEV_LOC) {
    pipev::detail::broadcast::call<T, dim, axis>("Broadcast", dstLocal, srcLocal, dstShape,
                                                 srcShape, nullptr, loc);
}
// BroadCast: the older pages' spelling of the same two forms
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               const LocalTensor<uint8_t>& sharedTmpBuffer, PIPEV_LOC) {
    pipev::detail::broadcast::call<T, dim, axis>("BroadCast", dstLocal, srcLocal, dstShape,
                                                 srcShape, &sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim], PIPEV_LOC) {
    pipev::detail::broadcast::call<T, dim, axis>("BroadCast", dstLocal, srcLocal, dstShape,
                                                 srcShape, nullptr, loc);
}
// the dynamic-shape form (a BroadcastTiling): the page gives it for Ascend 950 only
template <class T, int constRank = -1, uint32_t* constDstShape = nullptr,
          uint32_t* constSrcShape = nullptr, bool constSrcInnerPad = false>
void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t* dstShape,
               const uint32_t* srcShape, BroadcastTiling* tiling, PIPEV_LOC) {
    (void)dst, (void)src, (void)dstShape, (void)srcShape, (void)tiling;
    pipev::detail::error(loc, "Broadcast with a BroadcastTiling (the dynamic-shape form) is an "
                         "Ascend 950 form the page gives for that chip only, and pipev does not "
                         "model it; Broadcast<T, dim, axis> is the form for dim 1 and 2");
}
}  // namespace AscendC
#endif
