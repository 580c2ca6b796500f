// #27, the C API: asc_axpy and asc_fma with half sources into a float destination (the pages'
// mixed overloads, 64 elements a repeat), in the count, high-dimensional and `_sync` forms, and
// asc_mul_add (dst = src0·dst + src1) on half, and asc_add_relu / asc_sub_relu's converting
// overloads (half → int8_t: count and high-dimensional). pipev's own test kernel: `pipev run` writes
// axpy_mixed_c_api_in_*.bin and axpy_mixed_c_api_out*.bin here;
// tests/cli/test_binary_cast_kernels.py checks them against tests/reference/.
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "c_api/asc_simd.h"

constexpr uint32_t N = 128;
constexpr uint32_t NOUT = 4;  // float: axpy count, fma high-dimensional, fma_sync, axpy hd

__global__ __aicore__ void axpy_mixed_c_api(GM_ADDR x, GM_ADDR y, GM_ADDR d, GM_ADDR out,
                                            GM_ADDR hout, GM_ADDR qout)
{
    __ubuf__ half a[N];
    __ubuf__ half b[N];
    __ubuf__ half h[N];
    __ubuf__ float z[NOUT * N];
    __ubuf__ int8_t q[2 * N];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)a, (__gm__ void*)x, N * sizeof(half));
    asc_copy_gm2ub((__ubuf__ void*)b, (__gm__ void*)y, N * sizeof(half));
    asc_copy_gm2ub((__ubuf__ void*)h, (__gm__ void*)y, N * sizeof(half));
    for (uint32_t k = 0; k < NOUT; ++k) {
        asc_copy_gm2ub((__ubuf__ void*)(z + k * N), (__gm__ void*)d, N * sizeof(float));
    }
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_axpy(z, a, (half)0.75f, N);                             // => axpy.f32.f16
    asc_fma(z + N, a, b, 2, 1, 1, 1, 8, 4, 4);                  // => mul_add_dst.f32.f16
    asc_fma_sync(z + 2 * N, a, b, N);
    asc_axpy(z + 3 * N, a, (half)-1.5f, 2, 1, 1, 8, 4);
    asc_mul_add(h, a, b, N);                                    // h = a·h + b (h starts as y)
    asc_add_relu(q, a, b, N);                                   // => add_relu_cast.s8.f16
    asc_sub_relu(q + N, a, b, 1, 1, 1, 1, 8, 8, 8);             // => sub_relu_cast.s8.f16
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm((__gm__ void*)out, (__ubuf__ void*)z, NOUT * N * sizeof(float));
    asc_copy_ub2gm((__gm__ void*)hout, (__ubuf__ void*)h, N * sizeof(half));
    asc_copy_ub2gm_sync((__gm__ void*)qout, (__ubuf__ void*)q, 2 * N);
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "axpy_mixed_c_api_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    const uint16_t hspecials[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x8001,
                                  0x7BFF, 0xFBFF, 0x3C00};
    half hx[N], hy[N];
    float fd[N];
    uint32_t r = 11;
    for (uint32_t i = 0; i < N; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        hx[i] = half(float(int(r % 20001) - 10000) / 17.0f);
        hy[i] = half(float(int((r >> 9) % 20001) - 10000) / 29.0f);
        fd[i] = float(int((r >> 3) % 200001) - 100000) / 3.0f;
        if (i % 7 == 0) std::memcpy(&hx[i], &hspecials[(i / 7) % 10], 2);
        if (i % 11 == 0) std::memcpy(&hy[i], &hspecials[(i / 11 + 4) % 10], 2);
    }
    uint8_t *x, *y, *d, *out, *hout, *qout;
    aclInit(nullptr);
    aclrtMalloc((void**)&x, sizeof hx, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, sizeof hy, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&d, sizeof fd, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&out, NOUT * N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&hout, sizeof hx, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&qout, 2 * N, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, sizeof hx, hx, sizeof hx, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, sizeof hy, hy, sizeof hy, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(d, sizeof fd, fd, sizeof fd, ACL_MEMCPY_HOST_TO_DEVICE);
    axpy_mixed_c_api<<<1, nullptr, nullptr>>>(x, y, d, out, hout, qout);
    aclrtSynchronizeStream(nullptr);
    float host[NOUT * N];
    half hh[N];
    int8_t hq[2 * N];
    aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(hh, sizeof hh, hout, sizeof hh, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(hq, sizeof hq, qout, sizeof hq, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = write("in_x", hx, sizeof hx) && write("in_y", hy, sizeof hy) &&
              write("in_d", fd, sizeof fd) && write("out", host, sizeof host) &&
              write("out_h", hh, sizeof hh) && write("out_q", hq, sizeof hq);
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(d);
    aclrtFree(out);
    aclrtFree(hout);
    aclrtFree(qout);
    aclFinalize();
    return ok ? 0 : 1;
}
