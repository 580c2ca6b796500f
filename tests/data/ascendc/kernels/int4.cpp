// int4b_t (issue #27): LocalTensor / GlobalTensor of int4b_t (two elements a byte: sizes, element
// offsets, ReinterpretCast, GetValue / SetValue), Cast half <-> int4b_t in its forms, DataCopy of
// int4b_t tensors, and the C API's asc_half2int4* / asc_int42half (pipev's own kernel). Run with
// "split" or "odd" for the errors; a `// => X` comment names what the line must issue.
#include <cstring>

#include "c_api/asc_simd.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 512;

extern "C" __global__ __aicore__ void int4_faces(GM_ADDR x, GM_ADDR q, GM_ADDR y)
{
    TPipe pipe;
    TBuf<> hbuf, qbuf;
    pipe.InitBuffer(hbuf, N * sizeof(half));
    pipe.InitBuffer(qbuf, N / 2);
    LocalTensor<half> h = hbuf.Get<half>();
    LocalTensor<int4b_t> q4 = qbuf.Get<int8_t>().ReinterpretCast<int4b_t>();  // => ub tbuf1_s4
    GlobalTensor<half> xGm, yGm;
    GlobalTensor<int4b_t> qGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, N);
    qGm.SetGlobalBuffer((__gm__ int4b_t*)q, N);
    yGm.SetGlobalBuffer((__gm__ half*)y, N);
    DataCopy(h, xGm, N);
    PipeBarrier<PIPE_ALL>();
    Cast(q4, h, RoundMode::CAST_FLOOR, 256);  // => cast.s4.f16 tbuf1_s4[0], tbuf0[x1], round=floor, count=x2
    Cast(q4[256], h[256], RoundMode::CAST_TRUNC, uint64_t(128), 2, {1, 1, 2, 8});  // => cast.s4.f16 tbuf1_s4[256], tbuf0[x1], round=trunc, repeat=x2, stride=1,1,2,8
    PipeBarrier<PIPE_V>();
    Cast(h, q4, RoundMode::CAST_NONE, N);  // => cast.f16.s4 tbuf0[x1], tbuf1_s4[0], round=none, count=x2
    PipeBarrier<PIPE_ALL>();
    DataCopy(qGm, q4, N);  // => copy_ub_to_gm gm_q[x1], tbuf1_s4[0], nburst=1, burst=x2
    DataCopy(yGm, h, N);
    PipeBarrier<PIPE_ALL>();
    // the C API on the same buffers (pointers into UB)
    __ubuf__ half* hp = (__ubuf__ half*)h.GetPhyAddr();
    __ubuf__ int4b_t* qp = (__ubuf__ int4b_t*)q4.GetPhyAddr();
    asc_half2int4_rna(qp, hp, N);  // => cast.s4.f16 tbuf1_s4[0], tbuf0[x1], round=round, count=x2
    asc_half2int4(qp, hp, 2, 1, 1, 2, 8);  // => cast.s4.f16 tbuf1_s4[0], tbuf0[x1], round=none, repeat=x2, stride=1,1,2,8
    asc_int42half_sync(hp, qp, N);  // => cast.f16.s4 tbuf0[x1], tbuf1_s4[0], round=none, count=x2 | pipe_barrier ALL
}

// scalar access: GetSize in elements, GetValue / SetValue of one half of a byte
extern "C" __global__ __aicore__ void int4_scalar(GM_ADDR, GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 32);
    LocalTensor<int4b_t> t = buf.Get<int8_t>().ReinterpretCast<int4b_t>();
    for (int i = 0; i < 16; ++i) t.SetValue(i, int4b_t(i - 8));
    LocalTensor<int4b_t> u = t[8];
    uint32_t n = buf.Get<int4b_t>().GetSize();
    int a = u.GetValue(0), b = u.GetValue(7);
    // the message carries the line of the call's last API call (t.GetValue)
    AscendC::printf("%u %u %u %d %d %d\n", t.GetSize(), t.GetLength(), n, a, b, int(t.GetValue(1)));  // => print: 64 32 64 0 7 -7
}

extern "C" __global__ __aicore__ void split(GM_ADDR x, GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<> hbuf, qbuf;
    pipe.InitBuffer(hbuf, N * sizeof(half));
    pipe.InitBuffer(qbuf, N / 2);
    LocalTensor<half> h = hbuf.Get<half>();
    LocalTensor<int4b_t> q4 = qbuf.Get<int8_t>().ReinterpretCast<int4b_t>();
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, N);
    DataCopy(h, xGm, N);
    PipeBarrier<PIPE_ALL>();
    Cast(q4[3], h, RoundMode::CAST_RINT, 64);  // => error: odd element offset splits a byte
}

extern "C" __global__ __aicore__ void odd(GM_ADDR, GM_ADDR q, GM_ADDR)
{
    TPipe pipe;
    TBuf<> qbuf;
    pipe.InitBuffer(qbuf, N / 2);
    LocalTensor<int4b_t> q4 = qbuf.Get<int4b_t>();
    GlobalTensor<int4b_t> qGm;
    qGm.SetGlobalBuffer((__gm__ int4b_t*)q, N);
    DataCopy(q4, qGm, 129);  // => error: an odd count splits a byte
}

int main(int argc, char** argv)
{
    const char* which = argc > 1 ? argv[1] : "";
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * sizeof(half));
    uint8_t* q = (uint8_t*)AscendC::GmAlloc(N / 2);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(N * sizeof(half));
    if (std::strcmp(which, "split") == 0) ICPU_RUN_KF(split, 1, x, q, y);
    else if (std::strcmp(which, "odd") == 0) ICPU_RUN_KF(odd, 1, x, q, y);
    else {
        ICPU_RUN_KF(int4_faces, 1, x, q, y);
        ICPU_RUN_KF(int4_scalar, 1, x, q, y);
    }
    AscendC::GmFree(x);
    AscendC::GmFree(q);
    AscendC::GmFree(y);
    return 0;
}
