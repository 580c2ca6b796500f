"""No input breaks pipev (ISA.md §9.1): any byte string as a program, any token soup, any field
value, any .npy file: one diagnostic line per problem in the §9.1 format, exit 0 or 1 (2 for
command-line usage), never a traceback; a failed run writes no output and clobbers none."""

from __future__ import annotations

import pickle
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.cli import main
from tests.support import diagnostic_lines

DIAG = re.compile(r"^.+:\d+:\d+: (error|warning|note): \S[^\n]*$")
SETTINGS = settings(max_examples=120, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def pipev(*args: str) -> tuple[int, list[str]]:
    res = CliRunner().invoke(main, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res.exit_code, diagnostic_lines([ln for ln in res.stderr.splitlines() if ln])


def assert_clean_failure(code: int, lines: list[str]) -> None:
    assert code in (0, 1), lines
    for ln in lines:
        assert DIAG.match(ln), f"not a §9.1 diagnostic: {ln!r}"
    if code == 1:
        assert any(": error: " in ln for ln in lines), lines


def run_text(tmp: Path, data: bytes | str, *args: str) -> tuple[int, list[str]]:
    """Run DATA as a program; its outputs go to tmp/out, which must not exist yet."""
    shutil.rmtree(tmp / "out", ignore_errors=True)  # hypothesis reuses tmp between examples
    prog = tmp / "fuzz.vasm"
    prog.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "replace"))
    return pipev("run", str(prog), "--quiet", "--max-steps", "2000", "--output-dir",
                 str(tmp / "out"), *args)


# -- fuzzing ----------------------------------------------------------------------------------
@SETTINGS
@given(data=st.binary(max_size=400))
def test_any_byte_string_as_a_program(tmp_path, data):
    assert_clean_failure(*run_text(tmp_path, data))


HEADER = ".ub x f32[256] = zeros\n.ub y f32[256] = zeros\n.ub m u8[64] = zeros\n" \
         ".gm a f32[256] input = zeros\n.gm o f32[256] output\n"
TOKENS = ["vsel.f32", "vadd.f32", "vcmpv.lt.f32", "vcmp.eq.f16", "select.f32", "compare.lt.f32",
          "compares.ge.f32", "duplicate.f32", "set_mask.f32", "copy_gm_to_ub", "copy_ub_to_gm",
          "set_flag", "wait_flag", "pipe_barrier", "set_cmpmask", "get_cmpmask", "li", "add",
          "blt", "jmp", "halt", "x", "y", "m", "a", "o", "x1", "@x1", "@0x20", "@-32", "x[8]",
          "y[x1+4]", "scalar(x[0])", "cmpmask", "V", "MTE2", "MTE3", "S", "ALL", ",", ",", "=",
          "repeat=", "mode=", "count=", "mask=", "mask_lo=", "stride=", "burst=", "nburst=",
          "src_gap=", "0", "1", "2", "8", "255", "256", "65535", "-1", "0x", "1e40", "nan",
          "inf", "-inf", "(1, 2)", "1.5", "[", "]", "(", ")", "{i}", ".rept", ".endr", ".gm",
          ".ub", ".chip", "ascend910", "ascend950", "f32[4]", "u8[8]", "input", "output", ":",
          "lbl:", "lbl", '"', ";", "#", "\t", "é", "\x00", "\r", "9" * 60, "*", "//", "%"]


@SETTINGS
@given(soup=st.lists(st.tuples(st.sampled_from(TOKENS), st.sampled_from([" ", " ", "\n", ""])),
                     max_size=40))
def test_any_token_soup(tmp_path, soup):
    text = HEADER + "".join(t + sep for t, sep in soup)
    assert_clean_failure(*run_text(tmp_path, text))


VALUES = st.one_of(st.sampled_from([0, 1, 2, 7, 8, 31, 32, 63, 64, 255, 256, 4095, 4096, 65535,
                                    65536, -1, 2 ** 32, 2 ** 63, 2 ** 64, 10 ** 30]),
                   st.integers(-300, 70000))
REFS = st.one_of(st.sampled_from(["x", "y", "m", "big", "@0", "@0x2ff00", "@0x2fff0", "@x1",
                                  "@x1+32"]),
                 st.builds(lambda n, i: f"{n}[{i}]", st.sampled_from(["x", "y", "m", "big"]),
                           st.sampled_from([0, 1, 8, 16, 32, 64, 255, 2047, 2048])))
KEYS = st.sampled_from(["repeat", "mode", "count", "mask", "mask_lo", "mask_hi", "dst_blk",
                        "src0_blk", "src1_blk", "dst_rep", "src0_rep", "src_rep", "src_blk",
                        "nburst", "burst", "src_gap", "dst_gap"])


