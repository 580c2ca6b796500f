// #27a, AscendC: the composites AddRelu, SubRelu (half, float, int16_t), Axpy, MulAddDst,
// FusedMulAdd and MulAddRelu (half, float: the same-type forms), count and high-dimensional
// forms, on inputs with specials. pipev's own test kernel: `pipev run` writes
// composite_ascendc_in_*.bin and composite_ascendc_out_*.bin here;
// tests/cli/test_elementwise_kernels.py checks them against tests/reference/elementwise.py.
#include <cstdio>
#include <cstring>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;
constexpr uint32_t NOUT = 8;  // f32: addrelu subrelu axpy mla madd maddrelu; s16 addrelu; f16 axpy

extern "C" __global__ __aicore__ void composite_ascendc(GM_ADDR x, GM_ADDR y, GM_ADDR d,
                                                        GM_ADDR s, GM_ADDR h, GM_ADDR out)
{
    TPipe pipe;
    TBuf<> xb, yb, db, zb, sb, szb, hb, hzb;
    pipe.InitBuffer(xb, N * 4);
    pipe.InitBuffer(yb, N * 4);
    pipe.InitBuffer(db, N * 4);
    pipe.InitBuffer(zb, N * 4);
    pipe.InitBuffer(sb, N * 2);
    pipe.InitBuffer(szb, N * 2);
    pipe.InitBuffer(hb, N * 2);
    pipe.InitBuffer(hzb, N * 2);
    LocalTensor<float> xl = xb.Get<float>(), yl = yb.Get<float>(), dl = db.Get<float>();
    LocalTensor<float> zl = zb.Get<float>();
    LocalTensor<int16_t> sl = sb.Get<int16_t>(), szl = szb.Get<int16_t>();
    LocalTensor<half> hl = hb.Get<half>(), hzl = hzb.Get<half>();
    GlobalTensor<float> xg, yg, dg, og;
    GlobalTensor<int16_t> sg, osg;
    GlobalTensor<half> hg, ohg;
    xg.SetGlobalBuffer((__gm__ float*)x, N);
    yg.SetGlobalBuffer((__gm__ float*)y, N);
    dg.SetGlobalBuffer((__gm__ float*)d, N);
    sg.SetGlobalBuffer((__gm__ int16_t*)s, N);
    hg.SetGlobalBuffer((__gm__ half*)h, N);
    DataCopy(xl, xg, N);
    DataCopy(yl, yg, N);
    DataCopy(sl, sg, N);
    DataCopy(hl, hg, N);
    PipeBarrier<PIPE_ALL>();
    BinaryRepeatParams binary;
    UnaryRepeatParams unary;
    for (uint32_t k = 0; k < NOUT; ++k) {
        PipeBarrier<PIPE_ALL>();
        DataCopy(zl, dg, N);  // the accumulators start from d
        DataCopy(hzl, hg, N);
        PipeBarrier<PIPE_ALL>();
        switch (k) {
            case 0: AddRelu(zl, xl, yl, N); break;  // => add_relu.f32 tbuf3[x1], tbuf0[x2], tbuf1[x3], count=x4
            case 1: SubRelu(zl, xl, yl, 64, 4, binary); break;
            case 2: Axpy(zl, xl, 0.75f, N); break;  // => axpy.f32 tbuf3[x1], tbuf0[x2], raw(0x3f400000), count=x3
            case 3: MulAddDst(zl, xl, yl, N); break;  // => mul_add_dst.f32 tbuf3[x1], tbuf0[x2], tbuf1[x3], count=x4
            case 4: FusedMulAdd(zl, xl, yl, N); break;
            case 5: MulAddRelu(zl, xl, yl, 64, 4, binary); break;
            case 6: AddRelu(szl, sl, sl, N); break;
            default: Axpy(hzl, hl, (half)-1.5f, 128, 2, unary); break;
        }
        PipeBarrier<PIPE_ALL>();
        og.SetGlobalBuffer((__gm__ float*)(out + k * N * 4), N);
        osg.SetGlobalBuffer((__gm__ int16_t*)(out + k * N * 4), N);
        ohg.SetGlobalBuffer((__gm__ half*)(out + k * N * 4), N);
        if (k == 6) DataCopy(osg, szl, N);
        else if (k == 7) DataCopy(ohg, hzl, N);
        else DataCopy(og, zl, N);
    }
}

static void fill(float* p, uint32_t n, uint32_t seed)
{
    const uint32_t specials[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                 0x7F800123, 0x00000001, 0x80000001, 0x7F7FFFFF, 0xFF7FFFFF,
                                 0x3F800000, 0xBF800000};
    uint32_t r = seed;
    for (uint32_t i = 0; i < n; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        float v = float(int(r % 20001) - 10000) / 53.0f;
        if (i % 7 == 0) std::memcpy(&v, &specials[(i / 7) % 12], 4);
        p[i] = v;
    }
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "composite_ascendc_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint8_t* d = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint8_t* s = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* h = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(NOUT * N * 4);
    fill((float*)x, N, 3);
    fill((float*)y, N, 5);
    fill((float*)d, N, 9);
    for (uint32_t i = 0; i < N; ++i) {
        ((int16_t*)s)[i] = int16_t(i * 2654435761u >> 15);
        ((half*)h)[i] = half(((float*)y)[(i * 5) % N] / 16.0f);
    }
    ICPU_RUN_KF(composite_ascendc, 1, x, y, d, s, h, out);
    const char* outs[NOUT] = {"addrelu", "subrelu", "axpy", "mla", "madd", "maddrelu",
                              "saddrelu", "haxpy"};
    bool ok = write("in_x", x, N * 4) && write("in_y", y, N * 4) && write("in_d", d, N * 4) &&
              write("in_s", s, N * 2) && write("in_h", h, N * 2);
    for (uint32_t k = 0; k < NOUT; ++k) {
        char name[32];
        std::snprintf(name, sizeof name, "out_%s", outs[k]);
        ok = ok && write(name, out + k * N * 4, N * 4);
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(d);
    AscendC::GmFree(s);
    AscendC::GmFree(h);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
