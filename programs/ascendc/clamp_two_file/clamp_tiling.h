// clamp_tiling.h: the tiling struct the host fills and the kernel reads from GM.
#ifndef CLAMP_TILING_H
#define CLAMP_TILING_H
#include <cstdint>

struct ClampTiling {
    uint32_t blockLength;  // elements per core
    uint32_t tileLength;   // elements per tile
    float lo, hi;
};
#endif
