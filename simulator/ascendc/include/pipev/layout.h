// pipev/layout.h: Brcb and CreateVecIndex (issue 28). Brcb issues one `brcb` statement
// (isa/api.py → vbrcb; MASK is not considered by the instruction, so the call sets none);
// CreateVecIndex one `create_vec_index` statement in the duplicate forms (→ vci); Transpose one
// `transpose` statement (→ vtranspose, 16 x 16 two-byte elements).
#ifndef PIPEV_LAYOUT_H
#define PIPEV_LAYOUT_H
#include "vector.h"

namespace AscendC {
// Brcb's strides: dst's block stride and repeat stride in 32-byte blocks (the other fields of
// the vendor's struct are reserved).
struct BrcbRepeatParams {
    BrcbRepeatParams() = default;
    BrcbRepeatParams(uint16_t dstBlk, uint16_t dstRep) : dstBlkStride(dstBlk), dstRepStride(dstRep) {}
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
};

template <typename T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
          const BrcbRepeatParams& repeatParams, PIPEV_LOC) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb: T is a 16- or 32-bit type");
    pipev::detail::Stmt s("brcb.%s", pipev::type_name<T>);
    pipev::detail::ub_op(s, dst, loc);
    pipev::detail::ub_op(s, src0, loc);
    s.key("repeat", repeatTime);
    s.op("stride=%u,%u", unsigned(repeatParams.dstBlkStride), unsigned(repeatParams.dstRepStride));
    s.issue(loc);
}

// first value, then the first COUNT elements
template <typename T>
void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count, PIPEV_LOC) {
    pipev::detail::Stmt s("create_vec_index.%s", pipev::type_name<T>);
    pipev::detail::ub_op(s, dst, loc);
    s.op("%s", pipev::detail::scalar_text(firstValue).c_str());
    s.key("count", count);
    s.issue(loc);
}
template <typename T>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask[], uint8_t repeatTime,
                    uint16_t dstBlkStride, uint8_t dstRepStride, PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::hd_form<T>(pipev::detail::head<T>("create_vec_index"), &m, repeatTime,
                              pipev::detail::format("stride=%u,1,%u,8", unsigned(dstBlkStride),
                                                    unsigned(dstRepStride)), loc,
                              [&](pipev::detail::Stmt& s) {
        pipev::detail::ub_op(s, dst, loc);
        s.op("%s", pipev::detail::scalar_text(firstValue).c_str());
    });
}
template <typename T>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask, uint8_t repeatTime,
                    uint16_t dstBlkStride, uint8_t dstRepStride, PIPEV_LOC) {
    auto m = pipev::detail::mask_of(mask);
    pipev::detail::hd_form<T>(pipev::detail::head<T>("create_vec_index"), &m, repeatTime,
                              pipev::detail::format("stride=%u,1,%u,8", unsigned(dstBlkStride),
                                                    unsigned(dstRepStride)), loc,
                              [&](pipev::detail::Stmt& s) {
        pipev::detail::ub_op(s, dst, loc);
        s.op("%s", pipev::detail::scalar_text(firstValue).c_str());
    });
}

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW
};
struct TransposeParamsExt {
    TransposeParamsExt() {}
    TransposeParamsExt(const uint16_t n, const uint16_t c, const uint16_t h, const uint16_t w,
                       const TransposeType type)
        : nSize(n), cSize(c), hSize(h), wSize(w), transposeType(type) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};
// the 16 x 16 form
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, PIPEV_LOC) {
    pipev::detail::Stmt s("transpose.%s", pipev::type_name<T>);
    pipev::detail::ub_ops(s, loc, dst, src);
    s.issue(loc);
}
// the enhanced form: TRANSPOSE_ND2ND_B16 is the 16 x 16 form (no temporary buffer); pipev does
// not model the NCHW <-> NHWC conversions (an error at the call)
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& params,
               PIPEV_LOC) {
    (void)sharedTmpBuffer;
    if (params.transposeType == TransposeType::TRANSPOSE_TYPE_NONE) return;
    if (params.transposeType != TransposeType::TRANSPOSE_ND2ND_B16)
        pipev::detail::error(loc, "Transpose: pipev models TRANSPOSE_ND2ND_B16 (and "
                             "TRANSPOSE_TYPE_NONE); the other transpose types are not modelled");
    if (params.hSize != 16 || params.wSize != 16)
        pipev::detail::error(loc, "Transpose TRANSPOSE_ND2ND_B16: hSize and wSize must be 16");
    Transpose(dst, src, loc);
}
}  // namespace AscendC
#endif
