// The tiled add kernel's tiling struct and template arguments, shared by the kernel and its two
// host harnesses (tiled_add_cpu.cpp, tiled_add_acl.cpp).
#ifndef TILED_ADD_H
#define TILED_ADD_H
#include <cstdint>

#include "ascendc/host_api/tiling/template_argument.h"

struct TiledAddTiling {
    uint32_t totalLength;  // elements over all cores
    uint32_t tileNum;      // tiles per core
};

ASCENDC_TPL_ARGS_DECL(TiledAdd,
    ASCENDC_TPL_DTYPE_DECL(D_T, C_DT_FLOAT, C_DT_FLOAT16),
    ASCENDC_TPL_UINT_DECL(BUFS, ASCENDC_TPL_8_BW, ASCENDC_TPL_UI_LIST, 1, 2));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(
    ASCENDC_TPL_DTYPE_SEL(D_T, C_DT_FLOAT, C_DT_FLOAT16),
    ASCENDC_TPL_UINT_SEL(BUFS, ASCENDC_TPL_UI_LIST, 1, 2)));

void tiled_add_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z,
                  uint8_t* tiling);
#endif
