// #27, AscendC: AddReluCast, SubReluCast and MulCast over their A2/A3 pairs (float -> half,
// half -> int8_t, int16_t -> int8_t; MulCast half -> int8_t / uint8_t), count and
// high-dimensional forms (a contiguous mask, a bitwise mask, isSetMask false), on inputs with
// specials. pipev's own test kernel: `pipev run` writes cast_composite_ascendc_in_*.bin and
// cast_composite_ascendc_out_*.bin here; tests/cli/test_binary_cast_kernels.py checks them
// against tests/reference/binary_conv.py.
#include <cstdio>
#include <cstring>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;
constexpr uint32_t NOUT = 7;  // every output is given N * 2 bytes of GM

extern "C" __global__ __aicore__ void cast_composite_ascendc(GM_ADDR x, GM_ADDR y, GM_ADDR h,
                                                             GM_ADDR g, GM_ADDR s, GM_ADDR r,
                                                             GM_ADDR out)
{
    TPipe pipe;
    TBuf<> xb, yb, hb, gb, sb, rb, zhb;
    pipe.InitBuffer(xb, N * 4);
    pipe.InitBuffer(yb, N * 4);
    pipe.InitBuffer(hb, N * 2);
    pipe.InitBuffer(gb, N * 2);
    pipe.InitBuffer(sb, N * 2);
    pipe.InitBuffer(rb, N * 2);
    pipe.InitBuffer(zhb, N * 2);
    LocalTensor<float> xl = xb.Get<float>(), yl = yb.Get<float>();
    LocalTensor<half> hl = hb.Get<half>(), gl = gb.Get<half>(), zh = zhb.Get<half>();
    LocalTensor<int16_t> sl = sb.Get<int16_t>(), rl = rb.Get<int16_t>();
    GlobalTensor<float> xg, yg;
    GlobalTensor<half> hg, gg, ohg;
    GlobalTensor<int16_t> sg, rg;
    xg.SetGlobalBuffer((__gm__ float*)x, N);
    yg.SetGlobalBuffer((__gm__ float*)y, N);
    hg.SetGlobalBuffer((__gm__ half*)h, N);
    gg.SetGlobalBuffer((__gm__ half*)g, N);
    sg.SetGlobalBuffer((__gm__ int16_t*)s, N);
    rg.SetGlobalBuffer((__gm__ int16_t*)r, N);
    DataCopy(xl, xg, N);
    DataCopy(yl, yg, N);
    DataCopy(hl, hg, N);
    DataCopy(gl, gg, N);
    DataCopy(sl, sg, N);
    DataCopy(rl, rg, N);
    uint64_t bits[2] = {0x5555555555555555ULL, 0x00000000FFFFFFFFULL};
    for (uint32_t k = 0; k < NOUT; ++k) {
        PipeBarrier<PIPE_ALL>();
        Duplicate(zh.ReinterpretCast<int16_t>(), (int16_t)0x7777, N);  // untouched bytes read 0x77
        PipeBarrier<PIPE_ALL>();
        switch (k) {
            case 0: AddReluCast(zh, xl, yl, N); break;  // => add_relu_cast.f16.f32
            case 1: SubReluCast(zh, xl, yl, 64, 4, {1, 1, 1, 4, 8, 8}); break;
            case 2: AddReluCast(zh.ReinterpretCast<int8_t>(), hl, gl, N); break;
            case 3: SubReluCast(zh.ReinterpretCast<int8_t>(), sl, rl, bits, 2, {1, 1, 1, 4, 8, 8}); break;
            case 4: MulCast(zh.ReinterpretCast<int8_t>(), hl, gl, N); break;  // => mul_cast.s8.f16
            case 5: MulCast(zh.ReinterpretCast<uint8_t>(), hl, gl, 128, 2, {1, 1, 1, 4, 8, 8}); break;
            default:
                SetVectorMask<half>(0, 0xFFFF);
                AddReluCast<int8_t, int16_t, false>(zh.ReinterpretCast<int8_t>(), sl, rl,
                                                    MASK_PLACEHOLDER, 2, {1, 1, 1, 4, 8, 8});
                ResetMask();
                break;
        }
        PipeBarrier<PIPE_ALL>();
        ohg.SetGlobalBuffer((__gm__ half*)(out + k * N * 2), N);
        DataCopy(ohg, zh, N);
    }
}

static void fill(float* p, uint32_t n, uint32_t seed)
{
    const uint32_t specials[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                 0x7F800123, 0x00000001, 0x80000001, 0x7F7FFFFF, 0xFF7FFFFF,
                                 0x477FF000, 0x477FE000, 0x38800000, 0x33800000};
    uint32_t r = seed;
    for (uint32_t i = 0; i < n; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        float v = float(int(r % 20001) - 10000) / 7.0f;
        if (i % 5 == 0) std::memcpy(&v, &specials[(i / 5) % 14], 4);
        p[i] = v;
    }
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "cast_composite_ascendc_%s.bin", name);
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
    uint8_t* g = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* s = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* r = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(NOUT * N * 2);
    fill((float*)x, N, 3);
    fill((float*)y, N, 5);
    const uint16_t hspecials[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE55,
                                  0x0001, 0x5A00, 0xDA00, 0x57F0, 0x3800, 0xB800, 0x3E00};
    for (uint32_t i = 0; i < N; ++i) {
        ((half*)h)[i] = half(((float*)x)[(i * 7) % N] / 64.0f);
        ((half*)g)[i] = half(((float*)y)[(i * 3) % N] / 256.0f);
        if (i % 6 == 0) std::memcpy(&((half*)h)[i], &hspecials[(i / 6) % 14], 2);
        if (i % 9 == 0) std::memcpy(&((half*)g)[i], &hspecials[(i / 9 + 5) % 14], 2);
        ((int16_t*)s)[i] = int16_t(i * 2654435761u >> 15);
        ((int16_t*)r)[i] = int16_t((i * 40503u) % 700) - 350;
    }
    ICPU_RUN_KF(cast_composite_ascendc, 1, x, y, h, g, s, r, out);
    bool ok = write("in_x", x, N * 4) && write("in_y", y, N * 4) && write("in_h", h, N * 2) &&
              write("in_g", g, N * 2) && write("in_s", s, N * 2) && write("in_r", r, N * 2) &&
              write("out", out, NOUT * N * 2);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(h);
    AscendC::GmFree(g);
    AscendC::GmFree(s);
    AscendC::GmFree(r);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
