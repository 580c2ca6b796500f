// #27, GM atomics beside SetAtomicAdd: SetAtomicMax<half> and SetAtomicMin<int16_t> on 4 blocks,
// each block combining its own row into one shared row, then SetAtomicNone. pipev's own test
// kernel: `pipev run` writes atomic_max_min_{in_x,in_y,in_hmax,in_hmin,out_hmax,out_hmin}.bin
// here; tests/unit/test_atomics.py checks the shared rows against numpy.
#include <cstdio>
#include <cstring>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 128, BLOCKS = 4;

extern "C" __global__ __aicore__ void atomic_max_min(GM_ADDR x, GM_ADDR y, GM_ADDR hmax,
                                                     GM_ADDR hmin)
{
    TPipe pipe;
    TBuf<> xb, yb;
    pipe.InitBuffer(xb, N * sizeof(half));
    pipe.InitBuffer(yb, N * sizeof(int16_t));
    LocalTensor<half> xl = xb.Get<half>();
    LocalTensor<int16_t> yl = yb.Get<int16_t>();
    GlobalTensor<half> xg, maxg;
    GlobalTensor<int16_t> yg, ming;
    xg.SetGlobalBuffer((__gm__ half*)x + GetBlockIdx() * N, N);
    yg.SetGlobalBuffer((__gm__ int16_t*)y + GetBlockIdx() * N, N);
    maxg.SetGlobalBuffer((__gm__ half*)hmax, N);
    ming.SetGlobalBuffer((__gm__ int16_t*)hmin, N);
    DataCopy(xl, xg, N);
    DataCopy(yl, yg, N);
    PipeBarrier<PIPE_ALL>();
    SetAtomicMax<half>();
    DataCopy(maxg, xl, N);
    SetAtomicMin<int16_t>();
    DataCopy(ming, yl, N);
    SetAtomicNone();
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "atomic_max_min_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(BLOCKS * N * 2);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(BLOCKS * N * 2);
    uint8_t* hmax = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* hmin = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint32_t r = 3;
    for (uint32_t i = 0; i < BLOCKS * N; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        ((half*)x)[i] = half(float(int(r % 4001) - 2000) / 7.0f);
        ((int16_t*)y)[i] = int16_t(r >> 8);
    }
    for (uint32_t i = 0; i < N; ++i) {
        ((half*)hmax)[i] = half(float(int(i) - 64));
        ((int16_t*)hmin)[i] = int16_t(i * 97);
    }
    bool ok = write("in_x", x, BLOCKS * N * 2) && write("in_y", y, BLOCKS * N * 2) &&
              write("in_hmax", hmax, N * 2) && write("in_hmin", hmin, N * 2);
    ICPU_RUN_KF(atomic_max_min, BLOCKS, x, y, hmax, hmin);
    ok = ok && write("out_hmax", hmax, N * 2) && write("out_hmin", hmin, N * 2);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(hmax);
    AscendC::GmFree(hmin);
    return ok ? 0 : 1;
}
