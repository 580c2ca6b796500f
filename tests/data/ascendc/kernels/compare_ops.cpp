// Compare (to UB bits and to CMPMASK), Compares, Duplicate and the arithmetic APIs on static UB
// tensors (LocalMemAllocator), with scalar access to UB: pipev's own test kernel.
// A `// => X` comment names what the line must issue (tests/test_ascendc_headers.py).
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;

extern "C" __global__ __aicore__ void compare_ops(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> xs = ub.Alloc<float, N>();  // => ub lm0
    LocalTensor<float> ys = ub.Alloc<float, N>();
    LocalTensor<uint8_t> bits = ub.Alloc<uint8_t, 64>();
    LocalTensor<float> zs = ub.Alloc<float>(N);
    GlobalTensor<float> xGm, yGm, outGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    yGm.SetGlobalBuffer((__gm__ float*)y, N);
    outGm.SetGlobalBuffer((__gm__ float*)out, N);

    DataCopy(xs, xGm, N);
    DataCopy(ys, yGm, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);  // => set_flag MTE2, V, 0
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);  // => wait_flag MTE2, V, 0

    BinaryRepeatParams rp;
    UnaryRepeatParams up;
    Compare(bits, xs, ys, CMPMODE::LT, N);  // => compare.lt.f32 lm2[x1], lm0[x2], lm1[x3], count=x4
    Compare(bits, xs, ys, CMPMODE::GE, 64, 4, rp);  // => compare.ge.f32 lm2[x1], lm0[x2], lm1[x3], repeat=x4, stride=1,1,1,8,8,8, mask=x5
    Compare<float, uint8_t, false>(bits, xs, ys, CMPMODE::NE, 64, 4, rp);  // => compare.ne.f32 lm2[x1], lm0[x2], lm1[x3], repeat=x4, stride=1,1,1,8,8,8$
    Compare(xs, ys, CMPMODE::EQ, 64, rp);  // => compare.eq.f32 cmpmask, lm0[x1], lm1[x2], stride=1,1,1,8,8,8, mask=x3
    GetCmpMask(bits);  // => get_cmp_mask lm2[x1]
    CompareScalar(bits, xs, 0.0f, CMPMODE::GT, N);  // => compares.gt.f32 lm2[x1], lm0[x2], raw(0x00000000), count=x3
    uint64_t lanes[2] = {0xffffffffull, 0};
    Compares(bits, xs, 1, CMPMODE::LE, lanes, 4, up);  // => compares.le.f32 lm2[x1], lm0[x2], raw(0x3f800000), repeat=x3, stride=1,1,8,8, mask_lo=x4

    Duplicate(zs, 1.0f, N);  // => duplicate.f32 lm3[x1], raw(0x3f800000), count=x2
    Duplicate(zs, 2.0f, lanes, 4, 1, 8);  // => duplicate.f32 lm3[x1], raw(0x40000000), repeat=x2, stride=1,1,8,8, mask_lo=x3
    Add(zs, xs, ys, N);  // => add.f32 lm3[x1], lm0[x2], lm1[x3], count=x4
    Sub(zs, zs, ys, 64, 4, rp);  // => sub.f32 lm3[x1], lm3[x2], lm1[x3], repeat=x4, stride=1,1,1,8,8,8, mask=x5
    Mul(zs, zs, xs, lanes, 4, rp);  // => mul.f32
    Max(zs, zs, xs, N);  // => max.f32
    Min<float, false>(zs[64], zs[64], ys[64], 64, 3, rp);  // => min.f32 lm3[x1], lm3[x2], lm1[x3], repeat=x4, stride=1,1,1,8,8,8$
    Adds(zs, zs, 1, N);  // => adds.f32 lm3[x1], lm3[x2], raw(0x3f800000), count=x3
    Muls(zs, zs, 0.5f, 64, 4, up);  // => muls.f32 lm3[x1], lm3[x2], raw(0x3f000000), repeat=x3, stride=1,1,8,8
    Maxs(zs, zs, -8.0f, N);  // => maxs.f32
    Mins(zs, zs, 8.0f, N);  // => mins.f32

    // scalar code reads and writes UB after the vector pipe is done
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);  // => wait_flag V, S, 1
    float first = zs.GetValue(0);  // => access
    zs.SetValue(1, first * 2);  // => access
    zs(2) = 7.0f;  // => access
    AscendC::printf("first=%f\n", first);
    DumpTensor(bits, 7, 8);  // => print: DumpTensor: desc=7, 8 u8 elements
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopy(outGm, zs, N);  // => copy_ub_to_gm gm_out[x1], lm3[x2]
    PipeBarrier<PIPE_ALL>();  // => pipe_barrier ALL
}

int main()
{
    size_t bytes = N * sizeof(float);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(bytes);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(compare_ops, 1, x, y, out);  // => launch compare_ops
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(out);
    return 0;
}
