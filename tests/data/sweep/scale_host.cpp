// A host main around scale.cpp's kernel (y = 2 x over 256 floats in tiles of TILE, a -D macro
// the sweep varies): GmAlloc buffers, one <<<>>> launch, the program checks y itself.
#include <cstdio>

#include "tikicpulib.h"
#include "scale.cpp"

int main()
{
    float* x = (float*)AscendC::GmAlloc(256 * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(256 * sizeof(float));
    for (int i = 0; i < 256; ++i) {
        x[i] = (float)i;
    }
    scale<<<1, nullptr, nullptr>>>((GM_ADDR)x, (GM_ADDR)y);
    int wrong = 0;
    for (int i = 0; i < 256; ++i) {
        wrong += y[i] != 2.0f * (float)i;
    }
    printf("TILE %d: %d wrong\n", TILE, wrong);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return wrong != 0;
}
