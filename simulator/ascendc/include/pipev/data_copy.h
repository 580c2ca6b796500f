// pipev/data_copy.h: DataCopy (GM->UB, UB->GM, UB->UB) as pipev's DMA statements, and
// DataCopyPad as the byte-granular copy_gm_to_ub_pad / copy_ub_to_gm_pad (SetPadValue sets the
// value a DataCopyPad with isPad false pads with; without one the padding is left unwritten).
#ifndef PIPEV_DATA_COPY_H
#define PIPEV_DATA_COPY_H
#include "loop_mode.h"  // ascend950: SetLoopModePara / ResetLoopModePara (#34 r6)
#include "tensor.h"

namespace pipev::detail {
// SetPadValue's value (its bits as text) and type, for DataCopyPad with isPad false
inline std::string& pad_value_text() { static std::string text; return text; }
inline const char*& pad_value_type() { static const char* name = nullptr; return name; }

// The count form moves whole 32-byte blocks, like the hardware: a tail is not copied.
inline uint64_t count_blocks(uint64_t bytes, Loc loc) {
    if (bytes < 32) error(loc, "DataCopy of %llu bytes: less than one 32-byte block (use "
                          "DataCopyPad for unaligned data)", (unsigned long long)bytes);
    if (bytes % 32)
        warning(loc, "DataCopy of %llu bytes is not a multiple of 32: the last %llu bytes are not "
                "copied (DataCopy moves 32-byte blocks; use DataCopyPad)",
                (unsigned long long)bytes, (unsigned long long)(bytes % 32));
    return bytes / 32;
}
inline void dma_keys(Stmt& s, uint64_t nburst, uint64_t burst, uint64_t src_gap, uint64_t dst_gap) {
    s.key("nburst", nburst).key("burst", burst).key("src_gap", src_gap).key("dst_gap", dst_gap);
}
template <class X> struct is_gm : std::false_type {};
template <class T> struct is_gm<AscendC::GlobalTensor<T>> : std::true_type {};
template <class T> void copy_op(Stmt& s, const AscendC::LocalTensor<T>& t, Loc loc) {
    ub_op(s, t, loc);
}
template <class T> void copy_op(Stmt& s, const AscendC::GlobalTensor<T>& t, Loc loc) {
    gm_op(s, t, loc);
}
// One DataCopy: the DMA statement its operands' kinds name, then KEYS(s) (count or params).
template <class D, class S, class Keys> void data_copy(const D& dst, const S& src, Loc loc,
                                                       Keys keys) {
    Stmt s(is_gm<D>::value ? "copy_ub_to_gm" : is_gm<S>::value ? "copy_gm_to_ub"
                                                                : "copy_ub_to_ub");
    copy_op(s, dst, loc);
    copy_op(s, src, loc);
    keys(s);
    s.issue(loc);
}
// The count form moves whole blocks; the params form gives bursts and gaps.
template <class T, class D, class S> void copy_count(const D& dst, const S& src, uint32_t count,
                                                     Loc loc) {
    if (is_int4<T> && count % 2)
        error(loc, "DataCopy of %u int4b_t elements: an odd count splits a byte (two elements a "
              "byte)", count);
    data_copy(dst, src, loc, [&](Stmt& s) {
        s.op("nburst=1").key("burst", count_blocks(elem_bytes<T>(count), loc));
    });
}
template <class D, class S> void copy_params(const D& dst, const S& src,
                                             const AscendC::DataCopyParams& p, Loc loc) {
    data_copy(dst, src, loc, [&](Stmt& s) {
        dma_keys(s, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
    });
}

// #34: ascend950's NDDMA, `copy_gm_to_ub_nd.T DST, SRC, sizeK=, src_strideK=, dst_strideK=, lpK=,
// rpK= (K < DIMS), nearest=1 | pad_value=V`: the AscendC DataCopy (NdDmaParams) and the C API's
// asc_ndim_copy_gm2ub faces both issue it through here.
struct NdLoops {
    uint64_t size[5] = {1, 1, 1, 1, 1}, src[5] = {}, dst[5] = {}, lp[5] = {}, rp[5] = {};
};
template <class T> void nd_copy(const void* dst_op, const void* src_op, const NdLoops& l,
                                int dims, bool nearest, const std::string& pad, Loc loc,
                                void (*ops)(Stmt&, const void*, const void*, Loc)) {
    Stmt s("copy_gm_to_ub_nd.%s", pipev::type_name<T>);
    ops(s, dst_op, src_op, loc);
    static const char* const names[5][5] = {
        {"size0", "src_stride0", "dst_stride0", "lp0", "rp0"},
        {"size1", "src_stride1", "dst_stride1", "lp1", "rp1"},
        {"size2", "src_stride2", "dst_stride2", "lp2", "rp2"},
        {"size3", "src_stride3", "dst_stride3", "lp3", "rp3"},
        {"size4", "src_stride4", "dst_stride4", "lp4", "rp4"}};
    for (int d = 0; d < dims; ++d) {
        s.key(names[d][0], l.size[d]).key(names[d][1], l.src[d]).key(names[d][2], l.dst[d]);
        s.key(names[d][3], l.lp[d]).key(names[d][4], l.rp[d]);
    }
    if (nearest) s.op("nearest=1");
    else s.op("pad_value=%s", pad.c_str());
    s.issue(loc);
}

// The byte-granular copies (DataCopyPad, the C API's asc_copy_*_align), one statement per
// iteration of the direction's loop mode (pipev/loop_mode.h): OPS(s, src_offset, dst_offset)
// names the operands, moved by the iteration's bytes; gaps as the statements take them (GM in
// bytes, UB in 32-byte blocks). PAD: the pad_value= text, or empty for none.
struct PadIn {
    uint64_t nburst, len, src_gap, dst_gap, left, right;
    bool compact;
    std::string pad;
};
template <class T, class Ops> void pad_copy_in(const PadIn& p, Ops ops, Loc loc) {
    align_loops(gm2ub_loops(), [&](uint64_t so, uint64_t dso) {
        Stmt s("copy_gm_to_ub_pad.%s", type_name<T>);
        ops(s, so, dso);
        s.key("nburst", p.nburst).key("len", p.len);
        s.key("src_gap", p.src_gap).key("dst_gap", p.dst_gap);
        s.key("left_pad", p.left).key("right_pad", p.right);
        if (p.compact) s.op("compact=1");
        if (!p.pad.empty()) s.op("pad_value=%s", p.pad.c_str());
        s.issue(loc);
    });
}
template <class T, class Ops> void pad_copy_out(uint64_t nburst, uint64_t len, uint64_t src_gap,
                                                uint64_t dst_gap, Ops ops, Loc loc) {
    align_loops(ub2gm_loops(), [&](uint64_t so, uint64_t dso) {
        Stmt s("copy_ub_to_gm_pad.%s", type_name<T>);
        ops(s, so, dso);
        s.key("nburst", nburst).key("len", len).key("src_gap", src_gap).key("dst_gap", dst_gap);
        s.issue(loc);
    });
}
}  // namespace pipev::detail

namespace AscendC {
// #34: NDDMA's parameter structs as the DataCopy (GM -> UB NDDMA) page defines them; the
// operator library's kernels spell them MultiCopy* (same fields)
struct NdDmaConfig {
    static constexpr uint16_t unsetPad = 0xffff;
    bool isNearestValueMode = false;
    uint16_t loopLpSize = unsetPad;  // every loop's left padding, unless unsetPad
    uint16_t loopRpSize = unsetPad;
    bool ascOptimize = false;  // reserved
};
inline constexpr NdDmaConfig kDefaultNdDmaConfig{};
template <uint8_t dim> struct NdDmaLoopInfo {
    uint64_t loopSrcStride[dim] = {0};
    uint32_t loopDstStride[dim] = {0};
    uint32_t loopSize[dim] = {0};
    uint8_t loopLpSize[dim] = {0};
    uint8_t loopRpSize[dim] = {0};
};
template <class T, uint8_t dim> struct NdDmaParams {
    NdDmaLoopInfo<dim> loopInfo;
    T constantValue;
};
using MultiCopyConfig = NdDmaConfig;
inline constexpr MultiCopyConfig kDefaultMultiCopyConfig{};
template <uint8_t dim> using MultiCopyLoopInfo = NdDmaLoopInfo<dim>;
template <class T, uint8_t dim> using MultiCopyParams = NdDmaParams<T, dim>;

template <class T, uint8_t dim, const NdDmaConfig& config = kDefaultNdDmaConfig>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const NdDmaParams<T, dim>& params, PIPEV_LOC) {
    static_assert(dim >= 1 && dim <= 5, "NDDMA moves 1 to 5 dimensions");
    pipev::detail::NdLoops l;
    const auto& info = params.loopInfo;
    for (int d = 0; d < dim; ++d) {
        l.size[d] = info.loopSize[d];
        l.src[d] = info.loopSrcStride[d];
        l.dst[d] = info.loopDstStride[d];
        l.lp[d] = config.loopLpSize == NdDmaConfig::unsetPad ? info.loopLpSize[d]
                                                              : config.loopLpSize;
        l.rp[d] = config.loopRpSize == NdDmaConfig::unsetPad ? info.loopRpSize[d]
                                                              : config.loopRpSize;
    }
    pipev::detail::nd_copy<T>(&dst, &src, l, dim, config.isNearestValueMode,
                              pipev::detail::scalar_text(params.constantValue), loc,
                              [](pipev::detail::Stmt& s, const void* d, const void* g,
                                 pipev::Loc at) {
        pipev::detail::ub_op(s, *static_cast<const LocalTensor<T>*>(d), at);
        pipev::detail::gm_op(s, *static_cast<const GlobalTensor<T>*>(g), at);
    });
}
// NdDmaDci refreshes the NDDMA data cache before a copy (multi-core coherence): pipev's GM has no
// cache, so it issues nothing (docs/ascendc.md)
inline void NdDmaDci(PIPEV_LOC) { (void)loc; }
template <class T> void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                 const uint32_t count, PIPEV_LOC) {
    pipev::detail::copy_count<T>(dst, src, count, loc);
}
template <class T> void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                 const uint32_t count, PIPEV_LOC) {
    pipev::detail::copy_count<T>(dst, src, count, loc);
}
template <class T> void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const uint32_t count, PIPEV_LOC) {
    pipev::detail::copy_count<T>(dst, src, count, loc);
}
template <class T> void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                 const DataCopyParams& p, PIPEV_LOC) {
    pipev::detail::copy_params(dst, src, p, loc);
}
template <class T> void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                 const DataCopyParams& p, PIPEV_LOC) {
    pipev::detail::copy_params(dst, src, p, loc);
}
template <class T> void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const DataCopyParams& p, PIPEV_LOC) {
    pipev::detail::copy_params(dst, src, p, loc);
}

