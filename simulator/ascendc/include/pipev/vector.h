// pipev/vector.h: vector APIs. Every call issues one pipev API statement (docs/semantics.md §8):
// `NAME.T OPERANDS, count=N` for the first-n form, `NAME.T OPERANDS, repeat=R, stride=..., MASK
// KEYS` for the high-dimensional form (no mask keys when isSetMask is false: MASK as it is). How
// a statement expands into hardware instructions (counter mode, chunks on ascend910, the mask
// rules) is isa/api.py's alone. The elementwise APIs (Add ... Cast) are declared by binding rows
// (simulator/bindings.py) in the generated bindings.h; this file holds the shapes they use.
#ifndef PIPEV_VECTOR_H
#define PIPEV_VECTOR_H
#include <string>

#include "tensor.h"

namespace pipev::detail {
using AscendC::BinaryRepeatParams;
using AscendC::CopyRepeatParams;
using AscendC::LocalTensor;
using AscendC::UnaryRepeatParams;

// count= and repeat= are registers (one text per call site), except count= on chips without
// counter mode (ascend910): the assembler expands a first-n form there at assembly time, so it
// needs the constant.

inline const char* cmp_name(AscendC::CMPMODE m) {
    static const char* names[] = {"lt", "gt", "eq", "le", "ge", "ne"};
    return names[int(m)];
}
inline std::string binary_stride(const BinaryRepeatParams& p) {
    return format("stride=%u,%u,%u,%u,%u,%u", p.dstBlkStride, p.src0BlkStride, p.src1BlkStride,
                  p.dstRepStride, p.src0RepStride, p.src1RepStride);
}
inline std::string unary_stride(const UnaryRepeatParams& p) {
    return format("stride=%u,%u,%u,%u", p.dstBlkStride, p.srcBlkStride, p.dstRepStride,
                  p.srcRepStride);
}
inline std::string unary_stride(const CopyRepeatParams& p) {
    return format("stride=%u,%u,%u,%u", p.dstStride, p.srcStride, p.dstRepeatSize,
                  p.srcRepeatSize);
}
inline void count_key(Stmt& s, const char* k, uint64_t n, bool reg) {
    if (reg) s.key(k, n);
    else s.op("%s=%llu", k, (unsigned long long)n);
}

// A mask argument: bitwise (uint64_t mask[]) or contiguous (the number of leading elements).
struct Mask {
    const uint64_t* bits = nullptr;
    uint64_t len = 0;
};
inline Mask mask_of(const uint64_t* bits) { return {bits, 0}; }
inline Mask mask_of(uint64_t len) { return {nullptr, len}; }
// MASK_HI:MASK_LO of a bitwise mask: mask[0] low, mask[1] high (16-bit); 32/64-bit use mask[0];
// 8-bit takes four words, and pipev only the full mask (docs/format.md §14.1).
template <class T> void mask_words(const uint64_t* m, uint64_t& hi, uint64_t& lo, Loc loc) {
    if constexpr (sizeof(T) == 1) {
        if ((m[0] & m[1] & m[2] & m[3]) != kOnes)
            error(loc, "8-bit types take only the full mask (all four words all ones; docs/format.md "
                  "§14.1)");
        hi = lo = kOnes;
    } else if constexpr (sizeof(T) == 2) {
        lo = m[0];
        hi = m[1];
    } else {
        lo = m[0];
        hi = 0;
    }
}
// The mask keys of an API statement (select, compare, compares).
template <class T> void mask_keys(Stmt& s, Mask m, Loc loc) {
    if (!m.bits) {
        s.key("mask", m.len);
        return;
    }
    uint64_t hi, lo;
    mask_words<T>(m.bits, hi, lo, loc);
    s.key("mask_lo", lo);
    if (sizeof(T) <= 2) s.key("mask_hi", hi);
}
inline void set_vector_mask(uint64_t hi, uint64_t lo, Loc loc) {
    Stmt("set_vector_mask").reg(hi).reg(lo).issue(loc);
}
// Source operands: a tensor, a tensor element used as a scalar (ascend950), or an immediate.
template <class T> struct Elem {
    LocalTensor<T> t;
};
template <class T, class X> void src_op(Stmt& s, const X& x, Loc loc) {
    if constexpr (std::is_same_v<X, Elem<T>>) ub_scalar_op(s, x.t, loc);
    else if constexpr (std::is_same_v<X, LocalTensor<T>>) ub_op(s, x, loc);
    else s.op("%s", scalar_text<T>(static_cast<T>(x)).c_str());
}

// ---- select (docs/semantics.md §8.1) -----------------------------------------------------------------------
// A bit mask's tensor: the documentation allows Compare an int8_t destination besides uint8_t,
// and kernels hand that tensor to Select as its selMask; its bytes are the same bits, so an
// int8_t tensor is named by its uint8_t view (pipev's bit masks are unsigned).
template <class U> auto bits_view(const LocalTensor<U>& dst) {
    if constexpr (std::is_same_v<U, int8_t>) return dst.template ReinterpretCast<uint8_t>();
    else return dst;
}
// DST, SEL, SRC0, SRC1, mode=M: the operands both select forms with a mask tensor start with.
template <class T, class U, class A, class B>
void select_operands(Stmt& s, const LocalTensor<T>& dst, const LocalTensor<U>& sel, const A& a,
                     const B& b, int mode, Loc loc) {
    ub_op(s, dst, loc);
    ub_op(s, bits_view(sel), loc);
    src_op<T>(s, a, loc);
    src_op<T>(s, b, loc);
    s.op("mode=%d", mode);
}
template <class T, class U, class A, class B>
void select_count(const LocalTensor<T>& dst, const LocalTensor<U>& sel, const A& a, const B& b,
                  int mode, uint32_t count, Loc loc) {
    Stmt s("select.%s", type_name<T>);
    select_operands<T>(s, dst, sel, a, b, mode, loc);
    count_key(s, "count", count, counter_mode());
    s.issue(loc);
}
template <class T, class U, class A, class B>
void select_hd(const LocalTensor<T>& dst, const LocalTensor<U>& sel, const A& a, const B& b,
               int mode, Mask m, uint8_t repeat, const BinaryRepeatParams& p, Loc loc) {
    Stmt s("select.%s", type_name<T>);
    select_operands<T>(s, dst, sel, a, b, mode, loc);
    s.key("repeat", repeat);
    s.op("%s", binary_stride(p).c_str());
    mask_keys<T>(s, m, loc);
    s.issue(loc);
}
// The no-mask form: modes 0/2 `select.T dst, src0, src1`, mode 1 `select.T dst, sel, src0`.
template <class T, class X>
void select_nomask(const LocalTensor<T>& dst, const X& x, const LocalTensor<T>& src, int mode,
                   uint8_t repeat, const BinaryRepeatParams& p, Loc loc) {
    Stmt s("select.%s", type_name<T>);
    ub_op(s, dst, loc);
    ub_op(s, bits_view(x), loc);
    ub_op(s, src, loc);
    s.op("mode=%d", mode).key("repeat", repeat).op("%s", binary_stride(p).c_str());
    s.issue(loc);
}
template <class X> constexpr bool is_local = false;
template <class T> constexpr bool is_local<LocalTensor<T>> = true;
// The ascend950 flexible scalar position (BinaryConfig): T2 is the destination, T3/T4 the sources
// (LocalTensor, or a scalar). In mode 1 with two tensors, the one at config.scalarTensorIndex is
// the scalar (its element 0); GO(dst, sel, src0, src1, src0 is the scalar).
template <const AscendC::BinaryConfig& config, class T2, class T3, class T4, class U, class Go>
void flexible(const T2& dst, const LocalTensor<U>& sel, const T3& src0, const T4& src1,
              AscendC::SELMODE mode, Go go) {
    using T = typename T2::PrimType;
    constexpr bool t3 = is_local<T3>, t4 = is_local<T4>;
    bool scalar_mode = mode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE;
    if constexpr (t3 && t4) {
        if (scalar_mode && config.scalarTensorIndex == 0) go(dst, sel, Elem<T>{src0}, src1, true);
        else if (scalar_mode) go(dst, sel, src0, Elem<T>{src1}, false);
        else go(dst, sel, src0, src1, false);
    } else if constexpr (t3) {
        go(dst, sel, src0, static_cast<T>(src1), false);
    } else {
        go(dst, sel, static_cast<T>(src0), src1, true);
    }
}
// ---- compare (docs/semantics.md §8.2) ----------------------------------------------------------------------
template <class T, class U>
void compare_count(const LocalTensor<U>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                   AscendC::CMPMODE m, uint32_t count, Loc loc) {
    Stmt s("compare.%s.%s", cmp_name(m), type_name<T>);
    ub_op(s, bits_view(dst), loc);
    ub_op(s, a, loc);
    ub_op(s, b, loc);
    count_key(s, "count", count, counter_mode());
    s.issue(loc);
}
template <class T, class U>
void compare_hd(const LocalTensor<U>* dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                AscendC::CMPMODE m, const Mask* mask, uint8_t repeat, const BinaryRepeatParams& p,
                Loc loc) {
    Stmt s("compare.%s.%s", cmp_name(m), type_name<T>);
    if (dst) ub_op(s, bits_view(*dst), loc);
    else s.op("cmpmask");  // the result in CMPMASK
    ub_op(s, a, loc);
    ub_op(s, b, loc);
    if (dst) s.key("repeat", repeat);
    s.op("%s", binary_stride(p).c_str());
    if (mask) mask_keys<T>(s, *mask, loc);
    s.issue(loc);
}
template <class T, class U>
void compares(const LocalTensor<U>& dst, const LocalTensor<T>& src, T scalar, AscendC::CMPMODE m,
              const uint32_t* count, const Mask* mask, uint8_t repeat, const UnaryRepeatParams& p,
              Loc loc) {
    Stmt s("compares.%s.%s", cmp_name(m), type_name<T>);
    ub_op(s, bits_view(dst), loc);
    ub_op(s, src, loc);
    s.op("%s", scalar_text(scalar).c_str());
    if (count) {
        count_key(s, "count", *count, counter_mode());
    } else {
        s.key("repeat", repeat).op("%s", unary_stride(p).c_str());
        if (mask) mask_keys<T>(s, *mask, loc);
    }
    s.issue(loc);
}

// ---- the elementwise shapes of the binding rows (bindings.h) ------------------------------------
// OPS(s) writes a statement's operands; the count form and the high-dimensional form follow.
template <class... X> void ub_ops(Stmt& s, Loc loc, const X&... x) { (ub_op(s, x, loc), ...); }
template <class Ops> void count_form(const std::string& head, uint64_t n, Loc loc, Ops ops) {
    Stmt s("%s", head.c_str());
    ops(s);
    count_key(s, "count", n, counter_mode());
    s.issue(loc);
}
// M: the mask keys in elements of type M (Cast: the wider type); none when MASK is kept.
template <class M, class Ops>
void hd_form(const std::string& head, const Mask* m, uint8_t repeat, const std::string& stride,
             Loc loc, Ops ops) {
    Stmt s("%s", head.c_str());
    ops(s);
    s.key("repeat", repeat).op("%s", stride.c_str());
    if (m) mask_keys<M>(s, *m, loc);
    s.issue(loc);
}
template <class T> std::string head(const char* name) { return format("%s.%s", name, type_name<T>); }
template <class T, class U> std::string head(const char* name) {
    return format("%s.%s.%s", name, type_name<T>, type_name<U>);
}
template <class T>
void dup_hd(const LocalTensor<T>& dst, T scalar, const Mask* m, uint8_t repeat, uint16_t dst_blk,
            uint8_t dst_rep, Loc loc) {
    hd_form<T>(head<T>("duplicate"), m, repeat, format("stride=%u,1,%u,8", dst_blk, dst_rep), loc,
               [&](Stmt& s) {
        ub_op(s, dst, loc);
        s.op("%s", scalar_text(scalar).c_str());
    });
}
template <class T, bool isSetMask>
void copy_form(const char* stmt, const LocalTensor<T>& dst, const LocalTensor<T>& src, Mask m,
               uint8_t repeat, const CopyRepeatParams& p, Loc loc) {
    hd_form<T>(head<T>(stmt), isSetMask ? &m : nullptr, repeat, unary_stride(p), loc,
               [&](Stmt& s) { ub_ops(s, loc, dst, src); });
}
inline const char* round_name(AscendC::RoundMode r) {
    static const char* names[] = {"none", "rint", "floor", "ceil", "round", "trunc", "odd", "hybrid",
                                  "unknown"};  // UNKNOWN: a Reg CastTrait's, refused here
    return names[int(r)];
}
// #27: Axpy / MulAddDst <T, U>: the statement of one type when T is U, else STMT.T.U
template <class T, class U> std::string head_tu(const char* stmt) {
    if constexpr (std::is_same_v<T, U>) return head<T>(stmt);
    else return head<T, U>(stmt);
}
template <class T, class U> using wide_t = std::conditional_t<(sizeof(T) > sizeof(U)), T, U>;
// #27: Ands / Ors / Divs (ascend950): GO(src0, src1) with the scalar side as src_op writes it —
// a value, or, with two tensors, the one at config.scalarTensorIndex as its element 0
template <const AscendC::BinaryConfig& config, class E, class S, class V, class Go>
void flex_pair(const S& src0, const V& src1, Go go) {
    if constexpr (is_local<S> && is_local<V>) {
        if (config.scalarTensorIndex == 0) go(Elem<E>{src0}, src1);
        else go(src0, Elem<E>{src1});
    } else {
        go(src0, src1);
    }
}
}  // namespace pipev::detail

