// y = 2 x on 8 cores: each core takes its share of the rows by GetBlockIdx/GetBlockNum, launched
// with `<<<8>>>` from a host main using the acl runtime. One command:
//     pipev run programs/ascendc/scale_cores.cpp
// writes scale_cores_in_x.bin and scale_cores_out_y.bin here; the summary has a line per core
// (they run side by side: 8 cores on the chip's vector cores, one wave), and
// `--trace scale.json` writes one Chrome trace with a process per core.
#include "acl/acl.h"
#include "data_utils.h"
#include "kernel_operator.h"

constexpr uint32_t TOTAL = 8 * 1024;  // floats over all cores

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y)
{
    uint32_t share = TOTAL / AscendC::GetBlockNum();
    uint64_t first = uint64_t(share) * AscendC::GetBlockIdx();
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, share * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + first, share);
    yGm.SetGlobalBuffer((__gm__ float*)y + first, share);
    AscendC::DataCopy(t, xGm, share);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, 2.0f, share);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, t, share);
}

int main()
{
    size_t bytes = TOTAL * sizeof(float);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    float *xHost, *yHost;
    uint8_t *x, *y;
    aclrtMallocHost((void**)&xHost, bytes);
    aclrtMallocHost((void**)&yHost, bytes);
    aclrtMalloc((void**)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    demo::FillGrid(xHost, TOTAL, 7);
    aclrtMemcpy(x, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    scale<<<8, nullptr, stream>>>(x, y);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(yHost, bytes, y, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = demo::WriteFile("scale_cores_in_x.bin", xHost, bytes) &&
              demo::WriteFile("scale_cores_out_y.bin", yHost, bytes);
    aclrtFree(x);
    aclrtFree(y);
    aclrtFreeHost(xHost);
    aclrtFreeHost(yHost);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return ok ? 0 : 1;
}
