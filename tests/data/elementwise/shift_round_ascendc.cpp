// #27, AscendC: ShiftRight with roundEn (its high-dimensional forms' last argument) on int16_t
// and int32_t, beside the plain forms. pipev's own test kernel: `pipev run` writes
// shift_round_ascendc_in_*.bin and shift_round_ascendc_out_*.bin here;
// tests/cli/test_binary_cast_kernels.py checks them against tests/reference/shift_round.py.
#include <cstdio>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;

extern "C" __global__ __aicore__ void shift_round_ascendc(GM_ADDR s, GM_ADDR w, GM_ADDR out)
{
    TPipe pipe;
    TBuf<> sb, wb, zb, yb;
    pipe.InitBuffer(sb, N * 2);
    pipe.InitBuffer(wb, N * 4);
    pipe.InitBuffer(zb, N * 2);
    pipe.InitBuffer(yb, N * 4);
    LocalTensor<int16_t> sl = sb.Get<int16_t>(), zl = zb.Get<int16_t>();
    LocalTensor<int32_t> wl = wb.Get<int32_t>(), yl = yb.Get<int32_t>();
    GlobalTensor<int16_t> sg, og;
    GlobalTensor<int32_t> wg, og32;
    sg.SetGlobalBuffer((__gm__ int16_t*)s, N);
    wg.SetGlobalBuffer((__gm__ int32_t*)w, N);
    og.SetGlobalBuffer((__gm__ int16_t*)out, N);
    og32.SetGlobalBuffer((__gm__ int32_t*)(out + N * 2), N);
    DataCopy(sl, sg, N);
    DataCopy(wl, wg, N);
    PipeBarrier<PIPE_ALL>();
    ShiftRight(zl, sl, (int16_t)5, 128, 2, {1, 1, 8, 8}, true);  // => shift_right.s16 … round_en=1
    ShiftRight(yl, wl, (int32_t)3, 64, 4, {1, 1, 8, 8}, true);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, zl, N);
    DataCopy(og32, yl, N);
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "shift_round_ascendc_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    uint8_t* s = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* w = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(N * 6);
    for (uint32_t i = 0; i < N; ++i) {
        ((int16_t*)s)[i] = int16_t(i * 2654435761u >> 13);
        ((int32_t*)w)[i] = int32_t(i * 2654435761u) - 7;
    }
    ((int16_t*)s)[0] = 17;  // the page's example: 17 >> 5 rounds to 1
    ICPU_RUN_KF(shift_round_ascendc, 1, s, w, out);
    bool ok = write("in_s", s, N * 2) && write("in_w", w, N * 4) && write("out", out, N * 6);
    AscendC::GmFree(s);
    AscendC::GmFree(w);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
