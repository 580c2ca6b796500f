"""Issue 34: the fast loop's plans for reg-based register instructions (simulator/regplans.py)
against the reference path. A VF loop runs each statement many times, so the plans take over
from the second execution; everything a run reports must be identical both ways (raw bytes, every
diagnostic, every cycle figure, the timing model's state: `same_both_ways`), in every check mode,
with timing off, and when a check fires in the middle of the loop."""

from __future__ import annotations

import pytest

from simulator import fused
from tests.differential.test_fused import same_both_ways

HEAD = """.chip ascend950
.ub a f32[1024] = random(1)
.ub b f32[1024] = random(2)
.ub h f16[1024] = random(3)
.ub z f32[1024]
.ub w u8[64]
"""

# UpdateMask tails, loads, compute of every planned family, a store: a gelu-like loop
LOOP = """    li x1, 1000
    li x2, 0
    vf_begin "t"
loop:
    plt.f32 p1, x1
    vlds.f32 v0, a[x2]
    vlds.f32 v1, b[x2]
    vrmul.f32 v2, v0, v0, p1
    vrmuls.f32 v2, v2, 0.044715, p1
    vradd.f32 v2, v0, v2, p1
    vrexp.f32 v3, v2, p1
    vrdiv.f32 v3, v0, v3, p1
    vrabs.f32 v4, v3, p1
    vrmax.f32 v4, v4, v1, p1, merge=1
    vrcmp.lt.f32 p2, v0, v1, p1
    vrcmps.gt.f32 p3, v0, 0.5, p1
    pand p4, p2, p3, p1
    pnot p5, p4, p1
    vrsel.f32 v5, v4, v1, p5
    vrdup.f32 v6, 2.0, p4
    vrdup.f32 v6, 3.0, p5, merge=1
    vredmax.f32 v7, v5, p1
    vmembar vst, vld
    vsts.f32 z[x2], v5, p1
    add x2, x2, 64
    blt x2, 1024, loop
    pset.f32 p0, ALL
    vsts.f32 z[0], v7, p0
    psts w[0], p4
    vf_end
"""


def test_a_vf_loop_is_the_same_both_ways():
    outcome = same_both_ways(HEAD + LOOP)
    assert outcome[0] == "ok", outcome


@pytest.mark.parametrize("checks", ["error", "warn", "off"])
def test_the_same_in_every_check_mode(checks):
    # v11 is merged into before anything wrote it, v9 read unwritten, and p6 is a MaskReg
    # made for f16 used with f32 (the width check): each at every iteration
    body = LOOP.replace("    vredmax", "    vrdup.f32 v11, 2.0, p4, merge=1\n    pset.f16 p6, ALL\n"
                        "    vradd.f32 v8, v9, v0, p6\n    vredmax")
    same_both_ways(HEAD + body, checks)


def test_the_same_without_timing():
    same_both_ways(HEAD + LOOP, timing=False)


def test_an_error_in_the_loop_s_fifth_iteration_is_the_same_both_ways():
    # from the fifth iteration on, v9 is read (a planned vrsub) before anything wrote it in
    # this VF: the error stops both loops at the same execution with the same partial UB
    body = LOOP.replace("    add x2, x2, 64\n",
                        "    blt x2, 256, skip\n    vrsub.f32 v10, v9, v0, p1\nskip:\n"
                        "    add x2, x2, 64\n")
    outcome = same_both_ways(HEAD + body)
    assert outcome[0] == "error" and "reads v9" in outcome[1][-1].message, outcome


def test_the_loop_takes_the_plans(monkeypatch):
    """The test above compares something: the plans run (a broken plan would show)."""
    made = []
    real = fused.FastLoop._reg_plan

    def spy(self, learnt, issue):
        plan = real(self, learnt, issue)
        made.append(learnt.defn.family.name)
        return plan
    monkeypatch.setattr(fused.FastLoop, "_reg_plan", spy)
    same_both_ways(HEAD + LOOP)
    assert {"plt", "vrbin", "vrscalar", "vrmath", "vrmathbin", "vrun", "vrcmp", "plogic",
            "vrsel", "vrdup", "vrreduce", "membar"} <= set(made)
