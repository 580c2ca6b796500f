// pipev/data_types.h: the graph engine's data type codes (ge::DataType's numbering, its
// "DataType" page) as the kernel side sees them: an msopgen build's ORIG_DTYPE_<NAME> names one
// (`#if ORIG_DTYPE_X == DT_FLOAT16`), a host tiling function may set a DataType as the tiling
// key (`TILING_KEY_IS(DT_FLOAT)`), and template arguments' C_DT_ codes are these. Macros, not
// an enum: kernels compare them in #if and test them with defined().
#ifndef PIPEV_DATA_TYPES_H
#define PIPEV_DATA_TYPES_H
#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_DOUBLE 11
#define DT_BOOL 12
#define DT_BF16 27
#endif
