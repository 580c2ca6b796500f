"""simulator/gcpace.py: a run collects the youngest generation less often, and leaves the
caller's collector as it found it."""

from __future__ import annotations

import gc

import pytest

import pipev
from simulator.gcpace import RUN_THRESHOLD, paced_collections

PROGRAM = """.chip ascend910b
.ub x f32[64] = random(1)
    vadd.f32 x, x, x
"""


@pytest.fixture
def thresholds():
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


class Seen(pipev.Observer):
    def __init__(self):
        self.thresholds = []

    def on_event(self, event):
        self.thresholds.append(gc.get_threshold())


def test_a_run_paces_the_collector_and_restores_it(thresholds):
    gc.set_threshold(700, 9, 8)
    seen = Seen()
    pipev.run(PROGRAM, observers=[seen])
    assert seen.thresholds and set(seen.thresholds) == {(RUN_THRESHOLD, 9, 8)}
    assert gc.get_threshold() == (700, 9, 8)


class Fails(pipev.Observer):
    def on_event(self, event):
        raise RuntimeError("stop")


def test_a_failed_run_restores_the_collector(thresholds):
    gc.set_threshold(500, 10, 10)
    with pytest.raises(RuntimeError):
        pipev.run(PROGRAM, observers=[Fails()])
    assert gc.get_threshold() == (500, 10, 10)


@pytest.mark.parametrize("caller", [(0, 10, 10), (RUN_THRESHOLD * 2, 10, 10)])
def test_collection_off_or_rarer_stays_as_the_caller_set_it(thresholds, caller):
    gc.set_threshold(*caller)
    with paced_collections():
        assert gc.get_threshold() == caller
    assert gc.get_threshold() == caller


def test_a_threshold_set_within_the_block_is_kept(thresholds):
    gc.set_threshold(700, 10, 10)
    with paced_collections():
        with paced_collections():  # nested: the outer restores
            assert gc.get_threshold()[0] == RUN_THRESHOLD
        assert gc.get_threshold()[0] == RUN_THRESHOLD
        gc.set_threshold(1234, 10, 10)
    assert gc.get_threshold() == (1234, 10, 10)
