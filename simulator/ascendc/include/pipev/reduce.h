// pipev/reduce.h: the reductions' ReduceType-templated names (clean room, written from the
// vendor's public API pages): ReduceRepeat<SUM|MAX|MIN, T>, ReduceDataBlock<…>, ReducePairElem
// <SUM, T>, all (dst, src, mask, repeat, dstRepStride, srcBlkStride, srcRepStride[, order]).
// Each is the WholeReduce* / BlockReduce* / PairReduceSum of pipev/bindings.h: the statements
// they issue are those (docs/ascendc.md).
#ifndef PIPEV_REDUCE_H
#define PIPEV_REDUCE_H
#include "pipev/sync.h"
#include "pipev/vector.h"

namespace AscendC {
enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };

template <ReduceType R, class T, bool isSetMask = true, class M>
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask,
                  const uint8_t repeat, const uint32_t dstRep, const uint32_t srcBlk,
                  const uint32_t srcRep, const ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                  PIPEV_LOC) {
    if constexpr (R == ReduceType::SUM) {
        WholeReduceSum<T, isSetMask>(dst, src, mask, repeat, dstRep, srcBlk, srcRep, loc);
    } else if constexpr (R == ReduceType::MAX) {
        WholeReduceMax<T, isSetMask>(dst, src, mask, repeat, dstRep, srcBlk, srcRep, order, loc);
    } else {
        WholeReduceMin<T, isSetMask>(dst, src, mask, repeat, dstRep, srcBlk, srcRep, order, loc);
    }
}

// RepeatReduceSum (h28; its page, atlasascendc_api_07_0086, lists A2; the newer pages fold it
// into ReduceRepeat): WholeReduceSum with a contiguous mask only (the page: no bitwise mode) and
// a dstBlkStride the page calls invalid ("此参数无效"), so it is dropped
template <class T, bool isSetMask = true>
void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeat,
                     const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                     const int32_t dstRepStride, const int32_t srcRepStride, PIPEV_LOC) {
    (void)dstBlkStride;
    WholeReduceSum<T, isSetMask>(dst, src, static_cast<uint64_t>(mask),
                                 static_cast<uint8_t>(repeat), static_cast<uint32_t>(dstRepStride),
                                 static_cast<uint32_t>(srcBlkStride),
                                 static_cast<uint32_t>(srcRepStride), loc);
}

// mask before repeat here, where BlockReduce* takes repeat first
template <ReduceType R, class T, bool isSetMask = true, class M>
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask,
                     const uint8_t repeat, const uint32_t dstRep, const uint32_t srcBlk,
                     const uint32_t srcRep, PIPEV_LOC) {
    if constexpr (R == ReduceType::SUM) {
        BlockReduceSum<T, isSetMask>(dst, src, repeat, mask, dstRep, srcBlk, srcRep, loc);
    } else if constexpr (R == ReduceType::MAX) {
        BlockReduceMax<T, isSetMask>(dst, src, repeat, mask, dstRep, srcBlk, srcRep, loc);
    } else {
        BlockReduceMin<T, isSetMask>(dst, src, repeat, mask, dstRep, srcBlk, srcRep, loc);
    }
}

template <ReduceType R, class T, bool isSetMask = true, class M>
void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask,
                    const uint8_t repeat, const uint32_t dstRep, const uint32_t srcBlk,
                    const uint32_t srcRep, PIPEV_LOC) {
    static_assert(R == ReduceType::SUM, "ReducePairElem adds pairs: ReduceType::SUM");
    PairReduceSum<T, isSetMask>(dst, src, repeat, mask, dstRep, srcBlk, srcRep, loc);
}
}  // namespace AscendC

