// kernel_operator.h: pipev's clean-room AscendC kernel API (docs/ascendc.md). Every API call
// becomes pipev statements issued at the kernel's own line; see pipev_bridge.h.
#ifndef PIPEV_KERNEL_OPERATOR_H
#define PIPEV_KERNEL_OPERATOR_H
#include "pipev/types.h"
#include "pipev/data_types.h"  // DT_FLOAT16 …: ORIG_DTYPE_X names one
#include "pipev/core.h"
#include "pipev/tensor.h"
#include "pipev/queue.h"
#include "pipev/data_copy.h"
#include "pipev/slice_copy.h"  // DataCopy with SliceInfo
#include "pipev/vector.h"
#include "pipev/tensor_ops.h"  // dst = src0 + src1; dst = src0 < src1
#include "pipev/gather.h"
#include "pipev/layout.h"
#include "pipev/sync.h"
#include "pipev/atomic.h"
#include "pipev/scalar.h"
#include "pipev/reduce.h"
#include "pipev/debug.h"
#include "pipev/launch.h"
#include "pipev/boilerplate.h"
#include "pipev/advanced.h"
#include "pipev/softmax.h"  // SoftMax, SimpleSoftMax
#include "pipev/broadcast.h"  // Broadcast (BroadCast)
#include "pipev/dequant.h"  // #27/#29: SetDeqScale, CastDequant
#include "pipev/unmodelled.h"  // #34: names the operator library's headers mention
#include "pipev/reg.h"  // issue 34: ascend950 reg-based vector (AscendC::Reg, asc_vf_call)
#include "pipev/memory_on_reg.h"  // #34 r6: Memory-vector APIs on the Reg API (Sqrt<T, config>)
#include "kernel_tiling/kernel_tiling.h"
#include "simt_api/math_functions.h"  // the integer min / max kernels call unqualified
#endif
