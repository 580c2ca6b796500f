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
// the enhanced form: TRANSPOSE_ND2ND_B16 is the 16 x 16 form (no temporary buffer);
// TRANSPOSE_NCHW2NHWC / TRANSPOSE_NHWC2NCHW are one `transpose_nchw2nhwc` /
// `transpose_nhwc2nchw` statement (issue 28 item 5: 8-, 16- and 32-bit types; the temporary
// buffer holds the gathers' offsets)
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& params,
               PIPEV_LOC) {
    if (params.transposeType == TransposeType::TRANSPOSE_TYPE_NONE) return;
    if (params.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC ||
        params.transposeType == TransposeType::TRANSPOSE_NHWC2NCHW) {
        pipev::detail::Stmt s(params.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC
                                  ? "transpose_nchw2nhwc.%s" : "transpose_nhwc2nchw.%s",
                              pipev::type_name<T>);
        pipev::detail::ub_ops(s, loc, dst, src, sharedTmpBuffer);
        // the shape is the expansion's (one instruction per element offset): constants
        s.op("nsize=%u, csize=%u, hsize=%u, wsize=%u", unsigned(params.nSize),
             unsigned(params.cSize), unsigned(params.hSize), unsigned(params.wSize));
        s.issue(loc);
        return;
    }
    if (params.transposeType != TransposeType::TRANSPOSE_ND2ND_B16)
        pipev::detail::error(loc, "Transpose: pipev models TRANSPOSE_ND2ND_B16, "
                             "TRANSPOSE_NCHW2NHWC, TRANSPOSE_NHWC2NCHW (and TRANSPOSE_TYPE_NONE);"
                             " the other transpose types are reserved on the vendor page");
    if (params.hSize != 16 || params.wSize != 16)
        pipev::detail::error(loc, "Transpose TRANSPOSE_ND2ND_B16: hSize and wSize must be 16");
    Transpose(dst, src, loc);
}

// TransDataTo5HD's lists (issue 28): the 16 + 16 block addresses go to the address registers
// VA0..VA3 (`set_va`, 8 addresses each: the C API's asc_set_va_reg) and one `vnchwconv_va`
// reads them, as the C API's asc_transto5hd does. The defaults are pipev's (one repeat, strides
// 0: the blocks the lists name).
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
struct TransDataTo5HDParams {
    TransDataTo5HDParams() = default;
    TransDataTo5HDParams(const bool dstHigh, const bool srcHigh, const uint8_t repeat,
                         const uint16_t dstRep, const uint16_t srcRep)
        : dstHighHalf(dstHigh), srcHighHalf(srcHigh), repeatTimes(repeat), dstRepStride(dstRep),
          srcRepStride(srcRep) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};
}  // namespace AscendC

namespace pipev::detail {
// Operand for UB byte address A: the element of a declared tensor of TYPE (else of ESIZE) that
// holds it, else @xN.
inline void ub_at(Stmt& s, uint64_t a, const char* type, size_t esize) {
    const UbTensor* best = nullptr;
    for (auto& t : g.tensors) {
        if (a < t.addr || a >= t.addr + t.count * t.esize || (a - t.addr) % t.esize) continue;
        if (t.type == type) {
            best = &t;
            break;
        }
        if (!best && t.esize == esize) best = &t;
    }
    if (best) s.op("%s[x%d]", best->name.c_str(), s.r((a - best->addr) / best->esize));
    else s.op("@x%d", s.r(a));
}
// `set_va vaN, A0, ..., A7`: address register N = 8 UB byte addresses.
inline void set_va(int va, const uint64_t* a, const char* type, size_t esize, Loc loc) {
    Stmt s("set_va");
    s.op("va%d", va);
    for (int k = 0; k < 8; ++k) ub_at(s, a[k], type, esize);
    s.issue(loc);
}
// `vnchwconv_va.T vaD, vaS, repeat=, stride=DR,SR[, dst_high=, src_high=]`.
template <class T>
void vnchwconv_va(int dst, int src, uint8_t repeat, unsigned dst_rep, unsigned src_rep,
                  bool dst_high, bool src_high, Loc loc) {
    Stmt s("vnchwconv_va.%s", type_name<T>);
    s.op("va%d", dst).op("va%d", src);
    s.key("repeat", repeat);
    s.op("stride=%u,%u", dst_rep, src_rep);
    if constexpr (sizeof(T) == 1) s.op("dst_high=%d", int(dst_high)).op("src_high=%d", int(src_high));
    s.issue(loc);
}
// The 16 + 16 UB byte addresses into VA0..VA3, then the transposition.
template <class T>
void trans_5hd(const uint64_t* dst, const uint64_t* src, const AscendC::TransDataTo5HDParams& p,
               Loc loc) {
    set_va(0, dst, type_name<T>, sizeof(T), loc);
    set_va(1, dst + 8, type_name<T>, sizeof(T), loc);
    set_va(2, src, type_name<T>, sizeof(T), loc);
    set_va(3, src + 8, type_name<T>, sizeof(T), loc);
    vnchwconv_va<T>(0, 2, p.repeatTimes, p.dstRepStride, p.srcRepStride, p.dstHighHalf,
                    p.srcHighHalf, loc);
}
// A GetPhyAddr value (a host address in pipev's UB) as a UB byte address.
inline uint64_t phy_to_ub(uint64_t v, const char* list, int k, Loc loc) {
    auto base = uint64_t(reinterpret_cast<uintptr_t>(bridge().ub));
    if (v < base || v >= base + bridge().ub_bytes)
        error(loc, "TransDataTo5HD: %s[%d] = 0x%llx is not a UB address (take it from "
              "LocalTensor::GetPhyAddr)", list, k, (unsigned long long)v);
    return v - base;
}
}  // namespace pipev::detail

namespace AscendC {
// dstList / srcList: UB addresses (LocalTensor::GetPhyAddr values).
template <typename T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                    uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams, PIPEV_LOC) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "TransDataTo5HD: T is an 8-, 16- or 32-bit type");
    uint64_t d[16], s[16];
    for (int k = 0; k < 16; ++k) {
        d[k] = pipev::detail::phy_to_ub(dstList[k], "dstList", k, loc);
        s[k] = pipev::detail::phy_to_ub(srcList[k], "srcList", k, loc);
    }
    pipev::detail::trans_5hd<T>(d, s, nchwconvParams, loc);
}
// dst / src: UB tensors holding the 16 GetPhyAddr values each (read by the scalar unit, as
// GetValue: the race checks see the reads).
template <typename T>
void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                    const TransDataTo5HDParams& nchwconvParams, PIPEV_LOC) {
    uint64_t d[16], s[16];
    for (uint32_t k = 0; k < 16; ++k) {
        d[k] = dst.GetValue(k, loc);
        s[k] = src.GetValue(k, loc);
    }
    TransDataTo5HD<T>(d, s, nchwconvParams, loc);
}
// dstList / srcList: 16 tensors each (their first elements' blocks).
template <typename T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams, PIPEV_LOC) {
    uint64_t d[16], s[16];
    for (int k = 0; k < 16; ++k) {
        if (dstList[k].region_ < 0 || srcList[k].region_ < 0)
            pipev::detail::error(loc, "TransDataTo5HD: %sList[%d] has no buffer (use "
                                 "AllocTensor, TBuf::Get or LocalMemAllocator::Alloc first)",
                                 dstList[k].region_ < 0 ? "dst" : "src", k);
        d[k] = dstList[k].addr_;
        s[k] = srcList[k].addr_;
    }
    pipev::detail::trans_5hd<T>(d, s, nchwconvParams, loc);
}
}  // namespace AscendC
#endif
