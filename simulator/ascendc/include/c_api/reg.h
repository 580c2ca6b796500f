// c_api/reg.h: the C API's reg section on ascend950 (issue 34; clean room, written from the public
// C API "reg" pages): vector_T register types, vector_bool masks, asc_create_mask_bN,
// asc_update_mask_bN, asc_load / asc_store, asc_add … asc_div, asc_select, asc_eq … asc_ge (and
// their _scalar forms), asc_get_vf_len. Each call is the AscendC::Reg call of the same meaning
// (pipev/reg.h), so one register instruction per call, at the kernel's line.
#ifndef PIPEV_C_API_REG_H
#define PIPEV_C_API_REG_H
#include "../pipev/reg.h"

using vector_bool = AscendC::Reg::MaskReg;
using vector_int8_t = AscendC::Reg::RegTensor<int8_t>;
using vector_uint8_t = AscendC::Reg::RegTensor<uint8_t>;
using vector_int16_t = AscendC::Reg::RegTensor<int16_t>;
using vector_uint16_t = AscendC::Reg::RegTensor<uint16_t>;
using vector_int32_t = AscendC::Reg::RegTensor<int32_t>;
using vector_uint32_t = AscendC::Reg::RegTensor<uint32_t>;
using vector_int64_t = AscendC::Reg::RegTensor<int64_t>;
using vector_uint64_t = AscendC::Reg::RegTensor<uint64_t>;
using vector_half = AscendC::Reg::RegTensor<half>;
using vector_bfloat16_t = AscendC::Reg::RegTensor<bfloat16_t>;
using vector_float = AscendC::Reg::RegTensor<float>;
// ascend950's 8-bit floats, fp4 pairs and int4 pairs (issue 34)
using vector_fp8_e4m3fn_t = AscendC::Reg::RegTensor<fp8_e4m3fn_t>;
using vector_fp8_e5m2_t = AscendC::Reg::RegTensor<fp8_e5m2_t>;
using vector_hifloat8_t = AscendC::Reg::RegTensor<hifloat8_t>;
using vector_fp4x2_e2m1_t = AscendC::Reg::RegTensor<fp4x2_e2m1_t>;
using vector_fp4x2_e1m2_t = AscendC::Reg::RegTensor<fp4x2_e1m2_t>;
using vector_int4x2_t = AscendC::Reg::RegTensor<int4x2_t>;

constexpr uint32_t asc_get_vf_len() { return 256; }

enum class Pat : uint8_t { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q,
                           ALLF = 15 };
constexpr Pat PAT_ALL = Pat::ALL, PAT_VL1 = Pat::VL1, PAT_VL2 = Pat::VL2, PAT_VL3 = Pat::VL3,
              PAT_VL4 = Pat::VL4, PAT_VL8 = Pat::VL8, PAT_VL16 = Pat::VL16,
              PAT_VL32 = Pat::VL32, PAT_VL64 = Pat::VL64, PAT_VL128 = Pat::VL128,
              PAT_M3 = Pat::M3, PAT_M4 = Pat::M4, PAT_H = Pat::H, PAT_Q = Pat::Q,
              PAT_ALLF = Pat::ALLF;

namespace pipev::capi_reg {
inline vector_bool create(const char* type, Pat p, Loc loc) {
    static const char* names[] = {"ALL", "VL1", "VL2", "VL3", "VL4", "VL8", "VL16", "VL32",
                                  "VL64", "VL128", "M3", "M4", "H", "Q", "", "ALLF"};
    vector_bool m(loc);
    detail::Stmt("pset.%s p%d, %s", type, m.id(), names[int(p)]).issue(loc);
    return m;
}
}  // namespace pipev::capi_reg

