// #27a, AscendC: the arithmetic group (Exp Ln Sqrt Rsqrt Reciprocal Div Relu LeakyRelu Subs) and
// the shifts (ShiftLeft ShiftRight) on inputs full of specials, in the count form and the
// high-dimensional forms (mask as a length and as bits, repeatTimes, Unary/BinaryRepeatParams,
// isSetMask = false with MASK_PLACEHOLDER, the Adds<half, false>(..., count) template form).
// pipev's own test kernel: `pipev run` writes math_ascendc_in_*.bin and math_ascendc_out_*.bin
// in the current directory; tests/cli/test_elementwise_kernels.py checks them against
// tests/reference/elementwise.py.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;
constexpr const char* OUTS[] = {"exp", "ln", "sqrt", "rsqrt", "rec", "div", "relu", "lrelu",
                                "subs", "hexp", "hlrelu", "shl", "shr", "hadds"};
constexpr uint32_t NOUT = sizeof(OUTS) / sizeof(OUTS[0]);

extern "C" __global__ __aicore__ void math_ascendc(GM_ADDR x, GM_ADDR y, GM_ADDR h, GM_ADDR s,
                                                   GM_ADDR out)
{
    TPipe pipe;
    TBuf<> xb, yb, zb, hb, hz, sb, sz;
    pipe.InitBuffer(xb, N * 4);
    pipe.InitBuffer(yb, N * 4);
    pipe.InitBuffer(zb, N * 4);
    pipe.InitBuffer(hb, N * 2);
    pipe.InitBuffer(hz, N * 2);
    pipe.InitBuffer(sb, N * 2);
    pipe.InitBuffer(sz, N * 2);
    LocalTensor<float> xl = xb.Get<float>(), yl = yb.Get<float>(), zl = zb.Get<float>();
    LocalTensor<half> hl = hb.Get<half>(), hzl = hz.Get<half>();
    LocalTensor<int16_t> sl = sb.Get<int16_t>(), szl = sz.Get<int16_t>();
    GlobalTensor<float> xg, yg, og;
    GlobalTensor<half> hg, ohg;
    GlobalTensor<int16_t> sg, osg;
    xg.SetGlobalBuffer((__gm__ float*)x, N);
    yg.SetGlobalBuffer((__gm__ float*)y, N);
    hg.SetGlobalBuffer((__gm__ half*)h, N);
    sg.SetGlobalBuffer((__gm__ int16_t*)s, N);
    DataCopy(xl, xg, N);
    DataCopy(yl, yg, N);
    DataCopy(hl, hg, N);
    DataCopy(sl, sg, N);
    PipeBarrier<PIPE_ALL>();
    uint32_t k = 0;
    auto flush = [&]() {  // zl (or hzl / szl) to output K
        PipeBarrier<PIPE_ALL>();
        og.SetGlobalBuffer((__gm__ float*)(out + k * N * 4), N);
        ohg.SetGlobalBuffer((__gm__ half*)(out + k * N * 4), N);
        osg.SetGlobalBuffer((__gm__ int16_t*)(out + k * N * 4), N);
        if (k == 9 || k == 10 || k == 13) DataCopy(ohg, hzl, N);
        else if (k == 11 || k == 12) DataCopy(osg, szl, N);
        else DataCopy(og, zl, N);
        PipeBarrier<PIPE_ALL>();
        ++k;
    };
    UnaryRepeatParams unary;  // 1, 1, 8, 8
    BinaryRepeatParams binary;
    Exp(zl, xl, N);  // => exp.f32 tbuf2[x1], tbuf0[x2], count=x3
    flush();
    Ln(zl, xl, 64, 4, unary);  // mask as a length, 4 repeats of 64
    flush();
    Sqrt(zl, xl, N);
    flush();
    uint64_t low32[2] = {0x00000000FFFFFFFFull, 0};  // mask as bits: the first 32 of each 64
    Duplicate(zl, 7.0f, N);
    Rsqrt(zl, xl, low32, 4, unary);
    flush();
    Reciprocal(zl, xl, N);  // => reciprocal.f32 tbuf2[x1], tbuf0[x2], count=x3
    flush();
    Div(zl, xl, yl, 64, 4, binary);  // => div.f32 tbuf2[x1], tbuf0[x2], tbuf1[x3], repeat=x4, stride=1,1,1,8,8,8, mask=x5
    flush();
    Relu(zl, xl, N);
    flush();
    LeakyRelu(zl, xl, 0.25f, N);  // => leaky_relu.f32 tbuf2[x1], tbuf0[x2], raw(0x3e800000), count=x3
    flush();
    Subs(zl, xl, 1.5f, N);  // => subs.f32 tbuf2[x1], tbuf0[x2], raw(0x3fc00000), count=x3
    flush();
    Duplicate(hzl, (half)0, N);
    SetVectorMask<half>(0, 0xFFFFFFFFFFFFFFFFull);  // MASK set outside: isSetMask false
    Exp<half, false>(hzl, hl, MASK_PLACEHOLDER, 2, unary);  // => exp.f16 tbuf4[x1], tbuf3[x2], repeat=x3, stride=1,1,8,8
    SetVectorMask<half>(0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull);
    flush();
    LeakyRelu(hzl, hl, (half)-2.0f, N);
    flush();
    ShiftLeft(szl, sl, (int16_t)3, N);  // => shift_left.s16 tbuf6[x1], tbuf5[x2], 3, count=x3
    flush();
    ShiftRight(szl, sl, (int16_t)5, 128, 2, unary);  // => shift_right.s16 tbuf6[x1], tbuf5[x2], 5, repeat=x3, stride=1,1,8,8, mask=x4
    flush();
    Adds<half, false>(hzl, hl, (half)1.0f, N);  // => adds.f16 tbuf4[x1], tbuf3[x2], raw(0x3c00), count=x3
    flush();
}

static void fill(float* p, uint32_t n, uint32_t seed)
{
    const uint32_t specials[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                 0x7F800123, 0xFFC00456, 0x00000001, 0x80000001, 0x007FFFFF,
                                 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x42B17218,
                                 0xC2CE0000};
    uint32_t r = seed;
    for (uint32_t i = 0; i < n; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        float v = float(int(r % 20001) - 10000) / 97.0f;
        if (i % 5 == 0) std::memcpy(&v, &specials[(i / 5) % 16], 4);
        p[i] = v;
    }
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "math_ascendc_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint8_t* h = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* s = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(NOUT * N * 4);
    fill((float*)x, N, 7);
    fill((float*)y, N, 11);
    for (uint32_t i = 0; i < N; ++i) {
        ((half*)h)[i] = half(((float*)x)[(i * 7) % N] / 8.0f);
        ((int16_t*)s)[i] = int16_t(i * 2654435761u >> 16);
    }
    ICPU_RUN_KF(math_ascendc, 1, x, y, h, s, out);
    bool ok = write("in_x", x, N * 4) && write("in_y", y, N * 4) && write("in_h", h, N * 2) &&
              write("in_s", s, N * 2);
    for (uint32_t k = 0; k < NOUT; ++k) {
        char name[32];
        std::snprintf(name, sizeof name, "out_%s", OUTS[k]);
        ok = ok && write(name, out + k * N * 4, N * 4);
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(h);
    AscendC::GmFree(s);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
