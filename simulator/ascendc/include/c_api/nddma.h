// c_api/nddma.h: the C API's multi-dimensional GM -> UB copy (ascend950, #34): asc_ndim_copy_gm2ub
// and the setters whose values it reads (asc_set_ndim_loopK_stride, asc_set_ndim_pad_count,
// asc_set_ndim_pad_value), from their pages. The setters are S-pipe register writes: pipev keeps
// their values and each copy carries them in its copy_gm_to_ub_nd statement (as DataCopyPad
// carries SetPadValue's). Clean room.
#ifndef PIPEV_C_API_NDDMA_H
#define PIPEV_C_API_NDDMA_H

enum class asc_load_l2_cache_mode : uint8_t {
    NORMAL_FIRST_VICTIM = 0,
    NORMAL_LAST_VICTIM = 1,
    NORMAL_PERSISTENT = 2,
    NOTALLOC_KEEP = 4,
    NOTALLOC_CLEAN = 5,
    NOTALLOC_DROP = 6
};
constexpr uint64_t ASC_DEFAULT_NDIM_PAD_COUNT_CONFIG_VALUE = 0;
union asc_ndim_pad_count_config {
    uint64_t config = ASC_DEFAULT_NDIM_PAD_COUNT_CONFIG_VALUE;
    __extension__ struct {  // the page's anonymous struct (__extension__: ISO C++ has none)
        uint8_t loop1_lp_count;
        uint8_t loop1_rp_count;
        uint8_t loop2_lp_count;
        uint8_t loop2_rp_count;
        uint8_t loop3_lp_count;
        uint8_t loop3_rp_count;
        uint8_t loop4_lp_count;
        uint8_t loop4_rp_count;
    };
};

namespace pipev::detail {
// the NDDMA registers: each loop's strides, loops 1-4's padding, the pad value's bits
struct NdRegs {
    uint64_t dst[5] = {}, src[5] = {};
    uint64_t pad_counts = 0;
    uint64_t pad_bits = 0;
};
inline NdRegs& nd_regs() { static NdRegs r; return r; }
template <class T> void set_nd_pad_value(T v) { nd_regs().pad_bits = bits_of(v); }
template <class T> void ndim_copy(T* dst, T* src, const uint32_t (&size)[5], uint8_t lp0,
                                  uint8_t rp0, bool padding_mode, Loc loc) {
    const NdRegs& r = nd_regs();
    NdLoops l;
    for (int d = 0; d < 5; ++d) {
        l.size[d] = size[d];
        l.src[d] = r.src[d];
        l.dst[d] = r.dst[d];
        l.lp[d] = d ? (r.pad_counts >> (16 * (d - 1))) & 0xff : lp0;
        l.rp[d] = d ? (r.pad_counts >> (16 * (d - 1) + 8)) & 0xff : rp0;
    }
    // the register's low sizeof(T) bytes are the value (the page: fp8 values are set as int8_t)
    nd_copy<T>(dst, src, l, 5, !padding_mode, raw_text(r.pad_bits, sizeof(T)),
               loc, [](Stmt& s, const void* d, const void* g, Loc at) {
                   ub_ptr(s, static_cast<const T*>(d), at);
                   gm_ptr_op(s, g, at);
               });
}
}  // namespace pipev::detail

#define PIPEV_NDIM_STRIDE(K)                                                                      \
    inline void asc_set_ndim_loop##K##_stride(uint64_t dst_stride, uint64_t src_stride,          \
                                              PIPEV_LOC) {                                        \
        (void)loc;                                                                                \
        pipev::detail::nd_regs().dst[K] = dst_stride;                                             \
        pipev::detail::nd_regs().src[K] = src_stride;                                             \
    }
