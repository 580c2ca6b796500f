// c_api/reg_compute.h: the C API reg section's aligned loads and stores, element-wise arithmetic
// and logic, fills, copies, compressions, reductions and the memory barrier on ascend950
// (issue 34; clean room, written from the public C API "reg" pages reg_load, reg_store,
// arithmetic_compute, logic_compute, data_fill, data_compress, reduce_compute, sync_control).
// Each call is the AscendC::Reg call of the same meaning (pipev/reg.h), one register
// instruction at the kernel's line; an `int32_t offset` is in elements, as the pages give it.
// Included by c_api/reg.h.
#ifndef PIPEV_C_API_REG_COMPUTE_H
#define PIPEV_C_API_REG_COMPUTE_H
#include <map>
#include <utility>

namespace pipev::capi_reg {
template <class T> using V = AscendC::Reg::RegTensor<T>;
using AscendC::Reg::LoadDist;
using AscendC::Reg::StoreDist;
// the LoadDist a C load name gives for T's width (brc, us, ds, unpack and e2b are per width)
template <class T> constexpr LoadDist brc() {
    return sizeof(T) == 1 ? LoadDist::DIST_BRC_B8 : sizeof(T) == 2 ? LoadDist::DIST_BRC_B16
                                                                   : LoadDist::DIST_BRC_B32;
}
template <class T> constexpr LoadDist upsample() {
    return sizeof(T) == 1 ? LoadDist::DIST_US_B8 : LoadDist::DIST_US_B16;
}
template <class T> constexpr LoadDist downsample() {
    return sizeof(T) == 1 ? LoadDist::DIST_DS_B8 : LoadDist::DIST_DS_B16;
}
template <class T> constexpr LoadDist unpack() {
    return sizeof(T) == 1 ? LoadDist::DIST_UNPACK_B8 : sizeof(T) == 2 ? LoadDist::DIST_UNPACK_B16
                                                                      : LoadDist::DIST_UNPACK_B32;
}
template <class T> constexpr LoadDist e2b() {
    return sizeof(T) == 2 ? LoadDist::DIST_E2B_B16 : LoadDist::DIST_E2B_B32;
}
template <class T> constexpr LoadDist dintlv() {
    return sizeof(T) == 1 ? LoadDist::DIST_DINTLV_B8 : sizeof(T) == 2 ? LoadDist::DIST_DINTLV_B16
                                                                      : LoadDist::DIST_DINTLV_B32;
}
template <class T> constexpr StoreDist pack() {
    return sizeof(T) == 2 ? StoreDist::DIST_PACK_B16 : sizeof(T) == 4 ? StoreDist::DIST_PACK_B32
                                                                      : StoreDist::DIST_PACK_B64;
}
template <class T> constexpr StoreDist intlv() {
    return sizeof(T) == 1 ? StoreDist::DIST_INTLV_B8 : sizeof(T) == 2 ? StoreDist::DIST_INTLV_B16
                                                                      : StoreDist::DIST_INTLV_B32;
}
template <class T> __ubuf__ T* moved(__ubuf__ T* p, uint64_t bytes) {
    return reinterpret_cast<__ubuf__ T*>(reinterpret_cast<uintptr_t>(p) + bytes);
}
}  // namespace pipev::capi_reg

