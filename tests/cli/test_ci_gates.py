"""What a kernel author's CI job needs (issue 18): --werror, `check`, --expect, parameters."""

from pathlib import Path

from click.testing import CliRunner

from simulator.cli import main

DATA = Path(__file__).parent.parent / "data" / "ci"
TUTORIAL = Path(__file__).parents[2] / "programs" / "tutorial"


def invoke(*args, stdin=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=stdin)


def write(tmp_path, text: str, name: str = "k.vasm") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


CMPMASK_UNSET = """.chip ascend910b
.ub  x    f16[128] = fill(1.0)
.ub  m    u16[128] = zeros
.ub  z    f16[128]
    vsel.f16 z, x, {src1}, repeat=1, mode={mode}
"""


# -- --werror ---------------------------------------------------------------------------------
def test_a_race_is_a_warning_and_fails_under_werror_writing_nothing(tmp_path):
    out_dir = tmp_path / "o"
    plain = invoke("run", DATA / "race.vasm", "--output-dir", out_dir, "--quiet")
    assert plain.exit_code == 0 and "warning: race:" in plain.output
    assert (out_dir / "out.npy").exists()
    strict_dir = tmp_path / "strict"
    strict = invoke("run", DATA / "race.vasm", "--output-dir", strict_dir, "--werror")
    assert strict.exit_code == 1
    assert f"{DATA / 'race.vasm'}:8:23: warning: race: vadd.f16" in strict.output
    assert "1 warning treated as error (--werror); no output was written" in strict.output
    assert not strict_dir.exists()


def test_werror_fails_a_debug_session_that_warned():
    session = invoke("debug", DATA / "race.vasm", "--werror", stdin="continue\n")
    assert session.exit_code == 1 and "error: race: vadd.f16" in session.output  # promoted
    assert invoke("debug", DATA / "race.vasm", stdin="continue\n").exit_code == 0


def test_werror_passes_a_clean_program(tmp_path):
    r = invoke("run", TUTORIAL / "maximum.vasm", "--werror", "--output-dir", tmp_path)
    assert r.exit_code == 0, r.output


# -- CMPMASK read before anything set it --------------------------------------------------------
def test_vsel_of_any_mode_reading_an_unset_cmpmask_warns_once_per_run(tmp_path):
    for mode, src1 in ((0, "x"), (1, "m")):
        text = CMPMASK_UNSET.format(mode=mode, src1=src1)
        prog = write(tmp_path, text + text.splitlines()[-1] + "\n")
        r = invoke("run", prog, "--output-dir", tmp_path / "o", "--quiet")
        assert r.exit_code == 0
        warnings = [ln for ln in r.output.splitlines() if "CMPMASK, which nothing has set" in ln]
        assert warnings == [f"{prog}:5:5: warning: vsel.f16 reads CMPMASK, which nothing has set "
                            "(uninitialised CMPMASK: no set_cmpmask or vcmp before this read; it "
                            "holds its power-on zeros)"], r.output


def test_get_cmpmask_before_a_set_warns_and_after_a_set_does_not(tmp_path):
    body = ".chip ascend910b\n.ub m u8[32] = zeros\n"
    r = invoke("run", write(tmp_path, body + "    get_cmpmask m\n"), "--quiet", "--output-dir",
               tmp_path / "o")
    assert "get_cmpmask reads CMPMASK, which nothing has set" in r.output
    r = invoke("run", write(tmp_path, body + "    set_cmpmask m\n    get_cmpmask m[16]\n"),
               "--quiet", "--output-dir", tmp_path / "o")
    assert r.exit_code == 0 and r.output == ""


def test_a_vcmp_sets_cmpmask_for_the_vsel_after_it(tmp_path):
    text = CMPMASK_UNSET.format(mode=0, src1="x")
    text = text.replace("    vsel", "    vcmp.gt.f16 x, x\n    vsel")
    r = invoke("run", write(tmp_path, text), "--quiet", "--output-dir", tmp_path / "o")
    assert r.exit_code == 0 and "CMPMASK" not in r.output, r.output


# -- pipev check --------------------------------------------------------------------------------
FOOTPRINT = """.chip ascend910b
.ub  x    f16[512] = zeros
.ub  y    f16[512] = zeros
.ub  m    u8[32]
    compare.gt.f16 m, x, y, count=512
"""

DEADLOCK = """.chip ascend910b
.gm  a    f16[128]  input
.ub  x    f16[128]
    copy_gm_to_ub  x, a, nburst=1, burst=8
    set_flag       MTE2, V, 0
    wait_flag      MTE3, V, 0
"""

# the mode-2 select mask's address comes from CMPMASK, here loaded from input data
DATA_ADDRESS = """.chip ascend910b
.gm  a    u32[8]    input
.ub  addr u32[8]
.ub  x    f16[128] = zeros
.ub  z    f16[128]
    copy_gm_to_ub  addr, a, nburst=1, burst=1
    set_flag       MTE2, V, 0
    wait_flag      MTE2, V, 0
    set_cmpmask    addr
    vsel.f16       z, x, x, mode=2, repeat=1
"""


