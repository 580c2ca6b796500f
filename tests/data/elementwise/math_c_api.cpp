// #27a, the C API (asc_*): asc_div, asc_exp, asc_rsqrt, asc_relu, asc_sub_scalar and
// asc_leakyrelu on `__ubuf__` arrays, count forms, high-dimensional forms (MASK as it is) and
// `_sync`. pipev's own test kernel: `pipev run` writes math_c_api_in_{x,y}.bin and
// math_c_api_out_*.bin here; tests/cli/test_elementwise_kernels.py checks them.
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "c_api/asc_simd.h"

constexpr uint32_t LEN = 128;  // halves: one repeat
constexpr uint32_t NOUT = 6;

__global__ __aicore__ void math_c_api(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    __ubuf__ half a[LEN];
    __ubuf__ half b[LEN];
    __ubuf__ half z[NOUT * LEN];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)a, (__gm__ void*)x, LEN * sizeof(half));
    asc_copy_gm2ub((__ubuf__ void*)b, (__gm__ void*)y, LEN * sizeof(half));
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_div(z, a, b, LEN);  // => div.f16
    asc_exp(z + LEN, a, 1, 1, 1, 8, 8);  // => exp.f16
    asc_rsqrt_sync(z + 2 * LEN, a, LEN);  // => rsqrt.f16
    asc_relu(z + 3 * LEN, a, LEN);  // => relu.f16
    asc_sub_scalar(z + 4 * LEN, a, (half)0.5f, LEN);  // => subs.f16
    asc_leakyrelu(z + 5 * LEN, a, (half)0.125f, 1, 1, 1, 8, 8);  // => leaky_relu.f16
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)out, (__ubuf__ void*)z, NOUT * LEN * sizeof(half));
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "math_c_api_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    const uint16_t specials[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE55,
                                 0x0001, 0x8001, 0x03FF, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00};
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
    aclrtMalloc((void**)&out, NOUT * bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, bytes, hy, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    math_c_api<<<1, nullptr, nullptr>>>(x, y, out);
    aclrtSynchronizeStream(nullptr);
    uint8_t host[NOUT * LEN * sizeof(half)];
    aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = write("in_x", hx, bytes) && write("in_y", hy, bytes) &&
              write("out_z", host, sizeof host);
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(out);
    aclFinalize();
    return ok ? 0 : 1;
}
