// pipev's own kernel for DataCopy with SliceInfo (run by tests/cli/test_slice_copy.py): the
// source is a [PLANES, ROWS, COLS] float tensor; two runs of 24 columns (3 blocks) 7 apart from
// column 16, rows 0 and 2, and (3 dimensions) planes 1 and 3, land back to back in UB, then go
// out to GM through the UB -> GM form with the same layout on both sides.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t COLS = 87, ROWS = 3, PLANES = 4;

extern "C" __global__ __aicore__ void slice_copy(GM_ADDR x, GM_ADDR y2, GM_ADDR y3)
{
    TPipe pipe;
    TBuf<TPosition::VECIN> buf;
    pipe.InitBuffer(buf, 8 * 48 * sizeof(float));
    GlobalTensor<float> xg, y2g, y3g;
    xg.SetGlobalBuffer((__gm__ float*)x, PLANES * ROWS * COLS);
    y2g.SetGlobalBuffer((__gm__ float*)y2, 2 * 48);
    y3g.SetGlobalBuffer((__gm__ float*)y3, 4 * 48);
    LocalTensor<float> ub = buf.Get<float>();

    SliceInfo src2[] = {{16, 70, 7, 3, COLS}, {0, 2, 1, 1, ROWS}};
    SliceInfo dst2[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
    DataCopy(ub, xg, dst2, src2, 2);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(y2g, ub, dst2, dst2, 2);
    PipeBarrier<PIPE_ALL>();

    SliceInfo src3[] = {{16, 70, 7, 3, COLS}, {0, 2, 1, 1, ROWS}, {1, 3, 1, 1, PLANES}};
    SliceInfo dst3[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}, {0, 1, 0, 1, 2}};
    DataCopy(ub, xg, dst3, src3, 3);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(y3g, ub, dst3, dst3, 3);
}
