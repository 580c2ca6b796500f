"""Issue 34: the reg-based Cast of ascend950's 8-bit floats and fp4 pairs from C++ — our own
vendor-style kernel (tests/data/ascendc/reg/reg_cast_950.asc: fp8 / hifloat8 / fp4 casts with
packed and whole-register stores, hifloat8_t data through GlobalTensor / LocalTensor / DataCopy)
bit-exact against tests/reference, and the pairs and layouts the Cast page does not list as
errors at the kernel's line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reference import regvec_convert as ref

DATA = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "reg"
ALL32 = bytes([0x11]) * 32  # CreateMask<float>(ALL): bit 4k for element k
ALL16 = bytes([0x55]) * 32
ALL8 = bytes([0xFF]) * 32


def test_the_950_cast_kernel_is_bit_exact(pipev, tmp_path):
    proc = pipev("run", "--chip", "ascend950", str(DATA / "reg_cast_950.asc"), timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = {k: (tmp_path / f"reg_cast_950_{k}.bin").read_bytes() for k in "xcefmybh"}
    want = {k: b"" for k in "efmyb"}
    for i in range(2):
        x = out["x"][256 * i:256 * (i + 1)]
        e = ref.cast_register(x, ALL32, "f8e4m3", "f32", "rint", True, 0)
        want["e"] += e[0::4]  # DIST_PACK4_B32: byte 0 of each 32-bit element
        want["f"] += ref.cast_register(e, ALL8, "f32", "f8e4m3", "none", True, 0)
        want["m"] += ref.cast_register(x, ALL32, "f8e5m2", "f32", "rint", False, 3)
        want["y"] += ref.cast_register(x, ALL32, "hif8", "f32", "hybrid", False, 2)
        bf = ref.cast_register(x, ALL32, "bf16", "f32", "rint", True, 0)
        want["b"] += ref.cast_register(bf, ALL16, "f4e2m1", "bf16", "round", True, 1)
    for k, v in want.items():
        assert out[k] == v, k
    assert out["c"] == bytes(range(256))
    assert out["h"] == ref.cast_register(out["c"], ALL8, "f16", "hif8", "none", True, 1)


KERNEL = """#include "kernel_operator.h"
__simd_vf__ inline void VF(__ubuf__ float* dst, __ubuf__ float* src)
{
    static constexpr AscendC::Reg::CastTrait trait = {AscendC::Reg::RegLayout::LAYOUT,
        AscendC::Reg::SatMode::UNKNOWN, AscendC::Reg::MaskMergeMode::ZEROING,
        AscendC::RoundMode::ROUND};
    AscendC::Reg::RegTensor<float> x;
    AscendC::Reg::RegTensor<SRC> h;
    AscendC::Reg::RegTensor<DST> y;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::MaskReg narrow = AscendC::Reg::CreateMask<SRC>();
    AscendC::Reg::LoadAlign(x, src);
    AscendC::Reg::Cast<SRC, float, AscendC::Reg::defaultCastTrait>(h, x, all);
    AscendC::Reg::Cast<DST, SRC, trait>(y, h, narrow);
}
__global__ __vector__ void k()
{
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> a = ub.Alloc<float, 64>();
    AscendC::LocalTensor<float> b = ub.Alloc<float, 64>();
    AscendC::Duplicate(a, 1.0f, 64);
    AscendC::PipeBarrier<PIPE_V>();
    asc_vf_call<VF>((__ubuf__ float*)b.GetPhyAddr(), (__ubuf__ float*)a.GetPhyAddr());
}
int main() { k<<<1, nullptr, nullptr>>>(); return 0; }
"""


@pytest.mark.parametrize("src,dst,layout,rnd,message", [
    ("half", "fp8_e4m3fn_t", "ZERO", "CAST_RINT", "Cast f16 -> f8e4m3 is not a conversion"),
    ("half", "hifloat8_t", "TWO", "CAST_ROUND", "a 2:1 conversion has RegLayout parts zero, one"),
    ("half", "hifloat8_t", "ZERO", "CAST_RINT", "takes round modes round, hybrid, not rint"),
    ("bfloat16_t", "fp4x2_e2m1_t", "ZERO", "CAST_HYBRID", "not hybrid"),
    ("half", "hifloat8_t", "ONE", "CAST_HYBRID", None),
    ("bfloat16_t", "fp4x2_e1m2_t", "THREE", "CAST_FLOOR", None),
])
def test_pairs_layouts_and_modes_the_cast_page_does_not_list_are_errors_at_the_line(
        pipev, tmp_path, src, dst, layout, rnd, message):
    path = tmp_path / "k.cpp"
    path.write_text(KERNEL.replace("SRC", src).replace("DST", dst).replace("LAYOUT", layout)
                    .replace("ROUND", rnd))
    proc = pipev("run", "--chip", "ascend950", str(path), timeout=300)
    if message is None:
        assert proc.returncode == 0, proc.stderr
        return
    assert proc.returncode == 1
    assert "k.cpp:14:" in proc.stderr and message in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
