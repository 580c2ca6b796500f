// c_api/reg_convert.h: the C API reg section's conversions and relayouts (issue 34, h34a; clean
// room, written from the public C API "reg" pages data_type_convert, index_operate,
// data_rearrange, data_compress): asc_SRC2DST[_rn|_rna|_rd|_ru|_rz|_ro][_sat][_v2],
// asc_rint/round/floor/ceil/trunc, asc_arange[_descend], asc_intlv / asc_deintlv,
// asc_pack[_v2], asc_unpack_lower / _upper. Each is one vrcvt / vrtrunc / vrarange / vrintlv /
// vrdintlv / vrpack / vrunpack statement at the kernel's line. Included by c_api/reg.h.
//
// The suffixes (the pages' comments): rn RINT, rna ROUND, rd FLOOR, ru CEIL, rz TRUNC, ro ODD;
// _sat the saturating mode (a function of a pair that has a _sat form and is called without it
// is the non-saturating mode); _v2 the odd narrow elements (RegLayout ONE), else the even ones.
#ifndef PIPEV_C_API_REG_CONVERT_H
#define PIPEV_C_API_REG_CONVERT_H

namespace pipev::capi_reg {
template <class D, class S>
void cvt(AscendC::Reg::RegTensor<D>& dst, AscendC::Reg::RegTensor<S>& src, vector_bool& mask,
         const char* round, const char* sat, int part, Loc loc) {
    detail::Stmt s("vrcvt.%s.%s", type_name<D>, type_name<S>);
    s.op("v%d", dst.id()).op("v%d", src.id()).op("p%d", mask.id());
    if (round) s.op("round=%s", round);
    if (sat) s.op("sat=%s", sat);
    constexpr const char* parts[] = {"zero", "one", "two", "three"};
    if (part) s.op("part=%s", parts[part]);
    s.issue(loc);
}
}  // namespace pipev::capi_reg

// one function: NAME(dst, src, mask) converting S to D with these keys
#define PIPEV_C_CVT_ONE(name, D, S, round, sat, part)                                           \
    inline void name(AscendC::Reg::RegTensor<D>& dst, AscendC::Reg::RegTensor<S>& src,          \
                     vector_bool& mask, PIPEV_LOC) {                                             \
        pipev::capi_reg::cvt(dst, src, mask, round, sat, part, loc);                             \
    }
