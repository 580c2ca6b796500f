// TransDataTo5HD (issue 28) in AscendC's three list forms and the C API's address registers.
// pipev's own test kernel: UB bytes 0..4095 hold (37 i + 11) mod 256, the results land above
// them; the test replays the calls on those bytes with its reference and compares UB.
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

__global__ __aicore__ void lists() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16384);
    LocalTensor<uint8_t> bytes = buf.Get<uint8_t>();
    for (int i = 0; i < 4096; i++) bytes.SetValue(i, uint8_t(37 * i + 11));
    PipeBarrier<PIPE_ALL>();
    // 1. uint64_t arrays of GetPhyAddr values: 16 planes of 32 halves to (32, C0 = 16), as the
    //    page's NCHW -> NC1HWC0 example does (2 repeats: the plane's second block)
    LocalTensor<half> h = buf.Get<half>();
    LocalTensor<half> y = buf.GetWithOffset<half>(512, 4096);
    uint64_t dstList[16], srcList[16];
    for (int k = 0; k < 16; k++) {
        dstList[k] = uint64_t(y[16 * k].GetPhyAddr());
        srcList[k] = uint64_t(h[32 * k].GetPhyAddr());
    }
    TransDataTo5HD<half>(dstList, srcList, TransDataTo5HDParams(false, false, 2, 16, 1));
    // 2. arrays of LocalTensor: 16 blocks of floats, one repeat, strides 0
    LocalTensor<float> f = buf.Get<float>();
    LocalTensor<float> g = buf.GetWithOffset<float>(128, 6144);
    LocalTensor<float> fl[16], gl[16];
    for (int k = 0; k < 16; k++) {
        fl[k] = f[8 * (15 - k)];  // blocks in reverse
        gl[k] = g[8 * k];
    }
    TransDataTo5HDParams p32;
    p32.repeatTimes = 1;
    TransDataTo5HD<float>(gl, fl, p32);
    // 3. lists in UB (LocalTensor<uint64_t>): int8_t, the high halves
    LocalTensor<uint64_t> dl = buf.GetWithOffset<uint64_t>(16, 8192);
    LocalTensor<uint64_t> sl = buf.GetWithOffset<uint64_t>(16, 8192 + 128);
    LocalTensor<int8_t> b8 = buf.Get<int8_t>();
    LocalTensor<int8_t> o8 = buf.GetWithOffset<int8_t>(512, 9216);
    for (uint32_t k = 0; k < 16; k++) {
        dl.SetValue(k, uint64_t(o8[32 * k].GetPhyAddr()));
        sl.SetValue(k, uint64_t(b8[64 * k].GetPhyAddr()));
    }
    TransDataTo5HD<int8_t>(dl, sl, TransDataTo5HDParams(true, true, 1, 0, 0));
}

__global__ __aicore__ void c_lists() {
    auto& src = pipev::ubuf_array<half[512]>("src");
    auto& dst = pipev::ubuf_array<half[512]>("dst");
    auto& out8 = pipev::ubuf_array<uint8_t[512]>("out8");
    for (int i = 0; i < 512; i++) src[i] = half(float(i));
    half* src_list[16];
    half* dst_list[16];
    for (int i = 0; i < 16; i++) {
        src_list[i] = src + 16 * i;
        dst_list[i] = dst + 16 * i;
    }
    asc_set_va_reg(VA0, dst_list);
    asc_set_va_reg(VA1, dst_list + 8);
    asc_set_va_reg(VA2, src_list);
    asc_set_va_reg(VA3, src_list + 8);
    asc_transto5hd_b16(VA0, VA2, 1, 0, 0);  // the 16 x 16 matrix of src[0:256], transposed
    uint8_t* b_src[16];
    uint8_t* b_dst[16];
    for (int i = 0; i < 16; i++) {
        b_src[i] = reinterpret_cast<uint8_t*>(src) + 32 * i;
        b_dst[i] = out8 + 32 * i;
    }
    asc_set_va_reg(VA4, b_dst);
    asc_set_va_reg(VA5, b_dst + 8);
    asc_set_va_reg(VA6, b_src);
    asc_set_va_reg(VA7, b_src + 8);
    asc_transto5hd_b8_sync(VA4, VA6, 1, 0, 0, false, true);
}

extern "C" int run_all() {
    lists<<<1, nullptr, nullptr>>>();
    c_lists<<<1, nullptr, nullptr>>>();
    return 0;
}
