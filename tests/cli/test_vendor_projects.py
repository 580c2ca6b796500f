"""#32: real AscendC projects run as they are. Each test runs pipev's own kernels, written in
the vendor samples' style (tests/data/ascendc/project, tests/data/ascendc/vendor), that fail
before #32 and pass after:

- class 1, project layouts: the vendor-layout project (main.cpp + add_custom.cpp with the
  `<<<>>>` wrapper + data_utils.h + CMakeLists.txt with cmake/*.cmake + gen_data/verify
  scripts) runs unchanged with `pipev run DIR`, `pipev run main.cpp add_custom.cpp` and with
  one file `#include`-ing the other, and its output is bit-exact; so does the newer samples'
  host that launches through ACLRT_LAUNCH_KERNEL and the generated aclrtlaunch_KERNEL.h;
- class 2, boilerplate: kernel types, global GetTPipePtr, AscendC::Std, KERNEL_LOG,
  ASCENDC_ASSERT, GetSystemCycle, block_idx/block_num, acl codes and device calls;
- class 3, the runtime's rules: all of UB, reads inside aclrtMalloc's slack (and an error past
  it), Compare into int8_t, a count-form Cast narrowing in place, an idle core's
  SetGlobalBuffer(past-the-end, 0), pipev's scratch reported at the call that needs it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "ascendc"
PROJECT = DATA / "project"
VENDOR = DATA / "vendor"


def _line(path: Path, text: str) -> int:
    return next(n for n, t in enumerate(path.read_text().splitlines(), 1) if text in t)


@pytest.fixture
def project(tmp_path):
    """The project copied to TMP_PATH with its inputs and golden output generated."""
    dst = tmp_path / "add"
    shutil.copytree(PROJECT, dst)
    subprocess.run([sys.executable, "scripts/gen_data.py"], cwd=dst, check=True)
    return dst


def _verified(project: Path) -> str:
    out = project / "output" / "output_z.bin"
    proc = subprocess.run([sys.executable, "scripts/verify_result.py", str(out),
                           "output/golden.bin"], cwd=project, capture_output=True, text=True)
    out.unlink()
    return proc.stdout


def test_the_vendor_layout_runs_as_a_directory_as_two_files_and_included(pipev, project):
    # the launch is in add_custom.cpp, which main.cpp's `extern` reaches: its summary names it
    # (the NPU branch: CMakeLists.txt's RUN_MODE is npu, so cmake/cpu_lib.cmake's
    # ASCENDC_CPU_DEBUG is not defined)
    launch = _line(PROJECT / "add_custom.cpp", "add_custom<<<")
    whole = pipev("run", ".", cwd=project)
    assert whole.returncode == 0, whole.stderr
    assert f"add_custom.cpp:{launch} add_custom<<<8>>> on ascend910b" in whole.stderr, whole.stderr
    assert _verified(project) == "test pass\n"
    cpu = pipev("run", ".", "-D", "RUN_MODE=cpu", cwd=project)  # the CPU twin's branch
    assert cpu.returncode == 0, cpu.stderr
    assert f"main.cpp:{_line(PROJECT / 'main.cpp', 'ICPU_RUN_KF')} add_custom<<<8>>> on " \
        in cpu.stderr, cpu.stderr
    assert _verified(project) == "test pass\n"
    two = pipev("run", "main.cpp", "add_custom.cpp", cwd=project)
    assert two.returncode == 0, two.stderr
    assert _verified(project) == "test pass\n"
    assert f"add_custom.cpp:{launch} add_custom<<<8>>> on " in two.stderr, two.stderr
    # the docs' older advice: one file #includes the other (the launch inside the include)
    (project / "all.cpp").write_text('#include "add_custom.cpp"\n#include "main.cpp"\n')
    included = pipev("run", "all.cpp", cwd=project)
    assert included.returncode == 0, included.stderr
    assert f"add_custom.cpp:{launch} add_custom<<<8>>> on " in included.stderr, included.stderr
    assert _verified(project) == "test pass\n"
    # the newer samples' host: ACLRT_LAUNCH_KERNEL and the generated aclrtlaunch_add_custom.h
    neo = pipev("run", "main_aclrtlaunch.cpp", "add_custom.cpp", cwd=project)
    assert neo.returncode == 0, neo.stderr
    at = _line(PROJECT / "main_aclrtlaunch.cpp", "ACLRT_LAUNCH_KERNEL(add_custom)")
    assert f"main_aclrtlaunch.cpp:{at} add_custom<<<8>>> on " in neo.stderr, neo.stderr
    assert _verified(project) == "test pass\n"


def test_a_second_source_before_dashes_is_a_unit_and_after_them_an_argument(pipev, project):
    """`pipev run main.cpp -- add_custom.cpp` passes the name to main (a link error: main
    alone has no add_custom_do), as before #32 every extra name was."""
    proc = pipev("run", "main.cpp", "--", "add_custom.cpp", cwd=project)
    assert proc.returncode == 1 and "add_custom_do" in proc.stderr, proc.stderr


