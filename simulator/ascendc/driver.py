"""Run a compiled AscendC program: a worker process loads the shared object, hands it the bridge
and calls its `main` (or, kernel-only, its entry point); the parent watches it.

The worker (`python -m simulator.ascendc.worker CONFIG`) runs in the user's directory with the
user's stdin/stdout/stderr, so a harness's relative paths and printf output behave as they
would natively, and a segfault or `exit()` in the kernel kills only the worker. Before each
bridge call it notes the call site in a small shared status block (a memory-mapped file); when
the worker dies by a signal the parent reads the last call site from it and reports
`FILE:LINE: error: the kernel crashed (SIGSEGV) after this call`.

`main` is called under its own name (the compiler keeps its implicit `return 0`; dlsym on the
object's handle finds the object's `main`, not the interpreter's). The worker ends with the C
library's exit(), so the program's static destructors and atexit handlers run as natively.
"""

from __future__ import annotations

import ctypes
import gc
import json
import mmap
import os
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

_HEAD = struct.Struct("<IIiiI")  # phase, failed, line, col, file length
_LAUNCH = struct.Struct("<iI")  # launch line, file length
_FILE_AT, _LAUNCH_AT, _LAUNCH_FILE_AT, _FILE_MAX = 20, 1024, 1032, 1000
STATUS_BYTES = 4096
PHASE_START, PHASE_MAIN, PHASE_LAUNCH, PHASE_DONE = 0, 1, 2, 3


class StatusBlock:
    """The worker's last call site, launch and error flag, shared with the parent through a file
    that has no name: the parent creates it and unlinks it at once, the worker inherits its
    descriptor. Nothing is left in /tmp however pipev ends, and nothing can remove it under a
    run (a /tmp cleaner)."""

    def __init__(self, fd: int):
        self._fd = fd
        self.mm = mmap.mmap(fd, STATUS_BYTES)
        self._file = b""
        self._line = -1

    @property
    def fd(self) -> int:
        return self._fd

    @classmethod
    def create(cls) -> StatusBlock:
        fd, path = tempfile.mkstemp(prefix="pipev-status-", suffix=".bin")
        os.unlink(path)
        os.write(fd, bytes(STATUS_BYTES))
        return cls(fd)

    def call_site(self, file: bytes, line: int, col: int = 0) -> None:
        if line == self._line and file == self._file:
            return
        mm = self.mm
        if file != self._file:
            raw = (file or b"")[:_FILE_MAX]
            mm[_FILE_AT:_FILE_AT + len(raw)] = raw
            struct.pack_into("<I", mm, 16, len(raw))
            self._file = file
        struct.pack_into("<ii", mm, 8, line, col)
        self._line = line

    def launch_began(self, file: bytes, line: int) -> None:
        raw = (file or b"")[:_FILE_MAX]
        self.mm[_LAUNCH_FILE_AT:_LAUNCH_FILE_AT + len(raw)] = raw
        _LAUNCH.pack_into(self.mm, _LAUNCH_AT, line, len(raw))
        self.phase(PHASE_LAUNCH)

    def launch_ended(self) -> None:
        self.phase(PHASE_MAIN)  # the launch's site stays: "crashed after this kernel launch"

    def phase(self, value: int) -> None:
        struct.pack_into("<I", self.mm, 0, value)

    def set_failed(self) -> None:
        struct.pack_into("<I", self.mm, 4, 1)

    def read(self) -> dict:
        phase, failed, line, col, n = _HEAD.unpack_from(self.mm, 0)
        lline, ln = _LAUNCH.unpack_from(self.mm, _LAUNCH_AT)
        return {"phase": phase, "failed": bool(failed), "line": line, "col": col,
                "file": bytes(self.mm[_FILE_AT:_FILE_AT + n]).decode("utf-8", "replace"),
                "launch_line": lline,
                "launch_file": bytes(self.mm[_LAUNCH_FILE_AT:_LAUNCH_FILE_AT + ln])
                .decode("utf-8", "replace")}

    def close(self) -> None:
        self.mm.close()
        os.close(self._fd)


# -- the parent ------------------------------------------------------------------------------

