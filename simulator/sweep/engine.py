"""The engine: runs tasks on a Pool, caches every row as it arrives, retries the tasks of a
worker that died, and on Ctrl-C stops at once keeping the rows finished so far."""

from __future__ import annotations

import queue
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import BrokenExecutor, CancelledError
from contextlib import contextmanager

import attrs

from simulator.sweep.cache import Cache
from simulator.sweep.executors import Pool
from simulator.sweep.task import Task, error_row, run_task

ATTEMPTS = 3  # a variant whose worker died this many times is an error row
TICK = 0.2  # seconds between progress refreshes while waiting


@attrs.define
class Outcome:
    rows: dict[int, dict]  # task index -> row
    cached: set[int]
    interrupted: bool = False


class Engine:
    def __init__(self, pool: Pool, cache: Cache | None = None,
                 on_row: Callable[[dict, bool], None] | None = None,
                 on_tick: Callable[[], None] | None = None, attempts: int = ATTEMPTS,
                 function: Callable[[Task], dict] = run_task):
        self.pool, self.cache = pool, cache
        self.on_row = on_row or (lambda row, cached: None)
        self.on_tick = on_tick or (lambda: None)
        self.attempts = attempts
        self.function = function
        self.in_flight: dict = {}  # future -> (task, executor generation, ran alone)
        self._alone = False  # the task _next gave runs with nothing beside it

    def run(self, tasks: Iterable[Task]) -> Outcome:
        outcome = Outcome({}, set())
        todo: deque[Task] = deque()
        for task in tasks:
            row = self.cache.get(task.key, task.params) if self.cache is not None else None
            if row is None:
                todo.append(task)
            else:
                outcome.rows[task.index] = row
                outcome.cached.add(task.index)
                self.on_row(row, True)
        self.in_flight = {}
        try:
            with broken_pipes_raise():
                self._execute(todo, outcome)
        except KeyboardInterrupt:
            outcome.interrupted = True
            for future in self.in_flight:  # a caller's executor is not ours to stop: its
                future.cancel()            # queued tasks are cancelled
            self.pool.close(cancel=True)
        return outcome

    def _execute(self, todo: deque[Task], outcome: Outcome) -> None:
        done: queue.SimpleQueue = queue.SimpleQueue()
        in_flight = self.in_flight
        tries: dict[int, int] = {}
        solo: deque[Task] = deque()  # in flight when a pool broke: rerun one at a time
        generation = 0
        while todo or solo or in_flight:
            while (task := self._next(todo, solo)) is not None:
                try:
                    future = self.pool.executor.submit(self.function, task)
                except (BrokenExecutor, RuntimeError):
                    (solo if self._alone else todo).appendleft(task)
                    if not self._renew(generation, generation):
                        self._give_up([*solo, *todo], outcome,
                                      "the executor stopped accepting tasks")
                        return
                    generation += 1
                    continue
                in_flight[future] = (task, generation, self._alone)
                future.add_done_callback(done.put)
            try:
                future = done.get(timeout=TICK)
            except queue.Empty:
                self.on_tick()
                continue
            if future not in in_flight:
                continue
            task, gen, alone = in_flight.pop(future)
            failure = _failure(future)
            if failure is None:
                self._finish(task, future.result(), outcome)
                continue
            if isinstance(failure, BrokenExecutor) and self._renew(gen, generation):
                generation += 1
            if isinstance(failure, BrokenExecutor) and not alone:
                solo.append(task)  # maybe another variant's death: not charged (#31 10)
                continue
            tries[task.index] = tries.get(task.index, 0) + 1
            if tries[task.index] < self.attempts:
                (solo if alone else todo).appendleft(task)
            else:
                self._finish(task, error_row(
                    f"{task.path}:1:1: error: the worker running this variant died "
                    f"{self.attempts} times ({failure})"), outcome, cache=False)

    def _next(self, todo: deque[Task], solo: deque[Task]) -> Task | None:
        """The next task to submit, or None to wait. A local pool that breaks fails every
        task in it, and which one killed its worker is unknown: those tasks run again one at
        a time, nothing beside them, so a death then is that task's own and only it is
        charged an attempt (a Dask cluster reassigns the tasks itself)."""
        self._alone = bool(solo)
        if solo:
            return solo.popleft() if not self.in_flight else None
        if todo and len(self.in_flight) < self.pool.window:
            return todo.popleft()
        return None

    def _renew(self, gen: int, current: int) -> bool:
        """Replace a broken executor (once per breakage: its other futures fail too and are
        retried as they arrive)."""
        return gen == current and self.pool.renew()

    def _finish(self, task: Task, row: dict, outcome: Outcome, cache: bool = True) -> None:
        reads = row.pop("reads", ())  # None: not recorded, so the row cannot be trusted later
        outcome.rows[task.index] = row
        if cache and self.cache is not None and reads is not None:
            self.cache.put(task.key, row, task.params, reads)
        self.on_row(row, False)

    def _give_up(self, todo: list[Task], outcome: Outcome, why: str) -> None:
        for task in todo:
            self._finish(task, error_row(f"{task.path}:1:1: error: not run: {why}"), outcome,
                         cache=False)


@contextmanager
def broken_pipes_raise():
    """A worker that dies leaves pipes and sockets whose writes fail: Python's default (SIGPIPE
    ignored, so a write raises BrokenPipeError and the pool notices) must hold during a sweep
    even when a library has reset it (vcdvcd does, at import)."""
    if not hasattr(signal, "SIGPIPE") or threading.current_thread() is not \
            threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGPIPE, previous)


def _failure(future) -> BaseException | None:
    """Why a future did not give a row: its worker died, or it was cancelled."""
    if future.cancelled():
        return CancelledError("cancelled")
    return future.exception()
