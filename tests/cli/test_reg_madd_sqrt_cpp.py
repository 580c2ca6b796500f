"""Issue 34 (r6): our own vendor-style kernels of what the operator library's tanh and sqrt
kernels stop on — Reg::MulDstAdd in a Horner polynomial (tanh's style) and its C API face
asc_madd — bit-exact against tests/reference/regvec_fused.py."""

from __future__ import annotations

import struct

import numpy as np

from tests.reference import regvec_fused as ref
from tests.reference.elementwise import mul

INPUTS = [0.0, -0.0, 0.5, -0.75, 1.0, 3.0, -9.5, 1e-30, 1e30, float("inf"), float("-inf"),
          float("nan"), 2.0 ** -126, 7.0, -0.125, 100.0]
COEFFS = [1.0 / 3.0, -0.2, 0.1428571, 1e-7]

HORNER = """#include <cstdio>
#include <cstring>
#include "kernel_operator.h"
using namespace AscendC;
// tanh's style: y = ((c0 * x2 + c1) * x2 + c2) * x2 + c3 on x2 = x * x, each step a MulDstAdd
template <typename T>
__simd_vf__ inline void HornerVF(__ubuf__ T* y, __ubuf__ T* x, __ubuf__ T* c, uint32_t count,
                                 uint16_t repeatTimes)
{
    constexpr uint32_t oneRepeatSize = 256 / sizeof(T);
    Reg::RegTensor<T> in, sq, acc, c1, c2, c3;
    Reg::MaskReg mask;
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::LoadAlign<T, Reg::LoadDist::DIST_BRC_B32>(c1, c + 1);
    Reg::LoadAlign<T, Reg::LoadDist::DIST_BRC_B32>(c2, c + 2);
    Reg::LoadAlign<T, Reg::LoadDist::DIST_BRC_B32>(c3, c + 3);
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = Reg::UpdateMask<T>(count);
        Reg::LoadAlign(in, x + i * oneRepeatSize);
        Reg::Mul(sq, in, in, mask);
        Reg::LoadAlign<T, Reg::LoadDist::DIST_BRC_B32>(acc, c);
        Reg::MulDstAdd(acc, sq, c1, mask);
        Reg::MulDstAdd(acc, sq, c2, mask);
        Reg::MulDstAdd(acc, sq, c3, mask);
        Reg::StoreAlign(y + i * oneRepeatSize, acc, mask);
    }
}
__simd_vf__ inline void MaddVF(__ubuf__ float* y, __ubuf__ float* x, __ubuf__ float* c)
{
    vector_bool all = asc_create_mask_b32(PAT_ALL);
    vector_float in, acc, k;
    asc_loadalign(in, x);
    asc_loadalign(acc, x);
    asc_loadalign(k, c + 8);
    asc_madd(acc, in, k, all);
    asc_storealign(y, acc, all);
}
__global__ __vector__ void k()
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, 128>();
    LocalTensor<float> c = ub.Alloc<float, 128>();
    LocalTensor<float> y = ub.Alloc<float, 128>();
    LocalTensor<float> z = ub.Alloc<float, 64>();
    const float in[16] = {INPUTS};
    const float cs[4] = {COEFFS};
    for (int i = 0; i < 128; ++i) x.SetValue(i, in[i % 16]);
    for (int i = 0; i < 128; ++i) c.SetValue(i, i < 4 ? cs[i] : in[i % 16]);
    for (int i = 0; i < 128; ++i) y.SetValue(i, -1.0f);
    asc_vf_call<HornerVF<float>>((__ubuf__ float*)y.GetPhyAddr(), (__ubuf__ float*)x.GetPhyAddr(),
                                 (__ubuf__ float*)c.GetPhyAddr(), 100u, (uint16_t)2);
    asc_vf_call<MaddVF>((__ubuf__ float*)z.GetPhyAddr(), (__ubuf__ float*)x.GetPhyAddr(),
                        (__ubuf__ float*)c.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < 128; ++i) printf("%08x ", y.ReinterpretCast<uint32_t>().GetValue(i));
    for (int i = 0; i < 64; ++i) printf("%08x ", z.ReinterpretCast<uint32_t>().GetValue(i));
    printf("\\n");
}
"""


def _f(v: float) -> bytes:
    return struct.pack("<f", v)


def _c(v: float) -> str:
    return "NAN" if v != v else ("INFINITY" if v == float("inf") else
                                 "-INFINITY" if v == float("-inf") else repr(v) + "f")


