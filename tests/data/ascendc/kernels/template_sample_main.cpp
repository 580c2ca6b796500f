// A CPU-twin harness for the Select page's "Template Sample" kernel (main_sel_demo), which the
// test extracts unchanged from the shared vendor reference page and compiles beside this file.
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void main_sel_demo(__gm__ uint8_t* src0Gm, __gm__ uint8_t* src1Gm,
                                                    __gm__ uint8_t* selGm, __gm__ uint8_t* dstGm);

int main()
{
    uint8_t* src0 = (uint8_t*)AscendC::GmAlloc(256 * sizeof(float));
    uint8_t* src1 = (uint8_t*)AscendC::GmAlloc(256 * sizeof(float));
    uint8_t* sel = (uint8_t*)AscendC::GmAlloc(128);
    uint8_t* dst = (uint8_t*)AscendC::GmAlloc(256 * sizeof(float));
    ICPU_RUN_KF(main_sel_demo, 1, src0, src1, sel, dst);  // => launch main_sel_demo
    AscendC::GmFree(src0);
    AscendC::GmFree(src1);
    AscendC::GmFree(sel);
    AscendC::GmFree(dst);
    return 0;
}
