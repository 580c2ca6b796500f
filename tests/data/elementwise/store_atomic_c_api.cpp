// #27 (h27e), the C API's other atomic form: asc_set_store_atomic_config_v1(type, op) on 4
// blocks, each adding its own float row into one shared GM row (type 1: float, op 0: sum), then
// type 0 (no atomic). With -DPLAIN_STORE the blocks store with type 0, plainly, and the cross-core
// race check must fire; -DBAD_TYPE passes type 7, an error at the call. pipev's own test kernel: `pipev run` writes
// store_atomic_c_api_{in_x,in_acc,out_acc}.bin here; tests/cli/test_store_atomic_c_api.py checks
// the shared row against numpy.
#include <cstdio>

#include "acl/acl.h"
#include "c_api/asc_simd.h"

#if defined(PLAIN_STORE)
constexpr uint16_t ATOMIC_TYPE = 0;
#elif defined(BAD_TYPE)
constexpr uint16_t ATOMIC_TYPE = 7;  // no meaning on the page: an error at the call
#else
constexpr uint16_t ATOMIC_TYPE = 1;
#endif
constexpr uint32_t N = 64, BLOCKS = 4;

__global__ __aicore__ void store_atomic(GM_ADDR x, GM_ADDR acc)
{
    __ubuf__ float a[N];
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)a, (__gm__ void*)(x + asc_get_block_idx() * N * sizeof(float)),
                   N * sizeof(float));
    asc_sync_notify(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    asc_set_store_atomic_config_v1(ATOMIC_TYPE, 0);
    asc_copy_ub2gm_sync((__gm__ void*)acc, (__ubuf__ void*)a, N * sizeof(float));
    asc_set_store_atomic_config_v1(0, 0);
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "store_atomic_c_api_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    float hx[BLOCKS * N], hacc[N];
    uint32_t r = 11;
    for (uint32_t i = 0; i < BLOCKS * N; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        hx[i] = float(int(r % 2001) - 1000);  // integers: every order of the sums is exact
    }
    for (uint32_t i = 0; i < N; ++i) hacc[i] = float(i) * 0.5f;
    uint8_t *x, *acc;
    aclInit(nullptr);
    aclrtMalloc((void**)&x, sizeof hx, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&acc, sizeof hacc, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, sizeof hx, hx, sizeof hx, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(acc, sizeof hacc, hacc, sizeof hacc, ACL_MEMCPY_HOST_TO_DEVICE);
    store_atomic<<<BLOCKS, nullptr, nullptr>>>(x, acc);
    aclrtSynchronizeStream(nullptr);
    float out[N];
    aclrtMemcpy(out, sizeof out, acc, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = write("in_x", hx, sizeof hx) && write("in_acc", hacc, sizeof hacc) &&
              write("out_acc", out, sizeof out);
    aclrtFree(x);
    aclrtFree(acc);
    aclFinalize();
    return ok ? 0 : 1;
}
