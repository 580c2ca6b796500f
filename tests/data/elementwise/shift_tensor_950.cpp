// #27 (h27c), AscendC on ascend950: ShiftLeft and ShiftRight by a LocalTensor of counts
// (int16_t counts for int16_t / uint16_t data), beside the scalar-count call. pipev's own test
// kernel (`pipev run --chip ascend950`): it writes shift_tensor_950_in_*.bin and
// shift_tensor_950_out.bin here; tests/cli/test_flex_scalar_kernels.py checks them.
#include <cstdio>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;
constexpr BinaryConfig SCALAR_FIRST{0};

extern "C" __global__ __aicore__ void shift_tensor_950(GM_ADDR a, GM_ADDR h, GM_ADDR out)
{
    TPipe pipe;
    TBuf<> ab, hb, zb;
    pipe.InitBuffer(ab, N * 2);
    pipe.InitBuffer(hb, N * 2);
    pipe.InitBuffer(zb, 4 * N * 2);
    LocalTensor<int16_t> al = ab.Get<int16_t>(), zl = zb.Get<int16_t>();
    LocalTensor<half> hl = hb.Get<half>();
    GlobalTensor<int16_t> ag, og;
    GlobalTensor<half> hg;
    ag.SetGlobalBuffer((__gm__ int16_t*)a, N);
    hg.SetGlobalBuffer((__gm__ half*)h, N);
    og.SetGlobalBuffer((__gm__ int16_t*)out, 4 * N);
    DataCopy(al, ag, N);
    DataCopy(hl, hg, N);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<uint16_t> ul = al.ReinterpretCast<uint16_t>(), vl = zl.ReinterpretCast<uint16_t>();
    LocalTensor<int16_t> cl = hl.ReinterpretCast<int16_t>();  // the counts: input h's bits
    ShiftLeft(zl, al, cl, N);                // int16_t by int16_t counts
    ShiftRight(zl[N], al, cl, N);
    ShiftRight(vl[2 * N], ul, cl, N);        // uint16_t by int16_t counts: logical
    ShiftLeft(zl[3 * N], al, (int16_t)3, N); // the scalar count, as before
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, zl, 4 * N);
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "shift_tensor_950_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    uint8_t* a = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* h = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(8 * N);
    for (uint32_t i = 0; i < N; ++i) {
        ((int16_t*)a)[i] = int16_t(i * 2654435761u >> 11);
        ((int16_t*)h)[i] = int16_t(int(i * 7 % 23) - 3);  // counts -3 … 19
    }
    ICPU_RUN_KF(shift_tensor_950, 1, a, h, out);
    bool ok = write("in_a", a, N * 2) && write("in_h", h, N * 2) && write("out", out, 8 * N);
    AscendC::GmFree(a);
    AscendC::GmFree(h);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