namespace AscendC {

// The mask argument of a high-dimensional call with isSetMask = false (MASK as it is): a
// placeholder with no meaning, as the vendor's pages say.
// (MASK_PLACEHOLDER itself is in pipev/types.h)
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

// ---- Select -------------------------------------------------------------------------------------
// First n elements, modes 0 and 2 (two tensors) and mode 1 (tensor and scalar).
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t calCount, PIPEV_LOC) {
    pipev::detail::select_count(dst, selMask, src0, src1, int(selMode), calCount, loc);
}
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            T src1, SELMODE selMode, uint32_t calCount, PIPEV_LOC) {
    pipev::detail::select_count(dst, selMask, src0, src1, int(selMode), calCount, loc);
}
// High-dimensional, bitwise (mask[]) or contiguous (mask) MASK, modes 0/2 and 1.
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTimes,
            const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    pipev::detail::select_hd(dst, selMask, src0, src1, int(selMode), pipev::detail::mask_of(mask),
                             repeatTimes, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes,
            const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    pipev::detail::select_hd(dst, selMask, src0, src1, int(selMode), pipev::detail::mask_of(mask),
                             repeatTimes, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            T src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTimes,
            const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    pipev::detail::select_hd(dst, selMask, src0, src1, int(selMode), pipev::detail::mask_of(mask),
                             repeatTimes, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            T src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes,
            const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    pipev::detail::select_hd(dst, selMask, src0, src1, int(selMode), pipev::detail::mask_of(mask),
                             repeatTimes, repeatParams, loc);
}
// No mask argument: MASK (SetVectorMask) and CMPMASK (SetCmpMask) as they stand. Mode 1 takes the
// scalar already in CMPMASK; modes 0/2 are chosen by the template argument.
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            uint8_t repeatTimes, const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    pipev::detail::select_nomask(dst, selMask, src0, 1, repeatTimes, repeatParams, loc);
}
template <typename T, SELMODE selMode>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            uint8_t repeatTimes, const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    pipev::detail::select_nomask(dst, src0, src1, int(selMode), repeatTimes, repeatParams, loc);
}