// addr_reg (the C API's address register): asc_update_addr_reg_bN(stride) in a VF's loop gives
// index × stride elements of N bits, the index being the loop's iteration (the hardware loop
// counts it). pipev counts the evaluations of each call site since its VF began, which is the
// iteration for the one-level loops the pages show; the 2-4 level forms are refused at the
// call (pipev cannot see the loop nest a native C++ loop runs) (docs/decisions.md).
struct addr_reg {
    uint64_t bytes = 0;
};
namespace pipev::capi_reg {
inline addr_reg next_addr(uint32_t stride, uint32_t width, Loc loc) {
    struct Site { uint64_t generation; uint64_t count; };
    static std::map<std::pair<const char*, int>, Site> sites;
    Site& s = sites[{loc.file, loc.line}];
    if (s.generation != vf_generation) s = {vf_generation, 0};
    return addr_reg{s.count++ * uint64_t(stride) * width};
}
template <class... S> addr_reg nested_addr(Loc loc, S...) {
    detail::error(loc, "asc_update_addr_reg with %d offsets: pipev follows addr_reg through one "
                  "loop level only (the offset of a nest depends on the hardware loops' counts, "
                  "which a native C++ loop does not show); use one offset, or explicit pointer "
                  "arithmetic", int(sizeof...(S)));
}
}  // namespace pipev::capi_reg
#define PIPEV_C_ADDR_REG(name, width)                                                           \
    inline addr_reg name(uint32_t offset, PIPEV_LOC) {                                           \
        return pipev::capi_reg::next_addr(offset, width, loc);                                   \
    }                                                                                            \
    inline addr_reg name(uint32_t o0, uint32_t o1, PIPEV_LOC) {                                  \
        return pipev::capi_reg::nested_addr(loc, o0, o1);                                        \
    }                                                                                            \
    inline addr_reg name(uint32_t o0, uint32_t o1, uint32_t o2, PIPEV_LOC) {                     \
        return pipev::capi_reg::nested_addr(loc, o0, o1, o2);                                    \
    }                                                                                            \
    inline addr_reg name(uint32_t o0, uint32_t o1, uint32_t o2, uint32_t o3, PIPEV_LOC) {        \
        return pipev::capi_reg::nested_addr(loc, o0, o1, o2, o3);                                \
    }
PIPEV_C_ADDR_REG(asc_update_addr_reg_b8, 1)
PIPEV_C_ADDR_REG(asc_update_addr_reg_b16, 2)
PIPEV_C_ADDR_REG(asc_update_addr_reg_b32, 4)
#undef PIPEV_C_ADDR_REG

// ---- aligned loads: plain, at src + offset, and post-update (src += offset after) -----------
#define PIPEV_C_REG_LOAD(name, Dist)                                                            \
    template <class T> void name(pipev::capi_reg::V<T>& dst, __ubuf__ T* src, PIPEV_LOC) {       \
        AscendC::Reg::LoadAlign<T, Dist>(dst, src, loc);                                         \
    }                                                                                            \
    template <class T>                                                                           \
    void name(pipev::capi_reg::V<T>& dst, __ubuf__ T* src, int32_t offset, PIPEV_LOC) {          \
        AscendC::Reg::LoadAlign<T, Dist>(dst, src + offset, loc);                                \
    }                                                                                            \
    template <class T>                                                                           \
    void name(pipev::capi_reg::V<T>& dst, __ubuf__ T* src, addr_reg offset, PIPEV_LOC) {         \
        AscendC::Reg::LoadAlign<T, Dist>(dst, pipev::capi_reg::moved(src, offset.bytes), loc);   \
    }                                                                                            \
    template <class T>                                                                           \
    void name##_postupdate(pipev::capi_reg::V<T>& dst, __ubuf__ T*& src, int32_t offset,         \
                           PIPEV_LOC) {                                                          \
        AscendC::Reg::LoadAlign<T, Dist>(dst, src, loc);                                         \
        src += offset;                                                                           \
    }
