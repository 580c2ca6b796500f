// The C API (asc_*): compare to CMPMASK and to UB bits, select, duplicate, arithmetic and the
// copies, on `__ubuf__` arrays. pipev's own test kernel, with an acl host harness.
// `__ubuf__ T name[N];` and `kernel<<<...>>>(...)` appear here as pipev's source rewrite turns
// them (the test has no rewriter); a `// => X` comment names what the line must issue.
#include "acl/acl.h"
#include "c_api/asc_simd.h"

constexpr uint32_t LEN = 128;  // halves: one repeat

__global__ __aicore__ void ne_select(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    auto& a = pipev::ubuf_array<half[LEN]>("a");  // => ub a
    auto& b = pipev::ubuf_array<half[LEN]>("b");
    auto& bits = pipev::ubuf_array<uint8_t[LEN / 8]>("bits");  // => ub bits
    auto& out = pipev::ubuf_array<half[LEN]>("out");
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)a, (__gm__ void*)x, LEN * sizeof(half));  // => copy_gm_to_ub a[x1], gm0[x2], nburst=x3, burst=x4
    asc_copy_gm2ub((__ubuf__ void*)b, (__gm__ void*)y, 1, LEN * sizeof(half) / 32, 0, 0);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);  // => set_flag MTE2, V, 0
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);  // => wait_flag MTE2, V, 0

    asc_ne(a, b, 1, 1, 1, 1, 8, 8, 8);  // => compare.ne.f16 cmpmask, a[x1], b[x2], stride=1,1,1,8,8,8
    asc_get_cmp_mask(bits);  // => get_cmp_mask bits[x1]
    asc_lt(bits, a, b, 1, 1, 1, 1, 8, 8, 8);  // => compare.lt.f16 bits[x1], a[x2], b[x3], repeat=x4, stride=1,1,1,8,8,8
    asc_ge_sync(bits, a, b, 1, 1, 1, 1, 8, 8, 8);  // => compare.ge.f16 | pipe_barrier ALL
    asc_gt_scalar(bits, a, 0.0f, 1, 1, 1, 8, 8);  // => compares.gt.f16 bits[x1], a[x2], raw(0x0000), repeat=x3, stride=1,1,8,8
    asc_set_cmp_mask(bits);  // => set_cmp_mask bits[x1]
    asc_select(out, a, b, LEN);  // => select.f16 out[x1], a[x2], b[x3], mode=0, count=x4
    asc_set_vector_mask(0xffffffffffffffffull, 0xffffffffffffffffull);  // => set_vector_mask x1, x2
    asc_select(out, a, b, 1, 1, 1, 1, 8, 8, 8);  // => select.f16 out[x1], a[x2], b[x3], mode=0, repeat=x4, stride=1,1,1,8,8,8
    asc_add(out, out, a, LEN);  // => add.f16 out[x1], out[x2], a[x3], count=x4
    asc_mul(out, out, b, 1, 1, 1, 1, 8, 8, 8);  // => mul.f16 out[x1], out[x2], b[x3], repeat=x4, stride=1,1,1,8,8,8
    asc_add_scalar(out, out, 2, LEN);  // => adds.f16 out[x1], out[x2], raw(0x4000), count=x3
    asc_max_scalar(out, out, (half)-4, 1, 1, 1, 8, 8);  // => maxs.f16 out[x1], out[x2], raw(0xc400), repeat=x3, stride=1,1,8,8
    asc_duplicate(b, (half)1.5, LEN);  // => duplicate.f16 b[x1], raw(0x3e00), count=x2

    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)z, (__ubuf__ void*)out, LEN * sizeof(half));  // => copy_ub_to_gm gm2[x1], out[x2] | pipe_barrier ALL
}

int main()
{
    size_t bytes = LEN * sizeof(half);
    uint8_t *x, *y, *z;
    aclInit(nullptr);
    aclrtMalloc((void**)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    // ne_select<<<1, nullptr, nullptr>>>(x, y, z);
    pipev::launch(__FILE__, __LINE__, "ne_select", 1, ne_select, x, y, z);  // => launch ne_select | gm gm0
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(z);
    aclFinalize();
    return 0;
}