// DataCopyPad: blockLen in bytes, GM-side stride in bytes, UB-side stride in blocks:
// `copy_gm_to_ub_pad.T DST, SRC, nburst=, len=, src_gap=, dst_gap=, left_pad=, right_pad=
// [, pad_value=V]` and `copy_ub_to_gm_pad.T DST, SRC, nburst=, len=, src_gap=, dst_gap=`.
// ascend950's loop mode (SetLoopModePara, pipev/loop_mode.h): one statement per iteration, its
// operands moved by the iteration's byte offsets
// ascend950's PaddingMode (the DataCopyPad GM -> UB page): Compact packs the bursts back to back
// in UB and pads after the last one only (dstStride, leftPadding, rightPadding not in effect)
enum class PaddingMode : uint8_t { Normal = 0, Compact };
template <class T, PaddingMode mode = PaddingMode::Normal>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                 const DataCopyExtParams& p, const DataCopyPadExtParams<T>& pad, PIPEV_LOC) {
    constexpr bool compact = mode == PaddingMode::Compact;
    std::string value = pad.isPad ? pipev::detail::scalar_text(pad.paddingValue)
                        : pipev::detail::pad_value_type() == pipev::type_name<T>
                        ? pipev::detail::pad_value_text() : std::string();
    pipev::detail::pad_copy_in<T>(
        {p.blockCount, p.blockLen, p.srcStride, compact ? 0u : p.dstStride,
         compact ? 0u : pad.leftPadding, compact ? 0u : pad.rightPadding, compact, value},
        [&](pipev::detail::Stmt& s, uint64_t so, uint64_t dso) {
            pipev::detail::ub_op(s, dst[pipev::detail::loop_elements<T>(dso, "UB", loc)], loc);
            pipev::detail::gm_op(s, src[pipev::detail::loop_elements<T>(so, "GM", loc)], loc);
        }, loc);
}
template <class T> void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                    const DataCopyExtParams& p, PIPEV_LOC) {
    pipev::detail::pad_copy_out<T>(
        p.blockCount, p.blockLen, p.srcStride, p.dstStride,
        [&](pipev::detail::Stmt& s, uint64_t so, uint64_t dso) {
            pipev::detail::gm_op(s, dst[pipev::detail::loop_elements<T>(dso, "GM", loc)], loc);
            pipev::detail::ub_op(s, src[pipev::detail::loop_elements<T>(so, "UB", loc)], loc);
        }, loc);
}
template <class T> void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                    const DataCopyParams& p, const DataCopyPadParams& pad,
                                    PIPEV_LOC) {
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride),
                DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding,
                                        static_cast<T>(pad.paddingValue)), loc);
}
template <class T> void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                    const DataCopyParams& p, PIPEV_LOC) {
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride),
                loc);
}
// The value later DataCopyPad calls of type T with isPad false pad with (docs/decisions.md);
// it issues nothing itself (the value travels in each copy's pad_value=).
template <class T, TPosition pos = TPosition::MAX> void SetPadValue(T paddingValue, PIPEV_LOC) {
    (void)loc;
    pipev::detail::pad_value_text() = pipev::detail::scalar_text(paddingValue);
    pipev::detail::pad_value_type() = pipev::type_name<T>;
}
}  // namespace AscendC
#endif