def run_worker(config: dict) -> int:
    """Run the program in a worker process; return the exit status for pipev (the program's,
    or 1 on a pipev error, a crash or an exit inside a kernel; 128 + N when pipev itself was
    stopped by signal N, which it passes on to the worker first)."""
    status = StatusBlock.create()
    # the worker's lifeline: it holds the read end and ends when the read sees end of file —
    # when this process closes the write end (below, however run_worker is left) or dies
    lifeline, keep = os.pipe()  # both not inherited: only the worker gets its end
    proc = None
    try:
        config = {**config, "status_fd": status.fd, "parent": os.getpid(),
                  "lifeline_fd": lifeline}
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH")
                                    else "")
        if FORK_WORKER:
            proc = _Forked(config, keep)
        else:
            argv = [sys.executable, "-m", "simulator.ascendc.worker", json.dumps(config)]
            proc = subprocess.Popen(argv, env=env, pass_fds=(status.fd, lifeline))
        os.close(lifeline)
        lifeline = -1
        stopped: list[int] = []
        with _passing_on(proc, stopped):
            rc = _wait(proc, stopped)
        info = status.read()
    finally:
        _end_worker(proc, keep, lifeline)
        status.close()
    if stopped:
        return 128 + stopped[0]
    return exit_status(rc, info, config["source"], config)


def _end_worker(proc: subprocess.Popen | None, keep: int, lifeline: int) -> None:
    """Leaving run_worker: close the lifeline (a worker still running ends by itself: an
    exception here, such as a test harness's timeout, never leaves it spinning) and make sure
    the worker is gone, killed if it outlives the grace."""
    for fd in (keep, lifeline):
        if fd >= 0:
            os.close(fd)
    if proc is None or proc.poll() is not None:
        return
    try:
        proc.wait(timeout=STOP_GRACE)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# The worker is forked from this process instead of started as a new interpreter: set by a
# process that has pipev imported already and runs nothing else meanwhile (a sweep's warm C++
# runner, simulator/sweep/cppwarm.py). The child is what `python -m simulator.ascendc.worker`
# would be: the same `worker.main` path, the status block's descriptor inherited.
FORK_WORKER = False


class _Forked:
    """A forked worker, as much of `subprocess.Popen` as the parent uses."""

    def __init__(self, config: dict, keep: int):
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(keep)  # the lifeline's write end is the parent's alone
            run_config(config)  # ends the process
        self.returncode: int | None = None

    def poll(self) -> int | None:
        try:
            return self.wait(0)
        except subprocess.TimeoutExpired:
            return None

    def send_signal(self, signum: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        while self.returncode is None:
            pid, status = os.waitpid(self.pid, 0 if end is None else os.WNOHANG)
            if pid:
                self.returncode = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else \
                    os.WEXITSTATUS(status)
            elif time.monotonic() >= end:
                raise subprocess.TimeoutExpired("worker", timeout)
            else:
                time.sleep(0.01)
        return self.returncode


STOP_SIGNALS = ("SIGTERM", "SIGHUP")
STOP_GRACE = 5.0  # seconds a worker has to end after the signal pipev passed on


class _passing_on:
    """While the worker runs, a SIGTERM or SIGHUP to pipev (a job scheduler, `kill PID`, a CI
    timeout) is passed on to the worker instead of ending pipev alone: the worker would go on
    running (a kernel in a loop spins for ever). Only the main thread can handle signals."""

    def __init__(self, proc: subprocess.Popen, stopped: list[int]):
        self.proc, self.stopped, self.saved = proc, stopped, {}

    def _handler(self, signum, _frame) -> None:
        self.stopped.append(signum)
        try:
            self.proc.send_signal(signum)
        except OSError:  # already gone
            pass

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for name in STOP_SIGNALS:
                sig = getattr(signal, name, None)
                if sig is not None:
                    self.saved[sig] = signal.signal(sig, self._handler)
        return self

    def __exit__(self, *exc) -> None:
        for sig, old in self.saved.items():
            signal.signal(sig, old)


def _wait(proc: subprocess.Popen, stopped: list[int]) -> int:
    """The worker's exit status; a worker that outlives the grace after a stop signal (its
    program handles the signal and goes on) is killed."""
    while True:
        try:
            return proc.wait(timeout=STOP_GRACE if stopped else None)
        except KeyboardInterrupt:  # the worker got the SIGINT too; let it end
            continue
        except subprocess.TimeoutExpired:
            proc.kill()


def exit_status(rc: int, info: dict, source: str, config: dict | None = None) -> int:
    """The exit status for pipev, reporting the crash when the worker died (as every
    diagnostic: FILE:LINE:COL, the quoted line unless --no-source, and under --json the
    failure object on stdout, which the worker could not print)."""
    in_launch = info["phase"] == PHASE_LAUNCH
    if rc < 0:
        if -rc == signal.SIGINT:
            return 130
        if -rc == signal.SIGPIPE:  # its reader went away (`| head`): nobody to tell
            return 128 + signal.SIGPIPE
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = f"signal {-rc}"
        # a crash after the worker printed its JSON (a static destructor's) adds no second one
        _report(_crash_site(info, source, in_launch, f"crashed ({name})"),
                config or {}, json_too=info["phase"] != PHASE_DONE)
        return 1
    if in_launch and not info["failed"]:
        _report(_crash_site(info, source, True, f"exited the program (exit status {rc})"),
                config or {})
        return 1
    return 1 if info["failed"] else rc


def _report(d, config: dict, json_too: bool = True) -> None:
    from simulator.render import render

    print(render(d, config.get("show_source", True)), file=sys.stderr)
    if config.get("json") and json_too:
        from simulator.commands import failure_object

        sys.stdout.write(json.dumps(failure_object([d])) + "\n")
        sys.stdout.flush()


def _crash_site(info: dict, source: str, in_launch: bool, what: str):
    """The diagnostic 'FILE:LINE:COL: error: the kernel WHAT after this call' and its variants:
    at the last call site (its column, else where its statement begins), the launch, or the
    program."""
    from isa.diagnostics import Diagnostic

    def at(file: str, line: int, col: int, message: str) -> Diagnostic:
        return Diagnostic("error", file, line, col or statement_column(file, line), message)

    if in_launch:
        if info["line"] > 0:
            return at(info["file"], info["line"], info["col"],
                      f"the kernel {what} after this call")
        return at(info["launch_file"], info["launch_line"], 0,
                  f"the kernel {what} before its first API call")
    if info["launch_line"] > 0:
        return at(info["launch_file"], info["launch_line"], 0,
                  f"the program {what} after this kernel launch")
    if info["line"] > 0:
        return at(info["file"], info["line"], info["col"], f"the program {what} after this call")
    return Diagnostic("error", source, 1, 1, f"the program {what}")


def statement_column(file: str, line: int) -> int:
    """The column where FILE's LINE begins (its first non-blank character; 1 when unknown):
    where a C++ call's statement begins, since GCC has no __builtin_COLUMN."""
    try:
        with open(file, encoding="utf-8", errors="replace") as f:
            for n, text in enumerate(f, 1):
                if n == line:
                    return len(text) - len(text.lstrip()) + 1 if text.strip() else 1
    except OSError:
        pass
    return 1


# -- the worker ------------------------------------------------------------------------------

PARENT_POLL = 1.0  # seconds between the worker's checks that pipev is still there


def _end_with_parent(ppid: int, lifeline: int | None = None) -> None:
    """End the worker when pipev is gone, however it ended (even SIGKILL, which pipev cannot
    pass on), or when the run that started it was left (an exception in the parent, which goes
    on living: the lifeline pipe's write end is closed). The lifeline's end of file is noticed
    by a thread blocked reading it; on Linux the kernel also kills the worker at once when its
    parent dies (PR_SET_PDEATHSIG); elsewhere a thread notices the re-parenting. The threads
    run while a kernel spins: ctypes calls release the GIL."""
    if lifeline is not None:
        threading.Thread(target=_watch_lifeline, args=(lifeline,), daemon=True).start()
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != ppid:  # gone already
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(ppid,), daemon=True).start()


