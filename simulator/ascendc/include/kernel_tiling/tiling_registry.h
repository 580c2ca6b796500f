// kernel_tiling/tiling_registry.h: the struct an op_host tiling header registers for its
// operator (register/tilingdata_base.h's REGISTER_TILING_DATA_CLASS), found by the kernel's
// GET_TILING_DATA without naming it (CANN's build generates that name into the kernel; here
// the registration, inside the header's namespace, leaves it in slot 0 through a friend
// function the registration's class defines, and GET_TILING_DATA reads it back).
#ifndef PIPEV_TILING_REGISTRY_H
#define PIPEV_TILING_REGISTRY_H
#include <cstddef>

namespace pipev::detail {
struct NoTilingRegistered {};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-template-friend"
template <int N> struct TilingSlot {
    friend auto registered_tiling(TilingSlot<N>);
    friend constexpr bool tiling_registered(TilingSlot<N>);
};
#pragma GCC diagnostic pop

// An operator's registration fills slot 0; a nested struct's (NESTED) fills nothing.
template <class T, bool NESTED> struct OperatorTiling {
    friend auto registered_tiling(TilingSlot<0>) { return T{}; }
    friend constexpr bool tiling_registered(TilingSlot<0>) { return true; }
};
template <class T> struct OperatorTiling<T, true> {};

// Whether REGISTER_TILING_DATA_CLASS(OP, NAME) registers a nested struct: OP is NAME "Op".
constexpr bool nested_tiling(const char* op, const char* name)
{
    std::size_t i = 0;
    for (; name[i]; ++i)
        if (op[i] != name[i]) return false;
    return op[i] == 'O' && op[i + 1] == 'p' && op[i + 2] == '\0';
}

template <class Slot, bool = tiling_registered(Slot{})> constexpr bool has_tiling(int)
{
    return true;
}
template <class Slot> constexpr bool has_tiling(...) { return false; }

template <class Slot, bool REGISTERED> struct Registered {
    using type = NoTilingRegistered;
};
template <class Slot> struct Registered<Slot, true> {
    using type = decltype(registered_tiling(Slot{}));
};

// The struct GET_TILING_DATA fills: the one REGISTER_TILING_DEFAULT names in scope (DEFAULT),
// else the operator's registered one.
template <class DEFAULT, class Slot = TilingSlot<0>> struct TilingOf {
    using type = DEFAULT;
};
template <class Slot> struct TilingOf<NoTilingRegistered, Slot> {
    static constexpr bool registered = has_tiling<Slot>(0);
    static_assert(registered,
                  "pipev: GET_TILING_DATA needs REGISTER_TILING_DEFAULT(TilingStruct) first, or "
                  "an op_host tiling header (REGISTER_TILING_DATA_CLASS) included before the "
                  "kernel");
    using type = typename Registered<Slot, registered>::type;
};
}  // namespace pipev::detail
#endif
