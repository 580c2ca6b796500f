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
    assert session.exit_code == 1 and "warning: race:" in session.output
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
