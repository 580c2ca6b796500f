"""A C++ worker process never outlives the run that started it (#30, reliability): it ends when
its parent dies (pipev, or a test process calling `pipev.run`), when the parent leaves the run
by an exception and lives on (a test harness's timeout), and when the pipe its program writes to
is closed (`pipev run k.cpp | head -1`). Each case starts a program that never ends by itself.

Linux: the worker is found by the process id its program prints, and is gone when /proc no
longer has it running (a zombie waits for a reaper, it does not run)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

# prints its process id (the worker's), then spins inside the kernel for ever
SPINS = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
#include <cstdio>
#include <unistd.h>
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ta;
    pipe.InitBuffer(ta, 512);
    AscendC::Duplicate(ta.Get<half>(), half(1.0f), 256);
    std::printf("%d\n", int(getpid()));
    std::fflush(stdout);
    volatile unsigned long spin = 0;
    for (;;) spin = spin + 1;
}
int main() {
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(64);
    ICPU_RUN_KF(k, 1, x);
    return 0;
}
"""

# the test process's side: `pipev.run` in-process; SIGUSR1 makes it leave the run by an
# exception (as a harness's timeout does), after which it lives on until killed
PARENT = r"""
import signal, sys, time
import pipev

class Timeout(Exception):
    pass

def leave(*_):
    raise Timeout()

signal.signal(signal.SIGUSR1, leave)
try:
    pipev.run(sys.argv[1])
except Timeout:
    print("left the run", flush=True)
while True:
    time.sleep(1)
"""

PRINTS = r"""#include <cstdio>
#include <unistd.h>
int main() {
    std::printf("%d\n", int(getpid()));
    std::fflush(stdout);
    for (;;) std::printf("a line nobody reads\n");  // EPIPE ignored, it would spin for ever
}
"""


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _ends(pid: int, seconds: float = 30) -> bool:
    """Whether PID stops running within SECONDS (a bound on a hang, not a timing figure)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _running(pid):
            return True
        time.sleep(0.1)
    return False


def _start_parent(env, tmp_path: Path) -> tuple[subprocess.Popen, int]:
    (tmp_path / "k.cpp").write_text(SPINS)
    (tmp_path / "parent.py").write_text(PARENT)
    root = str(Path(__file__).resolve().parents[2])
    proc = subprocess.Popen([sys.executable, "parent.py", "k.cpp"], cwd=tmp_path, text=True,
                            env=dict(env, PYTHONPATH=root), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    line = proc.stdout.readline()
    assert line.strip().isdigit(), (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc, int(line)


def _kill(*pids: int) -> None:
    for pid in pids:
        if _running(pid):
            os.kill(pid, signal.SIGKILL)


def test_a_worker_ends_when_the_test_process_that_started_it_dies(env, tmp_path):
    proc, worker = _start_parent(env, tmp_path)
    try:
        assert _running(worker)
        proc.kill()  # SIGKILL: nothing in the parent runs
        proc.wait(timeout=30)
        assert _ends(worker), "the worker outlived the process that started it"
    finally:
        _kill(worker)
        proc.communicate()


def test_a_worker_ends_when_its_parent_leaves_the_run_and_lives_on(env, tmp_path):
    proc, worker = _start_parent(env, tmp_path)
    try:
        proc.send_signal(signal.SIGUSR1)
        assert proc.stdout.readline() == "left the run\n"
        assert _ends(worker), "the worker outlived the run its parent left"
        assert proc.poll() is None  # the parent lives on: the worker did not wait for its end
    finally:
        _kill(worker, proc.pid)
        proc.communicate()


def test_a_worker_whose_reader_closed_the_pipe_ends(env, tmp_path):
    (tmp_path / "p.cpp").write_text(PRINTS)
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", "run", "p.cpp"],
                            cwd=tmp_path, env=env, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    worker = None
    try:
        worker = int(proc.stdout.readline())
        proc.stdout.close()  # `| head -1`: the reader goes away
        assert _ends(worker), "the worker spins writing to a closed pipe"
        proc.wait(timeout=30)
        # as a native program in a pipeline: ended by SIGPIPE, and nothing said about it
        assert proc.returncode == 128 + signal.SIGPIPE
        err = proc.stderr.read()
        assert "Traceback" not in err and "crashed" not in err, err
    finally:
        if worker is not None:
            _kill(worker)
        _kill(proc.pid)
        proc.wait()
