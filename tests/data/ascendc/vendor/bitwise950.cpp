// pipev's own kernel for the Ascend 950 BitwiseAnd/BitwiseOr (#32 class 4) on 8-, 32- and
// 64-bit elements, run in kernel-only mode with --chip ascend950; numpy checks every byte.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t BYTES = 2048;

template <typename T> void Run(GM_ADDR a, GM_ADDR b, GM_ADDR andOut, GM_ADDR orOut, TPipe &pipe)
{
    constexpr uint32_t n = BYTES / sizeof(T);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * BYTES);
    LocalTensor<T> av = buf.Get<T>(), bv = av[n], d1 = av[2 * n], d2 = av[3 * n];
    GlobalTensor<T> aGm, bGm, andGm, orGm;
    aGm.SetGlobalBuffer((__gm__ T *)a, n);
    bGm.SetGlobalBuffer((__gm__ T *)b, n);
    andGm.SetGlobalBuffer((__gm__ T *)andOut, n);
    orGm.SetGlobalBuffer((__gm__ T *)orOut, n);
    DataCopy(av, aGm, n);
    DataCopy(bv, bGm, n);
    PipeBarrier<PIPE_ALL>();
    BitwiseAnd(d1, av, bv, n);
    BitwiseOr(d2, av, bv, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(andGm, d1, n);
    DataCopy(orGm, d2, n);
}

extern "C" __global__ __aicore__ void bitwise950(GM_ADDR a, GM_ADDR b, GM_ADDR and8, GM_ADDR or8,
                                                 GM_ADDR and32, GM_ADDR or32, GM_ADDR and64,
                                                 GM_ADDR or64)
{
    TPipe pipe;
    Run<int8_t>(a, b, and8, or8, pipe);
    Run<uint32_t>(a, b, and32, or32, pipe);
    Run<int64_t>(a, b, and64, or64, pipe);
}
