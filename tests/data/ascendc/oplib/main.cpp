// The host side of pipev's operator-library-style test kernel (issue 34): reads x.bin (N
// elements of the type DT names: 1 half, 3 float), launches sign_bits<DT> on CORES cores with
// the 64-bit tiling key 300000000000101 and writes y.bin and bits.bin.
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "tikicpulib.h"
#include "op_kernel/sign_bits_apt.cpp"

#ifndef DT
#define DT 3
#endif
constexpr int64_t N = 4096;
constexpr int32_t CORES = 2, TILE = 512;
constexpr size_t ESIZE = DT == 3 ? 4 : 2;

int main()
{
    printf("__CCE_AICORE__ %d\n", __CCE_AICORE__);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    std::vector<uint8_t> x(N * ESIZE), y(N * ESIZE), bits(N / 8);
    FILE* f = fopen("x.bin", "rb");
    if (!f || fread(x.data(), 1, x.size(), f) != x.size()) return 2;
    fclose(f);
    OpLib::TileTilingData tiling{N, CORES, TILE};
    void *dx, *dy, *db, *dw, *dt;
    aclrtMalloc(&dx, x.size(), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, y.size(), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&db, bits.size(), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dw, 32, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dt, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, x.size(), x.data(), x.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dt, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE);
    ICPU_SET_TILING_KEY(300000000000101UL);  // a 64-bit TilingKey
    sign_bits<DT><<<CORES, nullptr, stream>>>((GM_ADDR)dx, (GM_ADDR)dy, (GM_ADDR)db, (GM_ADDR)dw,
                                              (GM_ADDR)dt);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(y.data(), y.size(), dy, y.size(), ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(bits.data(), bits.size(), db, bits.size(), ACL_MEMCPY_DEVICE_TO_HOST);
    f = fopen("y.bin", "wb");
    fwrite(y.data(), 1, y.size(), f);
    fclose(f);
    f = fopen("bits.bin", "wb");
    fwrite(bits.data(), 1, bits.size(), f);
    fclose(f);
    return 0;
}
