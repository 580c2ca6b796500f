"""`--save-vasm` recordings of C++ programs are what ran (#31): a replay has the run's
instructions, cycles and bytes — also for statements whose API expansion differs between a
register and a constant, mask words with bit 63 set and empty GM buffers — and ends with the
run's error when the run failed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

HEAD = '#include "kernel_operator.h"\n#include "tikicpulib.h"\n'


def record(pipev, tmp_path: Path, source: str) -> tuple[subprocess.CompletedProcess,
                                                        subprocess.CompletedProcess]:
    """Run SOURCE with --save-vasm, then replay the recording; both --json."""
    (tmp_path / "k.cpp").write_text(HEAD + source)
    (tmp_path / "r").mkdir()
    run = pipev("run", "k.cpp", "--save-vasm", "r/r.vasm", "--json")
    replay = pipev("run", "r/r.vasm", "--json", "--output-dir", "out")
    return run, replay


def same_run(run, replay) -> None:
    assert run.returncode == 0, run.stderr
    assert replay.returncode == 0, replay.stderr
    live, again = json.loads(run.stdout), json.loads(replay.stdout)
    for key in ("cycles", "instructions", "uops"):
        assert again[key] == live[key], (key, again[key], live[key])


MAIN = """
int main() {
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(64);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(64);
    ICPU_RUN_KF(k, 1, x, y);
    return 0;
}
"""

COMPARE_COUNT = """
constexpr uint32_t N = 256;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ta, tb;
    pipe.InitBuffer(ta, N * sizeof(half));
    pipe.InitBuffer(tb, N);
    AscendC::LocalTensor<half> a = ta.Get<half>();
    AscendC::LocalTensor<uint8_t> b = tb.Get<uint8_t>();
    AscendC::Duplicate(a, half(1.0f), N);
    for (int i = 0; i < 3; ++i) {
        AscendC::CompareScalar(b, a, half(0.5f), AscendC::CMPMODE::GE, N);
        AscendC::Compare(b, a, a, AscendC::CMPMODE::EQ, N);
    }
}
""" + MAIN


def test_compare_count_forms_replay_as_they_ran(pipev, tmp_path):
    # the count forms run in counter mode (a register count); the recording's constant count
    # would expand to whole repeats: it writes the instructions that ran instead
    same_run(*record(pipev, tmp_path, COMPARE_COUNT))
    assert "set_mask_count" in (tmp_path / "r" / "r.vasm").read_text()


SELECT_MASK63 = """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ta, tb, tm;
    pipe.InitBuffer(ta, 1024);
    pipe.InitBuffer(tb, 1024);
    pipe.InitBuffer(tm, 64);
    AscendC::LocalTensor<float> a = ta.Get<float>();
    AscendC::LocalTensor<float> d = tb.Get<float>();
    AscendC::LocalTensor<uint8_t> m = tm.Get<uint8_t>();
    AscendC::Duplicate(a, 1.0f, 256);
    AscendC::Duplicate(m.ReinterpretCast<uint16_t>(), (uint16_t)0x5555, 32);
    uint64_t mask[2] = {0xffff0000ffff0000ull, 0};
    AscendC::BinaryRepeatParams p = {1, 1, 1, 8, 8, 8};
    AscendC::Select(d, m, a, a, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, mask, 4, p);
}
""" + MAIN


def test_a_mask_word_with_bit_63_replays(pipev, tmp_path):
    same_run(*record(pipev, tmp_path, SELECT_MASK63))
    assert "mask_lo=(0xffff0000ffff0000)" in (tmp_path / "r" / "r.vasm").read_text()


EMPTY_WORKSPACE = """
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ta;
    pipe.InitBuffer(ta, 512);
    AscendC::GlobalTensor<half> yg;
    yg.SetGlobalBuffer((__gm__ half*)y, 256);
    auto a = ta.Get<half>();
    AscendC::Duplicate(a, half(1.0f), 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, a, 256);
}
int main() {
    size_t workspaceSize = 0;
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(512);
    uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(workspaceSize);
    ICPU_RUN_KF(k, 1, y, workspace);
    return 0;
}
"""


def test_an_empty_gm_buffer_is_left_out_of_the_recording(pipev, tmp_path):
    same_run(*record(pipev, tmp_path, EMPTY_WORKSPACE))
    debug = pipev("debug", "k.cpp", "--batch", "--ex", "continue")
    assert debug.returncode == 0, debug.stderr
    assert "program finished" in debug.stdout


DEQUE_EMPTY = """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> qi;
    AscendC::GlobalTensor<half> xg;
    xg.SetGlobalBuffer((__gm__ half*)x, 256);
    pipe.InitBuffer(qi, 1, 512);
    auto a = qi.AllocTensor<half>();
    AscendC::DataCopy(a, xg, 256);
    a = qi.DeQue<half>();  // no EnQue before it
    qi.FreeTensor(a);
}
int main() {
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(512);
    ICPU_RUN_KF(k, 1, x);
    return 0;
}
"""


def test_an_error_of_the_headers_ends_the_replay(pipev, tmp_path):
    run, replay = record(pipev, tmp_path, DEQUE_EMPTY)
    assert run.returncode == 1 and replay.returncode == 1, (run.stderr, replay.stderr)
    first = next(x for x in run.stderr.splitlines() if ": error: " in x)
    assert "DeQue on an empty queue" in first
    replay = pipev("run", "r/r.vasm", "--output-dir", "out")
    assert replay.returncode == 1
    assert first in replay.stderr.splitlines()


def test_the_error_statement(tmp_path):
    from pipev import run
    from simulator.errors import SimulationError

    (tmp_path / "e.vasm").write_text('.ub a f16[16]\n    nop\n.loc "k.cpp" 21 5\n'
                                     '    fail "it\'s (a deadlock); see k.cpp:18"\n    nop\n')
    with pytest.raises(SimulationError) as e:
        run(str(tmp_path / "e.vasm"))
    assert [str(d) for d in e.value.diagnostics] == \
        ["k.cpp:21:5: error: it's (a deadlock); see k.cpp:18"]


def test_a_constant_form_is_recorded_when_it_runs_the_same():
    from simulator.stream import Stream

    def recorded(counter: bool) -> str:
        s = Stream("ascend910b")
        s.declare_ub("a", "f16", 4096, 0)
        if counter:
            s.issue("set_mask_count")
        s.issue("add.f16 a[x1], a[x2], a[x3], repeat=2, mask=x4", regs=[0, 0, 0, 60])
        return s.vasm_text()

    # set_mask.f16 x4 and the constant's set_vector_mask leave the same MASK in normal mode
    assert "    add.f16 a[(0)], a[(0)], a[(0)], repeat=2, mask=(60)\n" in recorded(False)
    # in counter mode set_mask.f16 sets a count: the instructions that ran are recorded
    text = recorded(True)
    assert "    set_mask.f16 (60)\n" in text and "mask=(60)" not in text
