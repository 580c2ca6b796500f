"""The garbage collector paced for a run (docs/decisions.md, "a run paces the collector").

A run keeps what it works out once per decoding (accesses, footprints, costs: a few dozen small
objects for each line not seen before), and CPython's default pacing — a collection of the
youngest generation every 700 new objects, a full one whenever the survivors grow by a quarter
— then spends a fifth of a run of distinct lines traversing the whole heap, the caller's own
objects included. During a run — from assembly until its runs are released, so that what the
caller's pacing collects next is only what survives — the youngest generation is collected
every `RUN_THRESHOLD` new objects instead (cyclic garbage is still collected; the memory it may
hold meanwhile is small), and the caller's setting is restored after it.
"""

from __future__ import annotations

import gc

RUN_THRESHOLD = 1_000_000


class paced_collections:  # noqa: N801  (used as a function: `with paced_collections():`)
    """Collect the youngest generation every THRESHOLD (default RUN_THRESHOLD) new objects
    within the block (not more often than the caller asked; a threshold of 0, collection off,
    stays), then restore the caller's thresholds unless something in the block set its own.
    (A plain class, not a generator's context manager: a run enters two, and the generator
    and its manager were two more tracked objects and a few microseconds a run.)"""

    __slots__ = ("threshold", "old", "paced")

    def __init__(self, threshold: int | None = None):
        self.threshold = RUN_THRESHOLD if threshold is None else threshold

    def __enter__(self) -> None:
        old = self.old = gc.get_threshold()
        if old[0] == 0 or old[0] >= self.threshold:
            self.paced = None
            return
        self.paced = (self.threshold, *old[1:])
        gc.set_threshold(*self.paced)

    def __exit__(self, *exc) -> None:
        if self.paced is not None and gc.get_threshold() == self.paced:
            gc.set_threshold(*self.old)