@st.composite
def statements(draw) -> str:
    t = draw(st.sampled_from(["f32", "f16", "s32", "u8", "s16"]))
    op = draw(st.sampled_from(["lt", "eq", "ge"]))
    r = [draw(REFS) for _ in range(4)]
    form = draw(st.sampled_from([
        f"vsel.{t} {r[0]}, {r[1]}, {r[2]}", f"vadd.{t} {r[0]}, {r[1]}, {r[2]}",
        f"vmuls.{t} {r[0]}, {r[1]}, 2", f"vcopy.{t} {r[0]}, {r[1]}",
        f"vcmpv.{op}.{t} {r[0]}, {r[1]}, {r[2]}", f"vcmpvs.{op}.{t} {r[0]}, {r[1]}, 1",
        f"vcmp.{op}.{t} {r[1]}, {r[2]}", f"vector_dup.{t} {r[0]}, 3",
        f"select.{t} {r[0]}, {r[1]}, {r[2]}, {r[3]}", f"compare.{op}.{t} {r[0]}, {r[1]}, {r[2]}",
        f"duplicate.{t} {r[0]}, 1", f"set_cmpmask {r[0]}", f"get_cmpmask {r[0]}",
        f"copy_gm_to_ub {r[0]}, a", f"copy_ub_to_gm o, {r[0]}", f"copy_ub_to_ub {r[0]}, {r[1]}",
        "set_mask_count", "set_mask_norm", "pipe_barrier ALL", "set_flag MTE2, V, 0",
        "wait_flag MTE2, V, 0", f"set_vector_mask {draw(VALUES)}, {draw(VALUES)}",
        f"li x1, {draw(VALUES)}", f"set_mask.{t} {draw(VALUES)}"]))
    keys = draw(st.lists(st.tuples(KEYS, st.one_of(VALUES, st.just("x1"))), max_size=3,
                         unique_by=lambda kv: kv[0]))
    return form + "".join(f", {k}={v}" for k, v in keys)


@SETTINGS
@given(chip=st.sampled_from(["ascend910", "ascend310p", "ascend910b", "ascend310b",
                             "ascend950"]),
       body=st.lists(statements(), min_size=1, max_size=8),
       checks=st.sampled_from(["error", "warn", "off"]))
def test_random_programs_with_random_fields(tmp_path, chip, body, checks):
    text = f".chip {chip}\n" + HEADER + ".ub big f32[2048] = zeros\n" + "\n".join(body) + "\n"
    code, lines = run_text(tmp_path, text, f"--checks={checks}")
    assert_clean_failure(code, lines)
    if code == 1:
        assert not (tmp_path / "out").exists()


# -- enormous and malformed input ---------------------------------------------------------------
@pytest.mark.parametrize("body", [
    "vadd.f32 " + "x" * 1_000_000 + ", y, y",
    "vadd.f32 x[" + "(" * 3000 + "1" + ")" * 3000 + "], y, y",
    ".ub q f32[4] = " + "[" * 5000 + "]" * 5000,
    ".ub q f32[4] = [" + "1, " * 100_000 + "]",
    "vadd.f32 x, y, y, repeat=" + "9" * 5000,
    "vadd.f32 x[" + "*".join(["99999999"] * 200) + "], y, y",
    "li x1, " + "9" * 5000,
    "vector_dup.f32 x, " + "9" * 5000 + ".0",
    ".ub q f32[" + "9" * 400 + "]",
    ".rept 100000\n.rept 100000\nnop\n.endr\n.endr",
    "(" * 100_000,
    "\x00" * 1000,
    "vadd.f32 x" + "\u202e" * 100 + ", y, y",
    ".chip " + "a" * 5000,
    ".chip ../../etc/passwd",
    '.ub q f32[4] = file("' + "d/" * 3000 + 'x.npy")',
    ".gm g f32[2000000000] input = zeros",
    ".ub q f32[4] = random(1, 8, -8)",
])
def test_enormous_and_malformed_lines(tmp_path, body):
    code, lines = run_text(tmp_path, HEADER + body + "\n")
    assert code == 1
    assert_clean_failure(code, lines)
    assert all(len(ln) < 1000 for ln in lines)


def test_bom_and_crlf_are_accepted(tmp_path):
    code, lines = run_text(tmp_path, b"\xef\xbb\xbf" + HEADER.replace("\n", "\r\n").encode()
                           + b"vadd.f32 x, y, y\r\n")
    assert (code, lines) == (0, [])


def test_non_utf8_program(tmp_path):
    code, lines = run_text(tmp_path, b"nop\n\xff\xfe\n")
    assert code == 1 and len(lines) == 1
    assert lines[0].endswith("error: the program is not UTF-8 text (invalid start byte at "
                             "byte 4)")
    assert ":1:1: " in lines[0]


