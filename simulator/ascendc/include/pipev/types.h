// pipev/types.h: AscendC qualifiers, scalar types, enums and parameter structs (clean room, written
// from the public AscendC API documentation). No behaviour here: the other headers use these.
#ifndef PIPEV_TYPES_H
#define PIPEV_TYPES_H
#include <cstdint>
#include <cstring>
#include <type_traits>

// Kernels are compiled with -D__NPU_ARCH__=... by pipev (the chip's npu_arch); 2201 = ascend910b.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

// Qualifiers of the NPU compiler: nothing on the host. `__ubuf__` local arrays are placed in UB by
// pipev's source rewrite (docs/ascendc.md); in declarations of pointers it simply disappears.
#define __aicore__
#define __global__
#define __vector__
#define __cube__
#define __gm__
#define __ubuf__
#define __inout_pipe__(pipe)
#define GM_ADDR __gm__ uint8_t*

// half: the host compiler's IEEE binary16 (_Float16, GCC >= 12 / Clang on x86-64 and AArch64), so
// conversions round exactly like the device and arithmetic in kernels' scalar code works.
#ifndef __FLT16_MAX__
#error "pipev's AscendC headers need a host compiler with _Float16 (GCC 12 or newer, Clang 15 or newer)"
#endif
using half = _Float16;

// bfloat16_t: the upper half of a float; conversion from float rounds to nearest even (NaN stays NaN).
struct bfloat16_t {
    uint16_t bits = 0;
    bfloat16_t() = default;
    template <class A, class = std::enable_if_t<std::is_arithmetic_v<A>>>
    bfloat16_t(A v) { set(static_cast<float>(v)); }  // NOLINT: implicit, as on the device
    bfloat16_t(half v) { set(static_cast<float>(v)); }
    operator float() const {
        uint32_t u = uint32_t(bits) << 16;
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    static bfloat16_t from_bits(uint16_t b) { bfloat16_t r; r.bits = b; return r; }

private:
    void set(float f) {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        if ((u & 0x7fffffffu) > 0x7f800000u) { bits = uint16_t((u >> 16) | 0x40); return; }
        u += 0x7fffu + ((u >> 16) & 1u);
        bits = uint16_t(u >> 16);
    }
};

// int4b_t: a 4-bit two's complement integer (−8..7). Two share a byte in memory, element 2j in
// bits 0–3 and 2j+1 in bits 4–7 (the vendor's int4b_t figure); a tensor of N of them occupies N / 2
// bytes (pipev::elem_bytes), and element offsets and counts must keep to whole bytes. A value of
// the type holds one element alone (GetValue / SetValue, host code).
struct int4b_t {
    uint8_t bits = 0;  // the low 4 bits
    int4b_t() = default;
    template <class A, class = std::enable_if_t<std::is_arithmetic_v<A>>>
    int4b_t(A v) : bits(uint8_t(int(v) & 0xF)) {}  // NOLINT: implicit; the low 4 bits, as a store
    operator int() const { return int((bits & 0xF) ^ 8) - 8; }
    static int4b_t from_bits(uint8_t b) { int4b_t r; r.bits = uint8_t(b & 0xF); return r; }
};
namespace AscendC { using ::int4b_t; }

// ascend950's 8-bit floats, fp4 pairs and int4x2_t (issue 34; the built-in data types page): one
// byte of raw bits each. Kernels move them (DataCopy, LoadAlign / StoreAlign) and convert them
// with the reg-based Cast; nothing computes on them, so a value is only its bits. fp4x2_* and
// int4x2_t hold two 4-bit values a byte (value 2j in bits 0-3, 2j+1 in bits 4-7).
#define PIPEV_BYTE_TYPE(T)                                                                     \
    struct T {                                                                                 \
        uint8_t bits = 0;                                                                      \
        T() = default;                                                                         \
        static T from_bits(uint8_t b) { T r; r.bits = b; return r; }                           \
    };
PIPEV_BYTE_TYPE(fp8_e4m3fn_t)
PIPEV_BYTE_TYPE(fp8_e5m2_t)
PIPEV_BYTE_TYPE(hifloat8_t)
PIPEV_BYTE_TYPE(fp4x2_e2m1_t)
PIPEV_BYTE_TYPE(fp4x2_e1m2_t)
PIPEV_BYTE_TYPE(int4x2_t)
#undef PIPEV_BYTE_TYPE
namespace AscendC {
using ::fp8_e4m3fn_t; using ::fp8_e5m2_t; using ::hifloat8_t; using ::fp4x2_e2m1_t;
using ::fp4x2_e1m2_t; using ::int4x2_t;
}
// complex32 / complex64 (the built-in data types: a half / float real and imaginary part): moved
// and declared (the c32 / c64 move types); an operator library's kernel names them in branches
// its dtype does not take (#34, r2)
struct complex32 {
    half real;
    half imag;
};
struct complex64 {
    float real = 0.0f;
    float imag = 0.0f;
};
namespace AscendC { using ::complex32; using ::complex64; }

namespace pipev {
// Bytes N elements of T occupy (int4b_t: half a byte each; callers check N is even).
template <class T> constexpr bool is_int4 = std::is_same_v<T, int4b_t>;
template <class T> constexpr uint64_t elem_bytes(uint64_t n) {
    if constexpr (is_int4<T>) return n / 2;
    else return n * sizeof(T);
}
// The pipev type name of an element type (docs/machine.md §3); other types cannot be vector operands.
template <class T> struct TypeInfo {
    static_assert(sizeof(T) == 0, "pipev: this element type has no pipev equivalent (docs/machine.md §3)");
};
#define PIPEV_TYPE(T, NAME) template <> struct TypeInfo<T> { static constexpr const char* name = NAME; };
PIPEV_TYPE(half, "f16")
PIPEV_TYPE(float, "f32")
PIPEV_TYPE(bfloat16_t, "bf16")
PIPEV_TYPE(int8_t, "s8")
PIPEV_TYPE(uint8_t, "u8")
PIPEV_TYPE(int16_t, "s16")
PIPEV_TYPE(uint16_t, "u16")
PIPEV_TYPE(int32_t, "s32")
PIPEV_TYPE(uint32_t, "u32")
PIPEV_TYPE(int64_t, "s64")
PIPEV_TYPE(uint64_t, "u64")
PIPEV_TYPE(bool, "bool")    // moved and declared (DataCopy), not computed on
PIPEV_TYPE(double, "f64")
PIPEV_TYPE(int4b_t, "s4")  // two a byte: Cast to and from half, DataCopy
// the 950 types (issue 34): a RegTensor<int4x2_t> holds int4b_t pairs, s4 in registers
PIPEV_TYPE(fp8_e4m3fn_t, "f8e4m3")
PIPEV_TYPE(fp8_e5m2_t, "f8e5m2")
PIPEV_TYPE(hifloat8_t, "hif8")
PIPEV_TYPE(fp4x2_e2m1_t, "f4e2m1")
PIPEV_TYPE(fp4x2_e1m2_t, "f4e1m2")
PIPEV_TYPE(int4x2_t, "s4")
PIPEV_TYPE(complex32, "c32")
PIPEV_TYPE(complex64, "c64")
#undef PIPEV_TYPE
template <class T> constexpr const char* type_name = TypeInfo<T>::name;
// A parameter that does not take part in template argument deduction (scalars of vector APIs).
template <class T> struct NoDeduceT { using type = T; };
template <class T> using NoDeduce = typename NoDeduceT<T>::type;
}  // namespace pipev

// Pipes and event ids of the CCE intrinsics (global names in kernels).
enum pipe_t : int { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX = 10 };
enum event_t : int {
    EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7
};
// CPU-twin kernel modes (usable unqualified, as in the vendor's samples).
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };

