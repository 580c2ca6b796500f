"""C++ front end, issue #31: a static LocalTensor in the API scratch area is diagnosed at its own
line (05). Each run is `python -m simulator.cli run ...` in its own directory, with the compile
cache under pytest's cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import pipev_process as pipev

STATIC_IN_SCRATCH = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
#include <cstdio>
extern "C" __global__ __aicore__ void k(GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ta, tm, td;
    pipe.InitBuffer(ta, 512);
    pipe.InitBuffer(tm, 64);
    pipe.InitBuffer(td, 512);
    AscendC::GlobalTensor<half> yg;
    yg.SetGlobalBuffer((__gm__ half*)y, 256);
    auto a = ta.Get<half>();
    auto m = tm.Get<uint8_t>();
    auto d = td.Get<half>();
    AscendC::LocalTensor<half> keep(AscendC::TPosition::VECCALC, ADDR, 256);  // the static one
    AscendC::Duplicate(keep, half(7.0f), 256);
    AscendC::Duplicate(a, half(1.0f), 256);
    AscendC::Duplicate(m.ReinterpretCast<uint16_t>(), (uint16_t)0x5555, 32);
    AscendC::Select(d, m, a, a, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, keep, 256);
}
int main() {
    half* y = (half*)AscendC::GmAlloc(512);
    ICPU_RUN_KF(k, 1, (uint8_t*)y);
    std::printf("keep %g\n", float(y[1]));
    return 0;
}
"""


def test_static_tensor_in_scratch_area_warned_at_its_line(env, tmp_path):
    """The Select expansion writes its mask into the scratch area: a static tensor there is
    clobbered, so C++ warns at the tensor's own line, as .vasm does for a placed tensor."""
    src = tmp_path / "k.cpp"
    src.write_text(STATIC_IN_SCRATCH)
    line = next(n for n, t in enumerate(STATIC_IN_SCRATCH.splitlines(), 1) if "the static" in t)
    scratch = pipev(env, tmp_path, "run", src, "-D", f"ADDR={0x2e000}", "--quiet")
    assert scratch.returncode == 0, scratch.stderr
    assert f"k.cpp:{line}:1: warning: 'ub_2e000' at 0x2e000 reaches into the API scratch area" \
        in scratch.stderr, scratch.stderr
    assert scratch.stderr.count("scratch area") == 1  # once per buffer, not per typed view
    below = pipev(env, tmp_path, "run", src, "-D", "ADDR=4096", "--quiet")
    assert below.returncode == 0 and "keep 7" in below.stdout
    assert "warning" not in below.stderr, below.stderr