// the plain and the _v2 forms (no round mode: the pair is exact or takes one mode)
#define PIPEV_C_CVT_V2(base, D, S, round, sat)                                                  \
    PIPEV_C_CVT_ONE(base, D, S, round, sat, 0)                                                   \
    PIPEV_C_CVT_ONE(base##_v2, D, S, round, sat, 1)
// the 4:1 pairs' four RegLayout parts: the plain form and _v2, _v3, _v4 (parts ONE..THREE)
#define PIPEV_C_CVT_V4(base, D, S, round, sat)                                                  \
    PIPEV_C_CVT_V2(base, D, S, round, sat)                                                       \
    PIPEV_C_CVT_ONE(base##_v3, D, S, round, sat, 2)                                              \
    PIPEV_C_CVT_ONE(base##_v4, D, S, round, sat, 3)
#define PIPEV_C_CVT_SAT_V4(base, D, S, round)                                                   \
    PIPEV_C_CVT_V4(base, D, S, round, "nosat")                                                   \
    PIPEV_C_CVT_V4(base##_sat, D, S, round, "sat")
#define PIPEV_C_CVT_PLAIN_V4(base, D, S, round) PIPEV_C_CVT_V4(base, D, S, round, nullptr)
// the plain, _sat, _v2 and _sat_v2 forms
#define PIPEV_C_CVT_SAT_V2(base, D, S, round)                                                   \
    PIPEV_C_CVT_V2(base, D, S, round, "nosat")                                                   \
    PIPEV_C_CVT_V2(base##_sat, D, S, round, "sat")
#define PIPEV_C_CVT_SAT(base, D, S, round)                                                      \
    PIPEV_C_CVT_ONE(base, D, S, round, "nosat", false)                                           \
    PIPEV_C_CVT_ONE(base##_sat, D, S, round, "sat", false)
// FORM(base_MODE, ...) for the five round modes
#define PIPEV_C_CVT_ROUNDS(FORM, base, D, S)                                                    \
    FORM(base##_rn, D, S, "rint")                                                    \
    FORM(base##_rna, D, S, "round")                                                  \
    FORM(base##_rd, D, S, "floor")                                                   \
    FORM(base##_ru, D, S, "ceil")                                                    \
    FORM(base##_rz, D, S, "trunc")
#define PIPEV_C_CVT_PLAIN(base, D, S, round) PIPEV_C_CVT_ONE(base, D, S, round, nullptr, false)
#define PIPEV_C_CVT_PLAIN_V2(base, D, S, round) PIPEV_C_CVT_V2(base, D, S, round, nullptr)

// ascend950's 8-bit floats, fp4 pairs and int4x2_t (issue 34; rh: CAST_HYBRID)
PIPEV_C_CVT_SAT_V2(asc_half2hif8_rna, hifloat8_t, half, "round")
PIPEV_C_CVT_SAT_V2(asc_half2hif8_rh, hifloat8_t, half, "hybrid")
PIPEV_C_CVT_PLAIN_V2(asc_hif82half, half, hifloat8_t, nullptr)
PIPEV_C_CVT_SAT_V4(asc_float2hif8_rna, hifloat8_t, float, "round")
PIPEV_C_CVT_SAT_V4(asc_float2hif8_rh, hifloat8_t, float, "hybrid")
PIPEV_C_CVT_PLAIN_V4(asc_hif82float, float, hifloat8_t, nullptr)
PIPEV_C_CVT_SAT_V4(asc_float2e4m3_rn, fp8_e4m3fn_t, float, "rint")
PIPEV_C_CVT_SAT_V4(asc_float2e5m2_rn, fp8_e5m2_t, float, "rint")
PIPEV_C_CVT_PLAIN_V4(asc_e4m32float, float, fp8_e4m3fn_t, nullptr)
PIPEV_C_CVT_PLAIN_V4(asc_e5m22float, float, fp8_e5m2_t, nullptr)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_PLAIN_V4, asc_bfloat162e2m1x2, fp4x2_e2m1_t, bfloat16_t)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_PLAIN_V4, asc_bfloat162e1m2x2, fp4x2_e1m2_t, bfloat16_t)
PIPEV_C_CVT_PLAIN_V4(asc_e2m1x22bfloat16, bfloat16_t, fp4x2_e2m1_t, nullptr)
PIPEV_C_CVT_PLAIN_V4(asc_e1m2x22bfloat16, bfloat16_t, fp4x2_e1m2_t, nullptr)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT_V4, asc_half2int4x2, int4x2_t, half)
PIPEV_C_CVT_PLAIN_V4(asc_int4x22half, half, int4x2_t, nullptr)
PIPEV_C_CVT_PLAIN_V4(asc_int4x22bfloat16, bfloat16_t, int4x2_t, nullptr)
PIPEV_C_CVT_PLAIN_V4(asc_int4x22int16, int16_t, int4x2_t, nullptr)

// rounded, saturating or not, even or odd elements
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT_V2, asc_bfloat162int32, int32_t, bfloat16_t)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT_V2, asc_float2bfloat16, bfloat16_t, float)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT_V2, asc_float2half, half, float)
PIPEV_C_CVT_SAT_V2(asc_float2half_ro, half, float, "odd")
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT_V2, asc_float2int16, int16_t, float)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT_V2, asc_float2int64, int64_t, float)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT_V2, asc_half2int8, int8_t, half)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT_V2, asc_half2uint8, uint8_t, half)
// rounded, saturating or not, same size
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT, asc_bfloat162half, half, bfloat16_t)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT, asc_float2int32, int32_t, float)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_SAT, asc_half2int16, int16_t, half)
// rounded only
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_PLAIN, asc_half2bfloat16, bfloat16_t, half)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_PLAIN, asc_int162half, half, int16_t)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_PLAIN, asc_int322float, float, int32_t)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_PLAIN_V2, asc_half2int32, int32_t, half)
PIPEV_C_CVT_ROUNDS(PIPEV_C_CVT_PLAIN_V2, asc_int642float, float, int64_t)
// exact widenings: even or odd elements
PIPEV_C_CVT_PLAIN_V2(asc_bfloat162float, float, bfloat16_t, nullptr)
PIPEV_C_CVT_PLAIN_V2(asc_half2float, float, half, nullptr)
PIPEV_C_CVT_PLAIN_V2(asc_int162float, float, int16_t, nullptr)
PIPEV_C_CVT_PLAIN_V2(asc_int162int32, int32_t, int16_t, nullptr)
PIPEV_C_CVT_PLAIN_V2(asc_int162uint32, uint32_t, int16_t, nullptr)
PIPEV_C_CVT_PLAIN_V2(asc_int322int64, int64_t, int32_t, nullptr)
PIPEV_C_CVT_PLAIN_V2(asc_int82half, half, int8_t, nullptr)
PIPEV_C_CVT_PLAIN_V2(asc_int82int16, int16_t, int8_t, nullptr)
PIPEV_C_CVT_PLAIN_V2(asc_uint162uint32, uint32_t, uint16_t, nullptr)
PIPEV_C_CVT_PLAIN_V2(asc_uint82half, half, uint8_t, nullptr)
PIPEV_C_CVT_PLAIN_V2(asc_uint82uint16, uint16_t, uint8_t, nullptr)
// integer narrowings, saturating or not, even or odd elements
PIPEV_C_CVT_SAT_V2(asc_int162uint8, uint8_t, int16_t, nullptr)
PIPEV_C_CVT_SAT_V2(asc_int322int16, int16_t, int32_t, nullptr)
PIPEV_C_CVT_SAT_V2(asc_int322uint16, uint16_t, int32_t, nullptr)
PIPEV_C_CVT_SAT_V2(asc_int642int32, int32_t, int64_t, nullptr)
PIPEV_C_CVT_SAT_V2(asc_uint162uint8, uint8_t, uint16_t, nullptr)
PIPEV_C_CVT_SAT_V2(asc_uint322int16, int16_t, uint32_t, nullptr)
PIPEV_C_CVT_SAT_V2(asc_uint322uint16, uint16_t, uint32_t, nullptr)
#undef PIPEV_C_CVT_PLAIN_V2
#undef PIPEV_C_CVT_PLAIN
#undef PIPEV_C_CVT_ROUNDS
#undef PIPEV_C_CVT_SAT
#undef PIPEV_C_CVT_SAT_V2
#undef PIPEV_C_CVT_V2
#undef PIPEV_C_CVT_ONE

