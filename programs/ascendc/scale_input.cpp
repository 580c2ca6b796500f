// z = SCALE * x over N floats in tiles of TILE, from a host main that reads its input at run
// time from a folder its command line names (docs/sweep.md sweeps TILE with a fixed -D SCALE
// and `-- DIR`; the file's name is built at run time, so only the run can tell which file it
// read). One command:
//     pipev run programs/ascendc/scale_input.cpp               # x: a grid of values made here
//     pipev run programs/ascendc/scale_input.cpp -- DIR        # x: DIR/x.bin (N floats)
// writes scale_input_in_x.bin and scale_input_out_z.bin here. A TILE larger than N runs no tile.
#include <string>

#include "data_utils.h"
#include "tikicpulib.h"

#ifndef N
#define N 2048
#endif
#ifndef TILE
#define TILE 256
#endif
#ifndef SCALE
#define SCALE 2
#endif

extern "C" __global__ __aicore__ void scale_input(GM_ADDR x, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    zGm.SetGlobalBuffer((__gm__ float*)z, N);
    pipe.InitBuffer(buf, TILE * sizeof(float));
    AscendC::LocalTensor<float> xLocal = buf.Get<float>();
    for (uint32_t t = 0; t < N / TILE; ++t) {
        AscendC::DataCopy(xLocal, xGm[t * TILE], TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Muls(xLocal, xLocal, (float)SCALE, TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(zGm[t * TILE], xLocal, TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}

int main(int argc, char** argv)
{
    size_t bytes = N * sizeof(float);
    float* x = (float*)AscendC::GmAlloc(bytes);
    float* z = (float*)AscendC::GmAlloc(bytes);
    if (argc > 1) {
        std::string path = std::string(argv[1]) + "/x.bin";
        FILE* f = std::fopen(path.c_str(), "rb");
        bool ok = f != nullptr && std::fread(x, 1, bytes, f) == bytes;
        if (f != nullptr) std::fclose(f);
        if (!ok) {
            std::fprintf(stderr, "cannot read %zu bytes from %s\n", bytes, path.c_str());
            return 1;
        }
    } else {
        demo::FillGrid(x, N, 7);
    }
    ICPU_RUN_KF(scale_input, 1, (uint8_t*)x, (uint8_t*)z);
    bool ok = demo::WriteFile("scale_input_in_x.bin", x, bytes) &&
              demo::WriteFile("scale_input_out_z.bin", z, bytes);
    AscendC::GmFree(x);
    AscendC::GmFree(z);
    return ok ? 0 : 1;
}