template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType,
          const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename T2, typename T3, typename T4>
void Select(const T2& dst, const LocalTensor<T1>& selMask, const T3& src0, const T4& src1,
            SELMODE selMode, uint32_t count, PIPEV_LOC) {
    pipev::detail::flexible<config>(dst, selMask, src0, src1, selMode,
                                 [&](auto& d, auto& s, auto a, auto b, bool) {
        pipev::detail::select_count(d, s, a, b, int(selMode), count, loc);
    });
}
template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType, bool isSetMask = true,
          const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename T2, typename T3, typename T4>
void Select(const T2& dst, const LocalTensor<T1>& selMask, const T3& src0, const T4& src1,
            SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    pipev::detail::flexible<config>(dst, selMask, src0, src1, selMode,
                                 [&](auto& d, auto& s, auto a, auto b, bool) {
        pipev::detail::select_hd(d, s, a, b, int(selMode), pipev::detail::mask_of(mask), repeatTime,
                                 repeatParams, loc);
    });
}
template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType, bool isSetMask = true,
          const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename T2, typename T3, typename T4>
void Select(const T2& dst, const LocalTensor<T1>& selMask, const T3& src0, const T4& src1,
            SELMODE selMode, uint64_t mask, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    pipev::detail::flexible<config>(dst, selMask, src0, src1, selMode,
                                 [&](auto& d, auto& s, auto a, auto b, bool) {
        pipev::detail::select_hd(d, s, a, b, int(selMode), pipev::detail::mask_of(mask), repeatTime,
                                 repeatParams, loc);
    });
}

