"""Issue 34 (r2): our own vendor-style kernel of what the vendor's softmax, subnormal and ctrl_spr
samples use (tests/data/ascendc/reg/reg_softmax_ctrl.asc: ReduceMax, ExpSub, ReduceSum, Div in
its default and its subnormal-keeping DivAlgo, Reduce SUM of int16 into int32, Cast under
SetCtrlSpr / ResetCtrlSpr, GetCtrlSpr) and its C API face (reg_softmax_ctrl_capi.asc), bit-exact
against tests/reference; the vendor's Div page example through C++."""

from __future__ import annotations

import math
import struct
from pathlib import Path

import numpy as np

from tests.reference import regvec_convert as conv
from tests.reference import regvec_fused as ref
from tests.reference.regvec import tree_sum

DATA = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "reg"
ALL32 = bytes([0x11]) * 32  # CreateMask<float>(ALL): bit 4k for element k
LAUNCH = 1 << 60 | 1 << 48  # CTRL when a kernel starts (docs/decisions.md)


def _softmax_row(row: bytes, keep: bool) -> bytes:
    xs = [row[k:k + 4] for k in range(0, 256, 4)]
    vals = [struct.unpack("<f", b)[0] for b in xs]
    nans = [b for b, v in zip(xs, vals, strict=True) if math.isnan(v)]
    if nans:  # Max / ReduceMax: a NaN wins, the first, quieted
        m = (int.from_bytes(nans[0], "little") | 0x00400000).to_bytes(4, "little")
    else:
        m = struct.pack("<f", max(vals))
    es = [ref.exp_sub("f32", b, m) for b in xs]
    total = np.float32(tree_sum(np.frombuffer(b"".join(es), np.float32))).tobytes()
    return b"".join(ref.reg_div("f32", e, total, keep) for e in es)


def _wide_sums(s: bytes) -> bytes:
    out = b""
    for i in range(8):
        vals = np.frombuffer(s[256 * i:256 * (i + 1)], np.int16).tolist()
        out += ref.wide_sum(vals, [True] * 128, 32).to_bytes(4, "little") + bytes(28)
    return out


def _casts(x: bytes, sats: list[bool]) -> list[bytes]:
    row = x[512:768]  # row 2: values beyond half, ±inf, NaN
    return [conv.cast_register(row, ALL32, "f16", "f32", "rint", sat, 0) for sat in sats]


