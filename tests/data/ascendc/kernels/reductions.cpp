// The reductions in AscendC and the C API: WholeReduceMax/Min/Sum with their orders,
// BlockReduceMax/Min/Sum, PairReduceSum, isSetMask = false on MASK as SetVectorMask left it, and
// asc_repeat_reduce_* / asc_datablock_reduce_* / asc_pair_reduce_sum on `__ubuf__` arrays.
// pipev's own test kernel. A `// => X` comment names what the line must issue
// (tests/cli/test_ascendc_headers.py).
#include "c_api/asc_simd.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 512;  // floats: eight repeats

extern "C" __global__ __aicore__ void reductions(GM_ADDR x, GM_ADDR out)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> xs = ub.Alloc<float, N>();  // => ub lm0
    LocalTensor<float> rs = ub.Alloc<float, 256>();
    LocalTensor<half> hs = ub.Alloc<half, N>();
    LocalTensor<half> hr = ub.Alloc<half, 128>();
    LocalTensor<float> ws = ub.Alloc<float, 64>();  // the composites' work tensor
    GlobalTensor<float> xGm, outGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    outGm.SetGlobalBuffer((__gm__ float*)out, 256);

    DataCopy(xs, xGm, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(hs, (half)1.5, N);
    Duplicate(hr, (half)0, 128);
    Duplicate(rs, 0.0f, 256);

    WholeReduceMax(rs, xs, 64, 8, 1, 1, 8);  // => whole_reduce_max.f32 lm1[x1], lm0[x2], mask=x3, repeat=x4, dst_rep=1, src_blk=1, src_rep=8, order=value_index
    uint64_t lanes[2] = {0xff00ff00ff00ff00ull, 0};
    WholeReduceMin(rs[16], xs, lanes, 4, 1, 1, 16, ReduceOrder::ORDER_INDEX_VALUE);  // => whole_reduce_min.f32 lm1[x1], lm0[x2], mask_lo=x3, repeat=x4, dst_rep=1, src_blk=1, src_rep=16, order=index_value
    WholeReduceMax(rs[24], xs, 32, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);  // => whole_reduce_max.f32 lm1[x1], lm0[x2], mask=x3, repeat=x4, dst_rep=1, src_blk=1, src_rep=8, order=only_value
    WholeReduceMin(rs[28], xs, 32, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);  // => whole_reduce_min.f32 lm1[x1], lm0[x2], mask=x3, repeat=x4, dst_rep=1, src_blk=1, src_rep=8, order=only_index
    WholeReduceSum(rs[32], xs, 64, 8, 1, 1, 8);  // => whole_reduce_sum.f32 lm1[x1], lm0[x2], mask=x3, repeat=x4, dst_rep=1, src_blk=1, src_rep=8
    BlockReduceMax(rs[40], xs, 2, 64, 1, 1, 8);  // => block_reduce_max.f32 lm1[x1], lm0[x2], repeat=x3, mask=x4, dst_rep=1, src_blk=1, src_rep=8
    BlockReduceMin(rs[56], xs, 2, 64, 1, 1, 8);  // => block_reduce_min.f32
    BlockReduceSum(rs[72], xs, 2, lanes, 1, 1, 8);  // => block_reduce_sum.f32 lm1[x1], lm0[x2], repeat=x3, mask_lo=x4
    PairReduceSum(rs[96], xs, 2, 64, 1, 1, 8);  // => pair_reduce_sum.f32 lm1[x1], lm0[x2], repeat=x3, mask=x4, dst_rep=1, src_blk=1, src_rep=8
    SetVectorMask<half>(0, 0xffffffffffffffffull);
    WholeReduceSum<half, false>(hr, hs, MASK_PLACEHOLDER, 4, 1, 1, 8);  // => whole_reduce_sum.f16 lm3[x1], lm2[x2], repeat=x3, dst_rep=1, src_blk=1, src_rep=8$
    BlockReduceSum<half, false>(hr[16], hs, 2, MASK_PLACEHOLDER, 1, 1, 8);  // => block_reduce_sum.f16 lm3[x1], lm2[x2], repeat=x3, dst_rep=1, src_blk=1, src_rep=8$
    WholeReduceMax(hr[64], hs, 128, 4, 1, 1, 8);  // => whole_reduce_max.f16
    ReduceMax(rs[128], xs, ws, N);  // => reduce_max.f32 lm1[x1], lm0[x2], lm4[x3], count=512$
    ReduceMin(rs[130], xs, ws, 32, 8, 8);  // => reduce_min.f32 lm1[x1], lm0[x2], lm4[x3], mask=x4, repeats=8, src_rep=8$
    ReduceSum(rs[132], xs, ws, 500);  // => reduce_sum.f32 lm1[x1], lm0[x2], lm4[x3], count=500
    ReduceSum(rs[133], xs, ws, lanes, 4, 16);  // => reduce_sum.f32 lm1[x1], lm0[x2], lm4[x3], mask_lo=x4, repeats=4, src_rep=16
    ReduceMax(rs[136], xs, ws, N, true);  // => whole_reduce_max.f32 lm4[x1], lm0[x2], mask=x3, repeat=x4, dst_rep=1, src_blk=1, src_rep=8, order=value_index
    ReduceMin(rs[138], xs, ws, 64, 8, 8, true);  // => whole_reduce_min.f32 lm4[x1], lm4[x2], mask_lo=x3, repeat=x4, dst_rep=1, src_blk=1, src_rep=8, order=value_index
    ReduceSum(rs[140], xs, ws, 300);
    // RepeatReduceSum (h28): WholeReduceSum with a contiguous mask; its dstBlkStride (7) dropped
    RepeatReduceSum(rs[144], xs, 4, 48, 7, 1, 2, 8);  // => whole_reduce_sum.f32 lm1[x1], lm0[x2], mask=x3, repeat=x4, dst_rep=2, src_blk=1, src_rep=8$
    SetFlag<HardEvent::V_S>(EVENT_ID2);
    WaitFlag<HardEvent::V_S>(EVENT_ID2);
    float total = GetReduceRepeatSumSpr<float>();  // a register: no statement, no access
    float best, at;
    ReduceMax(rs[136], xs, ws, N, true);
    GetReduceMaxMinCount<float>(best, at);  // (the registers, as GetRsvdCnt)
    rs.SetValue(142, total + best + at);  // => access
    SetFlag<HardEvent::S_V>(EVENT_ID2);
    WaitFlag<HardEvent::S_V>(EVENT_ID2);

    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, rs, 256);  // => copy_ub_to_gm gm_out[x1], lm1[x2]
    PipeBarrier<PIPE_ALL>();
}