// ---- Compare, Compares / CompareScalar ----------------------------------------------------------
template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, uint32_t calCount, PIPEV_LOC) {
    pipev::detail::compare_count(dst, src0, src1, cmpMode, calCount, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes,
             const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::compare_hd(&dst, src0, src1, cmpMode, isSetMask ? &m : nullptr, repeatTimes,
                              repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, uint64_t mask, uint8_t repeatTimes,
             const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::compare_hd(&dst, src0, src1, cmpMode, isSetMask ? &m : nullptr, repeatTimes,
                              repeatParams, loc);
}
// The result in CMPMASK (read it with GetCmpMask).
template <typename T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask[], const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::compare_hd<T, uint8_t>(nullptr, src0, src1, cmpMode, isSetMask ? &m : nullptr,
                                          1, repeatParams, loc);
}
template <typename T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             uint64_t mask, const BinaryRepeatParams& repeatParams, PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::compare_hd<T, uint8_t>(nullptr, src0, src1, cmpMode, isSetMask ? &m : nullptr,
                                          1, repeatParams, loc);
}

#define PIPEV_COMPARES(NAME)                                                                       \
    template <typename T, typename U>                                                              \
    void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0,                               \
              const pipev::NoDeduce<T> src1Scalar, CMPMODE cmpMode, uint32_t calCount, PIPEV_LOC) { \
        pipev::detail::compares(dst, src0, src1Scalar, cmpMode, &calCount, nullptr, 0, {}, loc);   \
    }                                                                                              \
    template <typename T, typename U, bool isSetMask = true>                                       \
    void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0,                               \
              const pipev::NoDeduce<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask[],         \
              uint8_t repeatTimes, const UnaryRepeatParams& repeatParams, PIPEV_LOC) {             \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::compares(dst, src0, src1Scalar, cmpMode, nullptr, isSetMask ? &m : nullptr, \
                                repeatTimes, repeatParams, loc);                                   \
    }                                                                                              \
    template <typename T, typename U, bool isSetMask = true>                                       \
    void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0,                               \
              const pipev::NoDeduce<T> src1Scalar, CMPMODE cmpMode, uint64_t mask,                 \
              uint8_t repeatTimes, const UnaryRepeatParams& repeatParams, PIPEV_LOC) {             \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::compares(dst, src0, src1Scalar, cmpMode, nullptr, isSetMask ? &m : nullptr, \
                                repeatTimes, repeatParams, loc);                                   \
    }
