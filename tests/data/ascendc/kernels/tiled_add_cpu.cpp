// The CPU-twin harness of the tiled add: GmAlloc buffers and ICPU_RUN_KF of two instantiations
// (single and double buffered). Argument "multicore" launches on 2 cores, one after another.
#include <cstring>

#include "tikicpulib.h"
#include "tiled_add.h"

template <int D_T, int BUFS>
__global__ __aicore__ void tiled_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling);

int main(int argc, char** argv)
{
    constexpr uint32_t total = 4096;
    size_t bytes = total * sizeof(float);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(sizeof(TiledAddTiling));
    TiledAddTiling t{total, 8};
    std::memcpy(tiling, &t, sizeof t);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_SET_TILING_KEY(1);
    if (argc > 1 && std::strcmp(argv[1], "multicore") == 0) {
        ICPU_RUN_KF(tiled_add<C_DT_FLOAT, 2>, 2, x, y, z, tiling);  // => launch tiled_add<C_DT_FLOAT, 2>
    } else {
        ICPU_RUN_KF(tiled_add<C_DT_FLOAT, 1>, 1, x, y, z, tiling);  // => launch tiled_add<C_DT_FLOAT, 1> | gm gm_tiling
        ICPU_RUN_KF(tiled_add<C_DT_FLOAT, 2>, 1, x, y, z, tiling);  // => launch tiled_add<C_DT_FLOAT, 2>
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    AscendC::GmFree(tiling);
    return 0;
}