def first_diagnostic(result) -> str:
    return next(ln for ln in result.output.splitlines() if ": error: " in ln)


def test_check_fails_what_run_fails_with_runs_exact_message(tmp_path):
    programs = [TUTORIAL / "overlap_bug.vasm", write(tmp_path, FOOTPRINT, "footprint.vasm"),
                write(tmp_path, DEADLOCK, "deadlock.vasm")]
    for prog in programs:
        ran = invoke("run", prog, "--output-dir", tmp_path / "o", "--input",
                     f"a={zeros_npy(tmp_path)}") if "deadlock" in prog.name else \
            invoke("run", prog, "--output-dir", tmp_path / "o")
        checked = invoke("check", prog)
        assert ran.exit_code == checked.exit_code == 1, (ran.output, checked.output)
        assert first_diagnostic(checked) == first_diagnostic(ran)
        assert ": ok (" not in checked.output
    assert "needs 64 bytes, tensor has 32" in first_diagnostic(invoke("check", programs[1]))
    assert "deadlock" in first_diagnostic(invoke("check", programs[2]))


def zeros_npy(tmp_path) -> Path:
    import numpy as np

    path = tmp_path / "a.npy"
    np.save(path, np.zeros(128, np.float16))
    return path


def test_check_needs_no_input_data_and_passes_a_correct_program():
    r = invoke("check", TUTORIAL / "maximum.vasm")
    assert r.exit_code == 0 and r.output.strip().endswith("ok (9 statements, chip ascend910b)")


def test_check_reports_a_race_as_run_does_and_fails_it_under_werror():
    r = invoke("check", DATA / "race.vasm")
    assert r.exit_code == 0 and "8:23: warning: race: vadd.f16" in r.output
    strict = invoke("check", DATA / "race.vasm", "--werror")
    assert strict.exit_code == 1 and "treated as error (--werror)" in strict.output
    assert ": ok (" not in strict.output


def test_a_mask_address_loaded_from_data_is_left_to_run_and_said_once(tmp_path):
    r = invoke("check", write(tmp_path, DATA_ADDRESS))
    assert r.exit_code == 0, r.output
    notes = [ln for ln in r.output.splitlines() if "need run-time values" in ln]
    assert len(notes) == 1 and "note: 4 checks need run-time values" in notes[0]
    assert "(line 10)" in notes[0] and "warning" not in r.output
    # a constant address (the select API's own sequence) is decided statically: no note
    assert "run-time values" not in invoke("check", TUTORIAL / "maximum.vasm").output


# -- --expect ---------------------------------------------------------------------------------
def golden(tmp_path, name="golden.npy"):
    """The tutorial's output computed independently: max(a, b) of its random inputs."""
    import numpy as np

    from isa import assemble

    prog = assemble((TUTORIAL / "maximum.vasm").read_text(), "maximum.vasm", None)
    a = prog.gm["a"].init.data.view(np.float16)
    b = prog.gm["b"].init.data.view(np.float16)
    want = np.where(a > b, a, b)
    path = tmp_path / name
    np.save(path, want)
    return path, want


def test_expect_passes_a_bit_exact_output(tmp_path):
    path, _ = golden(tmp_path)
    r = invoke("run", TUTORIAL / "maximum.vasm", "--expect", f"out={path}", "--output-dir",
               tmp_path / "o", "--quiet")
    assert r.exit_code == 0, r.output


def test_expect_reports_a_mismatch_at_the_outputs_declaration(tmp_path):
    import numpy as np

    path, want = golden(tmp_path)
    bad = want.copy()
    bad[17] = np.nextafter(bad[17], np.float16(np.inf))  # 1 ULP up
    bad[300] = np.nextafter(np.nextafter(bad[300], np.float16(-np.inf)), np.float16(-np.inf))
    np.save(path, bad)
    prog = TUTORIAL / "maximum.vasm"
    r = invoke("run", prog, "--expect", f"out={path}", "--output-dir", tmp_path / "o")
    assert r.exit_code == 1
    got = want.view(np.uint16)
    line = next(ln for ln in r.output.splitlines() if "does not match" in ln)
    assert line == (f"{prog}:5:6: error: output out does not match --expect: 2 of 512 elements "
                    f"differ, first at index 17: got {float(want[17])!r} ({got[17]:#06x}), "
                    f"expected {float(bad[17])!r} ({bad.view(np.uint16)[17]:#06x}); max ULP "
                    "distance 2 (allowed 0)")
    assert (tmp_path / "o" / "out.npy").exists()  # the run succeeded: its outputs are kept
    # two ULP of tolerance accepts it, one does not
    within = invoke("run", prog, "--expect", f"out={path}", "--expect-ulp", "2", "--output-dir",
                    tmp_path / "o", "--quiet")
    assert within.exit_code == 0, within.output
    outside = invoke("run", prog, "--expect", f"out={path}", "--expect-ulp", "1",
                     "--output-dir", tmp_path / "o", "--quiet")
    assert "1 of 512 elements differ, first at index 300" in outside.output


