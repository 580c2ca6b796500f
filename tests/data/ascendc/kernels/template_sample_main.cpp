// A CPU-twin harness for select_template.cpp (select_cmpmask_demo), a kernel in the vendor's
// sample layout that compiles beside this file unchanged.
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void select_cmpmask_demo(__gm__ uint8_t* src0Gm, __gm__ uint8_t* src1Gm,
                                                    __gm__ uint8_t* selGm, __gm__ uint8_t* dstGm);

int main()
{
    uint8_t* src0 = (uint8_t*)AscendC::GmAlloc(256 * sizeof(float));
    uint8_t* src1 = (uint8_t*)AscendC::GmAlloc(256 * sizeof(float));
    uint8_t* sel = (uint8_t*)AscendC::GmAlloc(128);
    uint8_t* dst = (uint8_t*)AscendC::GmAlloc(256 * sizeof(float));
    ICPU_RUN_KF(select_cmpmask_demo, 1, src0, src1, sel, dst);  // => launch select_cmpmask_demo
    AscendC::GmFree(src0);
    AscendC::GmFree(src1);
    AscendC::GmFree(sel);
    AscendC::GmFree(dst);
    return 0;
}