// ---- ReduceMax / ReduceMin with calIndex = true, and the registers the composites leave -------
// The vendor's algorithm (ReduceMax's page and figures): round 1 takes each repeat's extreme and
// its index (WholeReduceMax/Min, value then index) into the work tensor; each later round reduces
// the values of the previous one (even lanes) into the next region of the work tensor, regions
// 32-byte aligned (the page's iter2AlignStart, iter3AlignStart), until one pair is left; then
// scalar code walks the indices back to the position in src (repeat · N + index in the repeat)
// and writes dst = value, index (the index's raw bits in an element of T). pipev issues the
// rounds as whole_reduce_max/min statements and runs the walk as the kernel's own scalar code.
namespace pipev::detail {
// A register's low sizeof(T) bytes as a T (its raw bits).
template <class T> T spr_as(uint64_t bits) {
    T v;
    std::memcpy(&v, &bits, sizeof(T));
    return v;
}
template <class T> uint32_t index_bits(T v) {
    if constexpr (sizeof(T) == 2) {
        uint16_t b;
        std::memcpy(&b, &v, 2);
        return b;
    } else {
        uint32_t b;
        std::memcpy(&b, &v, 4);
        return b;
    }
}
template <class T> T from_index_bits(uint32_t i) {
    T v;
    if constexpr (sizeof(T) == 2) {
        uint16_t b = static_cast<uint16_t>(i);
        std::memcpy(&v, &b, 2);
    } else {
        std::memcpy(&v, &i, 4);
    }
    return v;
}
inline uint32_t round_up(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

// Rounds 2.. over the pairs the previous round left in the work tensor, each into the next
// region; STARTS and COUNTS hold every round's region (start, elements), round 1's first.
template <bool Max, class T>
void later_rounds(const AscendC::LocalTensor<T>& work, uint32_t* starts, uint32_t* counts,
                  int& rounds, Loc loc) {
    constexpr uint32_t n = 256 / sizeof(T), per_block = 32 / sizeof(T);
    while (counts[rounds - 1] > 2) {
        uint32_t in = starts[rounds - 1], elems = counts[rounds - 1];
        uint32_t out = in + round_up(elems, per_block);
        uint32_t full = elems / n, tail = elems % n;
        uint64_t evens[2] = {0x5555555555555555ull, n > 64 ? 0x5555555555555555ull : 0};
        for (uint32_t done = 0; done < full; done += 255) {
            uint32_t k = full - done < 255 ? full - done : 255;
            if constexpr (Max)
                AscendC::WholeReduceMax<T>(work[out + 2 * done], work[in + done * n], evens, k, 1,
                                           1, 8, AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc);
            else
                AscendC::WholeReduceMin<T>(work[out + 2 * done], work[in + done * n], evens, k, 1,
                                           1, 8, AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc);
        }
        if (tail) {
            uint64_t lanes[2] = {evens[0] & (tail >= 64 ? ~0ull : (1ull << tail) - 1),
                                 tail > 64 ? evens[1] & ((1ull << (tail - 64)) - 1) : 0};
            if constexpr (Max)
                AscendC::WholeReduceMax<T>(work[out + 2 * full], work[in + full * n], lanes, 1, 1,
                                           1, 8, AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc);
            else
                AscendC::WholeReduceMin<T>(work[out + 2 * full], work[in + full * n], lanes, 1, 1,
                                           1, 8, AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc);
        }
        starts[rounds] = out;
        counts[rounds] = 2 * (full + (tail ? 1 : 0));
        ++rounds;
    }
}

// The scalar walk back, after the rounds: dst = value, index in src.
template <class T>
void write_index(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& work,
                 const uint32_t* starts, int rounds, Loc loc) {
    constexpr uint32_t n = 256 / sizeof(T);
    AscendC::SetFlag<AscendC::HardEvent::V_S>(0, loc);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(0, loc);
    T value = work.GetValue(starts[rounds - 1], loc);
    uint32_t pair = 0;  // the pair of the last round
    for (int k = rounds - 1; k >= 1; --k) {  // its index: a position in the previous round
        uint32_t pos = index_bits(work.GetValue(starts[k] + 2 * pair + 1, loc));
        pair = (pair * n + pos) / 2;
    }
    uint32_t index = pair * n + index_bits(work.GetValue(starts[0] + 2 * pair + 1, loc));
    dst.SetValue(0, value, loc);
    dst.SetValue(1, from_index_bits<T>(index), loc);
    AscendC::SetFlag<AscendC::HardEvent::S_V>(0, loc);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(0, loc);
}

template <bool Max, class T, class First>
void reduce_with_index(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& work,
                       uint32_t repeats, First first, Loc loc) {
    uint32_t starts[8] = {0}, counts[8] = {2 * repeats};
    int rounds = 1;
    first();  // round 1: value and index of each repeat into work[0 : 2·repeats]
    later_rounds<Max, T>(work, starts, counts, rounds, loc);
    write_index(dst, work, starts, rounds, loc);
    AscendC::ResetMask(loc);
}

template <bool Max, class T>
void reduce_count_index(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<T>& work, int32_t count, Loc loc) {
    constexpr uint32_t n = 256 / sizeof(T);
    uint32_t full = uint32_t(count) / n, tail = uint32_t(count) % n;
    reduce_with_index<Max, T>(dst, work, full + (tail ? 1 : 0), [&] {
        for (uint32_t done = 0; done < full; done += 255) {
            uint32_t k = full - done < 255 ? full - done : 255;
            if constexpr (Max)
                AscendC::WholeReduceMax<T>(work[2 * done], src[done * n], int32_t(n), k, 1, 1, 8,
                                           AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc);
            else
                AscendC::WholeReduceMin<T>(work[2 * done], src[done * n], int32_t(n), k, 1, 1, 8,
                                           AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc);
        }
        if (tail) {
            if constexpr (Max)
                AscendC::WholeReduceMax<T>(work[2 * full], src[full * n], int32_t(tail), 1, 1, 1, 8,
                                           AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc);
            else
                AscendC::WholeReduceMin<T>(work[2 * full], src[full * n], int32_t(tail), 1, 1, 1, 8,
                                           AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc);
        }
    }, loc);
}

template <bool Max, class T, class M>
void reduce_highdim_index(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<T>& work, const M& mask, int32_t repeats,
                          int32_t srcRep, Loc loc) {
    uint32_t r = uint32_t(repeats);
    reduce_with_index<Max, T>(dst, work, r, [&] {
        for (uint32_t done = 0; done < r; done += 255) {
            uint32_t k = r - done < 255 ? r - done : 255;
            auto s = src[done * uint32_t(srcRep) * 32 / sizeof(T)];
            if constexpr (Max)
                AscendC::WholeReduceMax<T>(work[2 * done], s, mask, k, 1, 1, srcRep,
                                           AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc);
            else
                AscendC::WholeReduceMin<T>(work[2 * done], s, mask, k, 1, 1, srcRep,
                                           AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc);
        }
    }, loc);
}
}  // namespace pipev::detail

// ReduceMax / ReduceMin / ReduceSum: the first COUNT elements, or REPEATS repeats of src under a
// mask with srcRepStride; without calIndex one reduce_* statement (docs/ascendc.md)
namespace pipev::detail {
template <class T>
void composite(const char* stmt, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& work,
               int32_t count, Loc loc) {
    Stmt s("%s", head<T>(stmt).c_str());
    ub_ops(s, loc, dst, src, work);
    s.op("count=%d", count);
    s.issue(loc);
}
template <class T, class M>
void composite(const char* stmt, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& work,
               const M& mask, int32_t repeats, int32_t srcRep, Loc loc) {
    Stmt s("%s", head<T>(stmt).c_str());
    ub_ops(s, loc, dst, src, work);
    mask_keys<T>(s, mask_of(mask), loc);
    s.op("repeats=%d", repeats);
    s.op("src_rep=%d", srcRep);
    s.issue(loc);
}
}  // namespace pipev::detail

namespace AscendC {
template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const int32_t count, const bool calIndex = false, PIPEV_LOC) {
    if (calIndex)
        pipev::detail::reduce_count_index<true, T>(dst, src, work, count, loc);
    else
        pipev::detail::composite("reduce_max", dst, src, work, count, loc);
}
template <class T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const int32_t count, const bool calIndex = false, PIPEV_LOC) {
    if (calIndex)
        pipev::detail::reduce_count_index<false, T>(dst, src, work, count, loc);
    else
        pipev::detail::composite("reduce_min", dst, src, work, count, loc);
}
template <class T, class M>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const M& mask, const int32_t repeats, const int32_t srcRep,
               const bool calIndex = false, PIPEV_LOC) {
    if (calIndex)
        pipev::detail::reduce_highdim_index<true, T>(dst, src, work, mask, repeats, srcRep, loc);
    else
        pipev::detail::composite("reduce_max", dst, src, work, mask, repeats, srcRep, loc);
}
template <class T, class M>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const M& mask, const int32_t repeats, const int32_t srcRep,
               const bool calIndex = false, PIPEV_LOC) {
    if (calIndex)
        pipev::detail::reduce_highdim_index<false, T>(dst, src, work, mask, repeats, srcRep, loc);
    else
        pipev::detail::composite("reduce_min", dst, src, work, mask, repeats, srcRep, loc);
}
template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const int32_t count, PIPEV_LOC) {
    pipev::detail::composite("reduce_sum", dst, src, work, count, loc);
}
template <class T, class M>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const M& mask, const int32_t repeats, const int32_t srcRep, PIPEV_LOC) {
    pipev::detail::composite("reduce_sum", dst, src, work, mask, repeats, srcRep, loc);
}

