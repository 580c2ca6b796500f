// pipev/reg_convert.h: the reg-based unit's conversions and relayouts (issue 34, h34a; clean
// room, written from the public AscendC "Reg矢量计算" pages Cast, Truncate, Arange, Interleave,
// DeInterleave, Pack, UnPack and their auxiliary types CastTrait, RegLayout, SatMode,
// HighLowPart, IndexOrder). Each call is one .vasm statement (docs/isa.md: vrcvt vrtrunc vrarange
// vrintlv vrdintlv vrpack vrunpack) at the kernel's own line. Included by pipev/reg.h.
#ifndef PIPEV_REG_CONVERT_H
#define PIPEV_REG_CONVERT_H

namespace AscendC {
namespace Reg {
enum class RegLayout : int8_t { UNKNOWN = -1, ZERO, ONE, TWO, THREE };
enum class SatMode : int8_t { UNKNOWN = -1, NO_SAT, SAT };
enum class HighLowPart : uint8_t { LOWEST, HIGHEST };
enum class IndexOrder : uint8_t { INCREASE_ORDER, DECREASE_ORDER };
struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    RoundMode roundMode = RoundMode::CAST_NONE;
};
inline constexpr CastTrait defaultCastTrait{};
}  // namespace Reg
// CastTraits the vendor's samples name (softmax_high_performance), read from their names:
// Layout Z(ERO), Mrg(Mode) Z(EROING), Rnd R(INT), Sat N(O_)S(AT); unnamed fields UNKNOWN
inline constexpr Reg::CastTrait layoutZMrgZ{Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN,
                                            Reg::MaskMergeMode::ZEROING, RoundMode::UNKNOWN};
inline constexpr Reg::CastTrait LayoutZMrgZRndRSatNS{Reg::RegLayout::ZERO, Reg::SatMode::NO_SAT,
                                                     Reg::MaskMergeMode::ZEROING,
                                                     RoundMode::CAST_RINT};
