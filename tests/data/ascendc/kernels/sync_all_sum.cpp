// A sum across cores, as multi-core reductions (NLLLoss and the like) do it: each core sums its
// 256 floats of x into its own 32-byte slot of the GM workspace `work`, SyncAll, then core 0
// adds the partials and writes the total to y[0]. PIPEV_TEST_TWICE: a second phase after a
// second SyncAll, every core writes its slice of x times the total to z. PIPEV_TEST_SOFT: the
// software form of SyncAll, its GM workspace (int32, 32 bytes a core) after the partials in
// `work`. Defects on purpose:
//   PIPEV_TEST_RACE   core 0 reads the partials before the SyncAll (a cross-core race)
//   PIPEV_TEST_EARLY  core EARLY returns before the SyncAll (a deadlock on the device)
//   PIPEV_TEST_FAULT  core 1 frees a tensor twice after the first SyncAll (an error while the
//                     other cores wait)
//   PIPEV_TEST_THROW  core 1 throws a C++ exception after the first SyncAll
//   PIPEV_TEST_SLOW   the last core scales its slice many times before the SyncAll (it
//                     arrives last: the others wait for it)
//   PIPEV_TEST_SYNC_UB=N  the software form's UB workspace has N bytes
#include "kernel_operator.h"

constexpr uint32_t kSlice = 256;  // floats a core sums
constexpr uint32_t kSlot = 8;     // floats of a core's 32-byte slot of the workspace
#ifndef PIPEV_TEST_SYNC_UB  // the software form's UB workspace: 32 bytes a core
#define PIPEV_TEST_SYNC_UB num * 32
#endif

class KernelSum {
public:
    __aicore__ inline KernelSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR work, GM_ADDR y, GM_ADDR z)
    {
        idx = AscendC::GetBlockIdx();
        num = AscendC::GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ float *)x + idx * kSlice, kSlice);
        workGm.SetGlobalBuffer((__gm__ float *)work, num * kSlot);
        yGm.SetGlobalBuffer((__gm__ float *)y, kSlot);
        zGm.SetGlobalBuffer((__gm__ float *)z + idx * kSlice, kSlice);
        syncGm.SetGlobalBuffer((__gm__ int32_t *)work + num * kSlot, num * 8);
        pipe.InitBuffer(inQueue, 1, kSlice * sizeof(float));
        pipe.InitBuffer(outQueue, 1, kSlice * sizeof(float));
        pipe.InitBuffer(workBuf, kSlice * sizeof(float));
        pipe.InitBuffer(syncBuf, PIPEV_TEST_SYNC_UB);
    }
    __aicore__ inline void Process()
    {
#ifdef PIPEV_TEST_EARLY
        if (idx == PIPEV_TEST_EARLY) return;
#endif
#ifdef PIPEV_TEST_RACE
        if (idx == 0) Total();
#endif
        Partial();
        Sync();
#ifndef PIPEV_TEST_RACE
        if (idx == 0) Total();
#endif
#ifdef PIPEV_TEST_FAULT
        if (idx == 1) {
            AscendC::LocalTensor<float> t = inQueue.AllocTensor<float>();
            inQueue.FreeTensor(t);
            inQueue.FreeTensor(t);
        }
#endif
#ifdef PIPEV_TEST_THROW
        if (idx == 1) throw 1;
#endif
#ifdef PIPEV_TEST_TWICE
        Sync();
        Scale(yGm.GetValue(0));
#endif
    }

private:
    __aicore__ inline void Sync()
    {
#ifdef PIPEV_TEST_SOFT
        AscendC::SyncAll(syncGm, syncBuf.Get<int32_t>());
#else
        AscendC::SyncAll();
#endif
    }
    __aicore__ inline void Partial()
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm, kSlice);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
#ifdef PIPEV_TEST_SLOW
        for (int k = 0; idx == num - 1 && k < 64; ++k) AscendC::Muls(xLocal, xLocal, 1.0f, kSlice);
#endif
        AscendC::LocalTensor<float> sum = outQueue.AllocTensor<float>();
        AscendC::Duplicate(sum, 0.0f, kSlot);
        AscendC::ReduceSum(sum, xLocal, workBuf.Get<float>(), kSlice);
        outQueue.EnQue(sum);
        inQueue.FreeTensor(xLocal);
        sum = outQueue.DeQue<float>();
        AscendC::DataCopy(workGm[idx * kSlot], sum, kSlot);
        outQueue.FreeTensor(sum);
    }
    __aicore__ inline void Total()
    {
        float total = 0.0f;
        for (uint32_t k = 0; k < num; ++k) total += workGm.GetValue(k * kSlot);
        yGm.SetValue(0, total);
    }
    __aicore__ inline void Scale(float total)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm, kSlice);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueue.AllocTensor<float>();
        AscendC::Muls(zLocal, xLocal, total, kSlice);
        outQueue.EnQue(zLocal);
        inQueue.FreeTensor(xLocal);
        zLocal = outQueue.DeQue<float>();
        AscendC::DataCopy(zGm, zLocal, kSlice);
        outQueue.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf, syncBuf;
    AscendC::GlobalTensor<float> xGm, workGm, yGm, zGm;
    AscendC::GlobalTensor<int32_t> syncGm;
    uint32_t idx = 0, num = 1;
};

extern "C" __global__ __aicore__ void sync_sum(GM_ADDR x, GM_ADDR work, GM_ADDR y, GM_ADDR z)
{
    KernelSum op;
    op.Init(x, work, y, z);
    op.Process();
}
