// pipev/tmp_sizes.h: the temporary space pipev's sequences of the advanced math APIs take, in
// bytes, for COUNT elements of TYPE_SIZE bytes: one place for the kernel's checks
// (pipev/advanced.h) and the host's Get...MaxMinTmpSize helpers (tiling/tiling_api.h). They
// are pipev's own figures (its sequences are its own, docs/ascendc.md "Advanced math"), not
// the vendor's; a kernel sized by the helpers runs on pipev.
#ifndef PIPEV_TMP_SIZES_H
#define PIPEV_TMP_SIZES_H
#include <cstdint>

namespace pipev::tmp {
inline uint32_t round32(uint64_t bytes) { return uint32_t((bytes + 31) & ~uint64_t(31)); }
// Floor/Ceil/Trunc/Rint/Round/Frac go 255 float repeats (16,320 elements) at a time
constexpr uint32_t kRoundingChunk = 255 * 64;
// a half source's float copy, or Frac's truncation; a float Floor ... Round needs none
inline uint32_t rounding(uint64_t count, uint32_t type_size, bool frac) {
    if (!frac && type_size == 4) return 0;
    return round32((count < kRoundingChunk ? count : kRoundingChunk) * 4);
}
// ClampMax/ClampMin: the compare's bits (whole 256-byte repeats), then a copy of the elements
// past the last whole group of 256 (a group's bits fill 32 bytes, so the groups are compared
// in place), zero-filled to whole repeats: the compare reads only the caller's COUNT elements
constexpr uint32_t kClampGroup = 256;
inline uint32_t clamp_tail(uint64_t count) { return uint32_t(count % kClampGroup); }
// (the 950 Clamp with a tensor bound copies the bound's tail too, TWO_TAILS: up to one
// repeat more than GetClampMaxMinTmpSize, ClampMax/ClampMin's helper, gives)
inline uint32_t clamp(uint64_t count, uint32_t type_size, bool two_tails = false) {
    uint64_t per_repeat = 256 / type_size, tail = clamp_tail(count);
    uint64_t whole = (count + per_repeat - 1) / per_repeat * per_repeat;
    return round32(whole / 8) +
           round32((tail + per_repeat - 1) / per_repeat * 256) * (two_tails ? 2 : 1);
}
// Xor: the complement of a & b
inline uint32_t xor_(uint64_t count, uint32_t type_size) { return round32(count * type_size); }
// the bits of a compare of COUNT elements of SRC_SIZE bytes: whole 256-byte repeats
inline uint32_t bits(uint64_t count, uint32_t src_size) {
    uint64_t per_repeat = 256 / src_size;
    return round32((count + per_repeat - 1) / per_repeat * per_repeat / 8);
}
// IsNan/IsInf/IsFinite, Where, LogicalAnd/Or/Not (Ascend 950): the bits (twice for two
// sources), then VALUES bytes (the magnitudes, or the ones a byte result is selected from)
inline uint32_t predicate(uint64_t count, uint32_t src_size, uint64_t values, bool two_bits) {
    return bits(count, src_size) * (two_bits ? 2 : 1) + round32(values);
}
inline uint32_t classify(uint64_t count, uint32_t src_size) {
    uint64_t per_repeat = 256 / src_size;
    return predicate(count, src_size, (count + per_repeat - 1) / per_repeat * per_repeat * src_size,
                     false);
}
// whole 256-byte repeats of COUNT elements of SRC_SIZE bytes, in elements
inline uint64_t whole(uint64_t count, uint32_t src_size) {
    uint64_t per_repeat = 256 / src_size;
    return (count + per_repeat - 1) / per_repeat * per_repeat;
}
// LogicalAnd/Or/Xor (two sources: two sets of bits), LogicalNot/Ands/Ors (one): the bits, then
// the source's copy zero-filled to whole repeats (a byte source: SRC_SIZE 1)
inline uint32_t logical(uint64_t count, uint32_t src_size, bool two_sources) {
    return predicate(count, src_size, whole(count, src_size) * src_size, two_sources);
}
// Where, its condition bool: the bits, then the condition's copy or (two scalar sources) the
// first scalar broadcast, whichever is larger: the largest of Where's forms
inline uint32_t where(uint64_t count, uint32_t type_size) {
    uint64_t copy = whole(count, 1), first = count * type_size;
    return predicate(count, 1, copy > first ? copy : first, false);
}

// SoftMax / SimpleSoftMax (pipev/softmax.h): a pass over ROWS rows of K columns takes the rows'
// float copy (a half source's: COPY), the rows' accumulator of 64 floats each (the reductions
// past 64 columns), and, for the rows rounded up to Brcb's groups of 8, the reduced values (as
// float and as half), the max's and the sum's broadcasts in float (64 bytes a row: a given
// half block cast to float) and a half broadcast (32). The host helpers know only max/sum's
// size, so they count the copy for every source: a figure from them never falls short.
inline uint32_t softmax_pass(uint64_t rows, uint64_t k, bool copy) {
    uint64_t r8 = (rows + 7) / 8 * 8;
    return round32(copy ? rows * k * 4 : 0) + round32(rows * 256) + round32(r8 * 4) +
           round32(r8 * 2) + uint32_t(5 * r8 * 32);
}
// whether an [M, K] source of SRC_SIZE-byte elements meets isBasicBlock's documented rule (K a
// multiple of 64 in [256 / SRC_SIZE, 2048), M a multiple of 8): the kernel's check and the host's
// IsBasicBlockInSoftMax
inline bool softmax_basic_block(uint64_t m, uint64_t k, uint32_t src_size) {
    return src_size && k >= 256 / src_size && k < 2048 && k % 64 == 0 && m % 8 == 0;
}
// rows a pass: at most 255 (a repeat a row) and, when a row's float stride passes the 8-bit
// repeat stride (255 blocks), one
inline uint32_t softmax_rows_max(uint64_t m, uint64_t k) {
    uint64_t cap = k * 4 / 32 > 255 ? 1 : 255;
    return uint32_t(m < cap ? m : cap);
}
// the most rows of M (at most softmax_rows_max) whose pass fits in BYTES; 0 when not even one
inline uint32_t softmax_rows(uint64_t m, uint64_t k, bool copy, uint64_t bytes) {
    uint32_t rows = softmax_rows_max(m, k);
    while (rows && softmax_pass(rows, k, copy) > bytes) --rows;
    return rows;
}

// Broadcast (pipev/broadcast.h): the [m, k] result in passes of rows. COLS is [m, 1] -> [m, k]
// (each source element fills its row), ROWS [1, k] -> [m, k] (the source row repeated), COPY a
// shape that broadcasts nothing. A 16- or 32-bit type takes, for COLS only, Brcb's blocks (one
// a row, the rows rounded up to Brcb's groups of 8) and one zeroed block for the rows past the
// source's last whole 32 bytes; ROWS and COPY take none. An 8-bit type (BYTES) runs through
// half: the pass's source as half (COLS: a row's element; ROWS: the row; COPY: the rows), the
// half result (rows x k), and COLS's blocks as above.
enum class BroadcastKind { COPY, ROWS, COLS };
inline uint32_t broadcast_pass(uint64_t rows, uint64_t k, BroadcastKind kind, bool bytes) {
    uint64_t blocks = kind == BroadcastKind::COLS ? (rows + 7) / 8 * 8 * 32 + 32 : 0;
    if (!bytes) return uint32_t(blocks);
    if (kind == BroadcastKind::COPY) return round32(rows * k * 2);
    uint64_t src = kind == BroadcastKind::COLS ? rows : k;
    return round32(src * 2) + round32(rows * k * 2) + uint32_t(blocks);
}
// a pass's rows are a multiple of this (but the last): every operand of the next pass starts
// 32-byte aligned (dst's row, and for COLS the source's element; an 8-bit type's 32-byte blocks)
inline uint32_t broadcast_step(uint64_t k, BroadcastKind kind, uint32_t type_size) {
    uint32_t per = 32 / type_size;
    if (kind == BroadcastKind::COLS) return per;
    uint32_t g = per, r = uint32_t(k % per);
    while (r) {  // gcd(k, per)
        uint32_t t = g % r;
        g = r, r = t;
    }
    return per / g;
}
// the most rows of M (a multiple of the step, or all M) whose pass fits in BYTES; 0 when not
// even the first step's
inline uint32_t broadcast_rows(uint64_t m, uint64_t k, BroadcastKind kind, uint32_t type_size,
                               uint64_t bytes) {
    bool b = type_size == 1;
    if (broadcast_pass(m, k, kind, b) <= bytes) return uint32_t(m);
    uint64_t step = broadcast_step(k, kind, type_size), rows = m / step * step;
    while (rows && broadcast_pass(rows, k, kind, b) > bytes) rows -= step;
    return uint32_t(rows);
}
inline uint32_t broadcast_min(uint64_t m, uint64_t k, BroadcastKind kind, uint32_t type_size) {
    uint64_t step = broadcast_step(k, kind, type_size);
    return broadcast_pass(m < step ? m : step, k, kind, type_size == 1);
}

// The TmpBufferFactorSize helpers: need(n) <= extra + live * type_size * n for every n, so
// (currBuff - extra) / live / type_size elements fit in currBuff (the documentation's rule).
// live and extra bound pipev's figures above (a compare's bits, 1/8 byte an element, count as
// a whole element; the round-ups to 32 bytes and whole repeats go in extra).
struct Factor {
    uint32_t live, extra;
};
inline Factor rounding_factor(uint32_t type_size, bool frac) {
    if (!frac && type_size == 4) return {0, 0};
    return {4 / type_size, 32};
}
inline Factor clamp_factor(uint32_t type_size) { return {1, 256 * type_size + 64}; }
inline Factor xor_factor() { return {1, 32}; }
inline Factor classify_factor() { return {2, 352}; }
// LogicalAnd/Or/Xor/Not/Ands/Ors: two sets of bits (each at most an element) and the copy;
// the round-ups (whole repeats of a byte source: 255 bytes, its bits 64) go in extra
inline Factor logical_factor() { return {2, 448}; }
// Where: its condition's bits and the larger of the condition's copy and the first scalar's
// broadcast (TYPE_SIZE, the values' size, at least the condition's byte an element)
inline Factor where_factor() { return {2, 384}; }
}  // namespace pipev::tmp
#endif
