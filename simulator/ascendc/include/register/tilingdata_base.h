// register/tilingdata_base.h: an op_host tiling-data header's macros (the "TilingData structure
// definition" and "TilingData structure registration" pages), so that a custom operator
// project's op_host/OP_tiling.h and op_kernel/OP.cpp compile unchanged in one host program.
//
// CANN generates a kernel-side struct from the host class; here one struct is both: its fields
// are public members (what the kernel reads after GET_TILING_DATA), with the host class's
// set_FIELD / get_FIELD, SaveToBuffer and GetDataSize. SaveToBuffer copies the struct's bytes,
// which GET_TILING_DATA copies back: one layout on both sides. REGISTER_TILING_DATA_CLASS(OP,
// NAME) makes NAME the struct GET_TILING_DATA fills when the kernel registers none itself
// (REGISTER_TILING_DEFAULT); a registration of a nested struct (OP = NAME "Op", as the page
// names them) is not the operator's. One operator's tiling per program.
#ifndef PIPEV_REGISTER_TILINGDATA_BASE_H
#define PIPEV_REGISTER_TILINGDATA_BASE_H
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../kernel_tiling/tiling_registry.h"

namespace optiling {
class TilingDef {};  // the host classes' base on the page (a name host code may mention)
}  // namespace optiling

// The struct is defined at global scope — the kernel-side struct CANN generates is global, and
// kernels name it so (`NLLLossTilingData* tiling`) — and named in optiling by a using-declaration,
// so the host code's optiling::NAME is the same type. The macro closes the enclosing
// `namespace optiling {` (where the page's headers write it) and END_TILING_DATA_DEF reopens it.
#define BEGIN_TILING_DATA_DEF(NAME)                                                        \
    }                                                                                      \
    struct NAME;                                                                           \
    namespace optiling {                                                                   \
    using ::NAME;                                                                          \
    }                                                                                      \
    struct NAME {                                                                          \
        void SaveToBuffer(void* buf, std::size_t capacity) const                           \
        {                                                                                  \
            std::memcpy(buf, this, sizeof(*this) < capacity ? sizeof(*this) : capacity);   \
        }                                                                                  \
        std::size_t GetDataSize() const { return sizeof(*this); }                          \
        void SetDataPtr(void*) {}

#define TILING_DATA_FIELD_DEF(TYPE, FIELD)               \
    TYPE FIELD{};                                        \
    void set_##FIELD(TYPE value) { FIELD = value; }      \
    TYPE get_##FIELD() const { return FIELD; }

#define TILING_DATA_FIELD_DEF_ARR(TYPE, SIZE, FIELD)                                       \
    TYPE FIELD[SIZE]{};                                                                    \
    void set_##FIELD(const TYPE* value) { std::memcpy(FIELD, value, sizeof(FIELD)); }     \
    const TYPE* get_##FIELD() const { return FIELD; }

#define TILING_DATA_FIELD_DEF_STRUCT(TYPE, FIELD)               \
    TYPE FIELD{};                                               \
    void set_##FIELD(const TYPE& value) { FIELD = value; }      \
    const TYPE& get_##FIELD() const { return FIELD; }

#define END_TILING_DATA_DEF \
    };                          \
    namespace optiling {

#define REGISTER_TILING_DATA_CLASS(OP, NAME)                                                  \
    inline constexpr std::size_t pipev_tiling_registration_##OP##_##NAME =                   \
        sizeof(::pipev::detail::OperatorTiling<NAME, ::pipev::detail::nested_tiling(#OP, #NAME)>);
#endif
