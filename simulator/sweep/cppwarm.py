"""Warm C++ variants: `pipev run K.cpp --json` without starting an interpreter for each.

A C++ variant used to be a `pipev run` process (an interpreter importing pipev, then the build
cache's check or the compiler) and its worker process (another interpreter, which loads the
compiled object and calls its main): about two seconds of start-up a variant before any work.
Here a sweep worker starts one runner process (`python -m simulator.sweep.cppwarm`, with the
reads-recording library preloaded as the variant's processes had it: simulator/sweep/reads.py)
that imports pipev once. For each variant it forks a child which does exactly what `pipev run`
does — in the variant's directory and environment, its output into files — and whose kernel
worker is itself forked from it (`driver.FORK_WORKER`) rather than started afresh; a crash still
takes down only that worker. The row is read from the same output as before, so rows are
identical to the cold path's (`tests/cli/test_sweep_warm.py` runs both).

The build cache keeps one object per distinct (source, defines, flags); concurrent variants
that need the same one wait for the first compile (`build.compile_sources` locks the key).

The runner reads one request a line on stdin and answers one line on stdout; it ends when its
stdin closes (the sweep worker ended) or after IDLE seconds without a request.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path

IDLE = 60.0  # seconds a runner waits for its next variant before it ends by itself
# (preloaded library or "", thread) -> the runner it uses: a caller's thread pool runs variants
# side by side in one process, each thread with a runner of its own
_runners: dict[tuple[str, int], Runner] = {}


class Runner:
    """One runner process, started with PRELOAD (the reads library, or "") in ENV."""

    def __init__(self, env: dict[str, str], preload: str):
        env = dict(env)
        env.pop("PIPEV_READS_LOG", None)  # set per variant, in its child
        if preload:
            env["LD_PRELOAD"] = preload
        else:
            env.pop("LD_PRELOAD", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "simulator.sweep.cppwarm"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def run(self, argv: list[str], cwd: str, env: dict[str, str], out: Path, err: Path
            ) -> int | None:
        """Run `python ARGV` (a `-m simulator.cli run ...` command line) as the cold path
        would; its stdout and stderr into OUT and ERR. Its exit status (-N: signal N), or
        None when the runner is gone (the caller runs the variant the cold way)."""
        request = {"argv": argv, "cwd": cwd, "env": env, "out": str(out), "err": str(err)}
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (OSError, ValueError):
            return None
        if not line:
            return None
        return int(json.loads(line)["rc"])

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.wait()


def runner(env: dict[str, str]) -> Runner:
    """This thread's runner for ENV's preloaded library (started at its first variant)."""
    preload = env.get("LD_PRELOAD", "")
    key = (preload, threading.get_ident())
    r = _runners.get(key)
    if r is None or not r.alive():
        r = _runners[key] = Runner(env, preload)
    return r


def close_runners() -> None:
    """End this process's runners (they end by themselves when it ends, too)."""
    while _runners:
        _, r = _runners.popitem()
        r.close()


# -- the runner process ----------------------------------------------------------------------

def _serve() -> None:
    _warm_up()
    if sys.platform.startswith("linux"):  # gone with the sweep worker, however it ends
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the sweep decides what Ctrl-C means
    while True:
        ready, _, _ = select.select([sys.stdin], [], [], IDLE)
        if not ready:
            return
        line = sys.stdin.readline()
        if not line:
            return
        rc = _variant(json.loads(line))
        sys.stdout.write(json.dumps({"rc": rc}) + "\n")
        sys.stdout.flush()


def _warm_up() -> None:
    """Import what a C++ run uses, once."""
    import simulator.ascendc.bridge  # noqa: F401
    import simulator.ascendc.cli  # noqa: F401
    import simulator.ascendc.driver  # noqa: F401
    import simulator.ascendc.report  # noqa: F401
    import simulator.cli  # noqa: F401
    from simulator.ascendc.build import BuildError, compiler_version, find_compiler

    try:  # `CXX --version`, remembered per binary: the build cache's key reads it
        compiler_version(find_compiler())
    except BuildError:
        pass


def _variant(request: dict) -> int:
    """Fork the child that runs one variant; its exit status as subprocess reports it."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = _child(request)
        except BaseException:  # noqa: BLE001 - the child never returns into the server loop
            import traceback

            traceback.print_exc()  # as the interpreter would have, on the variant's stderr
            sys.stderr.flush()
            code = 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def _child(request: dict) -> int:
    """`python ARGV` in this forked child: the variant's directory, environment, streams."""
    import ctypes

    from simulator.ascendc import driver

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.chdir(request["cwd"] or ".")
    os.environ.clear()
    os.environ.update(request["env"])
    try:  # the reads library: note this variant's opens in its own log from now on
        ctypes.CDLL(None).pipev_reads_reset()
    except (OSError, AttributeError):
        pass
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, path in ((1, request["out"]), (2, request["err"])):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(f, fd)
        os.close(f)
    sys.stdin = open(0, closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                      closefd=False)
    driver.FORK_WORKER = True
    argv = request["argv"]
    if argv[:2] != ["-m", "simulator.cli"]:
        return 2
    from simulator.cli import main

    sys.argv = ["pipev", *argv[2:]]
    try:
        main.main(args=argv[2:], prog_name="pipev", standalone_mode=True)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    sys.stdout.flush()
    sys.stderr.flush()
    return code


if __name__ == "__main__":
    _serve()
