"""Errors that teach (issue 18): the source line and a caret, nearest-name suggestions, flag
near misses, --input errors at the right declaration."""

from pathlib import Path

from click.testing import CliRunner

from simulator.cli import main

TUTORIAL = Path(__file__).parents[2] / "programs" / "tutorial"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def stderr_lines(result) -> list[str]:
    return result.stderr.splitlines()


def test_a_diagnostic_quotes_its_source_line_with_a_caret_under_the_column(tmp_path):
    prog = TUTORIAL / "overlap_bug.vasm"
    lines = stderr_lines(invoke("run", prog, "--output-dir", tmp_path))
    head = f"{prog}:16:30: error: vsel.f16 dst x and src0 x overlap partially"
    assert lines[0].startswith(head)
    assert lines[1] == "   16 |     select.f16     x[16], m, x, y, mode=2, count=496"
    assert lines[2] == "      | " + " " * 29 + "^"
    assert lines[1][lines[2].index("^")] == "x"  # the caret is under column 30


def test_no_source_prints_one_line_per_diagnostic(tmp_path):
    prog = TUTORIAL / "overlap_bug.vasm"
    for args in (["--no-source", "run", prog], ["run", "--no-source", prog]):
        lines = stderr_lines(invoke(*args, "--output-dir", tmp_path))
        assert len(lines) == 1 and lines[0].startswith(f"{prog}:16:30: error: ")


def test_the_caret_follows_tabs_and_control_characters_are_shown_safely(tmp_path):
    prog = tmp_path / "k.vasm"
    prog.write_bytes(b".ub z f32[8]\n\tvadd.f32\tz, z, q\x0b\n")
    lines = stderr_lines(invoke("check", prog))
    assert lines[0].startswith(f"{prog}:2:")
    assert lines[1] == "    2 | \tvadd.f32\tz, z, q\ufffd"
    assert lines[2].startswith("      | \t        \t")


TYPOS = """.chip ascend910b
.ub  xin  f16[128] = zeros
.ub  zout f16[128]
.ub  w    flot16[4]
.rpt 2
    vsell.f16 zout, xin, xin
    vadd.f61  zout, xin, xin
    vadd.f16  zout, xni, xin
    vadd.f16  zout, xin, xin, repaet=1
    jmp       lop
loop:
"""


def test_unknown_names_suggest_the_nearest_valid_one(tmp_path):
    prog = tmp_path / "k.vasm"
    prog.write_text(TYPOS)
    lines = stderr_lines(invoke("--no-source", "check", prog))
    assert [ln.split(": error: ")[1] for ln in lines] == [
        "unknown type 'flot16'; did you mean 'float16'?",
        "unknown directive '.rpt' (expected .chip, .block_dim, .gm, .ub, .param, .loc, .rept, "
        ".endr or .end); did you mean '.rept'?",
        "unknown mnemonic 'vsell'; did you mean 'vsel'?",
        "unknown type 'f61'; did you mean 'f16'?",
        "unknown tensor 'xni'; did you mean 'xin'?",
        "unknown key 'repaet'; did you mean 'repeat'?",
        "unknown label 'lop'; did you mean 'loop'?"]


def test_a_deadlocked_wait_flag_names_the_near_miss_set_flag(tmp_path):
    prog = tmp_path / "k.vasm"
    prog.write_text(".chip ascend910b\n.gm a f16[128] input\n.ub x f16[128]\n"
                    "    copy_gm_to_ub x, a, nburst=1, burst=8\n    set_flag MTE2, V, 0\n"
                    "    wait_flag MTE3, V, 0\n")
    line = stderr_lines(invoke("--no-source", "check", prog))[0]
    assert line == (f"{prog}:6:5: error: deadlock: wait_flag MTE3, V, 0 has no earlier "
                    "unconsumed set_flag; no set_flag of it follows (set_flag MTE2, V, 0 at line "
                    "5 is set and never waited for: did you mean wait_flag MTE2, V, 0?)")
    prog.write_text(".chip ascend910b\n    wait_flag V, MTE3, 1\n    set_flag V, MTE3, 0\n")
    line = stderr_lines(invoke("--no-source", "check", prog))[0]
    assert line.endswith("no set_flag of it follows (set_flag V, MTE3, 0 at line 3 differs from "
                         "it in one place)")


def test_input_errors_point_at_the_declaration_and_list_the_inputs(tmp_path):
    import numpy as np

    prog = TUTORIAL / "maximum.vasm"
    good = tmp_path / "a.npy"
    np.save(good, np.zeros(512, np.float16))

    def error(name):
        r = invoke("--no-source", "run", prog, "--input", f"{name}={good}", "--output-dir",
                   tmp_path / "o")
        assert r.exit_code == 1
        return stderr_lines(r)[0]

    assert error("q") == (f"{prog}:1:1: error: --input q: the program declares no GM input 'q' "
                          "(its inputs: a, b)")
    unknown = invoke("run", prog, "--input", f"q={good}", "--output-dir", tmp_path / "o")
    assert len(stderr_lines(unknown)) == 1  # an option's problem at 1:1 quotes no source
    assert error("aa").endswith("(its inputs: a, b); did you mean 'a'?")
    assert error("out") == (f"{prog}:5:6: error: --input out: 'out' is an output, not an input "
                            "(declare it `input` or `inout` to supply it; its inputs: a, b)")
    assert error("x").startswith(f"{prog}:6:6: error: --input x: 'x' is a UB tensor")
    (tmp_path / "t.txt").write_text("1, 2, 3")
    r = invoke("--no-source", "run", prog, "--input", f"a={tmp_path / 't.txt'}")
    assert stderr_lines(r)[0] == (f"{prog}:3:6: error: --input a: {tmp_path / 't.txt'} is not a "
                                  ".npy file (it does not begin with the .npy magic bytes; "
                                  "write arrays with numpy.save)")
