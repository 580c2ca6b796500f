// pipev's own kernel in the layout of the vendor's single-operator samples: a kernel class with
// Init/Process and CopyIn/Compute/CopyOut stages over TQue buffers, launched by an extern "C"
// __global__ entry. Select in mode 0 (VSEL_CMPMASK_SPR): the first 64 bits of the mask tensor
// choose between two float tensors in every repeat. No pipev header or macro is named here: the
// file compiles as a kernel author writes it for the vendor's toolchain.
#include "kernel_operator.h"

constexpr uint32_t ELEMENTS = 256;                              // floats per tensor
constexpr uint32_t PER_REPEAT = 256 / sizeof(float);            // floats one repeat selects
constexpr uint32_t MASK_BYTES = ELEMENTS / PER_REPEAT * 32;     // a 32-byte mask block a repeat

class SelectOnCmpMask {
public:
    __aicore__ inline SelectOnCmpMask() {}
    __aicore__ inline void Init(__gm__ uint8_t* x, __gm__ uint8_t* y, __gm__ uint8_t* mask,
                                __gm__ uint8_t* z)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        maskGm.SetGlobalBuffer((__gm__ uint8_t*)mask);
        zGm.SetGlobalBuffer((__gm__ float*)z);
        pipe.InitBuffer(xQue, 1, ELEMENTS * sizeof(float));
        pipe.InitBuffer(yQue, 1, ELEMENTS * sizeof(float));
        pipe.InitBuffer(maskQue, 1, MASK_BYTES);
        pipe.InitBuffer(zQue, 1, ELEMENTS * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        CopyIn();
        Compute();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn()
    {
        AscendC::LocalTensor<float> x = xQue.AllocTensor<float>();
        AscendC::LocalTensor<float> y = yQue.AllocTensor<float>();
        AscendC::LocalTensor<uint8_t> mask = maskQue.AllocTensor<uint8_t>();
        AscendC::DataCopy(x, xGm, ELEMENTS);
        AscendC::DataCopy(y, yGm, ELEMENTS);
        AscendC::DataCopy(mask, maskGm, MASK_BYTES);
        xQue.EnQue(x);
        yQue.EnQue(y);
        maskQue.EnQue(mask);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> x = xQue.DeQue<float>();
        AscendC::LocalTensor<float> y = yQue.DeQue<float>();
        AscendC::LocalTensor<uint8_t> mask = maskQue.DeQue<uint8_t>();
        AscendC::LocalTensor<float> z = zQue.AllocTensor<float>();
        AscendC::Select(z, mask, x, y, AscendC::SELMODE::VSEL_CMPMASK_SPR, ELEMENTS);
        zQue.EnQue<float>(z);
        xQue.FreeTensor(x);
        yQue.FreeTensor(y);
        maskQue.FreeTensor(mask);
    }
    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<float> z = zQue.DeQue<float>();
        AscendC::DataCopy(zGm, z, ELEMENTS);
        zQue.FreeTensor(z);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> xQue, yQue, maskQue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> zQue;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    AscendC::GlobalTensor<uint8_t> maskGm;
};

extern "C" __global__ __aicore__ void select_cmpmask_demo(__gm__ uint8_t* src0Gm,
                                                          __gm__ uint8_t* src1Gm,
                                                          __gm__ uint8_t* selGm,
                                                          __gm__ uint8_t* dstGm)
{
    SelectOnCmpMask op;
    op.Init(src0Gm, src1Gm, selGm, dstGm);
    op.Process();
}
