// c_api/data_move_align.h: the C API's byte-granular copies asc_copy_gm2ub_align /
// asc_copy_ub2gm_align (size, _sync and ascend950's high-dimensional forms, with the loop-mode
// registers asc_set_gm2ub_loop_size / _loop1_stride / _loop2_stride and their ub2gm twins —
// pipev/loop_mode.h's state, which AscendC's SetLoopModePara sets too — and
// asc_set_copy_pad_val), written from their pages. Each burst group is pipev's DataCopyPad
// statement (copy_gm_to_ub_pad / copy_ub_to_gm_pad); the loop mode's iterations are issued one
// statement each. The pages' strides run head to head in bytes; the statement's gaps run tail to
// head (GM in bytes, UB in 32-byte blocks). Clean room.
#ifndef PIPEV_C_API_DATA_MOVE_ALIGN_H
#define PIPEV_C_API_DATA_MOVE_ALIGN_H

enum class asc_store_l2_cache_mode : uint8_t {
    NORMAL_FIRST_VICTIM = 0,
    NORMAL_LAST_VICTIM = 1,
    NORMAL_PERSISTENT = 2,
    NOTALLOC_CLEAN = 4
};

#include "../pipev/loop_mode.h"  // the loop-mode registers and loop, shared with AscendC's

namespace pipev::detail {
// asc_set_copy_pad_val's bits (set: a value was given)
struct CopyPad {
    bool set = false;
    uint64_t bits = 0;
};
inline CopyPad& copy_pad() { static CopyPad p; return p; }

// A head-to-head STRIDE of N bursts of BYTES each (taking FOOTPRINT bytes) as a tail-to-head gap
// in units of UNIT bytes, or an error naming the API and the parameter.
inline uint64_t align_gap(const char* api, const char* what, uint64_t stride, uint64_t footprint,
                          uint64_t unit, uint16_t n, Loc loc) {
    if (n <= 1) return 0;
    if (stride < footprint || (stride - footprint) % unit)
        error(loc, "%s: %s = %llu with %u bursts each taking %llu bytes: pipev models strides "
              "of at least a burst's bytes, the gap after it a multiple of %llu bytes", api, what,
              (unsigned long long)stride, unsigned(n), (unsigned long long)footprint,
              (unsigned long long)unit);
    return (stride - footprint) / unit;
}
template <class T> void gm2ub_align(T* dst, T* src, uint16_t n_burst, uint32_t len_burst,
                                    uint8_t left, uint8_t right, bool constant_pad,
                                    uint64_t src_stride, uint64_t dst_stride, bool sync, Loc loc) {
    const char* api = "asc_copy_gm2ub_align";
    if (!constant_pad && (left || right))
        error(loc, "%s: padding with the burst's first value (enable_constant_pad false) is not "
              "modelled by pipev; set the value with asc_set_copy_pad_val and pass true", api);
    uint64_t footprint = (uint64_t(left + right) * sizeof(T) + len_burst + 31) / 32 * 32;
    uint64_t src_gap = align_gap(api, "src_stride", src_stride, len_burst, 1, n_burst, loc);
    uint64_t dst_gap = align_gap(api, "dst_stride", dst_stride, footprint, 32, n_burst, loc);
    // the copy's own width of asc_set_copy_pad_val's bits
    std::string pad = (left || right) && copy_pad().set ? raw_text(copy_pad().bits, sizeof(T))
                                                        : std::string();
    pad_copy_in<T>({n_burst, len_burst, src_gap, dst_gap, left, right, false, pad},
                   [&](Stmt& s, uint64_t so, uint64_t dso) {
                       ub_ptr(s, reinterpret_cast<const T*>(
                                     reinterpret_cast<const char*>(dst) + dso), loc);
                       gm_ptr_op(s, reinterpret_cast<const char*>(src) + so, loc);
                   }, loc);
    sync_all(sync, loc);
}
template <class T> void ub2gm_align(T* dst, T* src, uint16_t n_burst, uint32_t len_burst,
                                    uint64_t dst_stride, uint64_t src_stride, bool sync, Loc loc) {
    const char* api = "asc_copy_ub2gm_align";
    uint64_t footprint = (uint64_t(len_burst) + 31) / 32 * 32;
    uint64_t dst_gap = align_gap(api, "dst_stride", dst_stride, len_burst, 1, n_burst, loc);
    uint64_t src_gap = align_gap(api, "src_stride", src_stride, footprint, 32, n_burst, loc);
    pad_copy_out<T>(n_burst, len_burst, src_gap, dst_gap, [&](Stmt& s, uint64_t so, uint64_t dso) {
        gm_ptr_op(s, reinterpret_cast<const char*>(dst) + dso, loc);
        ub_ptr(s, reinterpret_cast<const T*>(reinterpret_cast<const char*>(src) + so), loc);
    }, loc);
    sync_all(sync, loc);
}
}  // namespace pipev::detail

