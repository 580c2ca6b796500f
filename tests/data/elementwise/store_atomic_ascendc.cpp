// #27 (h27e), AscendC's SetStoreAtomicConfig<AtomicDtype, AtomicOp>() (ISASI) on 4 blocks: each
// block adds its int32_t row into one shared GM row (ATOMIC_S32, ATOMIC_SUM), then ATOMIC_NONE.
// pipev's own test kernel: `pipev run` writes store_atomic_ascendc_{in_x,in_acc,out_acc}.bin
// here; tests/cli/test_store_atomic_c_api.py checks the shared row against numpy.
#include <cstdio>

#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 64, BLOCKS = 4;

extern "C" __global__ __aicore__ void store_atomic_ascendc(GM_ADDR x, GM_ADDR acc)
{
    TPipe pipe;
    TBuf<> xb;
    pipe.InitBuffer(xb, N * sizeof(int32_t));
    LocalTensor<int32_t> xl = xb.Get<int32_t>();
    GlobalTensor<int32_t> xg, ag;
    xg.SetGlobalBuffer((__gm__ int32_t*)x + GetBlockIdx() * N, N);
    ag.SetGlobalBuffer((__gm__ int32_t*)acc, N);
    DataCopy(xl, xg, N);
    PipeBarrier<PIPE_ALL>();
    SetStoreAtomicConfig<AtomicDtype::ATOMIC_S32, AtomicOp::ATOMIC_SUM>();
    DataCopy(ag, xl, N);
    SetStoreAtomicConfig<AtomicDtype::ATOMIC_NONE, AtomicOp::ATOMIC_SUM>();
}

static bool write(const char* name, const void* data, size_t bytes)
{
    char path[128];
    std::snprintf(path, sizeof path, "store_atomic_ascendc_%s.bin", name);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr) return false;
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    return std::fclose(f) == 0 && ok;
}

int main()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(BLOCKS * N * 4);
    uint8_t* acc = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint32_t r = 7;
    for (uint32_t i = 0; i < BLOCKS * N; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        ((int32_t*)x)[i] = int32_t(r);  // wraps on overflow, as the integer sum does
    }
    for (uint32_t i = 0; i < N; ++i) ((int32_t*)acc)[i] = int32_t(i * 1000003u);
    bool ok = write("in_x", x, BLOCKS * N * 4) && write("in_acc", acc, N * 4);
    ICPU_RUN_KF(store_atomic_ascendc, BLOCKS, x, acc);
    ok = ok && write("out_acc", acc, N * 4);
    AscendC::GmFree(x);
    AscendC::GmFree(acc);
    return ok ? 0 : 1;
}
