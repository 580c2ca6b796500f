// kernel_tiling/kernel_tiling.h: the kernel side of tiling. The tiling argument is a GM pointer to
// the host's tiling struct; GET_TILING_DATA copies it into a local variable (scalar code, untimed).
#ifndef PIPEV_KERNEL_TILING_H
#define PIPEV_KERNEL_TILING_H
#include <cstddef>
#include <cstring>

#include "../pipev/core.h"
#include "../pipev/launch.h"
#include "tiling_registry.h"

namespace pipev::detail {
template <class S> void copy_tiling(S& dst, const void* tiling, Loc loc) {
    if (!tiling) error(loc, "GET_TILING_DATA: the tiling argument is a null pointer");
    std::memcpy(static_cast<void*>(&dst), tiling, sizeof(S));
}
}  // namespace pipev::detail
using pipev_tiling_default_t = ::pipev::detail::NoTilingRegistered;

// REGISTER_TILING_DEFAULT(Struct) names the struct GET_TILING_DATA fills (in the kernel's scope);
// without it, the struct an op_host tiling header registered (tiling_registry.h).
#define REGISTER_TILING_DEFAULT(STRUCT) using pipev_tiling_default_t = STRUCT
#define REGISTER_TILING_FOR_TILINGKEY(EXPR, STRUCT) static_assert(true, "")
#define REGISTER_NONE_TILING static_assert(true, "")
#define GET_TILING_DATA(VAR, TILING)                                          \
    typename ::pipev::detail::TilingOf<pipev_tiling_default_t>::type VAR;     \
    ::pipev::detail::copy_tiling(VAR, TILING, ::pipev::Loc(__FILE__, __LINE__))
#define GET_TILING_DATA_WITH_STRUCT(STRUCT, VAR, TILING) \
    STRUCT VAR;                                          \
    ::pipev::detail::copy_tiling(VAR, TILING, ::pipev::Loc(__FILE__, __LINE__))
// __tiling_data_ptr__ qualifies the pointer GET_TILING_DATA_PTR_WITH_STRUCT gives (the page): the
// tiling data is read-only to the kernel.
#define __tiling_data_ptr__ const
#define GET_TILING_DATA_PTR_WITH_STRUCT(STRUCT, PTR, TILING) \
    __tiling_data_ptr__ STRUCT* PTR = reinterpret_cast<const STRUCT*>(TILING)
#define GET_TILING_DATA_MEMBER(STRUCT, MEMBER, VAR, TILING)          \
    decltype(STRUCT::MEMBER) VAR;                                    \
    std::memcpy(&VAR, reinterpret_cast<const uint8_t*>(TILING) + offsetof(STRUCT, MEMBER), \
                sizeof(VAR))
// The tiling key set by ICPU_SET_TILING_KEY (0 by default).
#define TILING_KEY_IS(KEY) (::pipev::detail::g_tiling_key == (KEY))
#endif