PIPEV_COMPARES(Compares)
PIPEV_COMPARES(CompareScalar)
#undef PIPEV_COMPARES
// The ascend950 flexible scalar position (#32): two tensors, one of them the scalar (its element
// 0) as config.scalarTensorIndex says (1, the default: src1). A scalar first compares the other
// way round (s < x is x > s: the same for NaN, which compares false both ways).
template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType, bool isSetMask = true,
          const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename U, typename T>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
              CMPMODE cmpMode, uint32_t count, PIPEV_LOC) {
    using namespace pipev::detail;
    if (__NPU_ARCH__ != 3510)
        error(loc, "Compares with a tensor element as the scalar is the Ascend 950's flexible "
              "scalar position; this chip's __NPU_ARCH__ is %d", __NPU_ARCH__);
    bool first = config.scalarTensorIndex == 0;
    CMPMODE m = !first ? cmpMode : cmpMode == CMPMODE::LT ? CMPMODE::GT
                : cmpMode == CMPMODE::GT ? CMPMODE::LT : cmpMode == CMPMODE::LE ? CMPMODE::GE
                : cmpMode == CMPMODE::GE ? CMPMODE::LE : cmpMode;
    Stmt s("compares.%s.%s", cmp_name(m), pipev::type_name<T>);
    ub_op(s, bits_view(dst), loc);
    ub_op(s, first ? src1 : src0, loc);
    ub_scalar_op(s, first ? src0 : src1, loc);
    count_key(s, "count", count, counter_mode());
    s.issue(loc);
}

// ---- CMPMASK and MASK ---------------------------------------------------------------------------
template <typename T> void GetCmpMask(const LocalTensor<T>& dst, PIPEV_LOC) {
    pipev::detail::Stmt s("get_cmp_mask");
    pipev::detail::ub_op(s, dst, loc);
    s.issue(loc);
}
template <typename T> void SetCmpMask(const LocalTensor<T>& src, PIPEV_LOC) {
    pipev::detail::Stmt s("set_cmp_mask");
    pipev::detail::ub_op(s, src, loc);
    s.issue(loc);
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow, PIPEV_LOC) {
    pipev::detail::set_vector_mask(maskHigh, maskLow, loc);
}
// LEN leading elements (normal mode) or the element count (counter mode): pipev's set_mask.T.
template <typename T, MaskMode mode = MaskMode::NORMAL> void SetVectorMask(int32_t len, PIPEV_LOC) {
    pipev::detail::Stmt("set_mask.%s", pipev::type_name<T>).reg(uint64_t(len)).issue(loc);
}
inline void SetMaskCount(PIPEV_LOC) { pipev::detail::Stmt("set_mask_count").issue(loc); }
inline void SetMaskNorm(PIPEV_LOC) { pipev::detail::Stmt("set_mask_norm").issue(loc); }
inline void ResetMask(PIPEV_LOC) { pipev::detail::set_vector_mask(pipev::kOnes, pipev::kOnes, loc); }

// ---- Duplicate ----------------------------------------------------------------------------------
template <typename T>
void Duplicate(const LocalTensor<T>& dst, const pipev::NoDeduce<T>& scalarValue,
               const int32_t& calCount, PIPEV_LOC) {
    if constexpr (std::is_same_v<T, bool>) {  // #32: Ascend 950 lists bool (count form): the
        if (__NPU_ARCH__ == 3510) {           // bytes 0 and 1, as uint8_t
            Duplicate(dst.template ReinterpretCast<uint8_t>(loc), uint8_t(scalarValue ? 1 : 0),
                      calCount, loc);
            return;
        }
    }
    pipev::detail::Stmt s("duplicate.%s", pipev::type_name<T>);
    pipev::detail::ub_op(s, dst, loc);
    s.op("%s", pipev::detail::scalar_text(scalarValue).c_str());
    pipev::detail::count_key(s, "count", uint64_t(calCount), pipev::detail::counter_mode());
    s.issue(loc);
}
// #34: Ascend 950's tensor form (the Duplicate page): src[0], as the vector pipe reads it, to
// the first calCount elements of dst: `scalar(NAME[xK])` (a V read of that element)
template <typename T>
void Duplicate(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& calCount,
               PIPEV_LOC) {
    if (__NPU_ARCH__ != 3510)
        pipev::detail::error(loc, "Duplicate with a LocalTensor source (its element 0) is an "
                             "Ascend 950 form; this chip's __NPU_ARCH__ is %d", __NPU_ARCH__);
    pipev::detail::Stmt s("duplicate.%s", pipev::type_name<T>);
    pipev::detail::ub_op(s, dst, loc);
    pipev::detail::ub_scalar_op(s, src, loc);
    pipev::detail::count_key(s, "count", uint64_t(calCount), pipev::detail::counter_mode());
    s.issue(loc);
}
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const pipev::NoDeduce<T>& scalarValue,
               const uint64_t mask[], const uint8_t repeatTimes, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride, PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::dup_hd<T>(dst, scalarValue, isSetMask ? &m : nullptr, repeatTimes,
                             dstBlockStride, dstRepeatStride, loc);
}
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const pipev::NoDeduce<T>& scalarValue, uint64_t mask,
               const uint8_t repeatTimes, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride, PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::dup_hd<T>(dst, scalarValue, isSetMask ? &m : nullptr, repeatTimes,
                             dstBlockStride, dstRepeatStride, loc);
}