// asc_rint / asc_round / asc_floor / asc_ceil / asc_trunc: Truncate in that mode
#define PIPEV_C_TRUNCATE(name, Mode)                                                            \
    template <class T>                                                                           \
    void name(AscendC::Reg::RegTensor<T>& dst, AscendC::Reg::RegTensor<T>& src,                 \
              vector_bool& mask, PIPEV_LOC) {                                                    \
        AscendC::Reg::Truncate<T, AscendC::RoundMode::Mode>(dst, src, mask, loc);                \
    }
PIPEV_C_TRUNCATE(asc_rint, CAST_RINT)
PIPEV_C_TRUNCATE(asc_round, CAST_ROUND)
PIPEV_C_TRUNCATE(asc_floor, CAST_FLOOR)
PIPEV_C_TRUNCATE(asc_ceil, CAST_CEIL)
PIPEV_C_TRUNCATE(asc_trunc, CAST_TRUNC)
#undef PIPEV_C_TRUNCATE

template <class T, class S>
void asc_arange(AscendC::Reg::RegTensor<T>& dst, S value, PIPEV_LOC) {
    AscendC::Reg::Arange<T>(dst, value, loc);
}
template <class T, class S>
void asc_arange_descend(AscendC::Reg::RegTensor<T>& dst, S value, PIPEV_LOC) {
    AscendC::Reg::Arange<T, AscendC::Reg::IndexOrder::DECREASE_ORDER>(dst, value, loc);
}
template <class T>
void asc_intlv(AscendC::Reg::RegTensor<T>& dst0, AscendC::Reg::RegTensor<T>& dst1,
               AscendC::Reg::RegTensor<T>& src0, AscendC::Reg::RegTensor<T>& src1, PIPEV_LOC) {
    AscendC::Reg::Interleave(dst0, dst1, src0, src1, loc);
}
template <class T>
void asc_deintlv(AscendC::Reg::RegTensor<T>& dst0, AscendC::Reg::RegTensor<T>& dst1,
                 AscendC::Reg::RegTensor<T>& src0, AscendC::Reg::RegTensor<T>& src1, PIPEV_LOC) {
    AscendC::Reg::DeInterleave(dst0, dst1, src0, src1, loc);
}
// the MaskReg forms
#define PIPEV_C_REG_PINTLV(bits, T)                                                             \
    inline void asc_intlv_b##bits(vector_bool& dst0, vector_bool& dst1, vector_bool& src0,       \
                                  vector_bool& src1, PIPEV_LOC) {                                \
        AscendC::Reg::Interleave<T>(dst0, dst1, src0, src1, loc);                                \
    }                                                                                            \
    inline void asc_deintlv_b##bits(vector_bool& dst0, vector_bool& dst1, vector_bool& src0,     \
                                    vector_bool& src1, PIPEV_LOC) {                              \
        AscendC::Reg::DeInterleave<T>(dst0, dst1, src0, src1, loc);                              \
    }
