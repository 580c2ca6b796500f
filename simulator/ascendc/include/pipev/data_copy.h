// pipev/data_copy.h: DataCopy (GM->UB, UB->GM, UB->UB) as pipev's DMA statements, and
// DataCopyPad / SetPadValue, which pipev has no instruction for yet (they issue copy_pad and
// set_pad_value, which pipev rejects until the conversions issue adds them).
#ifndef PIPEV_DATA_COPY_H
#define PIPEV_DATA_COPY_H
#include "tensor.h"

namespace pipev::detail {
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
}  // namespace pipev::detail

namespace AscendC {
template <class T> void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                 const uint32_t count, PIPEV_LOC) {
    pipev::detail::Stmt s("copy_gm_to_ub");
    pipev::detail::ub_op(s, dst, loc);
    pipev::detail::gm_op(s, src, loc);
    s.op("nburst=1").key("burst", pipev::detail::count_blocks(uint64_t(count) * sizeof(T), loc));
    s.issue(loc);
}
template <class T> void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                 const uint32_t count, PIPEV_LOC) {
    pipev::detail::Stmt s("copy_ub_to_gm");
    pipev::detail::gm_op(s, dst, loc);
    pipev::detail::ub_op(s, src, loc);
    s.op("nburst=1").key("burst", pipev::detail::count_blocks(uint64_t(count) * sizeof(T), loc));
    s.issue(loc);
}
template <class T> void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const uint32_t count, PIPEV_LOC) {
    pipev::detail::Stmt s("copy_ub_to_ub");
    pipev::detail::ub_op(s, dst, loc);
    pipev::detail::ub_op(s, src, loc);
    s.op("nburst=1").key("burst", pipev::detail::count_blocks(uint64_t(count) * sizeof(T), loc));
    s.issue(loc);
}
template <class T> void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                 const DataCopyParams& p, PIPEV_LOC) {
    pipev::detail::Stmt s("copy_gm_to_ub");
    pipev::detail::ub_op(s, dst, loc);
    pipev::detail::gm_op(s, src, loc);
    pipev::detail::dma_keys(s, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
    s.issue(loc);
}
template <class T> void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                 const DataCopyParams& p, PIPEV_LOC) {
    pipev::detail::Stmt s("copy_ub_to_gm");
    pipev::detail::gm_op(s, dst, loc);
    pipev::detail::ub_op(s, src, loc);
    pipev::detail::dma_keys(s, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
    s.issue(loc);
}
template <class T> void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const DataCopyParams& p, PIPEV_LOC) {
    pipev::detail::Stmt s("copy_ub_to_ub");
    pipev::detail::ub_op(s, dst, loc);
    pipev::detail::ub_op(s, src, loc);
    pipev::detail::dma_keys(s, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
    s.issue(loc);
}

// DataCopyPad: blockLen in bytes, GM-side stride in bytes, UB-side stride in blocks. Not yet in
// pipev: `copy_pad.T DST, SRC, nburst=, len=, src_stride=, dst_stride=[, left=, right=][, pad=V]`.
template <class T> void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                    const DataCopyExtParams& p, const DataCopyPadExtParams<T>& pad,
                                    PIPEV_LOC) {
    pipev::detail::Stmt s("copy_pad.%s", pipev::type_name<T>);
    pipev::detail::ub_op(s, dst, loc);
    pipev::detail::gm_op(s, src, loc);
    s.key("nburst", p.blockCount).key("len", p.blockLen);
    s.key("src_stride", p.srcStride).key("dst_stride", p.dstStride);
    s.key("left", pad.leftPadding).key("right", pad.rightPadding);
    if (pad.isPad) s.op("pad=%s", pipev::detail::scalar_text(pad.paddingValue).c_str());
    s.issue(loc);
}
template <class T> void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                    const DataCopyExtParams& p, PIPEV_LOC) {
    pipev::detail::Stmt s("copy_pad.%s", pipev::type_name<T>);
    pipev::detail::gm_op(s, dst, loc);
    pipev::detail::ub_op(s, src, loc);
    s.key("nburst", p.blockCount).key("len", p.blockLen);
    s.key("src_stride", p.srcStride).key("dst_stride", p.dstStride);
    s.issue(loc);
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
// The value DataCopyPad pads with when isPad is false. Not yet in pipev: `set_pad_value.T V`.
template <class T, TPosition pos = TPosition::MAX> void SetPadValue(T paddingValue, PIPEV_LOC) {
    pipev::detail::Stmt("set_pad_value.%s %s", pipev::type_name<T>,
         pipev::detail::scalar_text(paddingValue).c_str()).issue(loc);
}
}  // namespace AscendC
#endif
