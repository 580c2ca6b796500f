"""Where variants run: a pool of local worker processes (the default), an existing Dask
scheduler (`dask://HOST:PORT`, with `pip install 'pipev[dask]'`), or any object with the
`concurrent.futures.Executor` interface (Ray, a Slurm executor, ...). The engine sees a `Pool`:
an executor, how many tasks to keep in flight, and whether a broken executor can be replaced."""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor

PRELOAD = ["simulator.sweep.task", "simulator.run", "isa"]  # warm: imported once per worker
PARENT_POLL = 1.0  # seconds between a worker's checks that the sweep is still there


class SweepSetupError(Exception):
    """The executor cannot be had (no scheduler at the address, dask not installed)."""


class Pool:
    """A caller's executor, used as it is (the caller shuts it down)."""

    def __init__(self, executor: Executor, window: int = 256):
        self.executor = executor
        self.window = window

    def renew(self) -> bool:
        return False

    def close(self, cancel: bool = False) -> None:
        pass


def _quiet_worker(parent: int) -> None:
    """Workers ignore Ctrl-C: the parent decides what an interrupt means (it writes the rows
    finished so far, then stops the workers). A worker whose parent has gone (killed, or a pool
    it lost track of) ends by itself instead of waiting on its queue for ever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGPIPE"):  # Python's default, whatever the parent had
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(parent, os.getppid()), daemon=True).start()


def _exit_with(parent: int, ppid: int) -> None:
    """End when the sweep's process is gone or this worker was handed to another parent (the
    sweep's exit re-parents its forked workers at once, before anyone reaps it)."""
    while True:
        time.sleep(PARENT_POLL)
        if os.getppid() != ppid:
            os._exit(0)
        try:
            os.kill(parent, 0)
        except (ProcessLookupError, PermissionError):  # gone (or the pid is someone else's)
            os._exit(0)


def _context():
    """Fork where it is safe (Linux, one thread): the workers start warm, with pipev imported,
    and a script that calls `sweep` needs no `if __name__ == "__main__":` guard. Elsewhere a
    fork server that imports pipev once (the script then needs the guard, as multiprocessing
    always asks)."""
    import multiprocessing
    import sys

    if sys.platform == "linux" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


class LocalPool(Pool):
    """JOBS warm worker processes (default: one per core); a pool broken by a dying worker is
    replaced."""

    def __init__(self, jobs: int | None = None):
        self.jobs = jobs or os.cpu_count() or 1
        super().__init__(self._new(), window=4 * self.jobs)

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.jobs, mp_context=_context(), initializer=_quiet_worker,
                                   initargs=(os.getpid(),))

    def renew(self) -> bool:
        self.close(cancel=True)
        self.executor.shutdown(wait=True)  # its threads end before the next fork
        self.executor = self._new()
        return True

    def close(self, cancel: bool = False) -> None:
        if cancel:  # running variants are abandoned: their workers are stopped, not awaited
            for process in list(getattr(self.executor, "_processes", {}).values()):
                if process.is_alive():
                    process.terminate()
        self.executor.shutdown(wait=not cancel, cancel_futures=cancel)


class DaskPool(Pool):
    """A client of an existing Dask scheduler. The scheduler reassigns the tasks of a worker
    that dies; workers need pipev installed (and, for C++ kernels, the source files)."""

    def __init__(self, address: str, timeout: float = 10.0):
        try:
            from distributed import Client
        except ImportError:
            raise SweepSetupError("the dask executor needs Dask distributed: pip install "
                                  "'pipev[dask]'") from None
        address = "tcp://" + address.removeprefix("dask://").removeprefix("tcp://")
        try:
            self.client = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise SweepSetupError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        super().__init__(self.client.get_executor(pure=False), window=1024)

    def close(self, cancel: bool = False) -> None:
        self.client.close()  # the scheduler forgets the client's unfinished tasks


def make_pool(executor, jobs: int | None) -> Pool:
    """The Pool for `executor=` of the API: None/"local", "dask://HOST:PORT", or an Executor."""
    if executor is None or executor == "local":
        return LocalPool(jobs)
    if isinstance(executor, str):
        if executor.startswith(("dask://", "tcp://")):
            return DaskPool(executor)
        raise SweepSetupError(f"unknown executor '{executor}' (local or dask://HOST:PORT)")
    if not callable(getattr(executor, "submit", None)):
        raise SweepSetupError("executor= takes 'local', 'dask://HOST:PORT' or an object with "
                              "the concurrent.futures interface (submit)")
    return Pool(executor)
