// tikicpulib.h: the CPU-twin harness API on pipev. GmAlloc memory is host memory declared to pipev
// as GM at each launch; ICPU_RUN_KF launches the kernel (a function or a template instantiation)
// through pipev::launch.
#ifndef PIPEV_TIKICPULIB_H
#define PIPEV_TIKICPULIB_H
#include "kernel_operator.h"

namespace AscendC {
inline void* GmAlloc(size_t size) { return pipev::detail::gm_alloc(size); }
inline void GmFree(void* ptr) { pipev::detail::gm_free(ptr); }
// AIV (vector) kernels are what pipev runs; the mode changes nothing.
inline void SetKernelMode(KernelMode) {}
}  // namespace AscendC

// ICPU_RUN_KF(func, blockDim, args...): FUNC may be a template instantiation (k<float, 8>).
#define ICPU_RUN_KF(...) ::pipev::detail::icpu_run(__FILE__, __LINE__, #__VA_ARGS__, __VA_ARGS__)
#define ICPU_SET_TILING_KEY(KEY) (::pipev::detail::g_tiling_key = uint64_t(KEY))
#endif