PIPEV_C_REG_PINTLV(8, uint8_t)
PIPEV_C_REG_PINTLV(16, uint16_t)
PIPEV_C_REG_PINTLV(32, uint32_t)
#undef PIPEV_C_REG_PINTLV
inline void asc_pack(vector_bool& dst, vector_bool& src, PIPEV_LOC) {
    AscendC::Reg::Pack(dst, src, loc);
}
inline void asc_pack_v2(vector_bool& dst, vector_bool& src, PIPEV_LOC) {
    AscendC::Reg::Pack<AscendC::Reg::HighLowPart::HIGHEST>(dst, src, loc);
}
inline void asc_unpack_lower(vector_bool& dst, vector_bool& src, PIPEV_LOC) {
    AscendC::Reg::UnPack(dst, src, loc);
}
inline void asc_unpack_upper(vector_bool& dst, vector_bool& src, PIPEV_LOC) {
    AscendC::Reg::UnPack<AscendC::Reg::HighLowPart::HIGHEST>(dst, src, loc);
}
template <class D, class S>
void asc_pack(AscendC::Reg::RegTensor<D>& dst, AscendC::Reg::RegTensor<S>& src, PIPEV_LOC) {
    AscendC::Reg::Pack(dst, src, loc);
}
template <class D, class S>
void asc_pack_v2(AscendC::Reg::RegTensor<D>& dst, AscendC::Reg::RegTensor<S>& src, PIPEV_LOC) {
    AscendC::Reg::Pack<D, S, AscendC::Reg::HighLowPart::HIGHEST>(dst, src, loc);
}
template <class D, class S>
void asc_unpack_lower(AscendC::Reg::RegTensor<D>& dst, AscendC::Reg::RegTensor<S>& src,
                      PIPEV_LOC) {
    AscendC::Reg::UnPack(dst, src, loc);
}
template <class D, class S>
void asc_unpack_upper(AscendC::Reg::RegTensor<D>& dst, AscendC::Reg::RegTensor<S>& src,
                      PIPEV_LOC) {
    AscendC::Reg::UnPack<D, S, AscendC::Reg::HighLowPart::HIGHEST>(dst, src, loc);
}
#endif
