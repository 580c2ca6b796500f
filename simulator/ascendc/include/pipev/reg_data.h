// pipev/reg_data.h: the reg-based unit's unaligned loads and stores, Scatter / Gather, block and
// pair reductions, MaskGenWithRegTensor and the masked Move (issue 34, h34a; clean room, written
// from the public AscendC "Reg矢量计算" pages LoadUnAlign, StoreUnAlign, UnalignRegForLoad /
// UnalignRegForStore, Scatter, Gather, ReduceDataBlock, PairReduceElem, MaskGenWithRegTensor,
// Move). Each call is one .vasm statement (docs/isa.md: vldupre vldu vstu vstupost vsct vgth
// vrgather vredblk* vrpairsum pgenv vrmovm) at the kernel's own line. Included by pipev/reg.h.
#ifndef PIPEV_REG_DATA_H
#define PIPEV_REG_DATA_H

namespace pipev::regalloc {
// the unaligned registers: 4 for loads, 4 for stores (the UnalignReg page), taken by the
// objects' lifetimes like RegTensors
inline uint8_t ufiles[2] = {0, 0};
inline int take_u(int store, Loc loc) {
    for (int r = 0; r < 4; ++r) {
        if (!(ufiles[store] >> r & 1)) {
            ufiles[store] = uint8_t(ufiles[store] | 1u << r);
            return r;
        }
    }
    detail::error(loc, "more than 4 %s live at once (the UnalignReg page: at most 4)",
                  store ? "UnalignRegForStore" : "UnalignRegForLoad");
}
}  // namespace pipev::regalloc

namespace AscendC {
enum class SpecialPurposeReg : uint8_t { AR };
namespace Reg {
// UnalignRegForLoad and UnalignRegForStore are one type: the operator library's slice kernel
// passes a UnalignRegForLoad to StoreUnAlign, which the vendor's compiler accepts (#34 r6). An
// object takes a load register (ul0..ul3) at its first load and a store register (us0..us3) at
// its first store, each file at most 4 (the UnalignReg page), and frees them when it dies.
class UnalignReg {
public:
    explicit UnalignReg(PIPEV_LOC) { (void)loc; }
    UnalignReg(const UnalignReg&) = delete;
    UnalignReg& operator=(const UnalignReg&) = delete;
    ~UnalignReg() {
        for (int f = 0; f < 2; ++f)
            if (ids_[f] >= 0)
                pipev::regalloc::ufiles[f] =
                    uint8_t(pipev::regalloc::ufiles[f] & ~(1u << ids_[f]));
    }
    // the register of file STORE (0: loads, 1: stores), taken at its first use
    int id(int store, pipev::Loc loc) {
        if (ids_[store] < 0) ids_[store] = pipev::regalloc::take_u(store, loc);
        return ids_[store];
    }

private:
    int ids_[2] = {-1, -1};
};
using UnalignRegForLoad = UnalignReg;
using UnalignRegForStore = UnalignReg;

namespace detail_reg {
template <class E, class T>
std::string ub(pipev::detail::Stmt& s, const T* p, pipev::Loc loc) {
    return pipev::regalloc::ub_operand(s, p, pipev::type_name<E>, sizeof(E), loc);
}
}  // namespace detail_reg

// LoadUnAlignPre(ureg, src): ureg made ready for unaligned loads from src.
template <class T = DefaultType, class P>
void LoadUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ P* srcAddr, PIPEV_LOC) {
    pipev::detail::Stmt s("vldupre");
    s.op("ul%d", ureg.id(0, loc));
    s.op("%s", detail_reg::ub<P>(s, srcAddr, loc).c_str()).issue(loc);
}
template <class T = DefaultType, class P>
void LoadUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ P* srcAddr, AddrReg areg, PIPEV_LOC) {
    LoadUnAlignPre<T>(ureg, srcAddr + areg.offset, loc);
}
// LoadUnAlign(dst, ureg, src): the VL bytes at src, any alignment.
template <class T = DefaultType, class U, class P>
void LoadUnAlign(U& dst, UnalignRegForLoad& ureg, __ubuf__ P* srcAddr, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vldu.%s", pipev::type_name<E>);
    s.op("v%d", dst.id()).op("ul%d", ureg.id(0, loc));
    s.op("%s", detail_reg::ub<P>(s, srcAddr, loc).c_str()).issue(loc);
}
template <class T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, class U,
          class P>
