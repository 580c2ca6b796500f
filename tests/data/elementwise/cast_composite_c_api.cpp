// #27, the C API: asc_mul_cast_half2int8 and asc_mul_cast_half2uint8 (MulCast's A2/A3 pairs)
// on `__ubuf__` arrays: the count form, the high-dimensional form and `_sync`. pipev's own test
// kernel: `pipev run` writes cast_composite_c_api_in_{x,y}.bin and _out_z.bin here;
// tests/cli/test_binary_cast_kernels.py checks them against tests/reference/binary_conv.py.
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "c_api/asc_simd.h"

constexpr uint32_t LEN = 128;  // halves: one repeat
constexpr uint32_t NOUT = 3;

__global__ __aicore__ void cast_composite_c_api(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    __ubuf__ half a[LEN];
    __ubuf__ half b[LEN];
    __ubuf__ int8_t z[NOUT * LEN];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)a, (__gm__ void*)x, LEN * sizeof(half));
    asc_copy_gm2ub((__ubuf__ void*)b, (__gm__ void*)y, LEN * sizeof(half));
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_mul_cast_half2int8(z, a, b, LEN);  // => mul_cast.s8.f16
    asc_mul_cast_half2uint8((__ubuf__ uint8_t*)(z + LEN), a, b, 1, 1, 1, 1, 4, 8, 8);
    asc_mul_cast_half2int8_sync(z + 2 * LEN, a, b, LEN);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)out, (__ubuf__ void*)z, NOUT * LEN);
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "cast_composite_c_api_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    const uint16_t specials[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE55,
                                 0x0001, 0x5A00, 0xDA00, 0x57F0, 0x3800, 0xB800, 0x3E00};
    half hx[LEN], hy[LEN];
    uint32_t r = 5;
    for (uint32_t i = 0; i < LEN; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        hx[i] = half(float(int(r % 2001) - 1000) / 37.0f);
        hy[i] = half(float(int((r >> 11) % 2001) - 1000) / 53.0f);
        if (i % 4 == 0) std::memcpy(&hx[i], &specials[(i / 4) % 14], 2);
        if (i % 6 == 0) std::memcpy(&hy[i], &specials[(i / 6 + 3) % 14], 2);
    }
    size_t bytes = LEN * sizeof(half);
    uint8_t *x, *y, *out;
    aclInit(nullptr);
    aclrtMalloc((void**)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&out, NOUT * LEN, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, bytes, hy, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    cast_composite_c_api<<<1, nullptr, nullptr>>>(x, y, out);
    aclrtSynchronizeStream(nullptr);
    uint8_t host[NOUT * LEN];
    aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = write("in_x", hx, bytes) && write("in_y", hy, bytes) &&
              write("out_z", host, sizeof host);
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(out);
    aclFinalize();
    return ok ? 0 : 1;
}