// ---- the binding shapes: NAME is the API, STMT its statement (simulator/bindings.py) -----------
// binary: Add Sub Mul Div Max Min And Or (dst, src0, src1); the count forms take isSetMask as
// the vendor's do (it changes nothing there: a count form always sets MASK)
#define PIPEV_ASCENDC_BINARY(NAME, STMT)                                                           \
    template <typename T, bool isSetMask = true>                                                   \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
              const int32_t& calCount, PIPEV_LOC) {                                                \
        pipev::detail::count_form(pipev::detail::head<T>(STMT), calCount, loc,                     \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src0, src1);                                        \
        });                                                                                        \
    }                                                                                              \
    template <typename T, bool isSetMask = true, class M>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
              const M& mask, const uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,    \
              PIPEV_LOC) {                                                                         \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::hd_form<T>(pipev::detail::head<T>(STMT), isSetMask ? &m : nullptr,          \
                                  repeatTimes, pipev::detail::binary_stride(repeatParams), loc,    \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src0, src1);                                        \
        });                                                                                        \
    }
// scalar: Adds Subs Muls Maxs Mins LeakyRelu ShiftLeft ShiftRight (dst, src, scalar)
#define PIPEV_ASCENDC_SCALAR(NAME, STMT)                                                           \
    template <typename T, bool isSetMask = true>                                                   \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                \
              const pipev::NoDeduce<T>& scalarValue, const int32_t& calCount, PIPEV_LOC) {         \
        pipev::detail::count_form(pipev::detail::head<T>(STMT), calCount, loc,                     \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
            s.op("%s", pipev::detail::scalar_text<T>(scalarValue).c_str());                        \
        });                                                                                        \
    }                                                                                              \
    template <typename T, bool isSetMask = true, class M>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                \
              const pipev::NoDeduce<T>& scalarValue, const M& mask, const uint8_t repeatTimes,     \
              const UnaryRepeatParams& repeatParams, PIPEV_LOC) {                                  \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::hd_form<T>(pipev::detail::head<T>(STMT), isSetMask ? &m : nullptr,          \
                                  repeatTimes, pipev::detail::unary_stride(repeatParams), loc,     \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
            s.op("%s", pipev::detail::scalar_text<T>(scalarValue).c_str());                        \
        });                                                                                        \
    }
// unary: Abs Not Exp Ln Sqrt Rsqrt Reciprocal Relu (dst, src)
#define PIPEV_ASCENDC_UNARY(NAME, STMT)                                                            \
    template <typename T, bool isSetMask = true>                                                   \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& calCount,       \
              PIPEV_LOC) {                                                                         \
        pipev::detail::count_form(pipev::detail::head<T>(STMT), calCount, loc,                     \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
        });                                                                                        \
    }                                                                                              \
    template <typename T, bool isSetMask = true, class M>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask,                 \
              const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams, PIPEV_LOC) {       \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::hd_form<T>(pipev::detail::head<T>(STMT), isSetMask ? &m : nullptr,          \
                                  repeatTimes, pipev::detail::unary_stride(repeatParams), loc,     \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
        });                                                                                        \
    }
// copy: Copy (dst, src) UB to UB — the count form, and the high-dimensional forms with the
// vendor's mask parameters as they are (a bitwise mask[] or a contiguous length, so a braced
// length converts) and CopyRepeatParams
#define PIPEV_ASCENDC_COPY(NAME, STMT)                                                             \
    template <typename T, bool isSetMask = true>                                                   \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,          \
              PIPEV_LOC) {                                                                         \
        pipev::detail::count_form(pipev::detail::head<T>(STMT), count, loc,                        \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
        });                                                                                        \
    }                                                                                              \
    template <typename T, bool isSetMask = true>                                                   \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],         \
              const uint8_t repeatTimes, const CopyRepeatParams& repeatParams, PIPEV_LOC) {        \
        pipev::detail::copy_form<T, isSetMask>(STMT, dst, src, pipev::detail::mask_of(mask),       \
                                               repeatTimes, repeatParams, loc);                    \
    }                                                                                              \
    template <typename T, bool isSetMask = true>                                                   \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,           \
              const uint8_t repeatTimes, const CopyRepeatParams& repeatParams, PIPEV_LOC) {        \
        pipev::detail::copy_form<T, isSetMask>(STMT, dst, src, pipev::detail::mask_of(mask),       \
                                               repeatTimes, repeatParams, loc);                    \
    }
