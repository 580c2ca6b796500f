// pipev's own custom-operator project in the msopgen layout (op_host + op_kernel): the tiling
// data the host side fills for the kernel, with a nested tiling struct registered as the page
// says (its OP argument NAME "Op").
#ifndef SCALE_ADD_CUSTOM_TILING_H
#define SCALE_ADD_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TileShape)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);  // elements a tile
TILING_DATA_FIELD_DEF(uint32_t, tileNum);     // tiles a core
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TileShapeOp, TileShape)

BEGIN_TILING_DATA_DEF(ScaleAddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements over all cores
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(uint16_t, 2, reserved);
TILING_DATA_FIELD_DEF_STRUCT(TileShape, tile);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleAddCustom, ScaleAddCustomTilingData)
}  // namespace optiling
#endif