PIPEV_C_REG_LOAD(asc_loadalign, AscendC::Reg::LoadDist::DIST_NORM)
PIPEV_C_REG_LOAD(asc_loadalign_brc_elem, pipev::capi_reg::brc<T>())
PIPEV_C_REG_LOAD(asc_loadalign_upsample, pipev::capi_reg::upsample<T>())
PIPEV_C_REG_LOAD(asc_loadalign_downsample, pipev::capi_reg::downsample<T>())
PIPEV_C_REG_LOAD(asc_loadalign_unpack, pipev::capi_reg::unpack<T>())
PIPEV_C_REG_LOAD(asc_loadalign_unpack4, AscendC::Reg::LoadDist::DIST_UNPACK4_B8)
PIPEV_C_REG_LOAD(asc_loadalign_brc_datablock, AscendC::Reg::LoadDist::DIST_BLK)
PIPEV_C_REG_LOAD(asc_loadalign_brc_elem2datablock, pipev::capi_reg::e2b<T>())
// the deprecated names real samples still use (the pages' v1-v4: brc = brc_elem, brc_v2 =
// brc_datablock, brc_v3 = brc_elem2datablock, unpack_v2 = unpack4; *_postupdate[_vN] alike)
PIPEV_C_REG_LOAD(asc_loadalign_brc, pipev::capi_reg::brc<T>())
PIPEV_C_REG_LOAD(asc_loadalign_brc_v2, AscendC::Reg::LoadDist::DIST_BLK)
PIPEV_C_REG_LOAD(asc_loadalign_brc_v3, pipev::capi_reg::e2b<T>())
PIPEV_C_REG_LOAD(asc_loadalign_unpack_v2, AscendC::Reg::LoadDist::DIST_UNPACK4_B8)
#undef PIPEV_C_REG_LOAD
#define PIPEV_C_REG_LOAD_POST(name, Dist)                                                       \
    template <class T>                                                                           \
    void name(pipev::capi_reg::V<T>& dst, __ubuf__ T*& src, int32_t offset, PIPEV_LOC) {         \
        AscendC::Reg::LoadAlign<T, Dist>(dst, src, loc);                                         \
        src += offset;                                                                           \
    }
PIPEV_C_REG_LOAD_POST(asc_loadalign_brc_postupdate_v2, AscendC::Reg::LoadDist::DIST_BLK)
PIPEV_C_REG_LOAD_POST(asc_loadalign_brc_postupdate_v3, pipev::capi_reg::e2b<T>())
PIPEV_C_REG_LOAD_POST(asc_loadalign_unpack_postupdate_v2, AscendC::Reg::LoadDist::DIST_UNPACK4_B8)
#undef PIPEV_C_REG_LOAD_POST
// the repeat-stride forms (the deprecated v5 page): 8 blocks block_stride blocks apart, at
// src + repeat_stride blocks (plain) or at src, then src += repeat_stride blocks (post-update)
template <class T>
void asc_loadalign(pipev::capi_reg::V<T>& dst, __ubuf__ T* src, uint16_t block_stride,
                   uint16_t repeat_stride, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::LoadAlign<T, AscendC::Reg::DataCopyMode::DATA_BLOCK_COPY,
                            AscendC::Reg::PostLiteral::POST_MODE_NORMAL>(
        dst, src, block_stride, repeat_stride, mask, loc);
}
template <class T>
void asc_loadalign_postupdate(pipev::capi_reg::V<T>& dst, __ubuf__ T*& src, uint16_t block_stride,
                              uint16_t repeat_stride, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::LoadAlign<T, AscendC::Reg::DataCopyMode::DATA_BLOCK_COPY,
                            AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(
        dst, src, block_stride, repeat_stride, mask, loc);
}
// a MaskReg from UB (the vector_bool forms of asc_loadalign[_postupdate])
template <class T> void asc_loadalign(vector_bool& dst, __ubuf__ T* src, PIPEV_LOC) {
    AscendC::Reg::LoadAlign(dst, src, loc);
}
template <class T>
void asc_loadalign_postupdate(vector_bool& dst, __ubuf__ T*& src, int32_t offset, PIPEV_LOC) {
    AscendC::Reg::LoadAlign<T, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(dst, src, offset, loc);
}
// two registers: the even and the odd elements of 2·VL bytes
template <class T>
void asc_loadalign_deintlv(pipev::capi_reg::V<T>& dst0, pipev::capi_reg::V<T>& dst1,
                           __ubuf__ T* src, PIPEV_LOC) {
    AscendC::Reg::LoadAlign<T, pipev::capi_reg::dintlv<T>()>(dst0, dst1, src, loc);
}
template <class T>
void asc_loadalign_deintlv(pipev::capi_reg::V<T>& dst0, pipev::capi_reg::V<T>& dst1,
                           __ubuf__ T* src, int32_t offset, PIPEV_LOC) {
    AscendC::Reg::LoadAlign<T, pipev::capi_reg::dintlv<T>()>(dst0, dst1, src + offset, loc);
}
template <class T>
void asc_loadalign_deintlv_postupdate(pipev::capi_reg::V<T>& dst0, pipev::capi_reg::V<T>& dst1,
                                      __ubuf__ T*& src, int32_t offset, PIPEV_LOC) {
    AscendC::Reg::LoadAlign<T, pipev::capi_reg::dintlv<T>()>(dst0, dst1, src, loc);
    src += offset;
}

