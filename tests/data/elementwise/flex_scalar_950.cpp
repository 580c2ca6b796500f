// #27, AscendC on ascend950: Ands, Ors and Divs with the scalar after or before the tensor, as
// a value or as a tensor element (BinaryConfig), count and high-dimensional forms. pipev's own
// test kernel (`pipev run --chip ascend950`): it writes flex_scalar_950_in_*.bin and
// flex_scalar_950_out.bin here; tests/cli/test_binary_cast_kernels.py checks them.
#include <cstdio>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;
constexpr BinaryConfig SCALAR_FIRST{0};

extern "C" __global__ __aicore__ void flex_scalar_950(GM_ADDR a, GM_ADDR h, GM_ADDR out)
{
    TPipe pipe;
    TBuf<> ab, hb, zb, qb;
    pipe.InitBuffer(ab, N * 2);
    pipe.InitBuffer(hb, N * 2);
    pipe.InitBuffer(zb, 2 * N * 2);
    pipe.InitBuffer(qb, 2 * N * 2);
    LocalTensor<int16_t> al = ab.Get<int16_t>(), zl = zb.Get<int16_t>();
    LocalTensor<half> hl = hb.Get<half>(), ql = qb.Get<half>();
    GlobalTensor<int16_t> ag, og;
    GlobalTensor<half> hg, oh;
    ag.SetGlobalBuffer((__gm__ int16_t*)a, N);
    hg.SetGlobalBuffer((__gm__ half*)h, N);
    og.SetGlobalBuffer((__gm__ int16_t*)out, 2 * N);
    oh.SetGlobalBuffer((__gm__ half*)(out + 4 * N), 2 * N);
    DataCopy(al, ag, N);
    DataCopy(hl, hg, N);
    PipeBarrier<PIPE_ALL>();
    Ands(zl, al, (int16_t)0x0FF0, N);  // => ands.s16
    Ors(zl[N], (int16_t)3, al, 128, 2, {1, 1, 8, 8});
    Divs(ql, hl, (half)4.0f, N);  // => divs.f16
    Divs<BinaryDefaultType, true, SCALAR_FIRST>(ql[N], hl[5], hl, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, zl, 2 * N);
    DataCopy(oh, ql, 2 * N);
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "flex_scalar_950_%s.bin", name);
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
        ((half*)h)[i] = half(float(int(i * 37 % 201) - 100) / 8.0f);
    }
    ICPU_RUN_KF(flex_scalar_950, 1, a, h, out);
    bool ok = write("in_a", a, N * 2) && write("in_h", h, N * 2) && write("out", out, 8 * N);
    AscendC::GmFree(a);
    AscendC::GmFree(h);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