def _watch_lifeline(fd: int) -> None:
    """Block on the lifeline until pipev's end is closed (nothing is ever written to it)."""
    try:
        while os.read(fd, 1):
            pass
    except OSError:
        pass
    os._exit(1)


def _watch_parent(ppid: int) -> None:
    while True:
        time.sleep(PARENT_POLL)
        if os.getppid() != ppid:
            os._exit(1)


def _libc():
    return ctypes.CDLL(None)


def _c_stdout_writer(libc):
    """Print TEXT on the C library's stdout, so kernel printf output keeps its order with the
    program's own printf output."""
    fputs = libc.fputs
    fputs.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    try:
        stdout = ctypes.c_void_p.in_dll(libc, "stdout")
    except ValueError:  # not glibc: fall back to Python's stdout (flushed at once)
        def write(text: str) -> None:
            sys.stdout.write(text)
            sys.stdout.flush()
        return write

    def write_c(text: str) -> None:
        fputs(text.encode("utf-8", "replace"), stdout)

    return write_c


def run_config(config: dict) -> None:
    """The worker's whole life for CONFIG (`python -m simulator.ascendc.worker`, or forked:
    `FORK_WORKER`); ends the process as a C program ends."""
    try:
        rc = worker_main(config)
    except BaseException as e:  # noqa: BLE001 - one diagnostic line, never a traceback
        print(f"{config.get('source', '?')}:1:1: error: internal error in pipev's worker: "
              f"{type(e).__name__}: {e}", file=sys.stderr)
        rc = 1
    c_exit(rc)


