// pipev's variant of the Select page's template sample: a queue-based kernel (copy in, select,
// copy out) in the same shape, in mode 2 over two tiles of 256 floats, with a CPU-twin harness.
// A `// => X` comment names what the line must issue (tests/test_ascendc_headers.py).
#include "kernel_operator.h"
#include "tikicpulib.h"

class SelectSample {
public:
    __aicore__ inline SelectSample() {}
    __aicore__ inline void Init(GM_ADDR src0, GM_ADDR src1, GM_ADDR mask, GM_ADDR dst)
    {
        src0Gm.SetGlobalBuffer((__gm__ float*)src0, total);
        src1Gm.SetGlobalBuffer((__gm__ float*)src1, total);
        maskGm.SetGlobalBuffer((__gm__ uint8_t*)mask, total / 8);
        dstGm.SetGlobalBuffer((__gm__ float*)dst, total);
        pipe.InitBuffer(src0Que, 2, tile * sizeof(float));
        pipe.InitBuffer(src1Que, 2, tile * sizeof(float));
        pipe.InitBuffer(maskQue, 2, tile / 8);
        pipe.InitBuffer(dstQue, 2, tile * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < total / tile; ++i) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        AscendC::LocalTensor<float> s0 = src0Que.AllocTensor<float>();
        AscendC::LocalTensor<float> s1 = src1Que.AllocTensor<float>();
        AscendC::LocalTensor<uint8_t> m = maskQue.AllocTensor<uint8_t>();
        AscendC::DataCopy(s0, src0Gm[i * tile], tile);
        AscendC::DataCopy(s1, src1Gm[i * tile], tile);
        AscendC::DataCopy(m, maskGm[i * tile / 8], tile / 8);
        src0Que.EnQue(s0);
        src1Que.EnQue(s1);
        maskQue.EnQue(m);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> s0 = src0Que.DeQue<float>();
        AscendC::LocalTensor<float> s1 = src1Que.DeQue<float>();
        AscendC::LocalTensor<uint8_t> m = maskQue.DeQue<uint8_t>();
        AscendC::LocalTensor<float> d = dstQue.AllocTensor<float>();
        AscendC::Select(d, m, s0, s1, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, tile);  // => select.f32 que3_0[x1], que2_0[x2], que0_0[x3], que1_0[x4], mode=2, count=x5 | select.f32 que3_1[x1], que2_1[x2], que0_1[x3], que1_1[x4], mode=2, count=x5
        dstQue.EnQue<float>(d);
        src0Que.FreeTensor(s0);
        src1Que.FreeTensor(s1);
        maskQue.FreeTensor(m);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        AscendC::LocalTensor<float> d = dstQue.DeQue<float>();
        AscendC::DataCopy(dstGm[i * tile], d, tile);
        dstQue.FreeTensor(d);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> src0Que, src1Que, maskQue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> dstQue;
    AscendC::GlobalTensor<float> src0Gm, src1Gm, dstGm;
    AscendC::GlobalTensor<uint8_t> maskGm;
    uint32_t total = 512;
    uint32_t tile = 256;
};

extern "C" __global__ __aicore__ void select_sample(GM_ADDR src0, GM_ADDR src1, GM_ADDR mask,
                                                    GM_ADDR dst)
{
    SelectSample op;
    op.Init(src0, src1, mask, dst);
    op.Process();
}

int main()
{
    uint8_t* src0 = (uint8_t*)AscendC::GmAlloc(512 * sizeof(float));
    uint8_t* src1 = (uint8_t*)AscendC::GmAlloc(512 * sizeof(float));
    uint8_t* mask = (uint8_t*)AscendC::GmAlloc(512 / 8);
    uint8_t* dst = (uint8_t*)AscendC::GmAlloc(512 * sizeof(float));
    ICPU_RUN_KF(select_sample, 1, src0, src1, mask, dst);  // => launch select_sample
    AscendC::GmFree(src0);
    AscendC::GmFree(src1);
    AscendC::GmFree(mask);
    AscendC::GmFree(dst);
    return 0;
}