@pytest.mark.parametrize(("lists", "message"), [
    (None, "no CMakeLists.txt in this directory"),
    ("add_executable(app ${CMAKE_SOURCE_DIR}/${case}.cpp)\n",
     "CMakeLists.txt:1: error: source ${CMAKE_SOURCE_DIR}/${case}.cpp names ${case}, which "
     "the CMake files do not set"),
    ("add_executable(a main.cpp)\nadd_executable(b main.cpp)\n",
     "error: several executables (a, b)"),
    ("add_executable(app main.cpp missing.cpp)\n",
     "CMakeLists.txt:1: error: source missing.cpp (missing.cpp) does not exist"),
    ("add_executable(app $<$<BOOL:1>:main.cpp>)\n", "a generator expression in a source list"),
])
def test_a_project_pipev_cannot_read_is_a_usage_error(cli, tmp_path, monkeypatch, lists,
                                                      message):
    (tmp_path / "main.cpp").write_text("int main() { return 0; }\n")
    if lists is not None:
        (tmp_path / "CMakeLists.txt").write_text(lists)
    monkeypatch.chdir(tmp_path)
    result = cli("run", ".")
    assert result.exit_code == 2, result.output
    assert message in result.output, result.output


def test_the_boilerplate_every_sample_has_compiles_and_works(pipev, tmp_path):
    src = VENDOR / "boilerplate.cpp"
    proc = pipev("run", src, "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    log = _line(src, "KERNEL_LOG(KERNEL_INFO")
    assert proc.stdout.splitlines() == [
        f"[INFO] {src}:{log} block 0 of 2: the clock moved",
        f"[INFO] {src}:{log} block 1 of 2: the clock moved",
        "devices 1, device 0, 0 wrong"]
    cube = pipev("run", src, "-D", "KERNEL_TYPE=KERNEL_TYPE_AIC_ONLY", "--quiet", cwd=tmp_path)
    assert cube.returncode == 1
    assert f"{src}:{_line(src, 'KERNEL_TASK_TYPE_DEFAULT')}:5: error: kernel type " \
        "KERNEL_TYPE starts cube (AIC) cores, which pipev does not model" in cube.stderr, \
        cube.stderr


def test_the_runtime_rules_real_kernels_rely_on(pipev, tmp_path):
    src = VENDOR / "runtime_rules.cpp"
    proc = pipev("run", src, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "0 wrong\n"  # compare bits and the in-place cast, bit-exact
    assert " warning: " not in proc.stderr, proc.stderr
    past = pipev("run", src, "-D", "EXTRA=8", "--quiet", cwd=tmp_path)
    assert past.returncode == 1
    assert f"{src}:{_line(src, 'PADDED + EXTRA')}:9: error: copy_gm_to_ub src touches byte " \
        "0x1fe0 outside GM tensor gm_x (8160 bytes)" in past.stderr, past.stderr
    scratch = pipev("run", src, "-D", "SCALAR_SELECT", "--quiet", cwd=tmp_path)
    assert scratch.returncode == 1
    assert f"{src}:{_line(src, 'Select(yLocal')}:9: error: this call keeps temporaries in " \
        "pipev's scratch area at UB 0x2e000..0x2e020, which overlaps 'que2_0' (UB " \
        "0x20000..0x30000, declared at" in scratch.stderr, scratch.stderr


def test_an_included_kernel_file_finds_the_header_beside_it(pipev, tmp_path):
    """main.cpp includes op/kern.cpp, which holds a launch (so pipev compiles a rewritten copy
    of it from its cache) and includes op/kern_tiling.h beside it by its bare name: the copy
    finds the header beside its original (-iquote of that folder)."""
    op = tmp_path / "op"
    op.mkdir()
    (op / "kern_tiling.h").write_text("constexpr uint32_t N = 64;\n")
    (op / "kern.cpp").write_text(
        '#include "kernel_operator.h"\n'
        '#include "kern_tiling.h"\n'
        'extern "C" __global__ __aicore__ void kern(GM_ADDR x) {\n'
        '    AscendC::TPipe pipe;\n'
        '    AscendC::TBuf<AscendC::TPosition::VECCALC> b;\n'
        '    pipe.InitBuffer(b, N * sizeof(float));\n'
        '    AscendC::Duplicate(b.Get<float>(), 1.0f, N);\n'
        '}\n'
        'void kern_do(uint8_t* x) { kern<<<1, nullptr, nullptr>>>(x); }\n')
    (tmp_path / "main.cpp").write_text(
        '#include "tikicpulib.h"\n'
        '#include "op/kern.cpp"\n'
        'int main() {\n'
        '    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));\n'
        '    kern_do(x);\n'
        '    AscendC::GmFree(x);\n'
        '    return 0;\n'
        '}\n')
    proc = pipev("run", "main.cpp", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "op/kern.cpp:9 kern on ascend910b" in proc.stderr, proc.stderr


def test_scalar_helpers_kernels_call(pipev, tmp_path):
    """Unqualified integer `min` / `max` on every chip (A2 kernels call them on uint32_t, and
    the vendor's toolchain builds them), `AscendC::DivCeil` and `AscendC::AlignUp`."""
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR out) {\n'
                   '    AscendC::GlobalTensor<uint32_t> g;\n'
                   '    g.SetGlobalBuffer((__gm__ uint32_t*)out, 8);\n'
                   '    uint32_t a = 70, b = 64;\n'
                   '    int64_t c = -3, d = 5;\n'
                   '    g.SetValue(0, min(a, b));\n'
                   '    g.SetValue(1, max(a, b));\n'
                   '    g.SetValue(2, uint32_t(min(c, d) + 10));\n'
                   '    g.SetValue(3, AscendC::DivCeil(a, b));\n'
                   '    g.SetValue(4, AscendC::AlignUp(a, 32u));\n'
                   '    g.SetValue(5, AscendC::DivCeil(a, 0u));\n'
                   '    g.SetValue(6, AscendC::DivCeil(128u, b));\n'
                   '    g.SetValue(7, AscendC::AlignUp(64u, b));\n'
                   '}\n')
    proc = pipev("run", src, "--kernel", "k", "--arg", "out=out:u32[8]", "--output-dir",
                 tmp_path / "o", "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert np.load(tmp_path / "o" / "out.npy").tolist() == [64, 70, 7, 2, 96, 0, 2, 64]


def test_a_tbuf_takes_the_queues_three_argument_init_buffer(pipev, tmp_path):
    """pipe.InitBuffer(tbuf, 1, len) is the TBuf's one buffer (third-party kernels call the
    queues' form so; the vendor's InitBuffer is a template); another count is an error."""
    src = tmp_path / "k.cpp"
    body = ('#include "kernel_operator.h"\n'
            'extern "C" __global__ __aicore__ void k(GM_ADDR out) {\n'
            '    AscendC::TPipe pipe;\n'
            '    AscendC::TBuf<AscendC::TPosition::VECCALC> b;\n'
            '    pipe.InitBuffer(b, NUM, 64 * sizeof(float));\n'
            '    AscendC::GlobalTensor<float> g;\n'
            '    g.SetGlobalBuffer((__gm__ float*)out, 64);\n'
            '    AscendC::Duplicate(b.Get<float>(), 2.5f, 64);\n'
            '    AscendC::PipeBarrier<PIPE_ALL>();\n'
            '    AscendC::DataCopy(g, b.Get<float>(), 64);\n'
            '}\n')
    src.write_text(body.replace("NUM", "1"))
    proc = pipev("run", src, "--kernel", "k", "--arg", "out=out:f32[64]", "--output-dir",
                 tmp_path / "o", "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (np.load(tmp_path / "o" / "out.npy") == np.float32(2.5)).all()
    src.write_text(body.replace("NUM", "2"))
    proc = pipev("run", src, "--kernel", "k", "--arg", "out=out:f32[64]", "--quiet",
                 cwd=tmp_path)
    assert proc.returncode == 1
    assert "k.cpp:5:5: error: InitBuffer of a TBuf with 2 buffers: a TBuf holds one" \
        in proc.stderr, proc.stderr