void LoadUnAlign(U& dst, UnalignRegForLoad& ureg, __ubuf__ P*& srcAddr, uint32_t postUpdateStride,
                 PIPEV_LOC) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "LoadUnAlign: POST_MODE_NORMAL is not "
                  "supported with a post-update stride");
    LoadUnAlign<T>(dst, ureg, static_cast<__ubuf__ P*>(srcAddr), loc);
    srcAddr += postUpdateStride;
}
template <class T = DefaultType, class U, class P>
void LoadUnAlign(U& dst, UnalignRegForLoad& ureg, __ubuf__ P*& srcAddr, AddrReg areg, uint32_t,
                 PIPEV_LOC) {
    LoadUnAlign<T>(dst, ureg, static_cast<__ubuf__ P*>(srcAddr + areg.offset), loc);
}
// StoreUnAlign(dst, src, ureg, n): src's first n elements to dst, any alignment; dst += n.
template <class T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, class U,
          class P>
void StoreUnAlign(__ubuf__ P*& dstAddr, U& src, UnalignRegForStore& ureg, uint32_t postUpdateStride,
                  PIPEV_LOC) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "StoreUnAlign: POST_MODE_NORMAL is "
                  "not supported with a post-update stride");
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vstu.%s", pipev::type_name<E>);
    s.op("%s", detail_reg::ub<P>(s, dstAddr, loc).c_str());
    s.op("v%d", src.id()).op("us%d", ureg.id(1, loc));
    s.op("x%d", s.r(postUpdateStride)).issue(loc);
    dstAddr += postUpdateStride;
}
// StoreUnAlignPost(dst, ureg, stride): the bytes ureg keeps, ending at dst; dst += stride.
template <class T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, class P>
void StoreUnAlignPost(__ubuf__ P*& dstAddr, UnalignRegForStore& ureg, int32_t postUpdateStride,
                      PIPEV_LOC) {
    pipev::detail::Stmt s("vstupost");
    s.op("us%d", ureg.id(1, loc));
    s.op("%s", detail_reg::ub<P>(s, dstAddr, loc).c_str()).issue(loc);
    dstAddr += postUpdateStride;
}

// Scatter(base, src, index, mask): src[k] to base + index[k] elements where mask enables k
// (8-bit data: 16-bit indices, src's even elements: src[2k] to base + index[k]).
template <class T = DefaultType, class U = DefaultType, class S, class V, class P>
void Scatter(__ubuf__ P* baseAddr, S& src, V& index, MaskReg& mask, PIPEV_LOC) {
    using E = typename S::ElementType;
    static_assert(sizeof(typename V::ElementType) == (sizeof(E) == 1 ? 2 : sizeof(E)),
                  "Scatter takes an index of the data's width (8-bit data: uint16_t; the Scatter "
                  "page's table)");
    pipev::detail::Stmt s("vsct.%s", pipev::type_name<E>);
    s.op("%s", detail_reg::ub<P>(s, baseAddr, loc).c_str());
    s.op("v%d", src.id()).op("v%d", index.id()).op("p%d", mask.id()).issue(loc);
}
// Gather(dst, base, index, mask): dst[k] = base[index[k]] where mask enables k, else 0.
template <class T0 = DefaultType, class T1 = DefaultType, class T2 = DefaultType, class S,
          class P, class V>
