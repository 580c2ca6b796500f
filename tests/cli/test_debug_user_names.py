"""The debugger speaks the kernel's language (#30 item 3): `$block_idx`/`$block_num` of the core
inspected in every language, `core K` in a C++ launch's session (each core its own recording)
and in TIK's, the kernel's own LocalTensor names and GM in its GlobalTensor's type, `list A,B`,
`next`/`reverse-next` by source line, and expressions in `x/` and indexes."""

from __future__ import annotations

import numpy as np
import pytest

# four cores, each adding its quarter of x and y; BLOCK elements a core, two tiles of TILE
KERNEL = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
constexpr uint32_t BLOCK = 256, TILE = 128;
extern "C" __global__ __aicore__ void add4(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, bz;
    AscendC::GlobalTensor<half> xGm, yGm, zGm;
    uint32_t off = BLOCK * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ half*)x + off, BLOCK);
    yGm.SetGlobalBuffer((__gm__ half*)y + off, BLOCK);
    zGm.SetGlobalBuffer((__gm__ half*)z + off, BLOCK);
    pipe.InitBuffer(bx, TILE * sizeof(half));
    pipe.InitBuffer(by, TILE * sizeof(half));
    pipe.InitBuffer(bz, TILE * sizeof(half));
    auto xLocal = bx.Get<half>();
    auto yLocal = by.Get<half>();
    auto zLocal = bz.Get<half>();
    for (uint32_t t = 0; t < BLOCK / TILE; ++t) {
        AscendC::DataCopy(xLocal, xGm[t * TILE], TILE);
        AscendC::DataCopy(yLocal,
                          yGm[t * TILE], TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Add(zLocal, xLocal, yLocal, TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(zGm[t * TILE], zLocal, TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
int main() {
    constexpr uint32_t n = 4 * BLOCK;
    half* x = (half*)AscendC::GmAlloc(n * sizeof(half));
    half* y = (half*)AscendC::GmAlloc(n * sizeof(half));
    half* z = (half*)AscendC::GmAlloc(n * sizeof(half));
    for (uint32_t i = 0; i < n; ++i) { x[i] = half(float(i % 512)); y[i] = half(1.0f); }
    ICPU_RUN_KF(add4, 4, (uint8_t*)x, (uint8_t*)y, (uint8_t*)z);
    return 0;
}
"""

ADD_LINE = 23  # AscendC::Add(zLocal, xLocal, yLocal, TILE);


@pytest.fixture
def debug(pipev, tmp_path):
    """`pipev debug add4.cpp --batch --ex CMD...`: its standard output."""
    (tmp_path / "add4.cpp").write_text(KERNEL)

    def run(*commands: str, core: int | None = None, failing: bool = False) -> str:
        args = ["debug", "add4.cpp", "--batch", "--no-source"]
        args += ["--core", str(core)] if core is not None else []
        for c in commands:
            args += ["--ex", c]
        proc = pipev(*args)
        assert proc.returncode == int(failing), proc.stdout + proc.stderr  # --batch: 1 if one did
        return proc.stdout
    return run


def test_block_idx_is_the_inspected_cores_in_cpp(debug):
    out = debug("print $block_idx", "print $block_num", core=3)
    assert "$block_idx = 3" in out and "$block_num = 4" in out


def test_core_k_switches_to_core_ks_recording_keeping_breakpoints(debug):
    out = debug(f"break {ADD_LINE} if $block_idx == 2", "break 25 core 2", "core 2",
                "info cores", "continue",
                "print $block_idx", "print xLocal[0:4]", "print xGm[0:2]", "core 7",
                "continue", failing=True)
    assert "core 2 of 4" in out
    assert "* core 2 (of 4): at line 19" in out
    assert "  core 0: recorded (`core 0` inspects its recording)" in out
    assert f"breakpoint 1, line {ADD_LINE}" in out
    assert "breakpoint 2 on core 2 at line 25" in out
    after = out.split("(pipev) core 7")[1]
    assert "breakpoint 2, line 25 on core 2\nadd4.cpp:25: AscendC::DataCopy(zGm" in after
    assert "$block_idx = 2" in out
    # core 2's first tile: x[512:516] = 0, 1, 2, 3 (i % 512)
    assert "xLocal[0:4] = [0. 1. 2. 3.]" in out
    # GM answers to its GlobalTensor's name too: core 2's view starts at x[512] (= 0, 1, ...)
    assert "xGm[0:2] = [0. 1.]" in out
    assert "error: core 7 does not exist (the launch runs cores 0..3)" in out


def test_the_kernels_local_tensor_names_follow_its_calls(debug):
    out = debug(f"break {ADD_LINE}", "continue", "continue", "print zLocal[0:2]",
                "print xLocal[0:4] + yLocal[0:4]", "next", "print zLocal[0:4]",
                "x/2 f16 gm_x[64 * 2]", "print gm_x[128]",
                "print gm_y[1 + 1]", core=1)
    # core 1, second tile: x = 384.. (256 + 128), y = 1; z still holds the first tile's sum
    assert "zLocal[0:2] = [257. 258.]" in out
    assert "xLocal[0:4] + yLocal[0:4] = [385. 386. 387. 388.]" in out
    assert "zLocal[0:4] = [385. 386. 387. 388.]" in out
    # GM in its GlobalTensor's type (half), indexes in elements, expressions in x/
    assert "gm_x+256 gm_x[128]: 128.0  129.0" in out
    assert "gm_x[128] = 128.0" in out
    assert "gm_y[1+1] = 1.0" in out


def test_list_a_b_and_reverse_motion_by_cpp_line(debug):
    out = debug("list 19,21", f"break {ADD_LINE}", "continue", "reverse-next", "rn",
                "reverse-step", "next", "next")
    listing = out.split("(pipev) list 19,21\n")[1].split("(pipev)")[0].splitlines()
    assert [line[3:8].strip() for line in listing] == ["19", "20", "21"]
    assert listing[0].startswith(" =>")  # the current line, marked
    stops = [line.split(":")[1] for line in out.splitlines() if line.startswith("add4.cpp:")]
    # start, the breakpoint, back: 22 (barrier), 20 (DataCopy over two lines), 19, then forward
    assert stops == ["19", str(ADD_LINE), "22", "20", "19", "20", "22"], out


def test_block_idx_and_core_k_in_a_tik_launch(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mc.py").write_text(TIK)
    np.save(tmp_path / "x.npy", np.arange(1024, dtype=np.float16))
    r = cli("debug", "mc.py", "--input", "x_gm=x.npy", "--batch", "--ex", "core 2",
            "--ex", "print $block_idx", "--ex", "print $block_num", "--ex", "next",
            "--ex", "next", "--ex", "print x_ub[0:2]", "--ex", "rn")
    assert r.exit_code == 0, r.output
    assert "$block_idx = 2" in r.output and "$block_num = 4" in r.output
    assert "x_ub[0:2] = [512. 513.]" in r.output
    stops = [line.split(":")[1] for line in r.output.splitlines() if line.startswith("mc.py:")]
    assert stops == ["12", "12", "14", "15", "14"], r.output


TIK = """from tbe import tik

N = 1024
CORES = 4
PER = N // CORES


def kernel():
    tik_instance = tik.Tik()
    x_gm = tik_instance.Tensor("float16", (N,), name="x_gm", scope=tik.scope_gm)
    z_gm = tik_instance.Tensor("float16", (N,), name="z_gm", scope=tik.scope_gm)
    with tik_instance.for_range(0, CORES, block_num=CORES) as b:
        x_ub = tik_instance.Tensor("float16", (PER,), name="x_ub", scope=tik.scope_ubuf)
        tik_instance.data_move(x_ub, x_gm[b * PER], 0, 1, PER * 2 // 32, 0, 0)
        tik_instance.vec_adds(128, x_ub, x_ub, 1.0, PER // 128, 8, 8)
        tik_instance.data_move(z_gm[b * PER], x_ub, 0, 1, PER * 2 // 32, 0, 0)
    tik_instance.BuildCCE(kernel_name="mc", inputs=[x_gm], outputs=[z_gm])
    return tik_instance


if __name__ == "__main__":
    kernel()
"""


def test_block_idx_is_the_inspected_cores_in_vasm():
    import pipev

    d = pipev.debug("programs/kernels/multicore_relu.vasm")
    assert d.evaluate("$block_idx") == 0 and d.evaluate("$block_num") == d.session.n > 2
    d.execute("core 2")
    assert d.evaluate("$block_idx") == 2
    assert any("core 2 of" in line for line in d.execute("next"))


def test_the_kernels_names_are_completed_and_gm_typed(tmp_path, monkeypatch):
    from isa.assembler import assemble
    from isa.program import at_loc_lines
    from simulator.debugger import Commands, Session
    from simulator.debugger.complete import candidates

    monkeypatch.chdir(tmp_path)
    np.save(tmp_path / "x.npy", np.arange(256, dtype=np.float32).view(np.uint8))
    (tmp_path / "k.cpp").write_text("    AscendC::DataCopy(xLocal,\n"
                                    "                      xGm[8], 64);\n")
    program = at_loc_lines(assemble(RECORDING, str(tmp_path / "rec.vasm")))
    cmds = Commands(Session(program))
    assert candidates(cmds, "print xL") == ["xLocal"]
    assert cmds.execute("print xLocal[1:3]") == ["xLocal[1:3] = [0. 0.]"]
    assert cmds.execute("x/2 f32 gm_x[2*4]") == ["gm_x+32 gm_x[8]:   8.0  9.0"]
    assert cmds.execute("print gm_x[8:10]") == ["gm_x[8:10] = [8. 9.]"]  # f32, not bytes


# a recording's shape (.loc naming the C++ line) of one DataCopy of 64 floats from gm_x[8]
RECORDING = """.chip ascend910b
.gm gm_x u8[1024] inout = file("x.npy")
.ub tbuf0 f32[64] @0x0
.loc "k.cpp" 1 5
    copy_gm_to_ub tbuf0[(0)], gm_x[(32)], nburst=1, burst=(8)
"""


def test_global_tensor_names_are_the_views_the_kernel_set(debug):
    out = debug("print xGm[0:2]", "print gm_x[0:2]", "x/2 xGm[64 * 2]", "print xGm[255]",
                "print xGm[256]", "print zGm[0]", core=1, failing=True)
    # core 1's xGm is x[256:512] (x[i] = i % 512), 256 halves: the view, not the buffer
    assert "xGm[0:2] = [256. 257.]" in out and "gm_x[0:2] = [0. 1.]" in out
    assert "gm_x+768 xGm[128]:  384.0  385.0" in out  # 256 halves + 128 in: byte 768
    assert "xGm[255] = 511.0" in out
    assert "error: index 256 is outside the tensor (0..255)" in out
    assert "zGm[0] = 0.0" in out


# each core adds 1 to the same floats, one core after another (core K finds K there); the
# count comes from a GM word the kernel reads with GetValue (no DMA types that buffer)
SHARED = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void inc(GM_ADDR y, GM_ADDR n) {
    AscendC::GlobalTensor<uint32_t> nGm;
    nGm.SetGlobalBuffer((__gm__ uint32_t*)n, 8);
    uint32_t count = nGm.GetValue(0);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> yGm; AscendC::GlobalTensor<float> alsoY;
    yGm.SetGlobalBuffer((__gm__ float*)y, count); alsoY.SetGlobalBuffer((__gm__ float*)y + 8);
    AscendC::DataCopy(t, yGm, count);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Adds(t, t, 1.0f, count);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, t, count);
}
int main() {
    float* y = (float*)AscendC::GmAlloc(64 * sizeof(float));
    uint32_t* n = (uint32_t*)AscendC::GmAlloc(8 * sizeof(uint32_t));
    n[0] = 64;
    n[1] = 5;
    ICPU_RUN_KF(inc, 4, (uint8_t*)y, (uint8_t*)n);
    return 0;
}
"""


def test_each_core_is_debugged_with_gm_as_it_found_it(pipev, tmp_path):
    (tmp_path / "inc.cpp").write_text(SHARED)
    out = pipev("debug", "inc.cpp", "--core", "2", "--batch", "--no-source",
                "--ex", "print yGm[0:2]", "--ex", "core 3", "--ex", "print yGm[0:2]",
                "--ex", "core 0", "--ex", "print yGm[0:2]", "--ex", "core 1",
                "--ex", "continue", "--ex", "print gm_y[0:2]")
    assert out.returncode == 0, out.stdout + out.stderr
    prints = [line for line in out.stdout.splitlines() if line.startswith(("yGm", "gm_y"))]
    # core 2 starts on what cores 0 and 1 left; core 1 ends leaving 2
    assert prints == ["yGm[0:2] = [2. 2.]", "yGm[0:2] = [3. 3.]", "yGm[0:2] = [0. 0.]",
                      "gm_y[0:2] = [2. 2.]"], out.stdout


def test_gm_is_typed_by_the_kernels_global_tensor(pipev, tmp_path):
    (tmp_path / "inc.cpp").write_text(SHARED)
    out = pipev("debug", "inc.cpp", "--batch", "--no-source", "--ex", "print gm_n[0:2]",
                "--ex", "print nGm[0]", "--ex", "print alsoY[0:2]", "--ex", "set var yGm[8] = 4",
                "--ex", "print alsoY[0]")
    assert out.returncode == 0, out.stdout + out.stderr
    # a buffer only GetValue reads: u32 by its GlobalTensor<uint32_t>, not bytes
    assert "gm_n[0:2] = [64  5]" in out.stdout
    assert "nGm[0] = 64" in out.stdout
    # two SetGlobalBuffer calls on one line name their own variables; no size: to the end
    assert "alsoY[0:2] = [0. 0.]" in out.stdout and "alsoY[0] = 4.0" in out.stdout
