"""Issue 34: the fast loop's plans for reg-based register instructions (simulator/regplans.py)
against the reference path. A VF loop runs each statement many times, so the plans take over
from the second execution; everything a run reports must be identical both ways (raw bytes, every
diagnostic, every cycle figure, the timing model's state: `same_both_ways`), in every check mode,
with timing off, and when a check fires in the middle of the loop."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator import fused
from tests.differential.test_fused import same_both_ways
from tests.differential.test_random_programs import SETTINGS

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
    # v11 is merged into before anything wrote it (no finding: its disabled elements stay
    # unwritten), v9 read unwritten, and p6 is a MaskReg made for f16 used with f32 (the width
    # check): each at every iteration
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


def test_a_per_lane_read_before_a_write_in_a_planned_execution_is_the_same_both_ways():
    # a VF per iteration: v1 merged under the UpdateMask tail, then read in every element; the
    # last iteration's tail (40 of 64) leaves 24 unwritten: the error at the read's 16th
    # execution, a planned one
    text = """.chip ascend950
.ub z f32[1024]
    li x1, 1000
    li x2, 0
loop:
    vf_begin "t"
    pset.f32 p0, ALL
    plt.f32 p1, x1
    vrdup.f32 v1, 2.0, p1, merge=1
    vsts.f32 z[x2], v1, p1
    vradd.f32 v2, v1, v1, p0
    vf_end
    add x2, x2, 64
    blt x2, 1024, loop
"""
    outcome = same_both_ways(text)
    assert outcome[0] == "error" and "reads element 40 of v1" in outcome[1][-1].message, outcome


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


# -- loads and stores (their UB bytes follow the address registers) ---------------------------
HEAD2 = """.chip ascend950
.gm g f32[4096] = random(5)
.ub a f32[1024] = random(1)
.ub h u16[4096] = random(3)
.ub q u8[2048] = random(4)
.ub ix u32[64] = arange(0, 3)
.ub z f32[1024]
.ub zb f32[1024]
.ub o u16[4096]
.ub so f32[512]
.ub w u8[512]
.ub un u8[8192]
.ub m f32[1024]
"""

# every load and store form, each at an address that moves with the loop (or fixed), with a
# DataBlock store whose blocks share bank groups (bank beats past the class's cycles)
LOOP2 = """    li x1, 1000
    li x2, 0
    li x5, 0
    li x6, 0
    li x7, 1
    li x8, 3
    li x3, 5
    vf_begin "t"
    pset.f32 p0, ALL
    vlds.u32 v9, ix[0]
    vldupre ul0, q[x7]
loop:
    plt.f32 p1, x1
    vlds.f32 v0, a[x2]
    vlds.f32 v1, a[x2], dist=brc_b32
    vldsb.f32 v2, a[0], p0, blk=3
    vlds2.u16 v3, v4, h[x6]
    plds p2, q[x5]
    vgth.f32 v6, a[0], v9, p1
    vldu.u8 v5, ul0, q[x7], post=64
    vradd.f32 v7, v0, v6, p1
    vrmul.f32 v7, v7, v1, p1
    vsts.f32 z[x2], v7, p1
    vstsb.f32 zb[0], v2, p0, blk=2
    vsts2.u16 o[x6], v4, v3
    psts w[x5], p2
    vsct.f32 so[0], v0, v9, p1
    vstu.u8 un[x8], v5, us1, x3, post=5
    add x2, x2, 64
    add x5, x5, 32
    add x6, x6, 256
    blt x2, 1024, loop
    vstupost us1, un[x8]
    vf_end
"""


def test_a_vf_loop_of_loads_and_stores_is_the_same_both_ways():
    outcome = same_both_ways(HEAD2 + LOOP2)
    assert outcome[0] == "ok", outcome
    assert outcome[9].get("bank_conflict"), outcome[9]  # the DataBlock store's extra beats


# the h34a register-only families (conversions, relayouts, block reductions, Squeeze ...)
LOOP3 = LOOP2.replace("    vradd.f32 v7, v0, v6, p1\n", """    vradd.f32 v7, v0, v6, p1
    vrcvt.f16.f32 v10, v0, p1, round=rint
    vrtrunc.f32 v11, v0, p1, round=floor
    vrarange.f32 v12, 1.5
    vrintlv.f32 v13, v14, v0, v1
    vrpack.u16.u32 v15, v9
    vrunpack.u32.u16 v16, v15
    vrgather.u32 v17, v9, v9
    vredblksum.f32 v18, v0, p1
    vrpairsum.f32 v19, v0, p1
    pgenv.f32 p3, v9
    vrmovm.f32 v18, v0, p1
    vrsqz.f32 v20, v0, p1, ar=1
    vclrar
    pintlv.f32 p4, p5, p1, p0
    ppack p6, p1
