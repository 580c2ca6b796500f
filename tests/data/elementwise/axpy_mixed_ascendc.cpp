// #27, AscendC: the mixed forms of Axpy and MulAddDst (half sources, a float destination: 64
// elements a repeat), count and high-dimensional forms, `isSetMask = false`, and the vendor's
// own way of writing the same-type call (`Axpy<half, half>`). pipev's own test kernel: `pipev
// run` writes axpy_mixed_ascendc_in_*.bin and axpy_mixed_ascendc_out_*.bin here;
// tests/cli/test_binary_cast_kernels.py checks them against tests/reference/binary_conv.py.
#include <cstdio>
#include <cstring>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;
constexpr uint32_t NOUT = 4;  // float: Axpy count, MulAddDst high-dimensional, MulAddDst<.., false>, Axpy hd

extern "C" __global__ __aicore__ void axpy_mixed_ascendc(GM_ADDR x, GM_ADDR y, GM_ADDR d,
                                                         GM_ADDR out, GM_ADDR hout)
{
    TPipe pipe;
    TBuf<> xb, yb, zb, hb;
    pipe.InitBuffer(xb, N * 2);
    pipe.InitBuffer(yb, N * 2);
    pipe.InitBuffer(zb, N * 4);
    pipe.InitBuffer(hb, N * 2);
    LocalTensor<half> xl = xb.Get<half>(), yl = yb.Get<half>(), hl = hb.Get<half>();
    LocalTensor<float> zl = zb.Get<float>();
    GlobalTensor<half> xg, yg, ohg;
    GlobalTensor<float> dg, og;
    xg.SetGlobalBuffer((__gm__ half*)x, N);
    yg.SetGlobalBuffer((__gm__ half*)y, N);
    dg.SetGlobalBuffer((__gm__ float*)d, N);
    ohg.SetGlobalBuffer((__gm__ half*)hout, N);
    DataCopy(xl, xg, N);
    DataCopy(yl, yg, N);
    for (uint32_t k = 0; k < NOUT; ++k) {
        PipeBarrier<PIPE_ALL>();
        DataCopy(zl, dg, N);  // the accumulators start from d
        PipeBarrier<PIPE_ALL>();
        switch (k) {
            case 0: Axpy(zl, xl, (half)0.75f, N); break;  // => axpy.f32.f16
            case 1: MulAddDst(zl, xl, yl, 64, 4, {1, 1, 1, 8, 4, 4}); break;
            case 2:
                SetVectorMask<float>(0, 0xFFFFFFFFULL);
                MulAddDst<float, half, false>(zl, xl, yl, MASK_PLACEHOLDER, 4, {1, 1, 1, 8, 4, 4});
                ResetMask();
                break;
            default: Axpy<float, half>(zl, xl, (half)-1.5f, 64, 4, {1, 1, 8, 4}); break;
        }
        PipeBarrier<PIPE_ALL>();
        og.SetGlobalBuffer((__gm__ float*)(out + k * N * 4), N);
        DataCopy(og, zl, N);
    }
    DataCopy(hl, yl, N);
    PipeBarrier<PIPE_ALL>();
    Axpy<half, half>(hl, xl, (half)2.0f, N);  // the same-type call, as the vendor's sample writes it
    PipeBarrier<PIPE_ALL>();
    DataCopy(ohg, hl, N);
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "axpy_mixed_ascendc_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* d = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(NOUT * N * 4);
    uint8_t* hout = (uint8_t*)AscendC::GmAlloc(N * 2);
    const uint16_t hspecials[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE55,
                                  0x0001, 0x8001, 0x7BFF, 0xFBFF, 0x3C00};
    const uint32_t fspecials[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                  0x7F800123, 0x00000001, 0x7F7FFFFF, 0x4F800000, 0xCF000000};
    uint32_t r = 7;
    for (uint32_t i = 0; i < N; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        ((half*)x)[i] = half(float(int(r % 20001) - 10000) / 17.0f);
        ((half*)y)[i] = half(float(int((r >> 9) % 20001) - 10000) / 29.0f);
        ((float*)d)[i] = float(int((r >> 3) % 200001) - 100000) / 3.0f;
        if (i % 7 == 0) std::memcpy(&((half*)x)[i], &hspecials[(i / 7) % 12], 2);
        if (i % 11 == 0) std::memcpy(&((half*)y)[i], &hspecials[(i / 11 + 4) % 12], 2);
        if (i % 13 == 0) std::memcpy(&((float*)d)[i], &fspecials[(i / 13) % 10], 4);
    }
    ICPU_RUN_KF(axpy_mixed_ascendc, 1, x, y, d, out, hout);
    bool ok = write("in_x", x, N * 2) && write("in_y", y, N * 2) && write("in_d", d, N * 4) &&
              write("out", out, NOUT * N * 4) && write("out_h", hout, N * 2);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(d);
    AscendC::GmFree(out);
    AscendC::GmFree(hout);
    return ok ? 0 : 1;
}
