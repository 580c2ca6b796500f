// c_api/reg_data.h: the C API reg section's unaligned loads and stores, Scatter / Gather /
// GatherB, Squeeze (and its AR form), histograms and the block and pair reductions (issue 34, h34a; clean room, written from the public
// C API "reg" pages reg_load, reg_store, compare_and_select, reduce_compute). Each call is the
// AscendC::Reg call of the same meaning (pipev/reg_data.h). Included by c_api/reg.h.
#ifndef PIPEV_C_API_REG_DATA_H
#define PIPEV_C_API_REG_DATA_H

using vector_load_unalign = AscendC::Reg::UnalignRegForLoad;
using vector_store_unalign = AscendC::Reg::UnalignRegForStore;

template <class T>
void asc_loadunalign_pre(vector_load_unalign& dst, __ubuf__ T* src, PIPEV_LOC) {
    AscendC::Reg::LoadUnAlignPre(dst, src, loc);
}
template <class T>
void asc_loadunalign(AscendC::Reg::RegTensor<T>& dst, vector_load_unalign& src0, __ubuf__ T* src1,
                     PIPEV_LOC) {
    AscendC::Reg::LoadUnAlign(dst, src0, src1, loc);
}
template <class T>
void asc_loadunalign_postupdate(AscendC::Reg::RegTensor<T>& dst, vector_load_unalign& src0,
                                __ubuf__ T*& src1, uint32_t count, PIPEV_LOC) {
    AscendC::Reg::LoadUnAlign(dst, src0, src1, count, loc);
}
// asc_storeunalign(dst, ureg, src, count): count elements at dst (the pointer is not updated)
template <class T>
void asc_storeunalign(__ubuf__ T* dst, vector_store_unalign& src0, AscendC::Reg::RegTensor<T>& src1,
                      uint32_t count, PIPEV_LOC) {
    AscendC::Reg::StoreUnAlign(dst, src1, src0, count, loc);
}
// asc_storeunalign_post(dst, ureg): the kept bytes where they belong (its dst is not updated,
// so it is no check of where the stores ended: vstupostar)
template <class T>
void asc_storeunalign_post(__ubuf__ T* dst, vector_store_unalign& src, PIPEV_LOC) {
    AscendC::Reg::StoreUnAlignPost(dst, src, loc);
}
template <class T>
void asc_storeunalign_post_postupdate(__ubuf__ T*& dst, vector_store_unalign& src, int32_t offset,
                                      PIPEV_LOC) {
    AscendC::Reg::StoreUnAlignPost(dst, src, offset, loc);
}
template <class T, class I>
void asc_scatter(__ubuf__ T* dst, AscendC::Reg::RegTensor<T>& src, AscendC::Reg::RegTensor<I>& index,
                 vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::Scatter(dst, src, index, mask, loc);
}
template <class T, class S, class I>
void asc_gather(AscendC::Reg::RegTensor<T>& dst, __ubuf__ S* src, AscendC::Reg::RegTensor<I>& index,
                vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::Gather(dst, src, index, mask, loc);
}
// the register form: dst[i] = src[index[i]] (the page's second group)
template <class T, class I>
void asc_gather(AscendC::Reg::RegTensor<T>& dst, AscendC::Reg::RegTensor<T>& src,
                AscendC::Reg::RegTensor<I>& index, PIPEV_LOC) {
    AscendC::Reg::Gather(dst, src, index, loc);
}
template <class T>
void asc_squeeze(AscendC::Reg::RegTensor<T>& dst, AscendC::Reg::RegTensor<T>& src, vector_bool& mask,
                 PIPEV_LOC) {
    AscendC::Reg::Squeeze(dst, src, mask, loc);
}
template <class T>
void asc_pair_reduce_sum(AscendC::Reg::RegTensor<T>& dst, AscendC::Reg::RegTensor<T>& src,
                         vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::PairReduceElem(dst, src, mask, loc);
}
template <class T>
void asc_gather_datablock(AscendC::Reg::RegTensor<T>& dst, __ubuf__ T* src,
                          AscendC::Reg::RegTensor<uint32_t>& index, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::GatherB(dst, src, index, mask, loc);
}
// the AR forms: asc_squeeze_with_status leaves the kept bytes in AR, asc_storeunalign_postupdate
// stores that many where the last one through the register ended (docs/semantics.md §15.3)
template <class T>
void asc_squeeze_with_status(AscendC::Reg::RegTensor<T>& dst, AscendC::Reg::RegTensor<T>& src,
                             vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::Squeeze<T, AscendC::Reg::GatherMaskMode::STORE_REG>(dst, src, mask, loc);
}
inline void asc_clear_ar_spr(PIPEV_LOC) {
    AscendC::Reg::ClearSpr<AscendC::SpecialPurposeReg::AR>(loc);
}
template <class T>
void asc_storeunalign_postupdate(__ubuf__ T* dst, vector_store_unalign& src0,
                                 AscendC::Reg::RegTensor<T>& src1, PIPEV_LOC) {
    AscendC::Reg::StoreUnAlign(dst, src1, src0, loc);
}
#define PIPEV_C_REG_HIST(name, Bin, Type)                                                       \
    inline void name(vector_uint16_t& dst, vector_uint8_t& src, vector_bool& mask, PIPEV_LOC) {  \
        AscendC::Reg::Histograms<uint8_t, uint16_t, AscendC::Reg::HistogramsBinType::Bin,        \
                                 AscendC::Reg::HistogramsType::Type>(dst, src, mask, loc);       \
    }
PIPEV_C_REG_HIST(asc_frequency_histogram_bin0, BIN0, FREQUENCY)
PIPEV_C_REG_HIST(asc_frequency_histogram_bin1, BIN1, FREQUENCY)
PIPEV_C_REG_HIST(asc_cumulative_histogram_bin0, BIN0, ACCUMULATE)
PIPEV_C_REG_HIST(asc_cumulative_histogram_bin1, BIN1, ACCUMULATE)
#undef PIPEV_C_REG_HIST
// (SUM also int32 <- int16 and uint32 <- uint16: ReduceDataBlock's widening form)
#define PIPEV_C_REG_BLOCK(name, Type)                                                           \
    template <class T, class U>                                                                  \
    void name(AscendC::Reg::RegTensor<T>& dst, AscendC::Reg::RegTensor<U>& src,                 \
              vector_bool& mask, PIPEV_LOC) {                                                    \
        AscendC::Reg::ReduceDataBlock<AscendC::ReduceType::Type>(dst, src, mask, loc);           \
    }
PIPEV_C_REG_BLOCK(asc_reduce_sum_datablock, SUM)
PIPEV_C_REG_BLOCK(asc_reduce_max_datablock, MAX)
PIPEV_C_REG_BLOCK(asc_reduce_min_datablock, MIN)
#undef PIPEV_C_REG_BLOCK
#endif