def worker_main(config: dict) -> int:
    """Everything the worker does; returns the exit status (the caller ends the process)."""
    from isa.chip import ChipError, get_chip
    from simulator.ascendc.bridge import Session
    from simulator.ascendc.report import Reporter
    from simulator.gcpace import RUN_THRESHOLD

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    # the worker is a run from start to end: its collector paced as a run's (simulator/gcpace.py)
    gc.set_threshold(RUN_THRESHOLD, *gc.get_threshold()[1:])
    status = StatusBlock(config["status_fd"])
    # a program writing to a closed pipe ends as natively (SIGPIPE), never spins on EPIPE
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    _end_with_parent(config.get("parent", os.getppid()), config.get("lifeline_fd"))
    source = config["source"]
    try:
        chip = get_chip(config["chip"])
    except ChipError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    libc = _libc()
    reporter = Reporter(config, chip)
    session = Session(chip, source=source, checks=config.get("checks", "error"),
                      timing=config.get("timing", True),
                      max_steps=config.get("max_steps", 10_000_000),
                      trace=config.get("trace"), trace_format=config.get("trace_format", "jsonl"),
                      save_vasm=config.get("save_vasm"), emit=reporter.emit,
                      on_launch_end=reporter.launch_end,
                      on_print=reporter.printer(_c_stdout_writer(libc)), status=status,
                      launch_observers=reporter.launch_observers,
                      stream_factory=_listing(config, reporter))
    reporter.session = session
    try:
        lib = ctypes.CDLL(config["so"], mode=os.RTLD_NOW | os.RTLD_LOCAL)
    except OSError as e:
        print(f"{source}:1:1: error: cannot load the compiled program: {e}", file=sys.stderr)
        return 1
    try:
        set_bridge = lib["pipev_set_bridge"]
    except AttributeError:
        set_bridge = None
    if set_bridge is not None:
        set_bridge.argtypes = [ctypes.c_void_p]
        set_bridge.restype = None
        set_bridge(ctypes.addressof(session.struct))
    status.phase(PHASE_MAIN)
    _StdoutToStderr(libc, config.get("json") or config.get("mode") == "asm").start()
    if config.get("kernel") is None:
        def finish(rc: int) -> int:
            session.end_program = None
            libc.fflush(None)
            session.close()
            rc = reporter.finish(rc)
            if config.get("json") and reporter.ok:
                from simulator.ascendc.report import host_dict

                sys.stdout.write(json.dumps(host_dict(session, rc)) + "\n")
            status.phase(PHASE_DONE)
            return rc

        # the first error ends the program (at the end of its launch), as a kernel fault ends
        # it on the device: the host code after it does not run (nor write its outputs)
        session.end_program = lambda: c_exit(finish(1))
        return finish(_call_main(lib, source, config.get("argv", []), session))
    from simulator.ascendc.kernel_args import run_kernel

    rc = run_kernel(lib, session, reporter, config, has_bridge=set_bridge is not None)
    libc.fflush(None)
    session.close()
    rc = reporter.finish(rc)
    status.phase(PHASE_DONE)
    return rc


def _listing(config: dict, reporter):
    """`pipev asm k.cpp`: the streams' factory of a Collector, which lists what they issued
    (None: the session's own factory)."""
    if config.get("mode") != "asm":
        return None
    from simulator.ascendc.listing import Collector

    reporter.listing = Collector(config.get("asm_json", False))
    return reporter.listing.stream


class _StdoutToStderr:
    """Under --json the program's own output (printf, std::cout) goes to stderr until the
    process ends — also what its static destructors and atexit handlers print after main —
    and stdout is the JSON object's alone: file descriptor 1 becomes stderr, and pipev's
    Python `sys.stdout` writes to the real stdout."""

    def __init__(self, libc, active: bool):
        self.libc, self.active = libc, active

    def start(self) -> None:
        if self.active:
            sys.stdout.flush()
            self.libc.fflush(None)
            saved = os.dup(1)
            os.dup2(2, 1)
            sys.stdout = open(saved, "w", encoding="utf-8", closefd=True)  # noqa: SIM115


def _call_main(lib, source: str, args: list[str], session) -> int:
    try:
        main = lib["main"]
    except AttributeError:  # an error of the run (pipev.run raises it, --json reports it)
        from isa.diagnostics import Diagnostic

        session.fail([Diagnostic("error", source, 1, 1, "the program has no main() (for a "
                                 "file with only a kernel, run it with --kernel NAME --arg "
                                 "...)")])
        return 1
    main.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    main.restype = ctypes.c_int
    words = [os.fsencode(a) for a in [source, *args]]
    argv = (ctypes.c_char_p * (len(words) + 1))(*words, None)
    return int(main(len(words), argv))


def c_exit(rc: int) -> None:
    """End the worker like a C program: stdio flushed, atexit handlers and static destructors
    run (Python is not finalised: the program's destructors may still call the bridge)."""
    sys.stdout.flush()
    sys.stderr.flush()
    libc = _libc()
    libc.exit.argtypes = [ctypes.c_int]
    libc.exit(rc & 0xFF if rc >= 0 else rc & 0xFF)
