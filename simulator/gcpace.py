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
from collections.abc import Iterator
from contextlib import contextmanager

RUN_THRESHOLD = 1_000_000


@contextmanager
def paced_collections(threshold: int | None = None) -> Iterator[None]:
    """Collect the youngest generation every THRESHOLD (default RUN_THRESHOLD) new objects
    within the block (not more often than the caller asked; a threshold of 0, collection off,
    stays), then restore the caller's thresholds unless something in the block set its own."""
    threshold = RUN_THRESHOLD if threshold is None else threshold
    old = gc.get_threshold()
    if old[0] == 0 or old[0] >= threshold:
        yield
        return
    paced = (threshold, *old[1:])
    gc.set_threshold(*paced)
    try:
        yield
    finally:
        if gc.get_threshold() == paced:
            gc.set_threshold(*old)