// ---- aligned stores ------------------------------------------------------------------------------
#define PIPEV_C_REG_STORE(name, Dist)                                                           \
    template <class T>                                                                           \
    void name(__ubuf__ T* dst, const pipev::capi_reg::V<T>& src, vector_bool& mask, PIPEV_LOC) { \
        AscendC::Reg::StoreAlign<T, Dist>(dst, src, mask, loc);                                  \
    }                                                                                            \
    template <class T>                                                                           \
    void name(__ubuf__ T* dst, const pipev::capi_reg::V<T>& src, int32_t offset, vector_bool& mask, \
              PIPEV_LOC) {                                                                       \
        AscendC::Reg::StoreAlign<T, Dist>(dst + offset, src, mask, loc);                         \
    }                                                                                            \
    template <class T>                                                                           \
    void name(__ubuf__ T* dst, const pipev::capi_reg::V<T>& src, addr_reg offset, vector_bool& mask, \
              PIPEV_LOC) {                                                                       \
        AscendC::Reg::StoreAlign<T, Dist>(pipev::capi_reg::moved(dst, offset.bytes), src, mask,  \
                                          loc);                                                  \
    }                                                                                            \
    template <class T>                                                                           \
    void name##_postupdate(__ubuf__ T*& dst, const pipev::capi_reg::V<T>& src, int32_t offset,   \
                           vector_bool& mask, PIPEV_LOC) {                                       \
        AscendC::Reg::StoreAlign<T, Dist>(dst, src, mask, loc);                                  \
        dst += offset;                                                                           \
    }