__global__ __aicore__ void c_reductions(GM_ADDR x, GM_ADDR out)
{
    auto& a = pipev::ubuf_array<float[N]>("a");  // => ub a
    auto& r = pipev::ubuf_array<float[256]>("r");
    asc_init();
    asc_copy_gm2ub((__ubuf__ void*)a, (__gm__ void*)x, N * sizeof(float));
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_duplicate(r, 0.0f, 256);
    asc_set_vector_mask(0, 0xffffffffffffffffull);
    asc_repeat_reduce_max(r, a, 8, 1, 1, 8);  // => whole_reduce_max.f32 r[x1], a[x2], repeat=x3, dst_rep=1, src_blk=1, src_rep=8, order=value_index
    asc_repeat_reduce_min(r + 16, a, 8, 1, 1, 8, 2);  // => whole_reduce_min.f32 r[x1], a[x2], repeat=x3, dst_rep=1, src_blk=1, src_rep=8, order=only_value
    asc_repeat_reduce_sum(r + 24, a, 8, 1, 1, 8);  // => whole_reduce_sum.f32 r[x1], a[x2], repeat=x3, dst_rep=1, src_blk=1, src_rep=8
    asc_datablock_reduce_max(r + 32, a, 2, 1, 1, 8);  // => block_reduce_max.f32 r[x1], a[x2], repeat=x3, dst_rep=1, src_blk=1, src_rep=8
    asc_datablock_reduce_min(r + 48, a, 2, 1, 1, 8);  // => block_reduce_min.f32
    asc_datablock_reduce_sum(r + 64, a, 2, 1, 1, 8);  // => block_reduce_sum.f32
    asc_pair_reduce_sum(r + 80, a, 1, 1, 1, 8);  // => pair_reduce_sum.f32 r[x1], a[x2], repeat=x3, dst_rep=1, src_blk=1, src_rep=8
    // h28: the newest pages' first-n forms, order-named calls, `_sync` forms, positional asc_brcb
    asc_repeat_reduce_sum(r + 128, a, 300);  // => whole_reduce_sum.f32 r[x1], a[x2], count=
    asc_repeat_reduce_max_index_value(r + 136, a, 130);  // => whole_reduce_max.f32 r[x1], a[x2], count=x3, order=index_value
    asc_repeat_reduce_min_only_index(r + 144, a, 8, 1, 1, 8);  // => whole_reduce_min.f32 r[x1], a[x2], repeat=x3, dst_rep=1, src_blk=1, src_rep=8, order=only_index
    asc_datablock_reduce_sum_sync(r + 160, a, 70);  // => block_reduce_sum.f32 r[x1], a[x2], count=
    asc_pair_reduce_sum(r + 176, a, 40);  // => pair_reduce_sum.f32 r[x1], a[x2], count=
    asc_brcb((__ubuf__ uint32_t*)(r + 192), (__ubuf__ uint32_t*)a, 1, 8, 1);  // => brcb.u32
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_sync((__gm__ void*)out, (__ubuf__ void*)r, 256 * sizeof(float));
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(256 * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(reductions, 1, x, out);  // => launch reductions
    pipev::launch(__FILE__, __LINE__, "c_reductions", 1, c_reductions, x, out);  // => launch c_reductions
    AscendC::GmFree(x);
    AscendC::GmFree(out);
    return 0;
}
