// Quantise halves to int4b_t and back: q = int4(x / scale) rounded to nearest even and saturated
// to -8..7, y = q * scale. The int4b_t tensors hold two elements a byte (element 2j in the low
// half), so the GM output q is N / 2 bytes and the UB buffer for it is half the int8_t space the
// same count would need. One command:
//     pipev run programs/ascendc/quant_int4.cpp
// writes quant_int4_in_x.bin, quant_int4_out_q.bin (packed int4) and quant_int4_out_y.bin here.
#include "acl/acl.h"
#include "data_utils.h"
#include "kernel_operator.h"

constexpr uint32_t N = 1024;  // elements: 2048 bytes of half, 512 bytes of int4b_t
constexpr float SCALE = 0.5f;

extern "C" __global__ __aicore__ void quant_int4(GM_ADDR x, GM_ADDR q, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> hbuf, qbuf;
    pipe.InitBuffer(hbuf, N * sizeof(half));
    pipe.InitBuffer(qbuf, N / 2);  // N int4b_t: N / 2 bytes (the Cast page's sizing rule)
    AscendC::LocalTensor<half> h = hbuf.Get<half>();
    AscendC::LocalTensor<AscendC::int4b_t> q4 = qbuf.Get<int8_t>().ReinterpretCast<AscendC::int4b_t>();
    AscendC::GlobalTensor<half> xGm, yGm;
    AscendC::GlobalTensor<AscendC::int4b_t> qGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, N);
    qGm.SetGlobalBuffer((__gm__ AscendC::int4b_t*)q, N);  // N elements, N / 2 bytes
    yGm.SetGlobalBuffer((__gm__ half*)y, N);

    AscendC::DataCopy(h, xGm, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(h, h, half(1.0f / SCALE), N);
    AscendC::PipeBarrier<PIPE_V>();
    // the first half by count, the second in the high-dimensional form: 4 repeats of 128
    // elements, the int4b_t side 2 blocks a repeat (dstRepStride 2), the half side 8
    AscendC::Cast(q4, h, AscendC::RoundMode::CAST_RINT, N / 2);
    AscendC::Cast<AscendC::int4b_t, half>(q4[N / 2], h[N / 2], AscendC::RoundMode::CAST_RINT,
                                          uint64_t(128), 4, {1, 1, 2, 8});
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Cast(h, q4, AscendC::RoundMode::CAST_NONE, N);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Muls(h, h, half(SCALE), N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(qGm, q4, N);  // N int4b_t elements: 512 bytes
    AscendC::DataCopy(yGm, h, N);
}

int main()
{
    size_t hbytes = N * sizeof(half), qbytes = N / 2;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    half *xHost, *yHost;
    uint8_t* qHost;
    uint8_t *x, *q, *y;
    aclrtMallocHost((void**)&xHost, hbytes);
    aclrtMallocHost((void**)&yHost, hbytes);
    aclrtMallocHost((void**)&qHost, qbytes);
    aclrtMalloc((void**)&x, hbytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&q, qbytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, hbytes, ACL_MEM_MALLOC_HUGE_FIRST);
    demo::FillGrid(xHost, N, 11);  // quarter steps in [-8, 8): ties, and beyond -4..3.5
    aclrtMemcpy(x, hbytes, xHost, hbytes, ACL_MEMCPY_HOST_TO_DEVICE);
    quant_int4<<<1, nullptr, stream>>>(x, q, y);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(qHost, qbytes, q, qbytes, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(yHost, hbytes, y, hbytes, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = demo::WriteFile("quant_int4_in_x.bin", xHost, hbytes) &&
              demo::WriteFile("quant_int4_out_q.bin", qHost, qbytes) &&
              demo::WriteFile("quant_int4_out_y.bin", yHost, hbytes);
    aclrtFree(x);
    aclrtFree(q);
    aclrtFree(y);
    aclrtFreeHost(xHost);
    aclrtFreeHost(yHost);
    aclrtFreeHost(qHost);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return ok ? 0 : 1;
}