// cast: Cast (dst, src, round mode) → STMT.DST.SRC; masks and counts in the wider type
#define PIPEV_ASCENDC_CAST(NAME, STMT)                                                             \
    template <typename T, typename U>                                                              \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,    \
              const uint32_t calCount, PIPEV_LOC) {                                                \
        pipev::detail::count_form(pipev::detail::head<T, U>(STMT), calCount, loc,                  \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
            s.op("round=%s", pipev::detail::round_name(roundMode));                                \
        });                                                                                        \
    }                                                                                              \
    template <typename T, typename U, bool isSetMask = true, class M>                              \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,    \
              const M& mask, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,     \
              PIPEV_LOC) {                                                                         \
        using Wide = std::conditional_t<(sizeof(T) > sizeof(U)), T, U>;                            \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::hd_form<Wide>(                                                              \
            pipev::detail::head<T, U>(STMT),                                                       \
            isSetMask ? &m : nullptr, repeatTimes, pipev::detail::unary_stride(repeatParams), loc, \
            [&](pipev::detail::Stmt& s) {                                                          \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
            s.op("round=%s", pipev::detail::round_name(roundMode));                                \
        });                                                                                        \
    }
// binary_cast (#27): AddReluCast SubReluCast MulCast (dst of T, sources of U): the statement is
// STMT.T.U; as Cast, masks count elements of the wider type
#define PIPEV_ASCENDC_BINARY_CAST(NAME, STMT)                                                      \
    template <typename T, typename U>                                                              \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,   \
              const uint32_t count, PIPEV_LOC) {                                                   \
        pipev::detail::count_form(pipev::detail::head<T, U>(STMT), count, loc,                     \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src0, src1);                                        \
        });                                                                                        \
    }                                                                                              \
    template <typename T, typename U, bool isSetMask = true, class M>                              \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,   \
              const M& mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,     \
              PIPEV_LOC) {                                                                         \
        using Wide = std::conditional_t<(sizeof(T) > sizeof(U)), T, U>;                            \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::hd_form<Wide>(pipev::detail::head<T, U>(STMT), isSetMask ? &m : nullptr,    \
                                     repeatTime, pipev::detail::binary_stride(repeatParams), loc,  \
                                     [&](pipev::detail::Stmt& s) {                                 \
            pipev::detail::ub_ops(s, loc, dst, src0, src1);                                        \
        });                                                                                        \
    }
// scalar_mixed / binary_mixed (#27): Axpy and MulAddDst, whose vendor templates take the
// destination's and the sources' types (T, U): the same-type overloads above, and T, U ones —
// `Axpy<half, half>(…)` as the vendor's samples write it (the statement STMT.T), half sources
// into a float dst (STMT.T.U, masks in elements of the wider type)
#define PIPEV_ASCENDC_SCALAR_MIXED(NAME, STMT)                                                     \
    PIPEV_ASCENDC_SCALAR(NAME, STMT)                                                               \
    template <typename T, typename U, bool isSetMask = true>                                       \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src,                                \
              const pipev::NoDeduce<U>& scalarValue, const int32_t& calCount, PIPEV_LOC) {         \
        pipev::detail::count_form(pipev::detail::head_tu<T, U>(STMT), calCount, loc,               \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
            s.op("%s", pipev::detail::scalar_text<U>(scalarValue).c_str());                        \
        });                                                                                        \
    }                                                                                              \
    template <typename T, typename U, bool isSetMask = true, class M>                              \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src,                                \
              const pipev::NoDeduce<U>& scalarValue, const M& mask, const uint8_t repeatTimes,     \
              const UnaryRepeatParams& repeatParams, PIPEV_LOC) {                                  \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::hd_form<pipev::detail::wide_t<T, U>>(                                       \
            pipev::detail::head_tu<T, U>(STMT), isSetMask ? &m : nullptr, repeatTimes,             \
            pipev::detail::unary_stride(repeatParams), loc, [&](pipev::detail::Stmt& s) {          \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
            s.op("%s", pipev::detail::scalar_text<U>(scalarValue).c_str());                        \
        });                                                                                        \
    }
#define PIPEV_ASCENDC_BINARY_MIXED(NAME, STMT)                                                     \
    PIPEV_ASCENDC_BINARY(NAME, STMT)                                                               \
    template <typename T, typename U, bool isSetMask = true>                                       \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,   \
              const int32_t& calCount, PIPEV_LOC) {                                                \
        pipev::detail::count_form(pipev::detail::head_tu<T, U>(STMT), calCount, loc,               \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src0, src1);                                        \
        });                                                                                        \
    }                                                                                              \
    template <typename T, typename U, bool isSetMask = true, class M>                              \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,   \
              const M& mask, const uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,    \
              PIPEV_LOC) {                                                                         \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::hd_form<pipev::detail::wide_t<T, U>>(                                       \
            pipev::detail::head_tu<T, U>(STMT), isSetMask ? &m : nullptr, repeatTimes,             \
            pipev::detail::binary_stride(repeatParams), loc, [&](pipev::detail::Stmt& s) {         \
            pipev::detail::ub_ops(s, loc, dst, src0, src1);                                        \
        });                                                                                        \
    }