namespace Reg {

namespace detail_reg {
// the .vasm round= word of a RoundMode (types.h's order; hybrid: to hifloat8_t only)
constexpr const char* round_word(RoundMode r) {
    constexpr const char* words[] = {"none", "rint", "floor", "ceil", "round", "trunc", "odd",
                                     "hybrid", "none"};  // UNKNOWN (the trait's default): none
    return words[int(r)];
}
inline void cast_keys(pipev::detail::Stmt& s, RoundMode r, SatMode sat, RegLayout part) {
    if (r != RoundMode::CAST_NONE && r != RoundMode::UNKNOWN) s.op("round=%s", round_word(r));
    if (sat != SatMode::UNKNOWN) s.op("sat=%s", sat == SatMode::SAT ? "sat" : "nosat");
    constexpr const char* parts[] = {"zero", "one", "two", "three"};
    if (part != RegLayout::UNKNOWN && part != RegLayout::ZERO) s.op("part=%s", parts[int(part)]);
}
}  // namespace detail_reg

// Cast<DST, SRC, trait>(dst, src, mask): the mask enables source elements; RegLayout picks the
// part of each group of narrow elements read (widening) or written (narrowing).
template <class T = DefaultType, class U = DefaultType, const CastTrait& trait = defaultCastTrait,
          class S, class V>
void Cast(S& dst, V& src, MaskReg& mask, PIPEV_LOC) {
    using D = typename S::ElementType;
    using E = typename V::ElementType;
    static_assert(trait.mrgMode != MaskMergeMode::MERGING, "Cast: MaskMergeMode::MERGING is not "
                  "supported (the Cast page: ZEROING)");
    pipev::detail::Stmt s("vrcvt.%s.%s", pipev::type_name<D>, pipev::type_name<E>);
    s.op("v%d", dst.id()).op("v%d", src.id()).op("p%d", mask.id());
    detail_reg::cast_keys(s, trait.roundMode, trait.satMode, trait.layoutMode);
    s.issue(loc);
}
// ExpSub(dst, src0, src1, mask): e^(src0 - src1) in float (the ExpSub page); half sources:
// the even (RegLayout::ZERO) or odd (ONE) elements, widened.
template <class T = DefaultType, class U = DefaultType, RegLayout layout = RegLayout::ZERO,
          MaskMergeMode mode = MaskMergeMode::ZEROING, class S, class V>
void ExpSub(S& dst, V& src0, V& src1, MaskReg& mask, PIPEV_LOC) {
    static_assert(mode == MaskMergeMode::ZEROING, "ExpSub: MaskMergeMode::MERGING is not "
                  "supported (the ExpSub page)");
    using E = typename V::ElementType;
    pipev::detail::Stmt s("vrexpsub.%s.%s", pipev::type_name<typename S::ElementType>,
                          pipev::type_name<E>);
    s.op("v%d", dst.id()).op("v%d", src0.id()).op("v%d", src1.id()).op("p%d", mask.id());
    if constexpr (sizeof(E) == 2 && layout == RegLayout::ONE) s.op("part=one");
    s.issue(loc);
}
// Truncate<T, roundMode, mode>(dst, src, mask): each float rounded to an integral value, in T.
template <class T = DefaultType, RoundMode roundMode = RoundMode::CAST_RINT,
          MaskMergeMode mode = MaskMergeMode::ZEROING, class S>
void Truncate(S& dst, S& src, MaskReg& mask, PIPEV_LOC) {
    using E = typename S::ElementType;
    static_assert(mode == MaskMergeMode::ZEROING, "Truncate: MERGING is not supported (the "
                  "Truncate page)");
    static_assert(roundMode != RoundMode::CAST_NONE && roundMode != RoundMode::CAST_ODD &&
                  roundMode != RoundMode::CAST_HYBRID, "Truncate: RoundMode CAST_RINT, "
                  "CAST_ROUND, CAST_FLOOR, CAST_CEIL or CAST_TRUNC");
    pipev::detail::Stmt s("vrtrunc.%s", pipev::type_name<E>);
    s.op("v%d", dst.id()).op("v%d", src.id()).op("p%d", mask.id());
    s.op("round=%s", detail_reg::round_word(roundMode)).issue(loc);
}
// Arange(dst, scalarValue): scalarValue + k (DECREASE_ORDER: scalarValue + N-1-k).
template <class T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, class S, class U>
void Arange(S& dst, U scalarValue, PIPEV_LOC) {
    using E = typename S::ElementType;
    pipev::detail::Stmt s("vrarange.%s", pipev::type_name<E>);
    s.op("v%d", dst.id());
    s.op("x%d", s.r(detail_reg::bits(static_cast<E>(scalarValue))));
    if constexpr (order == IndexOrder::DECREASE_ORDER) s.op("desc=1");
    s.issue(loc);
}
#define PIPEV_REG_RELAYOUT(Name, mn, pmn)                                                       \
    template <class T = DefaultType, class U,                                                    \
              class = std::enable_if_t<IsRegTensor<U>::value>>                                   \
    void Name(U& dst0, U& dst1, U& src0, U& src1, PIPEV_LOC) {                                   \
        using E = typename U::ElementType;                                                       \
        pipev::detail::Stmt(mn ".%s v%d, v%d, v%d, v%d", pipev::type_name<E>, dst0.id(),         \
                            dst1.id(), src0.id(), src1.id()).issue(loc);                         \
    }                                                                                            \
    /* the MaskReg form: T's size-bit groups */                                                  \
    template <class T>                                                                           \
    void Name(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1, PIPEV_LOC) {           \
        pipev::detail::Stmt(pmn ".%s p%d, p%d, p%d, p%d", pipev::type_name<T>, dst0.id(),        \
                            dst1.id(), src0.id(), src1.id()).issue(loc);                         \
    }
PIPEV_REG_RELAYOUT(Interleave, "vrintlv", "pintlv")
PIPEV_REG_RELAYOUT(DeInterleave, "vrdintlv", "pdintlv")
#undef PIPEV_REG_RELAYOUT
#define PIPEV_REG_PACK(Name, mn, pmn)                                                           \
    /* the MaskReg form: even bits into one half / one half's bits spread to two */              \
    template <HighLowPart part = HighLowPart::LOWEST>                                            \
    void Name(MaskReg& dst, MaskReg& src, PIPEV_LOC) {                                           \
        pipev::detail::Stmt s(pmn " p%d, p%d", dst.id(), src.id());                              \
        if constexpr (part == HighLowPart::HIGHEST) s.op("half=highest");                        \
        s.issue(loc);                                                                            \
    }                                                                                            \
    template <class T = DefaultType, class U = DefaultType,                                      \
              HighLowPart part = HighLowPart::LOWEST, class S, class V,                          \
              class = std::enable_if_t<IsRegTensor<S>::value>>                                   \
    void Name(S& dst, V& src, PIPEV_LOC) {                                                       \
        pipev::detail::Stmt s(mn ".%s.%s", pipev::type_name<typename S::ElementType>,            \
                              pipev::type_name<typename V::ElementType>);                        \
        s.op("v%d", dst.id()).op("v%d", src.id());                                               \
        if constexpr (part == HighLowPart::HIGHEST) s.op("half=highest");                        \
        s.issue(loc);                                                                            \
    }
PIPEV_REG_PACK(Pack, "vrpack", "ppack")
PIPEV_REG_PACK(UnPack, "vrunpack", "punpack")
#undef PIPEV_REG_PACK
}  // namespace Reg
}  // namespace AscendC
#endif