// The registers the whole-repeat reductions leave (machine state: docs/semantics.md §8.4), read
// by scalar code after a V → S flag through the bridge's `special`, untimed as GetValue: the
// extreme the last WholeReduceMax/Min (ReduceRepeat<MAX/MIN>) found over all its repeats and its
// position (the index's raw bits in an element of T, as the page says), the last
// WholeReduceSum's repeat sums added in order. After ReduceMax/Min these hold the last round's
// (the value is exact, the index is not: the page's own warning).
template <class T> void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex, PIPEV_LOC) {
    (void)loc;
    maxMinValue = pipev::detail::spr_as<T>(pipev::detail::special("reduce_max_min_value"));
    maxMinIndex = pipev::detail::spr_as<T>(pipev::detail::special("reduce_max_min_index"));
}
template <class T> void GetReduceRepeatMaxMinSpr(T& maxMinValue, PIPEV_LOC) {
    (void)loc;
    maxMinValue = pipev::detail::spr_as<T>(pipev::detail::special("reduce_max_min_value"));
}
template <class T> void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex, PIPEV_LOC) {
    GetReduceRepeatMaxMinSpr(maxMinValue, maxMinIndex, loc);
}
template <class T> void GetReduceMaxMinCount(T& maxMinValue, PIPEV_LOC) {
    GetReduceRepeatMaxMinSpr(maxMinValue, loc);
}
template <class T> T GetReduceRepeatSumSpr(PIPEV_LOC) {
    (void)loc;
    return pipev::detail::spr_as<T>(pipev::detail::special("reduce_sum"));
}
}  // namespace AscendC
#endif
