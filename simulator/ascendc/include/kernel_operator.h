// kernel_operator.h: pipev's clean-room AscendC kernel API (docs/ascendc.md). Every API call
// becomes pipev statements issued at the kernel's own line; see pipev_bridge.h.
#ifndef PIPEV_KERNEL_OPERATOR_H
#define PIPEV_KERNEL_OPERATOR_H
#include "pipev/types.h"
#include "pipev/core.h"
#include "pipev/tensor.h"
#include "pipev/queue.h"
#include "pipev/data_copy.h"
#include "pipev/vector.h"
#include "pipev/sync.h"
#include "pipev/reduce.h"
#include "pipev/debug.h"
#include "pipev/launch.h"
#include "kernel_tiling/kernel_tiling.h"
#endif
