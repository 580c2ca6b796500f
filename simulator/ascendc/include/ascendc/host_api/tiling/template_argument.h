// ascendc/host_api/tiling/template_argument.h: tiling template arguments. The declarations drive
// the vendor's build (which template instantiations exist); under pipev a kernel names its
// instantiation itself (ICPU_RUN_KF(kernel<...>, ...) or kernel<...><<<...>>>), so they expand to
// nothing.
#ifndef PIPEV_TEMPLATE_ARGUMENT_H
#define PIPEV_TEMPLATE_ARGUMENT_H
#include "../../../pipev/types.h"  // the element types TypeFromId names
#include "../../../pipev/data_types.h"  // the DT_ codes

#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_KERNEL_TYPE 4
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

// Data type and format codes for template arguments (the graph engine's numbering:
// pipev/data_types.h).
#define C_DT_FLOAT DT_FLOAT
#define C_DT_FLOAT16 DT_FLOAT16
#define C_DT_INT8 DT_INT8
#define C_DT_INT32 DT_INT32
#define C_DT_UINT8 DT_UINT8
#define C_DT_INT16 DT_INT16
#define C_DT_UINT16 DT_UINT16
#define C_DT_UINT32 DT_UINT32
#define C_DT_INT64 DT_INT64
#define C_DT_UINT64 DT_UINT64
#define C_DT_DOUBLE DT_DOUBLE
#define C_DT_BOOL DT_BOOL
#define C_DT_BF16 DT_BF16
#define C_FORMAT_NCHW 0
#define C_FORMAT_NHWC 1
#define C_FORMAT_ND 2

// TypeFromId<code>::type: the element type of a data type code above (void for the others); a
// kernel template on a dtype argument names its type through it (the operator library's adds)
template <int code> struct TypeFromId { using type = void; };
#define PIPEV_TYPE_FROM_ID(code, T) \
    template <> struct TypeFromId<code> { using type = T; }
PIPEV_TYPE_FROM_ID(C_DT_FLOAT, float);
PIPEV_TYPE_FROM_ID(C_DT_FLOAT16, half);
PIPEV_TYPE_FROM_ID(C_DT_INT8, int8_t);
PIPEV_TYPE_FROM_ID(C_DT_INT32, int32_t);
PIPEV_TYPE_FROM_ID(C_DT_UINT8, uint8_t);
PIPEV_TYPE_FROM_ID(C_DT_INT16, int16_t);
PIPEV_TYPE_FROM_ID(C_DT_UINT16, uint16_t);
PIPEV_TYPE_FROM_ID(C_DT_UINT32, uint32_t);
PIPEV_TYPE_FROM_ID(C_DT_INT64, int64_t);
PIPEV_TYPE_FROM_ID(C_DT_UINT64, uint64_t);
PIPEV_TYPE_FROM_ID(C_DT_DOUBLE, double);
PIPEV_TYPE_FROM_ID(C_DT_BOOL, bool);
PIPEV_TYPE_FROM_ID(C_DT_BF16, bfloat16_t);
#undef PIPEV_TYPE_FROM_ID

#define ASCENDC_TPL_ARGS_DECL(NAME, ...) static_assert(true, "")
#define ASCENDC_TPL_SEL(...) static_assert(true, "")
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_DTYPE_DECL(...)
#define ASCENDC_TPL_DATATYPE_DECL(...)
#define ASCENDC_TPL_FORMAT_DECL(...)
#define ASCENDC_TPL_UINT_DECL(...)
#define ASCENDC_TPL_BOOL_DECL(...)
#define ASCENDC_TPL_KERNEL_TYPE_DECL(...)
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#endif
