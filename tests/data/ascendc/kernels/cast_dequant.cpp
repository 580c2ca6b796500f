// CastDequant and SetDeqScale (#27, #29) in AscendC's forms and the C API's, pipev's own test
// kernel: the sources are filled by the scalar unit, the results stay in UB; the test replays
// the calls with its element-by-element reference (tests/reference/dequant.py) and compares UB.
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

__global__ __aicore__ void deq() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<int16_t> x = buf.Get<int16_t>();                   // bytes 0..511
    LocalTensor<uint8_t> d1 = buf.GetWithOffset<uint8_t>(512, 512);  // 512..1023
    LocalTensor<int8_t> d2 = buf.GetWithOffset<int8_t>(512, 1024);   // 1024..1535
    LocalTensor<uint64_t> vdeq = buf.GetWithOffset<uint64_t>(16, 1536);
    LocalTensor<int32_t> a = buf.GetWithOffset<int32_t>(128, 2048);   // 2048..2559
    LocalTensor<half> h1 = buf.GetWithOffset<half>(128, 2560);
    LocalTensor<half> h2 = buf.GetWithOffset<half>(128, 2816);
    for (int i = 0; i < 256; i++) x.SetValue(i, int16_t(97 * i - 12000));
    for (int i = 0; i < 512; i++) {
        d1.SetValue(i, uint8_t(i));
        d2.SetValue(i, int8_t(0));
    }
    for (int i = 0; i < 128; i++) a.SetValue(i, int32_t(7919 * i - 500000));
    PipeBarrier<PIPE_ALL>();
    // 1. per tensor, uint8_t results in the low halves, the first-n form
    SetDeqScale(0.5f, int16_t(-3), false);
    CastDequant<uint8_t, int16_t, false, false>(d1, x, 256);
    // 2. per block: 16 groups, int8_t results in the high halves, 2 repeats of 128
    float scales[VDEQ_TENSOR_SIZE];
    int16_t offsets[VDEQ_TENSOR_SIZE];
    bool signs[VDEQ_TENSOR_SIZE];
    for (int k = 0; k < VDEQ_TENSOR_SIZE; k++) {
        scales[k] = 0.001f * float(k + 1);
        offsets[k] = int16_t(k - 8);
        signs[k] = true;
    }
    VdeqInfo info(scales, offsets, signs);
    SetDeqScale<uint64_t>(vdeq, info);
    PipeBarrier<PIPE_ALL>();
    CastDequant<int8_t, int16_t, true, true, true>(d2, x, 128, 2, {1, 1, 8, 8});
    // 3. int32_t → half: Cast (round mode ignored) and CastDequant, scale 0.25
    SetDeqScale(half(0.25f));
    Cast(h1, a, RoundMode::CAST_NONE, 128);
    CastDequant<half, int32_t>(h2, a, 128);
}

__global__ __aicore__ void c_deq() {
    auto& src = pipev::ubuf_array<int16_t[256]>("src");    // UB 0
    auto& dst8 = pipev::ubuf_array<int8_t[512]>("dst8");   // 512
    auto& udst = pipev::ubuf_array<uint8_t[256]>("udst");  // 1024
    auto& tmp = pipev::ubuf_array<uint64_t[16]>("tmp");    // 1280
    auto& a = pipev::ubuf_array<int32_t[64]>("a");         // 1408
    auto& h = pipev::ubuf_array<half[64]>("h");            // 1664
    for (int i = 0; i < 256; i++) src[i] = int16_t(131 * i - 16000);
    for (int i = 0; i < 512; i++) dst8[i] = 0;
    for (int i = 0; i < 256; i++) udst[i] = 0;
    for (int i = 0; i < 64; i++) a[i] = int32_t(100003 * i - 3000000);
    asc_set_deq_scale(2.0f, 1, true);
    asc_deq_int162b8_h(dst8, src, 256);
    float scale_arr[ASC_VDEQ_SIZE];
    int16_t offset_arr[ASC_VDEQ_SIZE];
    bool sign_arr[ASC_VDEQ_SIZE];
    for (int k = 0; k < ASC_VDEQ_SIZE; k++) {
        scale_arr[k] = 0.01f * float(k);
        offset_arr[k] = int16_t(2 * k);
        sign_arr[k] = false;
    }
    asc_set_deq_scale(tmp, scale_arr, offset_arr, sign_arr);
    asc_vdeq_int162b8_l(udst, src, 1, 1, 1, 8, 8);
    asc_set_deq_scale(half(1.5f));
    asc_deq_int322half_sync(h, a, 64);
}

extern "C" int run_all() {
    deq<<<1, nullptr, nullptr>>>();
    c_deq<<<1, nullptr, nullptr>>>();
    return 0;
}
