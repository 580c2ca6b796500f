// The C API's conversions (asc_SRC2DST[_MODE]) of the pairs issue #27 added, count, sync and
// high-dimensional forms, and its GM atomics (asc_set_atomic_OP_TYPE), on `__ubuf__` arrays as pipev's source rewrite turns them; a `// => X`
// comment names what the line must issue.
#include "acl/acl.h"
#include "c_api/asc_simd.h"

constexpr uint32_t LEN = 64;

__global__ __aicore__ void convert(GM_ADDR x, GM_ADDR y)
{
    auto& f = pipev::ubuf_array<float[LEN]>("f");
    auto& g = pipev::ubuf_array<float[LEN]>("g");
    auto& l = pipev::ubuf_array<int64_t[LEN]>("l");
    auto& i = pipev::ubuf_array<int32_t[LEN]>("i");
    auto& s = pipev::ubuf_array<int16_t[LEN]>("s");
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)f, (__gm__ void*)x, LEN * sizeof(float));
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_float2float_rd(g, f, LEN);  // => cast.f32.f32 g[x1], f[x2], round=floor, count=x3
    asc_float2int64_rna(l, g, LEN);  // => cast.s64.f32 l[x1], g[x2], round=round, count=x3
    asc_int642int32(i, l, LEN);  // => cast.s32.s64 i[x1], l[x2], round=none, count=x3
    asc_int322int16_sync(s, i, LEN);  // => cast.s16.s32 s[x1], i[x2], round=none, count=x3 | pipe_barrier ALL
    asc_int162float(f, s, LEN);  // => cast.f32.s16
    asc_float2int16_rz(s, f, LEN);  // => cast.s16.f32 s[x1], f[x2], round=trunc, count=x3
    asc_int322int64(l, i, 2, 1, 1, 8, 4);  // => cast.s64.s32 l[x1], i[x2], round=none, repeat=x3, stride=1,1,8,4
    asc_int642float_ru(g, l, LEN);  // => cast.f32.s64 g[x1], l[x2], round=ceil, count=x3
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_set_atomic_add_float();  // => set_atomic.f32 atomic=add
    asc_copy_ub2gm((__gm__ void*)y, (__ubuf__ void*)g, LEN * sizeof(float));
    asc_set_atomic_max_int8();  // => set_atomic.s8 atomic=max
    asc_set_atomic_none();  // => set_atomic.f32 atomic=none
    asc_copy_ub2gm((__gm__ void*)y, (__ubuf__ void*)g, LEN * sizeof(float));
}

int main()
{
    size_t bytes = LEN * sizeof(float);
    uint8_t *x, *y;
    aclInit(nullptr);
    aclrtMalloc((void**)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    // convert<<<1, nullptr, nullptr>>>(x, y);
    pipev::launch(__FILE__, __LINE__, "convert", 1, convert, x, y);
    aclrtFree(x);
    aclrtFree(y);
    aclFinalize();
    return 0;
}
