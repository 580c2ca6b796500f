"""Issue 34: a register read before it is written, per lane. A merging write (MaskMergeMode
MERGING) defines only the elements its mask enables; reading the others under a later mask is a
read before a write at that line, reading only written elements is not; a zeroing write defines
every element (the inactive ones are zeros); Move without a mask copies which elements are
written; Select reads vA where its mask enables and vB elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

import simulator
from simulator.errors import SimulationError

HEAD = """.chip ascend950
.ub a f32[64] = random(1)
.ub z f32[64]
    li x1, 40
    vf_begin "t"
    pset.f32 p0, ALL
    plt.f32 p1, x1
    vlds.f32 v0, a[0]
"""


def run(body: str, checks: str = "error"):
    return simulator.run(HEAD + body + "    vf_end\n", checks=checks)


def test_reading_only_the_written_elements_of_a_merged_register_is_fine():
    r = run("    vrdup.f32 v1, 2.0, p1, merge=1\n"  # elements 0..39 written, 40..63 not
            "    vradd.f32 v2, v1, v0, p1\n"  # reads 0..39
            "    vsts.f32 z[0], v2, p1\n")
    assert not r.diagnostics
    a = np.frombuffer(bytes(r.ub), np.float32)[:64]  # a is UB's first tensor
    z = np.frombuffer(bytes(r.ub), np.float32)[64:128]
    assert z[:40].tobytes() == (a[:40] + np.float32(2.0)).tobytes()  # results unchanged


def test_reading_an_unwritten_element_of_a_merged_register_is_an_error_at_its_line():
    with pytest.raises(SimulationError) as e:
        run("    vrdup.f32 v1, 2.0, p1, merge=1\n"
            "    vradd.f32 v2, v1, v0, p0\n")  # reads 40..63 too
    msg = str(e.value)
    assert "<string>:10:" in msg or ":10:" in msg, msg
    assert "reads element 40 of v1 (a)" in msg and "40 of 64 elements written" in msg, msg


def test_a_store_under_the_mask_reads_only_its_enabled_elements():
    run("    vrdup.f32 v1, 2.0, p1, merge=1\n    vsts.f32 z[0], v1, p1\n")
    with pytest.raises(SimulationError, match="reads element 40 of v1"):
        run("    vrdup.f32 v1, 2.0, p1, merge=1\n    vsts.f32 z[0], v1, p0\n")


def test_a_zeroing_write_defines_every_element():
    r = run("    vrdup.f32 v1, 2.0, p1\n    vradd.f32 v2, v1, v0, p0\n"
            "    vrmuls.f32 v3, v0, 2.0, p1\n    vsts.f32 z[0], v3, p0\n")
    assert not r.diagnostics


def test_merging_into_a_register_nothing_wrote_is_no_finding_by_itself():
    # the elements the mask does not enable keep whatever the register held: only reading
    # them is a read before a write (faithful, not stricter)
    r = run("    vradd.f32 v1, v0, v0, p1, merge=1\n    vsts.f32 z[0], v1, p1\n")
    assert not r.diagnostics


def test_merges_accumulate_written_elements():
    r = run("    li x2, 24\n    plt.f32 p2, x2\n    pnot p3, p2, p0\n"
            "    vrdup.f32 v1, 2.0, p2, merge=1\n"  # 0..23
            "    vrdup.f32 v1, 3.0, p3, merge=1\n"  # 24..63
            "    vsts.f32 z[0], v1, p0\n")
    assert not r.diagnostics


def test_move_copies_which_elements_are_written():
    with pytest.raises(SimulationError) as e:
        run("    vrdup.f32 v1, 2.0, p1, merge=1\n    vrmov.f32 v4, v1\n"  # the copy: fine
            "    vsts.f32 z[0], v4, p1\n"  # its written elements: fine
            "    vsts.f32 z[0], v4, p0\n")  # element 40: the error, at this line
    assert "reads element 40 of v4 (s)" in str(e.value) and ":12:" in str(e.value)


def test_select_reads_a_where_the_mask_enables_and_b_elsewhere():
    r = run("    vrdup.f32 v1, 2.0, p1, merge=1\n    pnot p3, p1, p0\n"
            "    vrdup.f32 v2, 3.0, p3, merge=1\n"  # v1 has 0..39, v2 has 40..63
            "    vrsel.f32 v3, v1, v2, p1\n    vsts.f32 z[0], v3, p0\n")
    assert not r.diagnostics
    with pytest.raises(SimulationError, match="reads element 0 of v2 .a."):  # v2 as vA
        run("    vrdup.f32 v1, 2.0, p1, merge=1\n    pnot p3, p1, p0\n"
            "    vrdup.f32 v2, 3.0, p3, merge=1\n    vrsel.f32 v3, v2, v1, p1\n")


@pytest.mark.parametrize("checks", ["warn", "off"])
def test_an_error_in_every_check_mode(checks):
    # as a register nothing wrote: --checks governs alignment, footprints and overlaps only
    with pytest.raises(SimulationError, match="reads element 40 of v1"):
        run("    vrdup.f32 v1, 2.0, p1, merge=1\n    vradd.f32 v2, v1, v0, p0\n", checks)


def test_a_new_vector_function_forgets_what_the_last_one_wrote():
    with pytest.raises(SimulationError, match="reads v1 .a. before anything"):
        run("    vrdup.f32 v1, 2.0, p0\n    vf_end\n    vf_begin \"u\"\n    pset.f32 p0, ALL\n"
            "    vradd.f32 v2, v1, v1, p0\n")


def test_stepping_back_restores_which_elements_are_written():
    """The undo log keeps the written elements with the registers: `back` over the full write
    of v1 finds the 40 elements the merge before it wrote, `back` over that merge none; the run
    then goes on as before."""
    import pipev

    body = ("    vrdup.f32 v1, 2.0, p1, merge=1\n    vrdup.f32 v1, 3.0, p0\n"
            "    vradd.f32 v2, v1, v0, p0\n")
    dbg = pipev.debug(HEAD + body + "    vf_end\n")
    dbg.execute("break 11")
    dbg.execute("continue")  # at the vradd: v1 fully written
    assert bool(dbg.session.machine.regs.v_set[1])
    dbg.execute("back 1")  # before the full write: 40 of 64 elements
    regs = dbg.session.machine.regs
    assert not regs.v_set[1] and int(regs.v_def[1].sum()) == 40 * 4
    dbg.execute("back 1")  # before the merge: nothing written
    assert not regs.v_def[1].any()
    reply = dbg.execute("continue")
    assert not any("error" in ln for ln in reply), reply
