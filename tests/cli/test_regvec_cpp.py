"""Issue 34: a reg-based AscendC kernel in the debugger, stepping through its VF by C++ line and
printing its registers, and its checks at the C++ line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

PROGRAM = Path(__file__).resolve().parents[2] / "programs" / "ascendc" / "reg_select.asc"


def test_the_debugger_prints_a_vf_s_registers_at_its_cpp_line(pipev, tmp_path):
    cmds = tmp_path / "c.txt"
    cmds.write_text("break 27\nrun\nprint $v2_f32[0:3]\nquit\n")
    proc = pipev("debug", "--chip", "ascend950", str(PROGRAM), "--commands", str(cmds),
                 timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "reg_select.asc:27: AscendC::Reg::StoreAlign" in proc.stdout
    shown = next(ln for ln in proc.stdout.splitlines() if ln.startswith("$v2_f32[0:3] = "))
    run = pipev("run", "--chip", "ascend950", str(PROGRAM), timeout=300)
    assert run.returncode == 0, run.stderr
    x = np.fromfile(tmp_path / "reg_select_in_x.bin", np.float32)[:3]
    y = np.fromfile(tmp_path / "reg_select_in_y.bin", np.float32)[:3]
    want = np.where(x > y, x, y)
    got = np.array(shown.split("= [")[1].rstrip("]").split(), np.float32)
    assert got.tobytes() == want.tobytes()


def test_a_store_outside_its_buffer_is_an_error_at_the_cpp_line(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text("""#include "kernel_operator.h"
__simd_vf__ inline void StoreVF(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> r;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadAlign(r, src);
    AscendC::Reg::StoreAlign(dst, r, all);
}
__global__ __vector__ void k()
{
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> a = ub.Alloc<float, 64>();
    AscendC::LocalTensor<float> b = ub.Alloc<float, 32>();
    AscendC::Duplicate(a, 1.0f, 64);
    AscendC::PipeBarrier<PIPE_V>();
    asc_vf_call<StoreVF>((__ubuf__ float*)b.GetPhyAddr(), (__ubuf__ float*)a.GetPhyAddr());
}
int main() { k<<<1, nullptr, nullptr>>>(); return 0; }
""")
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 1
    assert "k.cpp:7:" in proc.stderr and "outside tensor" in proc.stderr, proc.stderr


def test_the_debugger_prints_a_register_by_its_cpp_name(pipev, tmp_path):
    """`print zReg` / `print bigger` / `print mask`: the RegTensor and MaskReg variables by
    their names (the call's arguments in operand order; `mask = UpdateMask(...)`'s variable)."""
    cmds = tmp_path / "c.txt"
    cmds.write_text("break 27\nrun\nprint zReg[0:3]\nprint $v2_f32[0:3]\nprint bigger\n"
                    "print mask\nprint nothing\nquit\n")
    proc = pipev("debug", "--chip", "ascend950", str(PROGRAM), "--commands", str(cmds),
                 timeout=300)
    assert proc.returncode == 0, proc.stderr
    shown = {ln.split(" = ")[0]: ln.split(" = ")[1] for ln in proc.stdout.splitlines()
             if " = " in ln}
    assert shown["zReg[0:3]"] == shown["$v2_f32[0:3]"]
    run = pipev("run", "--chip", "ascend950", str(PROGRAM), timeout=300)
    assert run.returncode == 0, run.stderr
    x = np.fromfile(tmp_path / "reg_select_in_x.bin", np.float32)[:64]
    y = np.fromfile(tmp_path / "reg_select_in_y.bin", np.float32)[:64]
    # the first iteration: all 64 floats active, bit 4k for element k
    assert int(shown["mask"]) == sum(1 << (4 * k) for k in range(64))
    assert int(shown["bigger"]) == sum(int(x[k] > y[k]) << (4 * k) for k in range(64))
    assert "no tensor 'nothing'" in proc.stdout + proc.stderr


MERGED = """#include "kernel_operator.h"
__simd_vf__ inline void TailVF(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> x, r;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    uint32_t n = 40;
    AscendC::Reg::MaskReg tail = AscendC::Reg::UpdateMask<float>(n);
    AscendC::Reg::LoadAlign(x, src);
    AscendC::Reg::Add<float, AscendC::Reg::MaskMergeMode::MERGING>(r, x, x, tail);
    AscendC::Reg::StoreAlign(dst, r, STORE_MASK);
}
__global__ __vector__ void k()
{
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> a = ub.Alloc<float, 64>();
    AscendC::LocalTensor<float> b = ub.Alloc<float, 64>();
    AscendC::Duplicate(a, 1.0f, 64);
    AscendC::PipeBarrier<PIPE_V>();
    asc_vf_call<TailVF>((__ubuf__ float*)b.GetPhyAddr(), (__ubuf__ float*)a.GetPhyAddr());
}
int main() { k<<<1, nullptr, nullptr>>>(); return 0; }
"""


def test_a_merged_register_s_unwritten_elements_are_an_error_at_the_cpp_line(pipev, tmp_path):
    """Per lane (#34): a MERGING Add into a RegTensor nothing wrote defines the 40 elements
    its mask enables; storing those is fine, storing all 64 reads 24 never written."""
    src = tmp_path / "k.cpp"
    src.write_text(MERGED.replace("STORE_MASK", "tail"))
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    src.write_text(MERGED.replace("STORE_MASK", "all"))
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 1
    assert "k.cpp:10:" in proc.stderr and "reads element 40 of" in proc.stderr, proc.stderr


MASKS = """#include "kernel_operator.h"
__simd_vf__ inline void MaxVF(__ubuf__ float* dst, __ubuf__ float* x, __ubuf__ float* y)
{
    AscendC::Reg::RegTensor<float> a, b, c;
    SPARE
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::MaskReg gt;
    AscendC::Reg::LoadAlign(a, x);
    AscendC::Reg::LoadAlign(b, y);
    AscendC::Reg::Compare<float, AscendC::CMPMODE::GT>(gt, a, b, all);
    AscendC::Reg::Select(c, a, b, gt);
    AscendC::Reg::StoreAlign(dst, c, all);
}
__global__ __vector__ void k()
{
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> x = ub.Alloc<float, 64>();
    AscendC::LocalTensor<float> y = ub.Alloc<float, 64>();
    AscendC::LocalTensor<float> z = ub.Alloc<float, 64>();
    AscendC::Duplicate(x, 1.0f, 32);
    AscendC::Duplicate(x[32], 4.0f, 32);
    AscendC::Duplicate(y, 2.0f, 64);
    AscendC::PipeBarrier<PIPE_V>();
    asc_vf_call<MaxVF>((__ubuf__ float*)z.GetPhyAddr(), (__ubuf__ float*)x.GetPhyAddr(),
                       (__ubuf__ float*)y.GetPhyAddr());
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    for (int i = 0; i < 64; ++i) printf("%g ", z.GetValue(i));
}
int main() { k<<<1, nullptr, nullptr>>>(); return 0; }
"""


def test_a_ninth_mask_reg_spills_with_a_warning_and_the_same_results(pipev, tmp_path):
    """The MaskReg pages: past 8 MaskRegs the compiler spills to the UB reserve too. With seven
    spare MaskRegs declared first, `gt` is the ninth: a warning at its line, the same maxima,
    V busy 2 cycles more (Compare spills it, Select reloads it)."""
    src = tmp_path / "k.cpp"
    src.write_text(MASKS.replace("SPARE", ""))
    plain = pipev("run", "--chip", "ascend950", str(src), "--json", timeout=300)
    assert plain.returncode == 0, plain.stderr
    src.write_text(MASKS.replace("SPARE", "AscendC::Reg::MaskReg spare[7];"))
    proc = pipev("run", "--chip", "ascend950", str(src), "--json", timeout=300)
    assert proc.returncode == 0, proc.stderr
    summary = [json.loads(p.stdout[p.stdout.index("{"):]) for p in (plain, proc)]
    assert summary[1]["pipes"]["V"]["busy"] - summary[0]["pipes"]["V"]["busy"] == 2
    assert len(summary[0]["warnings"]) == 0, summary[0]["warnings"]
    warned = summary[1]["warnings"]
    assert len(warned) == 1 and f"{src}:7:5: warning: more than 8 MaskRegs live at once" in \
        warned[0], warned
    printed = "2 " * 32 + "4 " * 32
    for spare in ("", "AscendC::Reg::MaskReg spare[7];"):
        src.write_text(MASKS.replace("SPARE", spare))
        out = pipev("run", "--chip", "ascend950", str(src), timeout=300)
        assert out.returncode == 0 and printed in out.stdout, out.stdout


def test_scalar_ops_take_the_pages_template_order(pipev, tmp_path):
    """Muls/Adds/Maxs/Mins/LeakyRelu pages: <T, scalar type, MaskMergeMode, RegTensor type>, as
    the operator library's arch35 kernels write them (Muls<float, float, ZEROING>(...))."""
    src = tmp_path / "k.cpp"
    src.write_text(MASKS.replace("SPARE", "").replace(
        "    AscendC::Reg::StoreAlign(dst, c, all);",
        "    AscendC::Reg::Muls<float, float, AscendC::Reg::MaskMergeMode::ZEROING>(c, c, 2.0f, "
        "all);\n    AscendC::Reg::Adds<float>(c, c, 1.0f, all);\n"
        "    AscendC::Reg::LeakyRelu<float, float>(c, c, 0.5f, all);\n"
        "    AscendC::Reg::Maxs<float, float, AscendC::Reg::MaskMergeMode::ZEROING>(c, c, 6.0f, "
        "all);\n    AscendC::Reg::StoreAlign(dst, c, all);"))
    proc = pipev("run", "--chip", "ascend950", str(src), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "6 " * 32 + "9 " * 32 in proc.stdout, proc.stdout  # max(2·2+1, 6), max(2·4+1, 6)
