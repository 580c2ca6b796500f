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