def test_the_softmax_ctrl_kernel_and_its_c_api_face_are_bit_exact(pipev, tmp_path):
    proc = pipev("run", "--chip", "ascend950", "--werror", str(DATA / "reg_softmax_ctrl.asc"),
                 timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = {k: (tmp_path / f"reg_softmax_ctrl_{k}.bin").read_bytes() for k in "xyqswhc"}
    x = out["x"]
    for i in range(8):
        row = x[256 * i:256 * (i + 1)]
        assert out["y"][256 * i:256 * (i + 1)] == _softmax_row(row, False), i
        assert out["q"][256 * i:256 * (i + 1)] == _softmax_row(row, True), i
    # row 1's small quotients: flushed by the default Div, kept by PRECISION_0ULP_FTZ_FALSE
    y1, q1 = (np.frombuffer(out[k][256:512], np.float32) for k in "yq")
    assert (y1[1::2] == 0).all() and (q1[1:10:2] != 0).all()
    assert out["w"] == _wide_sums(out["s"])
    # the global saturation, the Cast's own NO_SAT, the defaults again (CTRL[48] = 0 saturates);
    # DIST_PACK_B32 stores each result's low half
    for k, want in enumerate(_casts(x, [True, False, True])):
        assert out["h"][128 * k:128 * (k + 1)] == np.frombuffer(want, np.uint16)[0::2].tobytes()
    assert np.frombuffer(out["c"], np.int64).tolist() == [0, 1 << 60]

    proc = pipev("run", "--chip", "ascend950", "--werror",
                 str(DATA / "reg_softmax_ctrl_capi.asc"), timeout=300)
    assert proc.returncode == 0, proc.stderr
    cap = {k: (tmp_path / f"reg_softmax_capi_{k}.bin").read_bytes() for k in "ywhc"}
    assert cap["y"] == out["y"] and cap["w"] == out["w"]
    assert cap["h"] == b"".join(_casts(x, [True, False, False]))
    assert np.frombuffer(cap["c"], np.int64).tolist() == [LAUNCH, LAUNCH]


DIV_PAGE = """#include "acl/acl.h"
#include "kernel_operator.h"
template <typename T>
__simd_vf__ inline void DivVF(__ubuf__ T* z, __ubuf__ T* x, __ubuf__ T* y)
{
    static constexpr AscendC::Reg::DivSpecificMode mode = {
        AscendC::Reg::MaskMergeMode::ZEROING, false, AscendC::DivAlgo::PRECISION_1ULP_FTZ_FALSE};
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<T, AscendC::Reg::MaskPattern::VL2>();
    AscendC::Reg::RegTensor<T> xReg, yReg, zReg;
    AscendC::Reg::LoadAlign(xReg, x);
    AscendC::Reg::LoadAlign(yReg, y);
    AscendC::Reg::Div(zReg, xReg, yReg, mask);
    AscendC::Reg::StoreAlign(z, zReg, mask);
    AscendC::Reg::Div<T, &mode>(zReg, xReg, yReg, mask);
    AscendC::Reg::StoreAlign(z + 8, zReg, mask);
}
__global__ __vector__ void k()
{
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<uint32_t> x = ub.Alloc<uint32_t, 64>();
    AscendC::LocalTensor<uint32_t> y = ub.Alloc<uint32_t, 64>();
    AscendC::LocalTensor<float> z = ub.Alloc<float, 16>();
    AscendC::Duplicate(x, 0u, 64);
    AscendC::Duplicate(y, 0u, 64);
    AscendC::PipeBarrier<PIPE_V>();
    x.SetValue(0, 0x3F800000u); y.SetValue(0, 0x8036A794u);
    x.SetValue(1, 0x0014440Bu); y.SetValue(1, 0x0053E3CFu);
    asc_vf_call<DivVF<float>>((__ubuf__ float*)z.GetPhyAddr(), (__ubuf__ float*)x.GetPhyAddr(),
                              (__ubuf__ float*)y.GetPhyAddr());
    AscendC::PipeBarrier<PIPE_ALL>();
    for (int i : {0, 1, 8, 9}) printf("%08x\\n", z.ReinterpretCast<uint32_t>().GetValue(i));
}
"""


def test_the_div_pages_table_8_from_cpp(pipev, tmp_path):
    src = tmp_path / "div.cpp"
    src.write_text(DIV_PAGE)
    proc = pipev("run", "--chip", "ascend950", "--kernel", "k", src, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[-4:] == ["ff800000", "7fffffff", "ff15e301", "3e775fbc"]


NAMES = """#include <cstdio>
#include <type_traits>
#include "kernel_operator.h"
#include "ascendc/host_api/tiling/template_argument.h"
int main()
{
    printf("%d %d %d %zu %zu\\n", int(std::is_same_v<TypeFromId<C_DT_FLOAT16>::type, half>),
           int(std::is_same_v<TypeFromId<C_DT_BF16>::type, bfloat16_t>),
           int(std::is_same_v<TypeFromId<5>::type, void>), sizeof(AscendC::complex32),
           sizeof(complex64));
    return 0;
}
"""


def test_the_names_the_operator_library_s_kernels_use(pipev, tmp_path):
    """TypeFromId over the graph engine's data type codes (adds names it), complex32 and
    complex64 (muls's branches name them)."""
    src = tmp_path / "names.cpp"
    src.write_text(NAMES)
    proc = pipev("run", "--chip", "ascend950", src, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[:5] == ["1", "1", "1", "4", "8"]


VEC_SCOPE = """#include <cstdio>
#include <cstring>
#include "kernel_operator.h"
using namespace AscendC;
// the operator library's reciprocal / rsqrt style: a Div with DivSpecificMode{ZEROING, true}
// (precisionMode: DIFF_COMPENSATION, subnormals flushed) inside __VEC_SCOPE__, and a
// memory-based Cast to int16 truncating under SetCtrlSpr<59, 59>(1)
__global__ __vector__ void k()
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, 128>();
    LocalTensor<float> y = ub.Alloc<float, 128>();
    LocalTensor<int16_t> s = ub.Alloc<int16_t, 128>();
    const uint32_t bits[] = {0x3F800000u, 0x00400000u, 0x7F000000u, 0xC0000000u, 0x0u,
                             0x80000000u, 0x7F800000u, 0x47C35000u};
    for (int i = 0; i < 128; ++i) {
        float v;
        std::memcpy(&v, &bits[i % 8], 4);
        x.SetValue(i, v);
    }
    uint32_t count = 128;
    __VEC_SCOPE__
    {
        __ubuf__ float* src = (__ubuf__ float*)x.GetPhyAddr();
        __ubuf__ float* dst = (__ubuf__ float*)y.GetPhyAddr();
        static constexpr Reg::DivSpecificMode mode = {Reg::MaskMergeMode::ZEROING, true};
        Reg::RegTensor<float, Reg::RegTraitNumOne> in, ones, out;
        Reg::MaskReg mask;
        for (uint16_t i = 0; i < 2; i++) {
            mask = Reg::UpdateMask<float, Reg::RegTraitNumOne>(count);
            Reg::LoadAlign(in, src + i * 64);
            Reg::Duplicate(ones, (float)1.0, mask);
            Reg::Div<float, &mode>(out, ones, in, mask);
            Reg::StoreAlign(dst + i * 64, out, mask);
        }
    }
    SetCtrlSpr<59, 59>(1);
    Cast(s, x, RoundMode::CAST_TRUNC, 128);
    SetCtrlSpr<59, 59>(0);
    PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < 8; ++i) printf("%08x ", y.ReinterpretCast<uint32_t>().GetValue(i));
    for (int i = 0; i < 8; ++i) printf("%d ", int(s.GetValue(i)));
    printf("\\n");
}
"""


def test_a_vec_scope_div_mode_and_a_truncating_cast(pipev, tmp_path):
    """1 / x: 1, 2^-127 (a subnormal: flushed, 1/0 = inf), 2^127 (its reciprocal 2^-127 is
    subnormal: flushed to 0), -2, ±0, inf, 100000; then Cast to int16 with CTRL[59] = 1: the
    low 16 bits (100000 → -31072, 2^127 → 0; ±inf still the extremes)."""
    src = tmp_path / "k.cpp"
    src.write_text(VEC_SCOPE)
    proc = pipev("run", "--chip", "ascend950", "--kernel", "k", src, timeout=300)
    assert proc.returncode == 0, proc.stderr
    words = proc.stdout.split()
    assert words[:8] == ["3f800000", "7f800000", "00000000", "bf000000", "7f800000", "ff800000",
                         "00000000", "3727c5ac"]
    assert words[8:16] == ["1", "0", "0", "-2", "0", "0", "32767", "-31072"]  # 2^127: low bits 0
