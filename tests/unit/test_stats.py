"""The run's statistics (simulator/stats.py): per-line busy cycles of the program's own lines in
an array, other files' lines keyed by (file, line), and the hot lines ranked over both exactly
as one dict of every line ranks them."""

from __future__ import annotations

import heapq
import random
from types import SimpleNamespace

import pytest

from simulator.stats import GROW, HOT_LINES, Statistics


def started(lines: int) -> Statistics:
    s = Statistics()
    s.on_start(SimpleNamespace(path="p.vasm", lines=tuple(f"op{k}" for k in range(1, lines + 1))))
    return s


def instr(line: int, file: str = "") -> SimpleNamespace:
    return SimpleNamespace(line=line, file=file)


def event_of(i):
    return SimpleNamespace(statement=f"{i.file}:{i.line}")


def reference_hot(cycles: dict) -> list[tuple[tuple[str, int], int]]:
    """The ranking of one dict of every line: most cycles first, ties to the lower key."""
    hot = heapq.nsmallest(HOT_LINES, cycles.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(k, c) for k, c in hot if c > 0]


@pytest.mark.parametrize("seed", range(30))
def test_hot_lines_rank_like_one_dict_of_every_line(seed):
    rng = random.Random(seed)
    s, want = started(50), {}
    for _ in range(rng.randint(0, 120)):
        file = rng.choice(("", "", "", "k.cpp", "a.cpp"))
        line = rng.choice((rng.randint(1, 50), rng.randint(-3, 60 + GROW + 5)))
        busy = rng.choice((0, 1, 2, 2, 5, 7))  # ties
        s.line_busy(instr(line, file), busy, event_of)
        want[(file, line)] = want.get((file, line), 0) + busy
    got = [((h["file"] if h["file"] != "p.vasm" else "", h["line"]), h["cycles"])
           for h in s.hot_lines()]
    assert got == reference_hot(want)


def test_own_lines_take_eight_bytes_and_stray_lines_the_dict():
    s = started(1000)
    for line in range(1, 1001):
        s.line_busy(instr(line), 3, event_of)
    assert not s.line_cycles and len(s.own) == 1001
    s.line_busy(instr(-1), 4, event_of)  # never an index from the end
    s.line_busy(instr(10 ** 9), 5, event_of)  # never a gigabyte of slots
    assert dict(s.line_cycles) == {("", -1): 4, ("", 10 ** 9): 5}
    assert len(s.own) == 1001 and s.own[1000] == 3


def test_a_line_of_another_file_keeps_its_first_event_for_its_text():
    s = started(5)
    s.line_busy(instr(3, "k.cpp"), 9, event_of)
    s.line_busy(instr(3, "k.cpp"), 1, lambda i: pytest.fail("a second event kept"))
    assert s.hot_lines() == [{"file": "k.cpp", "line": 3, "text": "k.cpp:3", "cycles": 10}]


def test_cores_add_up_line_by_line():
    """A launch's hot lines sum each line over the cores, whichever place holds it."""
    a, b, total = started(10), started(10), Statistics()
    for s, lines in ((a, (1, 2, 2, 9, 10 + GROW + 50)), (b, (2, 9, 9, 10 + GROW + 50))):
        for line in lines:
            s.line_busy(instr(line), 4, event_of)
    total.line_busy(instr(GROW + 4), 1, event_of)  # the dict's until the array may hold it
    assert dict(total.line_cycles) == {("", GROW + 4): 1}
    total.add(a)
    total.add(b)
    assert total.own[2] == 12 and total.own[9] == 12 and total.own[GROW + 4] == 1
    assert dict(total.line_cycles) == {("", 10 + GROW + 50): 8}