PIPEV_C_REG_STORE(asc_storealign, AscendC::Reg::StoreDist::DIST_NORM)
PIPEV_C_REG_STORE(asc_storealign_pack, pipev::capi_reg::pack<T>())
PIPEV_C_REG_STORE(asc_storealign_pack_quarter, AscendC::Reg::StoreDist::DIST_PACK4_B32)
#undef PIPEV_C_REG_STORE
// the deprecated v4 name of the b32 → b16 packing store, and the v5 repeat-stride forms
template <class T>
void asc_storealign_pack_postupdate_v2(__ubuf__ T*& dst, pipev::capi_reg::V<T>& src,
                                       int32_t offset, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::StoreAlign<T, AscendC::Reg::StoreDist::DIST_PACK4_B32>(dst, src, mask, loc);
    dst += offset;
}
template <class T>
void asc_storealign(__ubuf__ T* dst, pipev::capi_reg::V<T>& src, uint16_t block_stride,
                    uint16_t repeat_stride, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::StoreAlign<T, AscendC::Reg::DataCopyMode::DATA_BLOCK_COPY,
                             AscendC::Reg::PostLiteral::POST_MODE_NORMAL>(
        dst, src, block_stride, repeat_stride, mask, loc);
}
template <class T>
void asc_storealign_postupdate(__ubuf__ T*& dst, pipev::capi_reg::V<T>& src,
                               uint16_t block_stride, uint16_t repeat_stride, vector_bool& mask,
                               PIPEV_LOC) {
    AscendC::Reg::StoreAlign<T, AscendC::Reg::DataCopyMode::DATA_BLOCK_COPY,
                             AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(
        dst, src, block_stride, repeat_stride, mask, loc);
}
// element 0 only, whatever a mask would say (the page's forms take none)
template <class T>
void asc_storealign_1st(__ubuf__ T* dst, pipev::capi_reg::V<T>& src, PIPEV_LOC) {
    vector_bool all = AscendC::Reg::CreateMask<T>(loc);
    AscendC::Reg::StoreAlign<T, AscendC::Reg::StoreDist::DIST_FIRST_ELEMENT_B32>(dst, src, all, loc);
}
template <class T>
void asc_storealign_1st(__ubuf__ T* dst, pipev::capi_reg::V<T>& src, int32_t offset, PIPEV_LOC) {
    asc_storealign_1st(dst + offset, src, loc);
}
template <class T>
void asc_storealign_1st_postupdate(__ubuf__ T*& dst, pipev::capi_reg::V<T>& src, int32_t offset,
                                   PIPEV_LOC) {
    asc_storealign_1st(dst, src, loc);
    dst += offset;
}
// a MaskReg to UB
template <class T> void asc_storealign(__ubuf__ T* dst, vector_bool& src, PIPEV_LOC) {
    AscendC::Reg::StoreAlign(dst, src, loc);
}
template <class T>
void asc_storealign_postupdate(__ubuf__ T*& dst, vector_bool& src, int32_t offset, PIPEV_LOC) {
    AscendC::Reg::StoreAlign<T, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(dst, src, offset,
                                                                             loc);
}
// two registers interleaved into 2·VL bytes
template <class T>
void asc_storealign_intlv(__ubuf__ T* dst, pipev::capi_reg::V<T>& src0,
                          pipev::capi_reg::V<T>& src1, PIPEV_LOC) {
    vector_bool all = AscendC::Reg::CreateMask<T>(loc);
    AscendC::Reg::StoreAlign<T, pipev::capi_reg::intlv<T>()>(dst, src0, src1, all, loc);
}

// ---- element-wise ------------------------------------------------------------------------------
#define PIPEV_C_REG_UNARY(name, Call)                                                           \
    template <class T>                                                                           \
    void name(pipev::capi_reg::V<T>& dst, pipev::capi_reg::V<T>& src, vector_bool& mask,         \
              PIPEV_LOC) {                                                                       \
        AscendC::Reg::Call(dst, src, mask, loc);                                                 \
    }
PIPEV_C_REG_UNARY(asc_abs, Abs)
PIPEV_C_REG_UNARY(asc_neg, Neg)
PIPEV_C_REG_UNARY(asc_relu, Relu)
PIPEV_C_REG_UNARY(asc_sqrt, Sqrt)
PIPEV_C_REG_UNARY(asc_exp, Exp)
PIPEV_C_REG_UNARY(asc_ln, Ln)
PIPEV_C_REG_UNARY(asc_not, Not)
PIPEV_C_REG_UNARY(asc_duplicate, Duplicate)
#undef PIPEV_C_REG_UNARY
#define PIPEV_C_REG_BINARY(name, Call)                                                          \
    template <class T>                                                                           \
    void name(pipev::capi_reg::V<T>& dst, pipev::capi_reg::V<T>& src0,                          \
              pipev::capi_reg::V<T>& src1, vector_bool& mask, PIPEV_LOC) {                       \
        AscendC::Reg::Call(dst, src0, src1, mask, loc);                                          \
    }
