// #27, the C API: asc_shiftright_round (count, `_sync` and high-dimensional forms) and the
// plain asc_shiftleft / asc_shiftright on int16_t. pipev's own test kernel: `pipev run` writes
// shift_round_c_api_in_s.bin and _out_z.bin here; tests/cli/test_binary_cast_kernels.py checks
// them against tests/reference/shift_round.py and tests/reference/elementwise.py.
#include <cstdio>

#include "acl/acl.h"
#include "c_api/asc_simd.h"

constexpr uint32_t LEN = 128;
constexpr uint32_t NOUT = 5;

__global__ __aicore__ void shift_round_c_api(GM_ADDR x, GM_ADDR out)
{
    __ubuf__ int16_t a[LEN];
    __ubuf__ int16_t z[NOUT * LEN];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)a, (__gm__ void*)x, LEN * sizeof(int16_t));
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_shiftright_round(z, a, 4, LEN);  // => shift_right.s16 … round_en=1
    asc_shiftright_round_sync(z + LEN, a, 1, LEN);
    asc_shiftright_round(z + 2 * LEN, a, 7, 1, 1, 1, 8, 8);
    asc_shiftright(z + 3 * LEN, a, 4, LEN);
    asc_shiftleft(z + 4 * LEN, a, 3, LEN);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)out, (__ubuf__ void*)z, NOUT * LEN * sizeof(int16_t));
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "shift_round_c_api_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    int16_t hx[LEN];
    for (uint32_t i = 0; i < LEN; ++i) hx[i] = int16_t(i * 40503u * 7u);
    size_t bytes = LEN * sizeof(int16_t);
    uint8_t *x, *out;
    aclInit(nullptr);
    aclrtMalloc((void**)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&out, NOUT * bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    shift_round_c_api<<<1, nullptr, nullptr>>>(x, out);
    aclrtSynchronizeStream(nullptr);
    uint8_t host[NOUT * LEN * sizeof(int16_t)];
    aclrtMemcpy(host, sizeof host, out, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = write("in_s", hx, bytes) && write("out_z", host, sizeof host);
    aclrtFree(x);
    aclrtFree(out);
    aclFinalize();
    return ok ? 0 : 1;
}
