// #27 (h27c), AscendC on ascend950: Adds, Muls, Maxs, Mins and Subs in their flexible-scalar
// forms — the scalar before the tensor, or a tensor element as the scalar (BinaryConfig) — beside
// the plain (tensor, scalar) calls, which keep their own form. pipev's own test kernel
// (`pipev run --chip ascend950`): it writes flex_arith_950_in_*.bin and flex_arith_950_out.bin
// here; tests/cli/test_flex_scalar_kernels.py checks them.
#include <cstdio>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;
constexpr BinaryConfig SCALAR_FIRST{0};

extern "C" __global__ __aicore__ void flex_arith_950(GM_ADDR a, GM_ADDR h, GM_ADDR out)
{
    TPipe pipe;
    TBuf<> ab, hb, zb, qb;
    pipe.InitBuffer(ab, N * 2);
    pipe.InitBuffer(hb, N * 2);
    pipe.InitBuffer(zb, 4 * N * 2);
    pipe.InitBuffer(qb, 4 * N * 2);
    LocalTensor<int16_t> al = ab.Get<int16_t>(), zl = zb.Get<int16_t>();
    LocalTensor<half> hl = hb.Get<half>(), ql = qb.Get<half>();
    GlobalTensor<int16_t> ag, og;
    GlobalTensor<half> hg, oh;
    ag.SetGlobalBuffer((__gm__ int16_t*)a, N);
    hg.SetGlobalBuffer((__gm__ half*)h, N);
    og.SetGlobalBuffer((__gm__ int16_t*)out, 4 * N);
    oh.SetGlobalBuffer((__gm__ half*)(out + 8 * N), 4 * N);
    DataCopy(al, ag, N);
    DataCopy(hl, hg, N);
    PipeBarrier<PIPE_ALL>();
    Adds(ql, (half)1.5f, hl, N);                                  // 1.5 + h
    Subs(ql[N], (half)1.0f, hl, 128, 2, {1, 1, 8, 8});            // 1 - h, high-dimensional
    Muls<BinaryDefaultType, true, SCALAR_FIRST>(ql[2 * N], hl[5], hl, N);  // h[5] * h
    Adds(ql[3 * N], hl, (half)2.0f, N);                           // the plain form
    Maxs(zl, (int16_t)-7, al, N);                                 // max(-7, a)
    Mins(zl[N], al, al[3], N);                                    // min(a, a[3]): config {1}
    Subs(zl[2 * N], al, al[7], N);                                // a - a[7]
    Muls(zl[3 * N], al, 3, N);                                    // the plain form, an int scalar
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, zl, 4 * N);
    DataCopy(oh, ql, 4 * N);
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "flex_arith_950_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    uint8_t* a = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* h = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(16 * N);
    for (uint32_t i = 0; i < N; ++i) {
        ((int16_t*)a)[i] = int16_t(i * 2654435761u >> 11);
        ((half*)h)[i] = half(float(int(i * 37 % 201) - 100) / 8.0f);
    }
    ICPU_RUN_KF(flex_arith_950, 1, a, h, out);
    bool ok = write("in_a", a, N * 2) && write("in_h", h, N * 2) && write("out", out, 16 * N);
    AscendC::GmFree(a);
    AscendC::GmFree(h);
    AscendC::GmFree(out);
    return ok ? 0 : 1;
}
