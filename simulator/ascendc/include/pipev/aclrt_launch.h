// pipev/aclrt_launch.h: ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...), the launch the
// vendor's build generates for every kernel of an ascendc_library (`#include
// "aclrtlaunch_KERNEL.h"`). pipev writes those headers itself (simulator/ascendc/
// aclrtlaunch.py): each declares the kernel and defines aclrtlaunch_KERNEL(...) as a call of
// aclrt_launch below, a launch at the caller's line whose arguments convert to the kernel's
// parameters as the generated launcher's `void*` ones do.
#ifndef PIPEV_ACLRT_LAUNCH_H
#define PIPEV_ACLRT_LAUNCH_H
#include <type_traits>

#include "launch.h"

namespace pipev::detail {
template <class P, class A> P launch_arg(A a) {
    if constexpr (std::is_pointer_v<P> && std::is_pointer_v<A>)
        return reinterpret_cast<P>(a);
    else
        return static_cast<P>(a);
}
template <class... P, class... A>
uint32_t aclrt_launch(const char* file, int line, const char* name, const char* arg_text,
                      void (*kernel)(P...), uint32_t blockDim, void* /*stream*/, A... args) {
    static_assert(sizeof...(P) == sizeof...(A), "ACLRT_LAUNCH_KERNEL: one argument per kernel "
                  "parameter after blockDim and stream");
    ::pipev::launch_named(file, line, name, arg_text, blockDim, kernel,
                          launch_arg<P>(args)...);
    return 0;
}
}  // namespace pipev::detail

#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func
#endif