def test_expect_of_integers_compares_exactly_and_reports_no_ulp(tmp_path):
    import numpy as np

    from isa.types import TYPES
    from simulator.expect import compare

    got = np.arange(8, dtype=np.int32)
    want = got.copy()
    want[5] = 6
    m = compare(TYPES["s32"], got.view(np.uint8), want.view(np.uint8), ulp=100)
    assert (m.differing, m.first, m.got, m.expected, m.max_ulp) == \
        (1, 5, "5 (0x00000005)", "6 (0x00000006)", None)


def test_ulp_distance_crosses_zero_and_nan_matches_nan_only_under_a_tolerance():
    import numpy as np

    from isa.types import TYPES
    from simulator.expect import compare

    f32 = TYPES["f32"]
    tiny = np.array([np.float32(1e-45)], np.float32)  # the smallest subnormal
    neg = np.array([-np.float32(1e-45)], np.float32)
    assert compare(f32, tiny.view(np.uint8), neg.view(np.uint8)).max_ulp == 2
    nan_a = np.array([0x7FC00000], np.uint32).view(np.uint8)
    nan_b = np.array([0x7FC00001], np.uint32).view(np.uint8)
    assert compare(f32, nan_a, nan_b).differing == 1  # bit for bit: payloads differ
    assert compare(f32, nan_a, nan_b, ulp=1) is None
    one = np.array([1.0], np.float32).view(np.uint8)
    assert compare(f32, nan_a, one, ulp=1000).max_ulp == -1
    assert "NaN against a number" in compare(f32, nan_a, one, ulp=1000).text(1000)


def test_expect_errors_point_at_the_declaration_and_list_the_outputs(tmp_path):
    import numpy as np

    prog = TUTORIAL / "maximum.vasm"
    path, _ = golden(tmp_path)
    r = invoke("run", prog, "--expect", f"ot={path}", "--output-dir", tmp_path / "o")
    assert r.exit_code == 1 and not (tmp_path / "o").exists()
    assert (f"{prog}:1:1: error: --expect ot: the program declares no output 'ot' (outputs: "
            "out); did you mean 'out'?") in r.output
    r = invoke("run", prog, "--expect", f"a={path}", "--output-dir", tmp_path / "o")
    assert f"{prog}:3:6: error: --expect a: the program declares no output 'a'" in r.output
    np.save(tmp_path / "short.npy", np.zeros(3, np.float16))
    r = invoke("run", prog, "--expect", f"out={tmp_path / 'short.npy'}", "--output-dir",
               tmp_path / "o")
    assert f"{prog}:5:6: error: --expect out: " in r.output and "holds 3 elements" in r.output
    (tmp_path / "t.txt").write_text("1 2 3")
    r = invoke("run", prog, "--expect", f"out={tmp_path / 't.txt'}", "--output-dir",
               tmp_path / "o")
    assert "t.txt is not a .npy file" in r.output


def test_json_failure_prints_ok_false_with_the_diagnostics(tmp_path):
    import json

    r = invoke("run", TUTORIAL / "overlap_bug.vasm", "--json", "--output-dir", tmp_path)
    assert r.exit_code == 1
    obj = json.loads(r.stdout)
    assert obj["ok"] is False and obj["diagnostics"][0]["severity"] == "error"
    assert obj["diagnostics"][0]["line"] == 16 and "overlap" in obj["diagnostics"][0]["message"]
    ok = json.loads(invoke("run", TUTORIAL / "maximum.vasm", "--json", "--output-dir",
                           tmp_path).stdout)
    assert ok["ok"] is True


# -- summary views ------------------------------------------------------------------------------
def test_view_resources_gives_each_lines_busy_cycles_per_pipe(tmp_path):
    r = invoke("run", TUTORIAL / "maximum.vasm", "--view", "resources", "--output-dir", tmp_path)
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    at = lines.index("resource pressure per source line (busy cycles per pipe)")
    assert lines[at + 1].split()[:6] == ["line", "S", "V", "MTE2", "MTE3", "share"]
    row = {int(ln.split()[0]): ln.split() for ln in lines[at + 2:]}
    assert row[19][1:5] == ["1", "0", "0", "156"] and row[19][5] == "23.5%"
    assert row[11][3] == "242" and set(row) == set(range(11, 20))


def test_view_bottleneck_walks_the_waits_back_from_the_last_instruction(tmp_path):
    r = invoke("run", TUTORIAL / "maximum.vasm", "--view", "bottleneck", "--output-dir", tmp_path)
    text = r.stdout[r.stdout.index("what set the total of 664 cycles"):]
    links = [ln.split() for ln in text.splitlines()[1:] if ln.startswith("  line")]
    assert links[0][:3] == ["line", "19", "MTE3"] and links[-1][:3] == ["line", "11", "MTE2"]
    assert "waited 492 cycles for flag V->MTE3 0, released by" in text
    # each link ends no later than the one it delayed
    import re

    spans = [tuple(map(int, re.search(r"\[\s*(\d+),\s*(\d+)\)", " ".join(ln)).groups()))
             for ln in links]
    assert all(earlier[1] <= later[1] for later, earlier in zip(spans, spans[1:], strict=False))
    assert text.rstrip().endswith("started when issued (cycle 0)")