namespace AscendC {
// the type utility the samples pick their element type with (std::conditional)
template <bool B, class X, class Y> struct Conditional { using type = std::conditional_t<B, X, Y>; };
using ::KernelMode;
using TEventID = int8_t;

enum class TPosition : uint8_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM,
    TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX
};
using QuePosition = TPosition;  // the older name
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// HardEvent SRC_DST: the DST pipe waits for the SRC pipe (SetFlag/WaitFlag).
enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
    MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3,
    S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MAX
};

enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class RoundMode : uint8_t {
    CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD, CAST_HYBRID,
    UNKNOWN  // the Reg CastTrait's default (its page): no rounding asked for, as CAST_NONE
};
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
// the mask argument of a call with isSetMask = false (MASK as SetVectorMask left it)
constexpr int32_t MASK_PLACEHOLDER = 0;
// WholeReduceMax/Min's result layout (vcmax/vcmin's order field, in this order)
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

// Strides in 32-byte blocks (docs/machine.md §5): block stride within a repeat, repeat stride between repeats.
struct BinaryRepeatParams {
    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep,
                       uint8_t src0Rep, uint8_t src1Rep)
        : dstBlkStride(dstBlk), src0BlkStride(src0Blk), src1BlkStride(src1Blk),
          dstRepStride(dstRep), src0RepStride(src0Rep), src1RepStride(src1Rep) {}
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
};
struct UnaryRepeatParams {
    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;
};

// Copy (UB to UB): the block strides (dstStride, srcStride) and the repeat strides
// (dstRepeatSize, srcRepeatSize), in 32-byte blocks, as UnaryRepeatParams' four.
struct CopyRepeatParams {
    CopyRepeatParams() = default;
    CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                     uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn),
          srcRepeatSize(srcRepeatSizeIn) {}
    uint16_t dstStride = 1, srcStride = 1;
    uint16_t dstRepeatSize = 8, srcRepeatSize = 8;
};

// DataCopy: blockCount bursts of blockLen 32-byte blocks; the strides are gaps between bursts.
struct DataCopyParams {
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
    uint16_t blockCount = 1, blockLen = 0, srcStride = 0, dstStride = 0;
};
// DataCopyPad: blockLen in bytes; GM-side strides in bytes, UB-side strides in blocks.
struct DataCopyExtParams {
    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn,
                      uint32_t rsvIn = 0)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn),
          rsv(rsvIn) {}
    uint16_t blockCount = 1;
    uint32_t blockLen = 0, srcStride = 0, dstStride = 0, rsv = 0;
};
template <class T> struct DataCopyPadExtParams {
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool isPadIn, uint8_t left, uint8_t right, T value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
    bool isPad = false;
    uint8_t leftPadding = 0, rightPadding = 0;
    T paddingValue = 0;
};
struct DataCopyPadParams {  // the older form of DataCopyPadExtParams
    DataCopyPadParams() = default;
    DataCopyPadParams(bool isPadIn, uint8_t left, uint8_t right, uint64_t value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
    bool isPad = false;
    uint8_t leftPadding = 0, rightPadding = 0;
    uint64_t paddingValue = 0;
};

// ascend950 flexible scalar position of Select: which source is a scalar (0 src0, 1 src1).
struct BinaryConfig {
    int8_t scalarTensorIndex = 1;
};
constexpr BinaryConfig DEFAULT_BINARY_CONFIG{1};
struct BinaryDefaultType {};
}  // namespace AscendC
#endif
