// A host main for pipev's msopgen-style project: the op_host tiling header and the op_kernel
// file included as they are (the kernel's DTYPE_ macros come from op_host's OpDef); the tiling
// filled with the header's set_ calls and saved with SaveToBuffer, as the op's host tiling
// function would; reads x.bin and y.bin (N floats), launches scale_add_custom on CORES cores and
// writes z.bin.
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "op_host/scale_add_custom_tiling.h"
#include "op_kernel/scale_add_custom.cpp"

#ifndef SCALE
#define SCALE 0.5f
#endif
constexpr uint32_t N = 4096, CORES = 4, TILE = 256;

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    std::vector<float> x(N), y(N), z(N);
    for (auto [name, v] : {std::pair{"x.bin", &x}, std::pair{"y.bin", &y}}) {
        FILE* f = fopen(name, "rb");
        if (!f || fread(v->data(), sizeof(float), N, f) != N) return 2;
        fclose(f);
    }
    optiling::ScaleAddCustomTilingData tiling;
    tiling.set_totalLength(N);
    tiling.set_scale(SCALE);
    uint16_t reserved[2] = {7, 9};
    tiling.set_reserved(reserved);
    tiling.tile.set_tileLength(TILE);
    tiling.tile.set_tileNum(N / CORES / TILE);
    std::vector<uint8_t> raw(tiling.GetDataSize());
    tiling.SaveToBuffer(raw.data(), raw.size());
    size_t bytes = N * sizeof(float);
    void *dx, *dy, *dz, *dw, *dt;
    aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dw, 32, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dt, raw.size(), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dt, raw.size(), raw.data(), raw.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    scale_add_custom<<<CORES, nullptr, stream>>>((GM_ADDR)dx, (GM_ADDR)dy, (GM_ADDR)dz,
                                                 (GM_ADDR)dw, (GM_ADDR)dt);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    FILE* f = fopen("z.bin", "wb");
    fwrite(z.data(), sizeof(float), N, f);
    fclose(f);
    printf("dtypes %zu %zu %zu %d\n", sizeof(DTYPE_X), sizeof(DTYPE_Y), sizeof(DTYPE_Z),
           ORIG_DTYPE_X);  // (the OpDef's first combination, op_host/scale_add_custom.cpp)
    printf("tiling %zu bytes, reserved %u %u\n", tiling.GetDataSize(), tiling.get_reserved()[0],
           tiling.get_reserved()[1]);
    return 0;
}