PIPEV_NDIM_STRIDE(0)
PIPEV_NDIM_STRIDE(1)
PIPEV_NDIM_STRIDE(2)
PIPEV_NDIM_STRIDE(3)
PIPEV_NDIM_STRIDE(4)
#undef PIPEV_NDIM_STRIDE
inline void asc_set_ndim_pad_count(asc_ndim_pad_count_config& config, PIPEV_LOC) {
    (void)loc;
    pipev::detail::nd_regs().pad_counts = config.config;
}
#define PIPEV_NDIM_PAD_VALUE(T)                                                                   \
    inline void asc_set_ndim_pad_value(T pad_value, PIPEV_LOC) {                                 \
        (void)loc;                                                                                \
        pipev::detail::set_nd_pad_value(pad_value);                                               \
    }
PIPEV_NDIM_PAD_VALUE(int8_t)
PIPEV_NDIM_PAD_VALUE(uint8_t)
PIPEV_NDIM_PAD_VALUE(int16_t)
PIPEV_NDIM_PAD_VALUE(uint16_t)
PIPEV_NDIM_PAD_VALUE(half)
PIPEV_NDIM_PAD_VALUE(bfloat16_t)
PIPEV_NDIM_PAD_VALUE(int32_t)
PIPEV_NDIM_PAD_VALUE(uint32_t)
PIPEV_NDIM_PAD_VALUE(float)
#undef PIPEV_NDIM_PAD_VALUE

// asc_ndim_copy_gm2ub: the page's element types (fp8_e8m0_t aside: pipev has no such type);
// l2_cache_mode (or the deprecated uint8_t cache_mode) has no effect on pipev's GM
#define PIPEV_NDIM_COPY(T)                                                                        \
    inline void asc_ndim_copy_gm2ub(__ubuf__ T* dst, __gm__ T* src, uint32_t loop0_size,          \
                                    uint32_t loop1_size, uint32_t loop2_size,                     \
                                    uint32_t loop3_size, uint32_t loop4_size,                     \
                                    uint8_t loop0_lp_count, uint8_t loop0_rp_count,               \
                                    bool padding_mode, asc_load_l2_cache_mode l2_cache_mode,      \
                                    PIPEV_LOC) {                                                  \
        (void)l2_cache_mode;                                                                      \
        pipev::detail::ndim_copy(dst, src, {loop0_size, loop1_size, loop2_size, loop3_size,       \
                                 loop4_size}, loop0_lp_count, loop0_rp_count, padding_mode, loc); \
    }                                                                                             \
    inline void asc_ndim_copy_gm2ub(__ubuf__ T* dst, __gm__ T* src, uint32_t loop0_size,          \
                                    uint32_t loop1_size, uint32_t loop2_size,                     \
                                    uint32_t loop3_size, uint32_t loop4_size,                     \
                                    uint8_t loop0_lp_count, uint8_t loop0_rp_count,               \
                                    bool padding_mode, uint8_t cache_mode, PIPEV_LOC) {           \
        (void)cache_mode;                                                                         \
        pipev::detail::ndim_copy(dst, src, {loop0_size, loop1_size, loop2_size, loop3_size,       \
                                 loop4_size}, loop0_lp_count, loop0_rp_count, padding_mode, loc); \
    }
PIPEV_NDIM_COPY(int8_t)
PIPEV_NDIM_COPY(uint8_t)
PIPEV_NDIM_COPY(fp4x2_e2m1_t)
PIPEV_NDIM_COPY(fp4x2_e1m2_t)
PIPEV_NDIM_COPY(fp8_e5m2_t)
PIPEV_NDIM_COPY(fp8_e4m3fn_t)
PIPEV_NDIM_COPY(int16_t)
PIPEV_NDIM_COPY(uint16_t)
PIPEV_NDIM_COPY(half)
PIPEV_NDIM_COPY(bfloat16_t)
PIPEV_NDIM_COPY(int32_t)
PIPEV_NDIM_COPY(uint32_t)
PIPEV_NDIM_COPY(float)
#undef PIPEV_NDIM_COPY
#endif
