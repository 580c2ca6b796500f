"""Issue 34: ascend950's UB bank rule inside a VF (docs/timing.md §T9, timing/regbanks.py):
a register load or store takes max_g of its bank group's beats (2 reads, or 1 read + 1 write, a
beat); a DataBlock access whose blocks share a group costs the beats beyond the class's cycle as
bank-conflict stall."""

from __future__ import annotations

import pytest

import simulator
from simulator.events import Observer

PROGRAM = """.chip ascend950
.ub a f32[4096] = random(1)
.ub z f32[4096]
    vf_begin "t"
    pset.f32 p0, ALL
    vldsb.f32 v0, a[0], p0, blk={blk}
    vstsb.f32 z[0], v0, p0, blk={blk}
    vlds.f32 v1, a[0]
    vsts.f32 z[64], v1, p0
    vf_end
"""


def _beats(blk: int) -> tuple[int, int]:
    """(load beats, store beats) of 8 blocks BLK rows apart, from the rule: groups = row % 8."""
    per = [0] * 8
    for j in range(8):
        per[(j * blk) % 8] += 1
    return max(-(-n // 2) for n in per), max(per)


@pytest.mark.parametrize("blk", [1, 2, 4, 8, 16])
def test_data_block_accesses_pay_their_bank_beats(blk):
    load, store = _beats(blk)
    extra = (load - 1) + (store - 1)  # the load and store classes take 1 cycle (§T9)
    got = simulator.run(PROGRAM.format(blk=blk))
    base = simulator.run(PROGRAM.format(blk=1))
    assert got.stalls["bank_conflict"] == extra
    assert got.cycles - base.cycles == extra
    assert got.pipes["V"] - base.pipes["V"] == extra


def test_contiguous_vls_take_one_beat():
    r = simulator.run(PROGRAM.format(blk=1))
    assert r.stalls["bank_conflict"] == 0


class Records(Observer):
    def __init__(self):
        self.seen = []

    def on_event(self, event):
        self.seen.append((event.instr.name, event.timing.bank_extra, event.timing.busy))


def test_each_access_s_record_names_its_conflict_cycles():
    rec = Records()
    simulator.run(PROGRAM.format(blk=8), observers=[rec])
    mine = [(n, extra, busy) for n, extra, busy in rec.seen if n in ("vldsb", "vstsb", "vlds",
                                                                      "vsts")]
    assert mine == [("vldsb", 3, 4), ("vstsb", 7, 8), ("vlds", 0, 1), ("vsts", 0, 1)]