// flex_scalar (#27): ascend950 Ands Ors Divs — src0 or src1 a scalar (see flex_pair);
// scalar_flex (h27c): the same overloads for Adds Muls Maxs Mins Subs, beside their scalar shape,
// only where that shape does not apply (the scalar first, or two tensors and a BinaryConfig)
#define PIPEV_ASCENDC_FLEX_SCALAR(NAME, STMT) PIPEV_ASCENDC_FLEX_SCALAR_WHEN(NAME, STMT, true)
#define PIPEV_ASCENDC_SCALAR_FLEX(NAME, STMT)                                                      \
    PIPEV_ASCENDC_FLEX_SCALAR_WHEN(NAME, STMT, !(pipev::detail::is_local<S> &&                     \
                                                 !pipev::detail::is_local<V>))
#define PIPEV_ASCENDC_FLEX_SCALAR_WHEN(NAME, STMT, WHEN)                                           \
    template <typename T = BinaryDefaultType, bool isSetMask = true,                               \
              const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename U, typename S,          \
              typename V, std::enable_if_t<(WHEN), int> = 0>                                       \
    void NAME(const U& dst, const S& src0, const V& src1, const int32_t& count, PIPEV_LOC) {       \
        using E = typename U::PrimType;                                                            \
        pipev::detail::flex_pair<config, E>(src0, src1, [&](const auto& a, const auto& b) {        \
            pipev::detail::count_form(pipev::detail::head<E>(STMT), count, loc,                    \
                                      [&](pipev::detail::Stmt& s) {                                \
                pipev::detail::ub_ops(s, loc, dst);                                                \
                pipev::detail::src_op<E>(s, a, loc);                                               \
                pipev::detail::src_op<E>(s, b, loc);                                               \
            });                                                                                    \
        });                                                                                        \
    }                                                                                              \
    template <typename T = BinaryDefaultType, bool isSetMask = true,                               \
              const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename U, typename S,          \
              typename V, class M, std::enable_if_t<(WHEN), int> = 0>                              \
    void NAME(const U& dst, const S& src0, const V& src1, const M& mask, const uint8_t repeatTime, \
              const UnaryRepeatParams& repeatParams, PIPEV_LOC) {                                  \
        using E = typename U::PrimType;                                                            \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::flex_pair<config, E>(src0, src1, [&](const auto& a, const auto& b) {        \
            pipev::detail::hd_form<E>(pipev::detail::head<E>(STMT), isSetMask ? &m : nullptr,      \
                                      repeatTime, pipev::detail::unary_stride(repeatParams), loc,  \
                                      [&](pipev::detail::Stmt& s) {                                \
                pipev::detail::ub_ops(s, loc, dst);                                                \
                pipev::detail::src_op<E>(s, a, loc);                                               \
                pipev::detail::src_op<E>(s, b, loc);                                               \
            });                                                                                    \
        });                                                                                        \
    }
// shift_tensor (h27c): ascend950 ShiftLeft / ShiftRight by a LocalTensor of counts, U signed of
// T's width (its elements named in T: the statement's vshlv / vshrv read their bits as signed)
#define PIPEV_ASCENDC_SHIFT_TENSOR(NAME, STMT)                                                     \
    template <typename T, typename U>                                                              \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1,   \
              const int32_t& count, PIPEV_LOC) {                                                   \
        static_assert(sizeof(T) == sizeof(U), #NAME ": the counts' type must be T's width");       \
        pipev::detail::count_form(pipev::detail::head<T>(STMT), count, loc,                        \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src0, src1.template ReinterpretCast<T>());          \
        });                                                                                        \
    }
// scalar_round (#27): ShiftRight — the scalar shape, its high-dimensional forms ending in
// `bool roundEn = false` (round_en=1 when true; a chip without rounding shifts refuses it)
#define PIPEV_ASCENDC_SCALAR_ROUND(NAME, STMT)                                                     \
    template <typename T, bool isSetMask = true>                                                   \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                \
              const pipev::NoDeduce<T>& scalarValue, const int32_t& calCount, PIPEV_LOC) {         \
        pipev::detail::count_form(pipev::detail::head<T>(STMT), calCount, loc,                     \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
            s.op("%s", pipev::detail::scalar_text<T>(scalarValue).c_str());                        \
        });                                                                                        \
    }                                                                                              \
    template <typename T, bool isSetMask = true, class M>                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                \
              const pipev::NoDeduce<T>& scalarValue, const M& mask, const uint8_t repeatTimes,     \
              const UnaryRepeatParams& repeatParams, bool roundEn = false, PIPEV_LOC) {            \
        auto m = pipev::detail::mask_of(mask);                                                     \
        pipev::detail::hd_form<T>(pipev::detail::head<T>(STMT), isSetMask ? &m : nullptr,          \
                                  repeatTimes, pipev::detail::unary_stride(repeatParams), loc,     \
                                  [&](pipev::detail::Stmt& s) {                                    \
            pipev::detail::ub_ops(s, loc, dst, src);                                               \
            s.op("%s", pipev::detail::scalar_text<T>(scalarValue).c_str());                        \
            if (roundEn) s.op("round_en=1");                                                       \
        });                                                                                        \
    }
}  // namespace AscendC
#include "bindings.h"
#endif