void Gather(S& dst, __ubuf__ P* baseAddr, V& index, MaskReg& mask, PIPEV_LOC) {
    using E = typename S::ElementType;
    static_assert(sizeof(typename V::ElementType) == sizeof(E) &&
                  (sizeof(P) == sizeof(E) || (sizeof(P) == 1 && sizeof(E) == 2)),
                  "Gather from UB takes an index of the destination's width and data of its width "
                  "or, into 16-bit elements, 8-bit data (the Gather page's table)");
    if constexpr (sizeof(P) != sizeof(E)) {  // int8_t / uint8_t into the low half, zero-extended
        pipev::detail::Stmt s("vgthw.%s.%s", pipev::type_name<E>, pipev::type_name<P>);
        s.op("v%d", dst.id()).op("%s", detail_reg::ub<P>(s, baseAddr, loc).c_str());
        s.op("v%d", index.id()).op("p%d", mask.id()).issue(loc);
        return;
    }
    pipev::detail::Stmt s("vgth.%s", pipev::type_name<E>);
    s.op("v%d", dst.id()).op("%s", detail_reg::ub<P>(s, baseAddr, loc).c_str());
    s.op("v%d", index.id()).op("p%d", mask.id()).issue(loc);
}
// GatherB(dst, base, index, mask): block j of dst = the 32 bytes at base + index[j] bytes.
template <class T = DefaultType, class U, class P, class S>
void GatherB(U& dst, __ubuf__ P* baseAddr, S& index, MaskReg& mask, PIPEV_LOC) {
    static_assert(sizeof(typename S::ElementType) == 4, "GatherB: a uint32_t index");
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vgthb.%s", pipev::type_name<E>);
    s.op("v%d", dst.id()).op("%s", detail_reg::ub<P>(s, baseAddr, loc).c_str());
    s.op("v%d", index.id()).op("p%d", mask.id()).issue(loc);
}
// Gather(dst, src, index): dst[k] = src[index[k] % N], within registers.
template <class T = DefaultType, class U = DefaultType, class S, class V,
          class = std::enable_if_t<IsRegTensor<std::decay_t<V>>::value>>
void Gather(S& dst, S& src, V& index, PIPEV_LOC) {
    using E = typename S::ElementType;
    pipev::detail::Stmt("vrgather.%s v%d, v%d, v%d", pipev::type_name<E>, dst.id(), src.id(),
                        index.id()).issue(loc);
}

// ReduceDataBlock<type>(dst, src, mask): one result per 32-byte block, in dst's lowest elements.
template <ReduceType type, class T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          class U>
void ReduceDataBlock(U& dst, U& src, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    static const char* names[] = {"sum", "max", "min"};
    pipev::detail::Stmt("vredblk%s.%s v%d, v%d, p%d", names[int(type)], pipev::type_name<E>,
                        dst.id(), src.id(), mask.id()).issue(loc);
}
// ReduceDataBlock<SUM>(RegTensor<int32_t>&, RegTensor<int16_t>&, mask) (and uint32 ← uint16): the
// page's widening sums, exact; the mask is made for the 16-bit source.
template <ReduceType type, class T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          class U, class V, class = std::enable_if_t<!std::is_same_v<U, V>>>
void ReduceDataBlock(U& dst, V& src, MaskReg& mask, PIPEV_LOC) {
    static_assert(type == ReduceType::SUM, "ReduceDataBlock: only SUM widens (int16_t -> int32_t, "
                  "uint16_t -> uint32_t)");
    pipev::detail::Stmt("vredblkwsum.%s.%s v%d, v%d, p%d",
                        pipev::type_name<typename U::ElementType>,
                        pipev::type_name<typename V::ElementType>, dst.id(), src.id(), mask.id())
        .issue(loc);
}
enum class PairReduce : uint8_t { SUM };
// PairReduceElem(dst, src, mask): dst[k] = src[2k] + src[2k+1] in the lower half, the rest 0.
template <PairReduce type = PairReduce::SUM, class T = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, class U>
void PairReduceElem(U& dst, U& src, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt("vrpairsum.%s v%d, v%d, p%d", pipev::type_name<E>, dst.id(), src.id(),
                        mask.id()).issue(loc);
}
// MaskGenWithRegTensor<T, offset>(dst, src): the bits of block offset of src, each widened.
template <class T, int offset = 0, class U>
void MaskGenWithRegTensor(MaskReg& dst, U& src, PIPEV_LOC) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "MaskGenWithRegTensor: b16 or b32");
    static_assert(offset >= 0 && offset < int(8 * sizeof(T)), "MaskGenWithRegTensor: offset in "
                  "[0, 15] for b16, [0, 31] for b32");
    pipev::detail::Stmt s("pgenv.%s", pipev::type_name<T>);
    s.op("p%d", dst.id()).op("v%d", src.id());
    if constexpr (offset != 0) s.op("offset=%d", offset);
    s.issue(loc);
}
// Move(dst, src, mask): the enabled elements of src into dst, the others kept (MERGING).
template <class T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, class U>
void Move(U& dst, U& src, MaskReg& mask, PIPEV_LOC) {
    static_assert(mode == MaskMergeMode::MERGING, "Move: ZEROING is not supported (the Move page)");
    using E = typename U::ElementType;
    pipev::detail::Stmt("vrmovm.%s v%d, v%d, p%d", pipev::type_name<E>, dst.id(), src.id(),
                        mask.id()).issue(loc);
}
template <class T = DefaultType, class U, class = std::enable_if_t<IsRegTensor<U>::value>>
void Move(U& dst, U& src, PIPEV_LOC) {
    pipev::detail::Stmt("vrmov.%s v%d, v%d", pipev::type_name<typename U::ElementType>, dst.id(),
                        src.id()).issue(loc);
}
enum class GatherMaskMode : uint8_t { NO_STORE_REG, STORE_REG };
// Squeeze(dst, src, mask): the enabled elements of src from element 0 on, the rest 0
// (STORE_REG: their bytes into AR, for an AR-form StoreUnAlign).
template <class T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, class U>
void Squeeze(U& dst, U& src, MaskReg& mask, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vrsqz.%s", pipev::type_name<E>);
    s.op("v%d", dst.id()).op("v%d", src.id()).op("p%d", mask.id());
    if constexpr (store == GatherMaskMode::STORE_REG) s.op("ar=1");
    s.issue(loc);
}
enum class HistogramsBinType : uint8_t { BIN0, BIN1 };
enum class HistogramsType : uint8_t { FREQUENCY, ACCUMULATE };
// Histograms<T, U, bin, type>(dst, src, mask): dst[n] += the count of the enabled uint8 values
// equal to n (BIN1: 128 + n); ACCUMULATE: in [0, n] of the bin's range.
template <class T = DefaultType, class U = DefaultType, HistogramsBinType bin = HistogramsBinType::BIN0,
          HistogramsType type = HistogramsType::FREQUENCY, class V, class S>