PIPEV_C_REG_BINARY(asc_madd, MulDstAdd)  // dst = dst * src0 + src1, fused (asc_madd's page)
PIPEV_C_REG_BINARY(asc_and, And)
PIPEV_C_REG_BINARY(asc_or, Or)
PIPEV_C_REG_BINARY(asc_xor, Xor)
#undef PIPEV_C_REG_BINARY
// the MaskReg forms of asc_not / asc_and / asc_or / asc_xor
inline void asc_not(vector_bool& dst, vector_bool& src, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::Not(dst, src, mask, loc);
}
#define PIPEV_C_REG_PLOGIC(name, Call)                                                          \
    inline void name(vector_bool& dst, vector_bool& src0, vector_bool& src1, vector_bool& mask,  \
                     PIPEV_LOC) {                                                                \
        AscendC::Reg::Call(dst, src0, src1, mask, loc);                                          \
    }
PIPEV_C_REG_PLOGIC(asc_and, And)
PIPEV_C_REG_PLOGIC(asc_or, Or)
PIPEV_C_REG_PLOGIC(asc_xor, Xor)
#undef PIPEV_C_REG_PLOGIC
// a scalar operand, of T (the shifts: an int16_t count)
#define PIPEV_C_REG_SCALAR(name, Call)                                                          \
    template <class T, class S>                                                                  \
    void name(pipev::capi_reg::V<T>& dst, pipev::capi_reg::V<T>& src, S value,                   \
              vector_bool& mask, PIPEV_LOC) {                                                    \
        AscendC::Reg::Call(dst, src, value, mask, loc);                                          \
    }
PIPEV_C_REG_SCALAR(asc_add_scalar, Adds)
PIPEV_C_REG_SCALAR(asc_mul_scalar, Muls)
PIPEV_C_REG_SCALAR(asc_max_scalar, Maxs)
PIPEV_C_REG_SCALAR(asc_min_scalar, Mins)
PIPEV_C_REG_SCALAR(asc_leakyrelu, LeakyRelu)
PIPEV_C_REG_SCALAR(asc_shiftleft_scalar, ShiftLefts)
PIPEV_C_REG_SCALAR(asc_shiftright_scalar, ShiftRights)
#undef PIPEV_C_REG_SCALAR
// by a register of counts (signed, of T's width)
template <class T, class U>
void asc_shiftleft(pipev::capi_reg::V<T>& dst, pipev::capi_reg::V<T>& src0,
                   pipev::capi_reg::V<U>& src1, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::ShiftLeft(dst, src0, src1, mask, loc);
}
template <class T, class U>
void asc_shiftright(pipev::capi_reg::V<T>& dst, pipev::capi_reg::V<T>& src0,
                    pipev::capi_reg::V<U>& src1, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::ShiftRight(dst, src0, src1, mask, loc);
}

// ---- fills, copies, compressions -----------------------------------------------------------------
template <class T, class S>
void asc_duplicate_scalar(pipev::capi_reg::V<T>& dst, S value, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::Duplicate(dst, value, mask, loc);
}
template <class T, class S>
void asc_duplicate_scalar(pipev::capi_reg::V<T>& dst, S value, PIPEV_LOC) {
    AscendC::Reg::Duplicate(dst, value, loc);
}
// asc_copy: the active elements of src, the others of dst kept (Move, MERGING)
template <class T>
void asc_copy(pipev::capi_reg::V<T>& dst, pipev::capi_reg::V<T>& src, vector_bool& mask,
              PIPEV_LOC) {
    AscendC::Reg::Move<T, AscendC::Reg::MaskMergeMode::MERGING>(dst, src, mask, loc);
}
inline void asc_copy(vector_bool& dst, vector_bool& src, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::And(dst, src, src, mask, loc);
}
inline void asc_copy(vector_bool& dst, vector_bool& src, PIPEV_LOC) {
    pipev::detail::Stmt("pmov p%d, p%d", dst.id(), src.id()).issue(loc);
}
// the low part of each element into the low (high) half of dst (asc_unpack_*: reg_convert.h)
template <class T, class U>
void asc_pack_to_low(pipev::capi_reg::V<T>& dst, pipev::capi_reg::V<U>& src, PIPEV_LOC) {
    AscendC::Reg::Pack(dst, src, loc);
}
template <class T, class U>
void asc_pack_to_high(pipev::capi_reg::V<T>& dst, pipev::capi_reg::V<U>& src, PIPEV_LOC) {
    AscendC::Reg::Pack<T, U, AscendC::Reg::HighLowPart::HIGHEST>(dst, src, loc);
}
inline void asc_pack_to_low(vector_bool& dst, vector_bool& src, PIPEV_LOC) {
    AscendC::Reg::Pack(dst, src, loc);
}
inline void asc_pack_to_high(vector_bool& dst, vector_bool& src, PIPEV_LOC) {
    AscendC::Reg::Pack<AscendC::Reg::HighLowPart::HIGHEST>(dst, src, loc);
}