def test_a_horner_polynomial_of_mul_dst_adds_and_asc_madd(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(HORNER.replace("INPUTS", ", ".join(map(_c, INPUTS)))
                   .replace("COEFFS", ", ".join(map(_c, COEFFS)))
                   .replace('#include "kernel_operator.h"',
                            '#include "kernel_operator.h"\n#include "c_api/asc_simd.h"'))
    proc = pipev("run", "--chip", "ascend950", "--kernel", "k", src, timeout=300)
    assert proc.returncode == 0, proc.stderr
    words = proc.stdout.split()[-192:]
    got = b"".join(int(w, 16).to_bytes(4, "little") for w in words)
    cs = [np.float32(v).tobytes() for v in COEFFS]
    want = b""
    for i in range(128):
        if i >= 100:  # UpdateMask(100): the last 28 elements are not stored
            want += _f(-1.0)
            continue
        x = np.float32(INPUTS[i % 16]).tobytes()
        sq = mul("f32", x, x)
        acc = cs[0]
        for k in (1, 2, 3):
            acc = ref.mul_dst_add("f32", acc, sq, cs[k])
        want += acc
    for i in range(64):  # acc = x; acc = acc * x + c[8 + i]
        x = np.float32(INPUTS[i % 16]).tobytes()
        want += ref.mul_dst_add("f32", x, x, np.float32(INPUTS[(8 + i) % 16]).tobytes())
    assert got == want


SQRT_BITS = [0x0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x3F800000, 0xBF800000, 0x1,
             0x80000001, 0x007FFFFF, 0x00776672, 0x00800000, 0x7F7FFFFF, 0x7E800000, 0x7E800001,
             0x40000000]
SQRT = """#include <cstdio>
#include "kernel_operator.h"
using namespace AscendC;
// the operator library's sqrt style: the Memory Sqrt with a SqrtConfig over a count (a tail of
// 100 of 128), and Reg::Sqrt with a SqrtSpecificMode in a VF
template <typename T>
__simd_vf__ inline void SqrtVF(__ubuf__ T* y, __ubuf__ T* x)
{
    static constexpr Reg::SqrtSpecificMode mode = {Reg::MaskMergeMode::ZEROING, true};
    Reg::RegTensor<T> in, out;
    Reg::MaskReg mask = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(in, x);
    Reg::Sqrt<T, &mode>(out, in, mask);
    Reg::StoreAlign(y, out, mask);
    Reg::Sqrt(out, in, mask);
    Reg::StoreAlign(y + 64, out, mask);
}
__global__ __vector__ void k()
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<uint32_t> x = ub.Alloc<uint32_t, 128>();
    LocalTensor<float> y = ub.Alloc<float, 128>();
    LocalTensor<float> z = ub.Alloc<float, 128>();
    const uint32_t bits[16] = {BITS};
    for (int i = 0; i < 128; ++i) x.SetValue(i, bits[i % 16]);
    Duplicate(y, -1.0f, 128);
    PipeBarrier<PIPE_V>();
    static constexpr SqrtConfig config = {SqrtAlgo::PRECISION_0ULP_FTZ_FALSE};
    Sqrt<float, config>(y, x.ReinterpretCast<float>(), 100);
    asc_vf_call<SqrtVF<float>>((__ubuf__ float*)z.GetPhyAddr(), (__ubuf__ float*)x.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < 128; ++i) printf("%08x ", y.ReinterpretCast<uint32_t>().GetValue(i));
    for (int i = 0; i < 128; ++i) printf("%08x ", z.ReinterpretCast<uint32_t>().GetValue(i));
    printf("\\n");
}
"""


def test_the_memory_sqrt_config_and_the_reg_sqrt_mode(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(SQRT.replace("BITS", ", ".join(f"{b:#x}u" for b in SQRT_BITS)))
    proc = pipev("run", "--chip", "ascend950", "--werror", "--kernel", "k", src, timeout=300)
    assert proc.returncode == 0, proc.stderr
    words = [int(w, 16).to_bytes(4, "little") for w in proc.stdout.split()[-256:]]
    xs = [b.to_bytes(4, "little") for b in SQRT_BITS]
    want_y = [ref.reg_sqrt("f32", xs[i % 16], "p0ulp") if i < 100 else _f(-1.0)
              for i in range(128)]
    want_z = [ref.reg_sqrt("f32", xs[i % 16], "fast" if i < 64 else "intrinsic")
              for i in range(128)]
    assert words[:128] == want_y
    assert words[128:] == want_z


OUTER = """#include <cstdio>
#include "kernel_operator.h"
using namespace AscendC;
// tanh's shape: registers declared before __VEC_SCOPE__ and used in it, a helper declaring its
// own inside; each keeps its own register (y = 0 * x^2 + 3 * x^2, then + x)
static void Core(Reg::RegTensor<float>& k, Reg::RegTensor<float>& in, Reg::RegTensor<float>& out,
                 Reg::MaskReg& mask)
{
    Reg::RegTensor<float> sq, tmp;
    Reg::Mul(sq, in, in, mask);
    Reg::Duplicate(tmp, 0.0f, mask);
    Reg::Mul(out, sq, k, mask);
    Reg::MulDstAdd(tmp, sq, out, mask);
    Reg::Add(out, tmp, in, mask);
}
__global__ __vector__ void k()
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, 64>();
    LocalTensor<float> y = ub.Alloc<float, 64>();
    for (int i = 0; i < 64; ++i) x.SetValue(i, float(i) - 31.5f);
    __ubuf__ float* src = (__ubuf__ float*)x.GetPhyAddr();
    __ubuf__ float* dst = (__ubuf__ float*)y.GetPhyAddr();
    Reg::RegTensor<float, Reg::RegTraitNumOne> three, in, out;
    Reg::MaskReg mask;
    __VEC_SCOPE__
    {
        mask = Reg::CreateMask<float>();
        Reg::Duplicate(three, 3.0f, mask);
        Reg::LoadAlign(in, src);
        Core(three, in, out, mask);
        Reg::StoreAlign(dst, out, mask);
    }
    PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < 64; ++i) printf("%g ", y.GetValue(i));
    printf("\\n");
}
"""


def test_registers_declared_before_a_vec_scope_keep_their_own(pipev, tmp_path):
    """MulDstAdd(0, x², 3x²) + x = 3x² + x: exact in float for these halves (a register
    reused by Core's locals would break it)."""
    src = tmp_path / "k.cpp"
    src.write_text(OUTER)
    proc = pipev("run", "--chip", "ascend950", "--werror", "--kernel", "k", src, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = [float(w) for w in proc.stdout.split()[-64:]]
    xs = [np.float32(i - 31.5) for i in range(64)]
    assert got == [float(3 * x * x + x) for x in xs]