SPINNING = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
#include <cstdio>
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ta;
    pipe.InitBuffer(ta, 512);
    AscendC::Duplicate(ta.Get<half>(), half(1.0f), 256);
    std::printf("spinning\n");
    std::fflush(stdout);
    volatile unsigned long spin = 0;
    for (;;) spin = spin + 1;  // a kernel bug: never ends
}
int main() {
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(64);
    ICPU_RUN_KF(k, 1, x);
    return 0;
}
"""


def _children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(p) for p in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_gone(pid: int, seconds: float) -> bool:
    import time
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGKILL"])
def test_stopped_pipev_takes_its_worker_along(env, tmp_path, sig):
    """A stop signal to `pipev run k.cpp` alone (not its process group) ends the worker too, and
    no status file is left (the worker's status block has no name in TMPDIR)."""
    import signal
    src = tmp_path / "k.cpp"
    src.write_text(SPINNING)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", "run", src, "--quiet"],
                            cwd=tmp_path, env=dict(env, TMPDIR=str(tmp)), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    worker = None
    try:
        assert proc.stdout.readline() == "spinning\n"
        worker, = _children(proc.pid)
        proc.send_signal(getattr(signal, sig))
        proc.wait(timeout=30)
        assert _wait_gone(worker, 10), "the worker outlived pipev"
        if sig == "SIGTERM":
            assert proc.returncode == 128 + signal.SIGTERM
            assert "Traceback" not in proc.stderr.read()
        assert list(tmp.iterdir()) == []
    finally:
        for pid in (proc.pid, worker):
            if pid is not None and _alive(pid):
                os.kill(pid, signal.SIGKILL)
        proc.communicate()


STOMP = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void k(GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ta;
    pipe.InitBuffer(ta, 64);
    AscendC::GlobalTensor<half> yg;
    yg.SetGlobalBuffer((__gm__ half*)y, 32);
    auto a = ta.Get<half>();
    AscendC::Duplicate(a, half(1.0f), 32);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, a, 32);  // every core: the same bytes
}
int main() {
    half* y = (half*)AscendC::GmAlloc(64);
    ICPU_RUN_KF(k, BD, (uint8_t*)y);
    return 0;
}
"""


def test_cores_racing_the_same_way_give_one_warning(env, tmp_path):
    """A race per core pair is one warning listing the cores (#31 21), in C++ as in .vasm."""
    src = tmp_path / "k.cpp"
    src.write_text(STOMP)
    r = pipev(env, tmp_path, "run", src, "-D", "BD=6", "--quiet")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("stomping") == 1, r.stderr
    assert "warning: 5 cores (1, 2, 3, 4, 5) write GM gm_y bytes that another core also writes" \
        in r.stderr, r.stderr


SLICES = r"""#include "kernel_operator.h"
extern "C" __global__ __aicore__ void kabs(GM_ADDR x, GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ta;
    pipe.InitBuffer(ta, 512);
    AscendC::GlobalTensor<half> xg, yg;
    uint32_t b = AscendC::GetBlockIdx();
    xg.SetGlobalBuffer((__gm__ half*)x + b * 256, 256);
    yg.SetGlobalBuffer((__gm__ half*)y + b * 256, 256);
    auto a = ta.Get<half>();
    AscendC::DataCopy(a, xg, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Abs(a, a, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, a, 256);
}
"""


def test_cpp_launch_figures_are_summed_over_its_cores_as_in_vasm(env, tmp_path):
    """#31 25: a C++ launch of N cores reports what a .vasm launch does (docs/cores.md):
    instructions, micro-ops, busy cycles and stalls summed over the cores, cycles until the last
    core ends; so N cores doing the same work count N times one core's."""
    import json

    import numpy as np
    src = tmp_path / "k.cpp"
    src.write_text(SLICES)
    np.save(tmp_path / "x.npy", np.zeros(4 * 256, np.float16))
    runs = {}
    for n in (1, 4):
        r = pipev(env, tmp_path, "run", src, "--kernel", "kabs", "--arg", "x=x.npy", "--arg",
                  "y=out:f16[1024]", "--block-dim", n, "--json")
        assert r.returncode == 0, r.stderr
        runs[n] = json.loads(r.stdout)
    one, four = runs[1], runs[4]
    assert four["instructions"] == 4 * one["instructions"] == sum(
        c["instructions"] for c in four["cores"])
    assert four["uops"] == sum(c["uops"] for c in four["cores"])
    for pipe, figures in four["pipes"].items():
        assert figures["busy"] == sum(c["pipes"][pipe] for c in four["cores"])
    assert four["stalls"]["barrier"] == sum(c["stalls"]["barrier"] for c in four["cores"])
    assert four["cycles"] == max(c["end"] for c in four["cores"])
    text = pipev(env, tmp_path, "run", src, "--kernel", "kabs", "--arg", "x=x.npy", "--arg",
                 "y=out:f16[1024]", "--block-dim", 4)
    assert f"kabs<<<4>>> on ascend910b: {four['instructions']} instructions" in text.stderr, \
        text.stderr
    assert "; 4 cores on 4 vector cores in 1 wave" in text.stderr  # not "one after another"


def test_a_launch_of_many_cores_keeps_neither_their_streams_nor_copies_of_gm():
    """#31 18: the cores of a launch run one after another over one GM, so a launch keeps each
    finished core's figures only: at most a few streams (machines, UB) are alive at a time,
    and GM's final contents are copied once, for the last core, not once per core."""
    import ctypes
    import gc
    import weakref

    from isa.chip import get_chip
    from simulator.ascendc.bridge import Session
    from simulator.stream import Stream

    live, finishes, ended = weakref.WeakSet(), [], []

    class Counted(Stream):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            live.add(self)

        def finish(self, outputs=True):
            finishes.append(outputs)
            return super().finish() if outputs else super().finish(outputs)

    s = Session(get_chip("ascend910b"), source="k.cpp", stream_factory=Counted,
                on_launch_end=ended.append)
    host = (ctypes.c_uint8 * 4096)()
    b = s.struct
    assert b.gm_buffer(b"k.cpp", 1, b"g", b"u8", ctypes.addressof(host), 4096) == 0
    cores, peak = 40, 0
    assert b.launch(b"k.cpp", 2, b"k", cores) == 0
    for core in range(cores):
        b.block_idx = core
        assert b.issue(b"k.cpp", 3, 0, b"pipe_barrier ALL", None, 0) == 0, s.diagnostics
        gc.collect()
        peak = max(peak, len(live))
    assert b.launch_end() == 0, s.diagnostics
    assert peak <= 3
    assert len(finishes) == cores and finishes.count(True) == 1
    launch, = ended
    assert [c.core for c in launch.cores] == list(range(cores))
    assert launch.result().instructions == cores and set(launch.last.outputs) == {"g"}


def test_a_launch_beyond_65535_cores_is_an_error_at_its_line():
    from isa.chip import get_chip
    from simulator.ascendc.bridge import Session

    emitted = []
    s = Session(get_chip("ascend910b"), source="k.cpp", emit=emitted.append)
    assert s.struct.launch(b"k.cpp", 7, b"k", 70000) == 1
    assert str(emitted[-1]) == ("k.cpp:7:1: error: kernel k launched with blockDim 70000 "
                                "(1..65535, as --block-dim)")