inline vector_bool asc_create_mask_b8(Pat p, PIPEV_LOC) {
    return pipev::capi_reg::create("u8", p, loc);
}
inline vector_bool asc_create_mask_b16(Pat p, PIPEV_LOC) {
    return pipev::capi_reg::create("u16", p, loc);
}
inline vector_bool asc_create_mask_b32(Pat p, PIPEV_LOC) {
    return pipev::capi_reg::create("u32", p, loc);
}
inline vector_bool asc_update_mask_b8(uint32_t& n, PIPEV_LOC) {
    return AscendC::Reg::UpdateMask<uint8_t>(n, loc);
}
inline vector_bool asc_update_mask_b16(uint32_t& n, PIPEV_LOC) {
    return AscendC::Reg::UpdateMask<uint16_t>(n, loc);
}
inline vector_bool asc_update_mask_b32(uint32_t& n, PIPEV_LOC) {
    return AscendC::Reg::UpdateMask<uint32_t>(n, loc);
}

// asc_load: VL bytes; asc_store: every element (an all-true mask of T's width first)
template <class T> void asc_load(AscendC::Reg::RegTensor<T>& dst, __ubuf__ T* src, PIPEV_LOC) {
    AscendC::Reg::LoadAlign(dst, src, loc);
}
template <class T> void asc_store(__ubuf__ T* dst, const AscendC::Reg::RegTensor<T>& src, PIPEV_LOC) {
    vector_bool all = AscendC::Reg::CreateMask<T>(loc);
    AscendC::Reg::StoreAlign(dst, src, all, loc);
}
template <class T>
void asc_store(__ubuf__ T* dst, const AscendC::Reg::RegTensor<T>& src, vector_bool& mask, PIPEV_LOC) {
    AscendC::Reg::StoreAlign(dst, src, mask, loc);
}

#define PIPEV_C_REG_BINARY(name, Call)                                                          \
    template <class T>                                                                           \
    void name(AscendC::Reg::RegTensor<T>& dst, AscendC::Reg::RegTensor<T>& src0,                \
              AscendC::Reg::RegTensor<T>& src1, vector_bool& mask, PIPEV_LOC) {                  \
        AscendC::Reg::Call(dst, src0, src1, mask, loc);                                          \
    }
PIPEV_C_REG_BINARY(asc_add, Add)
PIPEV_C_REG_BINARY(asc_sub, Sub)
PIPEV_C_REG_BINARY(asc_mul, Mul)
PIPEV_C_REG_BINARY(asc_max, Max)
PIPEV_C_REG_BINARY(asc_min, Min)
PIPEV_C_REG_BINARY(asc_div, Div)
PIPEV_C_REG_BINARY(asc_select, Select)
#undef PIPEV_C_REG_BINARY

#define PIPEV_C_REG_COMPARE(name, mode)                                                         \
    template <class T>                                                                           \
    void name(vector_bool& dst, AscendC::Reg::RegTensor<T>& src0,                               \
              AscendC::Reg::RegTensor<T>& src1, vector_bool& mask, PIPEV_LOC) {                  \
        AscendC::Reg::Compare<T, AscendC::CMPMODE::mode>(dst, src0, src1, mask, loc);           \
    }                                                                                            \
    template <class T, class S, class = std::enable_if_t<std::is_arithmetic_v<S> ||              \
                                                          std::is_same_v<S, half> ||             \
                                                          std::is_same_v<S, bfloat16_t>>>        \
    void name##_scalar(vector_bool& dst, AscendC::Reg::RegTensor<T>& src, S value,              \
                       vector_bool& mask, PIPEV_LOC) {                                           \
        AscendC::Reg::Compares<T, AscendC::CMPMODE::mode>(dst, src, value, mask, loc);          \
    }
PIPEV_C_REG_COMPARE(asc_eq, EQ)
PIPEV_C_REG_COMPARE(asc_ne, NE)
PIPEV_C_REG_COMPARE(asc_lt, LT)
PIPEV_C_REG_COMPARE(asc_gt, GT)
PIPEV_C_REG_COMPARE(asc_le, LE)
PIPEV_C_REG_COMPARE(asc_ge, GE)
#undef PIPEV_C_REG_COMPARE
#include "reg_convert.h"  // conversions and relayouts (h34a)
#include "reg_data.h"  // unaligned accesses, Scatter/Gather, Squeeze, block reductions (h34a)
#include "reg_compute.h"  // aligned loads/stores, element-wise, fills, reductions, asc_mem_bar
#endif