// ---- reductions over one register (the same-type forms) ----------------------------------------
#define PIPEV_C_REG_REDUCE(name, Type)                                                          \
    template <class T>                                                                           \
    void name(pipev::capi_reg::V<T>& dst, pipev::capi_reg::V<T>& src, vector_bool& mask,         \
              PIPEV_LOC) {                                                                       \
        AscendC::Reg::Reduce<AscendC::ReduceType::Type>(dst, src, mask, loc);                    \
    }
PIPEV_C_REG_REDUCE(asc_reduce_sum, SUM)
PIPEV_C_REG_REDUCE(asc_reduce_max, MAX)
PIPEV_C_REG_REDUCE(asc_reduce_min, MIN)
#undef PIPEV_C_REG_REDUCE
// int16 / uint16 summed into int32 / uint32 (the asc_reduce_sum page's first and third forms)
inline void asc_reduce_sum(vector_int32_t& dst, vector_int16_t& src, vector_bool& mask,
                           PIPEV_LOC) {
    AscendC::Reg::Reduce<AscendC::ReduceType::SUM>(dst, src, mask, loc);
}
inline void asc_reduce_sum(vector_uint32_t& dst, vector_uint16_t& src, vector_bool& mask,
                           PIPEV_LOC) {
    AscendC::Reg::Reduce<AscendC::ReduceType::SUM>(dst, src, mask, loc);
}

// ---- compound: e^(src0 - src1) in float (asc_exp_sub: the even halves; _v2: the odd ones) ----
template <class T>
void asc_exp_sub(vector_float& dst, pipev::capi_reg::V<T>& src0, pipev::capi_reg::V<T>& src1,
                 vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::ExpSub(dst, src0, src1, mask, loc);
}
template <class T>
void asc_exp_sub_v2(vector_float& dst, pipev::capi_reg::V<T>& src0, pipev::capi_reg::V<T>& src1,
                    vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::ExpSub<float, T, AscendC::Reg::RegLayout::ONE>(dst, src0, src1, mask, loc);
}

// ---- the VF's memory barrier ---------------------------------------------------------------------
enum MEM_TYPE : uint8_t { VV_ALL, VST_VLD, VLD_VST, VST_VST, VS_ALL, VST_LD, VLD_ST, VST_ST,
                          SV_ALL, ST_VLD, LD_VST, ST_VST, SS_ALL, ST_LD, LD_ST, ST_ST };
inline void asc_mem_bar(MEM_TYPE type, PIPEV_LOC) {
    // (earlier, later) as LocalMemBar's .vasm words
    static const char* pairs[][2] = {
        {"vall", "vall"}, {"vst", "vld"}, {"vld", "vst"}, {"vst", "vst"}, {"vall", "sall"},
        {"vst", "sld"}, {"vld", "sst"}, {"vst", "sst"}, {"sall", "vall"}, {"sst", "vld"},
        {"sld", "vst"}, {"sst", "vst"}, {"sall", "sall"}, {"sst", "sld"}, {"sld", "sst"},
        {"sst", "sst"}};
    pipev::detail::Stmt("vmembar %s, %s", pairs[type][0], pairs[type][1]).issue(loc);
}
#endif
