// Big/small core tiling: 805 rows of 8 floats over GetBlockNum() cores; the first
// 805 % GetBlockNum() cores take one row more. y = x * 2. PIPEV_TEST_STOMP makes every core
// write the first rows of y (a cross-core race); PIPEV_TEST_SYNCALL calls SyncAll.
#include "kernel_operator.h"

constexpr uint32_t kRows = 805, kRow = 8;

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y)
{
    uint32_t idx = AscendC::GetBlockIdx(), num = AscendC::GetBlockNum();
    uint32_t small = kRows / num, big = kRows % num;
    uint32_t rows = small + (idx < big ? 1 : 0);
    uint32_t first = idx * small + (idx < big ? idx : big);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (small + 1) * kRow * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + first * kRow, rows * kRow);
#ifdef PIPEV_TEST_STOMP
    first = 0;
#endif
    yGm.SetGlobalBuffer((__gm__ float*)y + first * kRow, rows * kRow);
    AscendC::DataCopy(t, xGm, rows * kRow);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, 2.0f, rows * kRow);
    AscendC::PipeBarrier<PIPE_ALL>();
#ifdef PIPEV_TEST_SYNCALL
    AscendC::SyncAll();
#endif
    AscendC::DataCopy(yGm, t, rows * kRow);
}