void Histograms(V& dst, S& src, MaskReg& mask, PIPEV_LOC) {
    pipev::detail::Stmt s("vrhist.%s.%s", pipev::type_name<typename V::ElementType>,
                          pipev::type_name<typename S::ElementType>);
    s.op("v%d", dst.id()).op("v%d", src.id()).op("p%d", mask.id());
    if constexpr (bin == HistogramsBinType::BIN1) s.op("half=highest");
    if constexpr (type == HistogramsType::ACCUMULATE) s.op("cum=1");
    s.issue(loc);
}
template <SpecialPurposeReg spr> void ClearSpr(PIPEV_LOC) {
    static_assert(spr == SpecialPurposeReg::AR, "pipev: ClearSpr models AR only");
    pipev::detail::Stmt("vclrar").issue(loc);
}
// StoreUnAlign(dst, src, ureg), the AR form: AR's bytes of src where the previous AR-form store
// through ureg ended (the first: dst). AR is the simulator's, so the pointer is not moved here:
// the machine keeps the position (docs/semantics.md §15.3).
template <class T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, class U,
          class P>
void StoreUnAlign(__ubuf__ P* const& dstAddr, U& src, UnalignRegForStore& ureg, PIPEV_LOC) {
    using E = typename U::ElementType;
    pipev::detail::Stmt s("vstuar.%s", pipev::type_name<E>);
    s.op("%s", detail_reg::ub<P>(s, dstAddr, loc).c_str());
    s.op("v%d", src.id()).op("us%d", ureg.id(1, loc)).issue(loc);
}
template <class T = DefaultType, class P>
void StoreUnAlignPost(__ubuf__ P* const& dstAddr, UnalignRegForStore& ureg, PIPEV_LOC) {
    pipev::detail::Stmt s("vstupostar");
    s.op("us%d", ureg.id(1, loc));
    s.op("%s", detail_reg::ub<P>(s, dstAddr, loc).c_str()).issue(loc);
}
}  // namespace Reg
}  // namespace AscendC
#endif