""")


def test_the_register_only_families_of_h34a_are_the_same_both_ways(monkeypatch):
    made = []
    real = fused.FastLoop._reg_plan

    def spy(self, learnt, issue):
        made.append(learnt.defn.family.name)
        return real(self, learnt, issue)
    monkeypatch.setattr(fused.FastLoop, "_reg_plan", spy)
    outcome = same_both_ways(HEAD2 + LOOP3)
    assert outcome[0] == "ok", outcome
    assert {"vrcvt", "vrtrunc", "vrarange", "vrrelayout", "vrpack", "vrunpack", "vrgather",
            "vredblk", "vrpair", "pgenv", "vrmovm", "vrsqz", "vclrar", "prelayout"} <= set(made)


def test_loads_and_stores_take_the_plans(monkeypatch):
    made = []
    real = fused.FastLoop._reg_plan

    def spy(self, learnt, issue):
        plan = real(self, learnt, issue)
        assert plan is not None
        made.append(learnt.defn.family.name)
        return plan
    monkeypatch.setattr(fused.FastLoop, "_reg_plan", spy)
    same_both_ways(HEAD2 + LOOP2)
    assert {"vload", "vloadb", "vload2", "pload", "vgatherub", "vldu", "vstore", "vstoreb",
            "vstore2", "pstore", "vscatter", "vstu"} <= set(made)


def _every_iteration(line: str) -> str:
    """LOOP2 with LINE in every iteration; x13 is 0 in the first four and 1 from the fifth on,
    so a check LINE's operands trip then fires in a planned execution (the plans take over
    from the second)."""
    return LOOP2.replace("    li x3, 5\n", "    li x3, 5\n    li x13, 0\n    li x14, 64\n").replace(
        "    add x2, x2, 64\n", "    blt x2, 256, skip\n    li x13, 1\n    li x14, -64\nskip:\n"
        f"{line}\n    add x2, x2, 64\n")


@pytest.mark.parametrize("checks", ["error", "warn", "off"])
@pytest.mark.parametrize("line, words", [
    # a store outside its tensor (so is 2048 bytes: from the ninth iteration on)
    ("    vsts.f32 so[x2], v0, p1", "outside tensor so"),
    # a load misaligned from the fifth iteration (4 bytes past a 32-byte boundary)
    ("    add x11, x2, x13\n    vlds.f32 v8, a[x11]", "not 32-byte aligned"),
    # a load of the next iteration's bytes, then (from the fifth) of the bytes the store of
    # the iteration before wrote, with no LocalMemBar between
    ("    add x12, x2, x14\n    vlds.f32 v8, z[x12]", "LocalMemBar"),
])
def test_a_check_in_a_planned_execution_is_the_same_both_ways(checks, line, words):
    outcome = same_both_ways(HEAD2 + _every_iteration(line), checks)
    found = outcome[1] if outcome[0] == "error" else outcome[3]
    if checks == "error":
        assert outcome[0] == "error" and words in outcome[1][-1].message, outcome
    elif checks == "warn":
        assert any(words in d.message for d in found), found


def test_a_load_outside_ub_in_the_loop_is_the_same_both_ways():
    # x9 walks toward UB's end: the fourth execution's VL runs past it (a fault in every mode)
    body = LOOP2.replace("    vf_begin", f"    li x9, {262144 - 3 * 256}\n    vf_begin").replace(
        "    add x2, x2, 64\n", "    vlds.f32 v8, @x9\n    add x9, x9, 256\n    add x2, x2, 64\n")
    outcome = same_both_ways(HEAD2 + body, "warn")
    assert outcome[0] == "error" and "outside UB" in outcome[1][-1].message, outcome


def test_the_hazard_checks_are_the_same_both_ways():
    # the VF writes m's first 1 KB; the loop reads m[x2], unwritten from the fifth iteration
    # (the init check), and a[x2], whose second half MTE2 may still be writing from g (no flag
    # orders the copy before V: a race) from the ninth: both in planned executions
    body = ("    copy_gm_to_ub a[512], g[0], nburst=1, burst=64\n"
            + _every_iteration("    vlds.f32 v8, m[x2]").replace(
                "    vlds.u32 v9, ix[0]\n", "    vlds.u32 v9, ix[0]\n" + "".join(
                    f"    vsts.f32 m[{k}], v9, p0\n" for k in range(0, 256, 64))
                + "    vmembar vst, vld\n"))
    outcome = same_both_ways(HEAD2 + body, "warn")
    words = [d.message for d in outcome[3]]
    assert any("never written" in w for w in words), words
    assert any("race" in w or "MTE2" in w for w in words), words


def test_spill_slots_are_the_same_both_ways_and_cost_their_reloads_and_spills():
    # v2 and v5 in spill slots (v40, v45): every instruction reading one pays a reload, every
    # one writing one a spill (docs/timing.md §T9); the results are the registers' own
    spilled = LOOP.replace("v2", "v40").replace("v5", "v45")
    plain, slots = same_both_ways(HEAD + LOOP), same_both_ways(HEAD + spilled)
    assert slots[1] == plain[1] and slots[2] == plain[2]  # UB and outputs
    # an iteration: vrmul writes v40; vrmuls, vradd read and write it; vrexp reads it; vrsel
    # writes v45, vredmax and vsts read it: 5 reloads, 4 spills, 1 cycle each (the profile's
    # load and store classes), 16 iterations
    reads, writes = 5, 4
    assert slots[6]["V"] - plain[6]["V"] == 16 * (reads + writes), (reads, writes)  # V busy


# -- random loops of loads and stores ----------------------------------------------------------
# a statement's text with its address register; its element type's bytes (for the stride)
ACCESS_FORMS = (
    ("    vlds.f32 v{v}, a[x{x}]", 4),
    ("    vlds.f32 v{v}, a[x{x}], dist=brc_b32", 4),
    ("    vlds.f32 v{v}, z[x{x}]", 4),
    ("    vsts.f32 z[x{x}], v0, p1", 4),
    ("    vsts.f32 z[x{x}], v0, p1, sdist=first", 4),
    ("    vldsb.f32 v{v}, a[x{x}], p0, blk=2", 4),
    ("    vstsb.f32 zb[x{x}], v0, p0, blk=3", 4),
    ("    vlds2.u16 v{v}, v{w}, h[x{x}]", 2),
    ("    plds p2, q[x{x}]", 1),
    ("    psts w[x{x}], p2", 1),
    ("    vmembar vst, vld", 0),
)


@st.composite
def access_loops(draw) -> str:
    """A VF loop of 2-6 iterations over 1-6 loads and stores, each at its own address register
    (a start and a stride drawn, so some run misaligned, past their tensor or out of UB)."""
    forms = draw(st.lists(st.sampled_from(ACCESS_FORMS), min_size=1, max_size=6))
    head, body = [], []
    for k, (form, size) in enumerate(forms):
        x = 10 + k
        start = draw(st.sampled_from([0, 0, 8, 1, 960, 4000, 65500]))
        stride = draw(st.sampled_from([64, 64, 32, 8, 1, 0]))
        head.append(f"    li x{x}, {start}")
        body.append(form.format(v=4 + k, w=20 + k, x=x))
        if size:
            body.append(f"    add x{x}, x{x}, {stride}")
    n = draw(st.integers(2, 6))
    return (HEAD2 + "\n".join(head) + "\n    li x1, 100\n    li x2, 0\n    vf_begin \"t\"\n"
            "    pset.f32 p0, ALL\n    pset.u8 p2, ALL\n    vlds.f32 v0, a[0]\nloop:\n"
            "    plt.f32 p1, x1\n" + "\n".join(body) + f"\n    add x2, x2, 1\n"
            f"    blt x2, {n}, loop\n    vf_end\n")


@settings(SETTINGS, max_examples=40)
@given(access_loops(), st.sampled_from(("error", "warn", "off")))
def test_random_loops_of_loads_and_stores_are_the_same_both_ways(text, checks):
    same_both_ways(text, checks)


def test_mask_spill_slots_are_the_same_both_ways_and_cost_their_reloads_and_spills():
    # p4 in a spill slot (p44): pand writes it, pnot and vrdup read it each iteration, psts
    # after the loop once: 16 * 3 + 1 cycles
    plain, slots = same_both_ways(HEAD + LOOP), same_both_ways(HEAD + LOOP.replace("p4", "p44"))
    assert slots[1] == plain[1] and slots[2] == plain[2]
    assert slots[6]["V"] - plain[6]["V"] == 16 * 3 + 1