// The size forms (every chip whose page lists them): one burst of SIZE bytes.
template <class T> void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint32_t size,
                                             PIPEV_LOC) {
    pipev::detail::gm2ub_align(dst, src, 1, size, 0, 0, true, 0, 0, false, loc);
}
template <class T> void asc_copy_gm2ub_align_sync(__ubuf__ T* dst, __gm__ T* src, uint32_t size,
                                                  PIPEV_LOC) {
    pipev::detail::gm2ub_align(dst, src, 1, size, 0, 0, true, 0, 0, true, loc);
}
template <class T> void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint32_t size,
                                             PIPEV_LOC) {
    pipev::detail::ub2gm_align(dst, src, 1, size, 0, 0, false, loc);
}
template <class T> void asc_copy_ub2gm_align_sync(__gm__ T* dst, __ubuf__ T* src, uint32_t size,
                                                  PIPEV_LOC) {
    pipev::detail::ub2gm_align(dst, src, 1, size, 0, 0, true, loc);
}
// ascend950's high-dimensional forms; l2_cache_mode (or the deprecated uint8_t) has no effect on
// pipev's GM.
template <class T> void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint16_t n_burst,
                                             uint32_t len_burst, uint8_t left_padding_num,
                                             uint8_t right_padding_num, bool enable_constant_pad,
                                             asc_load_l2_cache_mode l2_cache_mode,
                                             uint64_t src_stride, uint32_t dst_stride,
                                             PIPEV_LOC) {
    (void)l2_cache_mode;
    pipev::detail::gm2ub_align(dst, src, n_burst, len_burst, left_padding_num, right_padding_num,
                               enable_constant_pad, src_stride, dst_stride, false, loc);
}
template <class T> void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint16_t n_burst,
                                             uint32_t len_burst, uint8_t left_padding_num,
                                             uint8_t right_padding_num, bool enable_constant_pad,
                                             uint8_t l2_cache_mode, uint64_t src_stride,
                                             uint32_t dst_stride, PIPEV_LOC) {
    (void)l2_cache_mode;
    pipev::detail::gm2ub_align(dst, src, n_burst, len_burst, left_padding_num, right_padding_num,
                               enable_constant_pad, src_stride, dst_stride, false, loc);
}
template <class T> void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint16_t n_burst,
                                             uint32_t len_burst,
                                             asc_store_l2_cache_mode l2_cache_mode,
                                             uint64_t dst_stride, uint32_t src_stride,
                                             PIPEV_LOC) {
    (void)l2_cache_mode;
    pipev::detail::ub2gm_align(dst, src, n_burst, len_burst, dst_stride, src_stride, false, loc);
}
template <class T> void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint16_t n_burst,
                                             uint32_t len_burst, uint8_t l2_cache_mode,
                                             uint64_t dst_stride, uint32_t src_stride,
                                             PIPEV_LOC) {
    (void)l2_cache_mode;
    pipev::detail::ub2gm_align(dst, src, n_burst, len_burst, dst_stride, src_stride, false, loc);
}
// The pad value later asc_copy_gm2ub_align calls pad with, as bits (the page: fp8/fp4/hifloat8
// values are passed as int8_t, so a copy takes the value's low bytes of its own width).
template <class T> void asc_set_copy_pad_val(T pad_value, PIPEV_LOC) {
    (void)loc;
    pipev::detail::copy_pad() = {true, pipev::detail::bits_of(pad_value)};
}
inline void asc_set_gm2ub_loop_size(uint64_t loop1_size, uint64_t loop2_size, PIPEV_LOC) {
    (void)loc;
    pipev::detail::gm2ub_loops().size1 = loop1_size;
    pipev::detail::gm2ub_loops().size2 = loop2_size;
}
inline void asc_set_gm2ub_loop1_stride(uint64_t src_stride, uint64_t dst_stride, PIPEV_LOC) {
    (void)loc;
    pipev::detail::gm2ub_loops().src1 = src_stride;
    pipev::detail::gm2ub_loops().dst1 = dst_stride;
}
inline void asc_set_gm2ub_loop2_stride(uint64_t src_stride, uint64_t dst_stride, PIPEV_LOC) {
    (void)loc;
    pipev::detail::gm2ub_loops().src2 = src_stride;
    pipev::detail::gm2ub_loops().dst2 = dst_stride;
}
inline void asc_set_ub2gm_loop_size(uint64_t loop1_size, uint64_t loop2_size, PIPEV_LOC) {
    (void)loc;
    pipev::detail::ub2gm_loops().size1 = loop1_size;
    pipev::detail::ub2gm_loops().size2 = loop2_size;
}
inline void asc_set_ub2gm_loop1_stride(uint64_t src_stride, uint64_t dst_stride, PIPEV_LOC) {
    (void)loc;
    pipev::detail::ub2gm_loops().src1 = src_stride;
    pipev::detail::ub2gm_loops().dst1 = dst_stride;
}
inline void asc_set_ub2gm_loop2_stride(uint64_t src_stride, uint64_t dst_stride, PIPEV_LOC) {
    (void)loc;
    pipev::detail::ub2gm_loops().src2 = src_stride;
    pipev::detail::ub2gm_loops().dst2 = dst_stride;
}

// ascend950's asc_lock / asc_unlock: the Mutex statements (AscendC's Mutex::Lock / Unlock).
enum ascMutexExecuteMode { ASC_LOCK_BLOCK = 0, ASC_LOCK_NON_BLOCK = 1 };
inline void asc_lock(pipe_t pipe, uint8_t mutex_id, PIPEV_LOC) {
    pipev::detail::mutex(true, pipe, mutex_id, loc);
}
inline void asc_lock(pipe_t pipe, uint8_t mutex_id, const ascMutexExecuteMode mode, PIPEV_LOC) {
    (void)mode;  // pipev's mutex_lock blocks (a non-blocking lock's effect is not modelled)
    pipev::detail::mutex(true, pipe, mutex_id, loc);
}
inline void asc_unlock(pipe_t pipe, uint8_t mutex_id, PIPEV_LOC) {
    pipev::detail::mutex(false, pipe, mutex_id, loc);
}
inline void asc_unlock(pipe_t pipe, uint8_t mutex_id, const ascMutexExecuteMode mode, PIPEV_LOC) {
    (void)mode;
    pipev::detail::mutex(false, pipe, mutex_id, loc);
}
#endif