# -- input files (§9.1: errors point at the .gm declaration; 1:1 for an undeclared name) ----------
PROGRAM = """.chip ascend910b
.gm  a  f32[64]  input
.gm  b  bf16[64] input = zeros
.gm  c  c32[8]   input = zeros
.gm  o  f32[64]  output
.ub  x  f32[64]
    copy_gm_to_ub x, a, burst=8
    set_flag MTE2, MTE3, 0
    wait_flag MTE2, MTE3, 0
    copy_ub_to_gm o, x, burst=8
"""
AT = {"a": "2:6", "b": "3:6", "c": "4:6", "o": "5:6", "x": "6:6", "undeclared": "1:1"}


class Evil:
    """Unpickling this would create a file: loading an input must never unpickle."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _npy(tmp: Path, name: str, arr=None, raw: bytes | None = None, pickled=None) -> str:
    p = tmp / name
    if raw is not None:
        p.write_bytes(raw)
    elif pickled is not None:
        with open(p, "wb") as f:
            np.save(f, pickled, allow_pickle=True)
    elif arr is not None:
        np.save(p, arr, allow_pickle=False)
    return str(p)


def input_cases(tmp: Path) -> list[tuple[str, list[str], str, list[str]]]:
    """(id, --input values, where, key words)."""
    good = _npy(tmp, "good.npy", np.arange(64, dtype=np.float32))
    header_only = (tmp / "good.npy").read_bytes()[:128]
    evil = str(tmp / "pwned")
    return [
        ("missing-required", [], "a", ["input 'a' is required", "--input a=FILE.npy",
                                       "f32[64]"]),
        ("no-such-file", [f"a={tmp / 'nope.npy'}"], "a", ["--input a", "no such file"]),
        ("directory", [f"a={tmp}"], "a", ["--input a", "is a directory"]),
        ("wrong-dtype", [f"a={_npy(tmp, 'f64.npy', np.zeros(64))}"], "a",
         ["--input a", "float64", "expected float32"]),
        ("wrong-count", [f"a={_npy(tmp, 'short.npy', np.zeros(63, np.float32))}"], "a",
         ["holds 63 elements, expected 64"]),
        ("scalar-array", [f"a={_npy(tmp, 'scalar.npy', np.float32(1))}"], "a",
         ["holds 1 elements, expected 64"]),
        ("big-endian", [f"a={_npy(tmp, 'be.npy', np.zeros(64, '>f4'))}"], "a",
         ["expected float32"]),
        ("garbage", [f"a={_npy(tmp, 'junk.npy', raw=b'not an npy file at all')}"], "a",
         ["is not a .npy file"]),
        ("truncated", [f"a={_npy(tmp, 'trunc.npy', raw=header_only)}"], "a",
         ["is not a valid .npy array"]),
        ("empty-file", [f"a={_npy(tmp, 'empty.npy', raw=b'')}"], "a",
         ["is not a .npy file"]),
        ("pickled-object-array", [f"a={_npy(tmp, 'obj.npy', pickled=np.array([Evil(evil)]))}"],
         "a", ["is not a valid .npy array"]),
        ("pickle-file", [f"a={_npy(tmp, 'p.npy', raw=pickle.dumps(Evil(evil)))}"], "a",
         ["is not a .npy file"]),
        ("bf16-as-float16", [f"a={good}", f"b={_npy(tmp, 'h.npy', np.zeros(64, np.float16))}"],
         "b", ["--input b", "expected uint16 for bf16"]),
        ("c32-shape", [f"a={good}", f"c={_npy(tmp, 'c.npy', np.zeros(16, np.float16))}"], "c",
         ["--input c", "c32"]),
        ("output-as-input", [f"a={good}", f"o={good}"], "o",
         ["--input o: 'o' is an output, not an input", "its inputs: a, b, c"]),
        ("undeclared", [f"a={good}", f"zz={good}"], "undeclared",
         ["--input zz: the program declares no GM input 'zz' (its inputs: a, b, c)"]),
        ("ub-name", [f"a={good}", f"x={good}"], "x",
         ["--input x: 'x' is a UB tensor; --input supplies GM inputs"]),
    ]


CASE_IDS = [
    "missing-required", "no-such-file", "directory", "wrong-dtype", "wrong-count",
    "scalar-array", "big-endian", "garbage", "truncated", "empty-file", "pickled-object-array",
    "pickle-file", "bf16-as-float16", "c32-shape", "output-as-input", "undeclared", "ub-name"]


@pytest.mark.parametrize("case", CASE_IDS)
def test_input_file_failures(tmp_path, case):
    prog = tmp_path / "k.vasm"
    prog.write_text(PROGRAM)
    _, inputs, where, words = next(c for c in input_cases(tmp_path) if c[0] == case)
    out = tmp_path / "out"
    args = ["run", str(prog), "--quiet", "--output-dir", str(out)]
    for item in inputs:
        args += ["--input", item]
    code, lines = pipev(*args)
    assert code == 1
    assert_clean_failure(code, lines)
    errors = [ln for ln in lines if ": error: " in ln]
    assert len(errors) == 1, lines
    assert errors[0].startswith(f"{prog}:{AT[where]}: error: "), errors[0]
    for w in words:
        assert w in errors[0], (w, errors[0])
    assert not out.exists()
    assert not (tmp_path / "pwned").exists()  # no pickle was ever loaded


def test_every_bad_input_is_reported(tmp_path):
    prog = tmp_path / "k.vasm"
    prog.write_text(PROGRAM)
    code, lines = pipev("run", str(prog), "--quiet", "--input", f"b={tmp_path / 'nope.npy'}",
                        "--input", f"zz={tmp_path / 'nope.npy'}")
    assert code == 1
    where = sorted(ln.split(": error: ")[0].rsplit(":", 2)[1] for ln in lines)
    assert where == ["1", "2", "3"]  # zz at 1:1, a required at line 2, b missing at line 3


def test_good_inputs_run(tmp_path):
    prog = tmp_path / "k.vasm"
    prog.write_text(PROGRAM)
    data = np.arange(64, dtype=np.float32)
    code, lines = pipev("run", str(prog), "--quiet", "--output-dir", str(tmp_path / "out"),
                        "--input", f"a={_npy(tmp_path, 'a.npy', data.reshape(8, 8))}")
    assert (code, lines) == (0, [])
    assert np.load(tmp_path / "out" / "o.npy").tobytes() == data.tobytes()


def test_input_without_equals_is_usage(tmp_path):
    prog = tmp_path / "k.vasm"
    prog.write_text(PROGRAM)
    res = CliRunner().invoke(main, ["run", str(prog), "--input", "a"])
    assert res.exit_code == 2 and "NAME=FILE.npy" in res.output


# -- outputs: written whole or not at all ---------------------------------------------------------
def test_failed_run_leaves_existing_outputs_untouched(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "o.npy").write_bytes(b"previous contents")
    prog = tmp_path / "k.vasm"
    prog.write_text(PROGRAM + "    vadd.f32 x, x, x, repeat=2\n")  # footprint error at run time
    good = _npy(tmp_path, "a.npy", np.zeros(64, np.float32))
    code, lines = pipev("run", str(prog), "--quiet", "--output-dir", str(out), "--input",
                        f"a={good}")
    assert code == 1 and "needs 512 bytes, tensor has 256" in lines[-1]
    assert (out / "o.npy").read_bytes() == b"previous contents"
    assert sorted(p.name for p in out.iterdir()) == ["o.npy"]  # no temporary left behind


def test_unwritable_output_dir_is_one_error_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    prog = tmp_path / "k.vasm"
    prog.write_text(PROGRAM)
    good = _npy(tmp_path, "a.npy", np.zeros(64, np.float32))
    code, lines = pipev("run", str(prog), "--quiet", "--output-dir", str(blocker / "sub"),
                        "--input", f"a={good}")
    assert code == 1 and len(lines) == 1
    assert DIAG.match(lines[0]) and "cannot write outputs" in lines[0]
    assert blocker.read_text() == "x"


def test_output_dir_that_is_a_file_is_usage(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    prog = tmp_path / "k.vasm"
    prog.write_text(PROGRAM)
    res = CliRunner().invoke(main, ["run", str(prog), "--output-dir", str(blocker)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert blocker.read_text() == "x"


def test_unwritable_trace_is_one_error_line(tmp_path):
    prog = tmp_path / "k.vasm"
    prog.write_text(HEADER + "vadd.f32 x, y, y\n")
    code, lines = pipev("run", str(prog), "--quiet", "--output-dir", str(tmp_path / "out"),
                        "--trace", str(tmp_path / "no" / "dir" / "t.jsonl"))
    assert code == 1 and len(lines) == 1
    assert DIAG.match(lines[0]) and "cannot write trace" in lines[0]


@pytest.mark.parametrize("command", ["run", "check", "asm"])
def test_program_path_problems_are_usage(tmp_path, command):
    for path in (tmp_path / "nope.vasm", tmp_path):
        res = CliRunner().invoke(main, [command, str(path)])
        assert res.exit_code == 2 and "Traceback" not in res.output
