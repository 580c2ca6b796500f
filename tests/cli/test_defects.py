"""Issue 13, the adversarial pass: each defect reduced to a program (or a file) that failed
before its fix. Expected bytes come from numpy over the spec's formulas, never from pipev."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import simulator
from isa.chip import CHIP_DIR, ChipError, get_chip
from isa.diagnostics import AssemblyError
from simulator.cli import main
from simulator.errors import SimulationError
from tests.support import diagnostic_lines

DIAG = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): "
                  r"(?P<msg>\S[^\n]*)$")


def pipev(*args: str) -> tuple[int, list[str]]:
    """Run the CLI in-process: (exit code, stderr lines); a traceback fails the test."""
    res = CliRunner().invoke(main, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res.exit_code, diagnostic_lines([ln for ln in res.stderr.splitlines() if ln])


def one_error(tmp: Path, text: str, *args: str) -> re.Match:
    """Run TEXT as a program that must fail with exactly one §9.1 error line."""
    prog = tmp / "p.vasm"
    prog.write_text(text)
    code, lines = pipev("run", str(prog), "--quiet", "--output-dir", str(tmp / "out"), *args)
    assert code == 1, lines
    errors = [m for m in map(DIAG.match, lines) if m and m["sev"] == "error"]
    assert len(errors) == 1 and len(lines) == 1, lines
    return errors[0]


def ub(r: simulator.RunResult, name: str) -> bytes:
    t = r.program.tensors[name]
    return r.ub[t.addr:t.addr + t.nbytes].tobytes()


def errors_of(text: str, chip=None) -> list[str]:
    with pytest.raises((AssemblyError, SimulationError)) as info:
        simulator.run(text, chip=chip)
    return [f"{d.line}:{d.column}: {d.message}" for d in info.value.diagnostics
            if d.severity == "error"]


# -- f1 / f1b: scalar-first select, high-dimensional form, src1's own strides ---------------------
Y = np.arange(256, dtype=np.float16)


def _flex(sel: str, stride: str, repeat: int, mask: int, src0: str = "9.0") -> str:
    return f""".chip ascend950
.ub y f16[256] = arange(0)
.ub m u8[32] = bits("{sel * 32}")
.ub z f16[256] = zeros
    select.f16 z, m, {src0}, y, mode=1, mask={mask}, repeat={repeat}, stride={stride}
"""


def _strided(base: np.ndarray, blk: int, rep: int, repeats: int, active: int) -> np.ndarray:
    """ISA.md §5 for f16: element k of repeat i is block k // 16, offset k % 16."""
    k = np.arange(active)
    idx = [i * rep * 16 + (k // 16) * blk * 16 + k % 16 for i in range(repeats)]
    return base[np.concatenate(idx)]


@pytest.mark.parametrize("src0", ["9.0", "scalar(y[255])"])
def test_scalar_first_reads_src1_with_src1_strides(src0):
    """f1: sel all zeros picks src1 everywhere; src1 block stride 2, repeat stride 16."""
    r = simulator.run(_flex("00", "1,1,2,8,8,16", 1, 32, src0))
    want = np.zeros(256, np.float16)
    want[:32] = _strided(Y, 2, 16, 1, 32)
    assert ub(r, "z") == want.tobytes()


def test_scalar_first_sel_ones_picks_the_scalar_whatever_the_strides():
    r = simulator.run(_flex("ff", "1,1,2,8,8,16", 1, 32, "scalar(y[7])"))
    want = np.zeros(256, np.float16)
    want[:32] = 7
    assert ub(r, "z") == want.tobytes()


def test_scalar_first_scalar_strides_mean_nothing():
    """f1b: src0 is the scalar, so its strides (blk 8, rep 64) must not be applied to src1:
    two repeats of y with default strides are exactly its 512 bytes (no footprint error)."""
    r = simulator.run(_flex("00", "1,8,1,8,64,8", 2, 128))
    assert ub(r, "z") == Y.tobytes()


# -- f2, f6, f8: the lexer ------------------------------------------------------------------------
def test_990_deep_unary_chain_is_an_index_not_a_recursion_error():
    text = f".ub x f16[1024] = zeros\n    vadds.f16 x[{'-' * 990}16], x, 1.0\n" \
           f"    vadds.f16 x[{'-' * 989}16], x, 1.0\n"
    msgs = errors_of(text)
    assert msgs == ["3:17: x[-16] is beyond the tensor (1024 elements)"]  # line 2 assembled


def test_unary_chain_value(tmp_path):
    r = simulator.run(f".ub x f16[1024] = zeros\n.ub y f16[128] = zeros\n"
                      f"    vadds.f16 x[{'-' * 990}16], y, 1.0\n")
    assert r.program.statements[0].hw[0].operands["dst"].addr == r.program.tensors["x"].addr + 32


def test_4000_digit_hex_immediate_is_one_diagnostic(tmp_path):
    m = one_error(tmp_path, ".chip ascend910b\n    set_vector_mask 0, 0x" + "f" * 4000 + "\n")
    assert (m["line"], m["col"]) == ("2", "24")
    assert "too large" in m["msg"] and "(4004 characters)" in m["msg"]


def test_5000_digit_decimal_immediate_is_one_diagnostic(tmp_path):
    m = one_error(tmp_path, ".ub x f32[64] = fill(" + "7" * 5000 + ")\n")
    assert (m["line"], m["col"]) == ("1", "22") and "too large" in m["msg"]


def test_index_like_1if_gives_no_python_warning():
    """f8: `1if` made ast.parse print a SyntaxWarning on stderr besides the diagnostic."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        msgs = errors_of(".ub x f16[1024] = zeros\n    vadds.f16 x[1if], x, 1.0\n")
    assert msgs == ["2:17: expected an integer, got '1if'"]
    assert [str(w.message) for w in seen] == []


# -- f3, f4, f7: INIT forms -----------------------------------------------------------------------
def test_u64_arange_near_2_to_the_64_runs():
    start = 2**64 - 616
    r = simulator.run(f".chip ascend950\n.ub x u64[100] = arange({start})\n")
    assert ub(r, "x") == np.array([start + i for i in range(100)], np.uint64).tobytes()


def test_s64_arange_down_through_zero_and_u64_step():
    r = simulator.run(".chip ascend950\n.ub a s64[70] = arange(-35, 1)\n"
                      ".ub b u64[70] = arange(0, 0x0300000000000001)\n")
    assert ub(r, "a") == np.array(range(-35, 35), np.int64).tobytes()
    assert ub(r, "b") == np.array([i * 0x0300000000000001 for i in range(70)],
                                  np.uint64).tobytes()


def test_float_arange_of_an_integer_beyond_int64():
    r = simulator.run(".ub a f32[16] = arange(99999999999999999999, 3)\n")
    want = (float(99999999999999999999) + 3.0 * np.arange(16)).astype(np.float32)
    assert ub(r, "a") == want.tobytes()


@pytest.mark.parametrize("args", ["1" + "0" * 400, "0x" + "f" * 300 + ", 0.5"])
def test_float_arange_beyond_every_float_is_an_error(args):
    """The second was found by benchmarks/fuzz.py: a huge START with a float STEP."""
    msgs = errors_of(f".ub a f16[4] = arange({args})\n")
    assert len(msgs) == 1 and msgs[0].startswith("1:23: ") and "beyond every float" in msgs[0]


@pytest.mark.parametrize("init, col", [("arange((1, 2))", 24), ("arange(0, (0, 1))", 27),
                                       ("random(1, (0, 1), 5)", 27)])
def test_complex_init_for_a_real_type_is_an_error(init, col):
    """f4: accepted with a numpy ComplexWarning and the imaginary part dropped."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        msgs = errors_of(f".chip ascend950\n.ub x f16[64] = {init}\n")
    assert len(msgs) == 1 and msgs[0].startswith(f"2:{col}: "), msgs
    assert "complex" in msgs[0] or "real numbers" in msgs[0]
    assert [str(w.message) for w in seen] == []


def test_complex_arange_for_a_complex_type_still_runs():
    r = simulator.run(".chip ascend950\n.ub x c64[4] = arange((1, 2), (0, 1))\n")
    want = ((1 + 2j) + 1j * np.arange(4)).astype(np.complex64)
    assert ub(r, "x") == want.tobytes()


# -- f10: register counts -------------------------------------------------------------------------
F10 = """.chip ascend950
.ub x f16[256] = arange(0)
.ub y f16[256] = arange(1000)
.ub m u8[32] = bits("{sel}")
.ub z f16[256] = zeros
.ub w f16[256] = zeros
.ub d u8[32] = zeros
.ub e u8[32] = zeros
    li x1, {n}
    li x2, 3
"""
SEL = bytes((7 + 37 * k) % 256 for k in range(32)).hex()  # mixed bits


@pytest.mark.parametrize("n", [1, 127, 128, 200, 256])
def test_scalar_first_select_with_a_register_count(n):
    text = F10.format(sel=SEL, n=n) + \
        "    select.f16 z, m, scalar(y[x2]), x, mode=1, count=x1\n" + \
        f"    select.f16 w, m, scalar(y[3]), x, mode=1, count={n}\n"
    r = simulator.run(text)
    bits = np.unpackbits(np.frombuffer(bytes.fromhex(SEL), np.uint8), bitorder="little")
    x = np.arange(256, dtype=np.float16)
    want = np.where(bits.astype(bool), np.float16(1003), x)
    want[n:] = 0
    assert ub(r, "z") == want.tobytes()
    assert ub(r, "w") == want.tobytes()


@pytest.mark.parametrize("t, size, n", [("u8", 1, 700), ("s64", 8, 70), ("c64", 8, 50),
                                        ("c32", 4, 90)])
def test_scalar_first_register_count_on_8_and_64_bit_types(t, size, n):
    """The mode-2 form's one block of scalars: written in counter mode for 8-bit types."""
    rng = np.random.default_rng(n)
    xs, ss, ms = (rng.integers(0, 256, k, dtype=np.uint8) for k in (1024 * size, 32, 256))
    raw = {1: np.uint8, 4: np.uint32, 8: np.uint64}[size]
    text = f""".chip ascend950
.ub x {t}[1024] = bits("{xs.tobytes().hex()}")
.ub s {t}[{32 // size}] = bits("{ss.tobytes().hex()}")
.ub m u8[256] = bits("{ms.tobytes().hex()}")
.ub z {t}[1024] = zeros
    li x1, {n}
    select.{t} z, m, scalar(s[2]), x, mode=1, count=x1
"""
    bits = np.unpackbits(ms, bitorder="little")[:1024].astype(bool)
    want = np.where(bits, ss.view(raw)[2], xs.view(raw))
    want[n:] = 0
    assert ub(simulator.run(text), "z") == want.tobytes()


def test_scalar_first_select_with_a_register_repeat_and_strides():
    """repeat=xN in the high-dimensional form (it was rejected too); src1 block stride 2."""
    text = F10.format(sel=SEL, n=1) + \
        "    select.f16 z, m, 5.0, x, mode=1, repeat=x1, mask=32, stride=1,4,2,8,9,16\n"
    r = simulator.run(text)
    bits = np.unpackbits(np.frombuffer(bytes.fromhex(SEL), np.uint8), bitorder="little")
    want = np.zeros(256, np.float16)
    want[:32] = np.where(bits[:32].astype(bool), np.float16(5),
                         _strided(np.arange(256, dtype=np.float16), 2, 16, 1, 32))
    assert ub(r, "z") == want.tobytes()


@pytest.mark.parametrize("n", [128, 256])
def test_compare_and_compares_with_a_register_count(n):
    text = F10.format(sel=SEL, n=n) + "    compare.lt.f16 d, x, y, count=x1\n" + \
        "    compares.lt.f16 e, x, 3.0, count=x1\n"
    r = simulator.run(text)
    x, y = np.arange(256, dtype=np.float16), np.arange(1000, 1256).astype(np.float16)
    lt = np.zeros(256, bool)
    lt[:n] = (x < y)[:n]
    assert ub(r, "d") == np.packbits(lt, bitorder="little").tobytes()
    lt3 = np.zeros(256, bool)
    lt3[:n] = (x < 3)[:n]
    assert ub(r, "e") == np.packbits(lt3, bitorder="little").tobytes()


def test_register_count_compare_computes_whole_repeats():
    """docs/decisions.md: the 256-byte rule cannot be checked before running, so count=x1 = 100
    computes the whole first repeat (128 bits), as compares does."""
    r = simulator.run(F10.format(sel=SEL, n=100) + "    compare.lt.f16 d, x, y, count=x1\n")
    lt = np.zeros(256, bool)
    lt[:128] = True  # 0..127 < 1000..1127
    assert ub(r, "d") == np.packbits(lt, bitorder="little").tobytes()


def test_register_count_beyond_255_repeats_is_a_run_time_error():
    msgs = errors_of(F10.format(sel=SEL, n=255 * 128 + 1) + "    compares.lt.f16 e, x, 3.0, "
                     "count=x1\n")
    assert msgs == ["11:38: counter mode count 32641 needs 256 repeats of 128 elements (at most "
                    "255); the count is x1 = 32641"]  # at the count, naming the register


def test_register_count_on_a_chip_without_counter_mode():
    msgs = errors_of(".chip ascend910\n.ub x f16[256]\n.ub d u8[32]\n    li x1, 128\n"
                     "    compare.lt.f16 d, x, x, count=x1\n")
    assert msgs == ["5:35: count= must be a constant on ascend910 (no counter mode)"]


# -- f11: a .npy header that promises more than the file holds ------------------------------------
def _lying_npy(path: Path) -> Path:
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": True,
                                                 "shape": (999999999999, 4)})
        f.write(np.arange(16, dtype=np.float32).tobytes()[:60])
    return path


def test_truncated_npy_input_is_reported_at_its_gm_line(tmp_path):
    npy = _lying_npy(tmp_path / "lie.npy")
    m = one_error(tmp_path, ".chip ascend950\n.gm a f32[16] input\n.gm o f32[16] output\n"
                  "    copy_gm_to_ub @0x0, a, nburst=1, burst=2\n", "--input", f"a={npy}")
    assert (m["line"], m["col"]) == ("2", "5")
    assert "truncated" in m["msg"] and "999999999999, 4" in m["msg"] and "holds 60" in m["msg"]


def test_truncated_npy_file_init_is_reported_at_its_argument(tmp_path):
    _lying_npy(tmp_path / "lie.npy")
    m = one_error(tmp_path, '.ub a f32[16] = file("lie.npy")\n')
    assert (m["line"], m["col"]) == ("1", "22") and "truncated" in m["msg"]


# -- chip profiles: every key's type and range ----------------------------------------------------
def _profile(tmp: Path, old: str, new: str, base: str = "ascend910b") -> Path:
    text = (CHIP_DIR / f"{base}.toml").read_text()
    assert old in text
    path = tmp / "bad.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def _line_of(path: Path, key: str) -> str:
    return str(next(i for i, ln in enumerate(path.read_text().splitlines(), 1)
                    if re.match(rf"{key}\s*=", ln)))


@pytest.mark.parametrize("old, new, words", [
    ("queue_depth = 32", "queue_depth = 0", "[timing] queue_depth = 0 must be an integer in 1"),
    ("bank_bytes = 65536", "bank_bytes = 0", "[bank] bank_bytes = 0 must be an integer in 32"),
    ("groups = 16", "groups = 0", "[bank] groups = 0 must be an integer in 1"),
    ("scalar_op = 1", "scalar_op = 1.5", "[timing] scalar_op = 1.5 must be an integer"),
    ("mte2_cycles_per_block = 0.36", "mte2_cycles_per_block = 1e300",
     "mte2_cycles_per_block = 1e+300 must be a number in 0..1000000"),
    ("mte2_latency = 230", "mte2_latency = -1", "mte2_latency = -1 must be a number in 0"),
    ("set_flag = 1", "set_flag = true", "[timing] set_flag = true must be an integer"),
    ("burst_overhead = 0", "burst_overhead = 0\nburst_overheat = 1",
     "[timing] unknown key 'burst_overheat'"),
    ("vsel = {slope = 2,", "vsel = {slope = -2,", "[timing.classes] vsel slope = -2 must be"),
    ("copy = {slope = 1, min_cycles = 3, head = 0, tail = 0}",
     "copy = {slope = 1, min_cycles = 3, head = 0, tail = 0, extra = 1}",
     "[timing.classes] copy needs exactly the integers slope, min_cycles, head, tail"),
    ("conflict_beats = 2", "conflict_beats = 2\nreads_per_beat = 2",
     "[bank] reads_per_beat does not apply to bank model 910b"),
])
def test_bad_timing_or_bank_value_is_one_error_at_its_line(tmp_path, old, new, words):
    chip = _profile(tmp_path, old, new)
    prog = (Path(__file__).resolve().parents[2] / "programs" / "tutorial" / "maximum.vasm")
    code, lines = pipev("run", "--chip", str(chip), str(prog), "--quiet", "--output-dir",
                        str(tmp_path / "out"))
    assert code == 1 and len(lines) == 1, lines
    m = DIAG.match(lines[0])
    assert m and m["sev"] == "error" and m["path"] == str(chip.resolve()), lines
    assert words in m["msg"], m["msg"]
    key = new.splitlines()[-1].split("=")[0].strip()
    assert m["line"] == _line_of(chip, key), lines


@pytest.mark.parametrize("old, new, words", [
    ("ub_bytes = 196608", 'ub_bytes = "192K"', 'ub_bytes = "192K" must be an integer'),
    ("ub_bytes = 196608", "ub_bytes = 1099511627776", "ub_bytes = 1099511627776 must be"),
    ("counter_mode = true", "counter_mode = 1", "counter_mode = 1 must be true or false"),
    ("vsel_modes = [0, 1, 2]", 'vsel_modes = "012"', "vsel_modes = \"012\" must be a non-empty"),
    ("vsel_modes = [0, 1, 2]", "vsel_modes = [true]", "vsel_modes = [True] must be"),
    ("clock_mhz = 1850", "clock_mhz = true", "clock_mhz = true must be a number"),
    ("cmpmask_bits = 128", "cmpmask_bits = 128.0", "cmpmask_bits = 128.0 must be 128 or 256"),
    ("event_ids = 8", "event_ids = 0", "event_ids = 0 must be an integer in 1..256"),
    ('name = "ascend910b"', "name = 910", "name = 910 must be a string"),
    ('zero_mask = "warning"', 'zero_mask = "warn"', 'zero_mask = "warn" must be "warning"'),
    ("counter_mode = true", "counter_mode = true\ncounter_mod = true", "unknown key "
     "'counter_mod'"),
    ('select = ["f16", "f32"]', 'select = "f16"', "[types] select must be a list"),
])
def test_bad_profile_key_is_a_chip_error_naming_it(tmp_path, old, new, words):
    path = _profile(tmp_path, old, new)
    with pytest.raises(ChipError) as info:
        get_chip(path)
    assert str(path.resolve()) in str(info.value) and words in str(info.value), info.value
    prog = tmp_path / "nop.vasm"
    prog.write_text("    nop\n")
    res = CliRunner().invoke(main, ["check", "--chip", str(path), str(prog)])
    assert res.exit_code == 2 and words in res.stderr, res.stderr  # a bad --chip is usage


# -- f5: outputs are written all or nothing -----------------------------------------------------
TWO_OUTPUTS = """\
.chip ascend910b
.gm a f32[64] output
.gm b f32[64] output
.ub x f32[64] = fill(7)
    copy_ub_to_gm a, x, nburst=1, burst=8
    copy_ub_to_gm b, x, nburst=1, burst=8
"""


def test_an_output_that_cannot_be_written_changes_nothing(tmp_path):
    prog = tmp_path / "p.vasm"
    prog.write_text(TWO_OUTPUTS)
    od = tmp_path / "od"
    (od / "b.npy").mkdir(parents=True)
    (od / "a.npy").write_text("OLD")
    code, lines = pipev("run", str(prog), "--output-dir", str(od), "--quiet")
    assert code == 1 and lines == [f"{prog}:3:5: error: cannot write output {od / 'b.npy'}: "
                                   "Is a directory; no output was changed"]
    assert (od / "a.npy").read_text() == "OLD"
    assert sorted(p.name for p in od.iterdir()) == ["a.npy", "b.npy"]  # no temporaries


def test_outputs_replace_old_ones_with_the_users_umask(tmp_path):
    import os

    prog = tmp_path / "p.vasm"
    prog.write_text(TWO_OUTPUTS)
    od = tmp_path / "od"
    od.mkdir()
    (od / "a.npy").write_text("OLD")
    old = os.umask(0o022)
    try:
        code, _ = pipev("run", str(prog), "--output-dir", str(od), "--quiet")
    finally:
        os.umask(old)
    assert code == 0
    for name in ("a", "b"):
        assert np.load(od / f"{name}.npy").tobytes() == np.full(64, 7, np.float32).tobytes()
        assert (od / f"{name}.npy").stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in od.iterdir()) == ["a.npy", "b.npy"]


def test_a_failed_rename_puts_back_what_was_there(tmp_path, monkeypatch):
    import os

    from simulator import outputs

    (tmp_path / "a.npy").write_text("OLD A")
    real = os.replace
    calls = []

    def flaky(src, dst):
        calls.append(dst)
        if str(dst).endswith("b.npy"):
            raise OSError(28, "No space left on device", str(dst))
        return real(src, dst)

    monkeypatch.setattr(outputs.os, "replace", flaky)
    with pytest.raises(OSError):
        outputs.write_outputs(tmp_path, {"a": np.zeros(4), "b": np.ones(4)})
    monkeypatch.setattr(outputs.os, "replace", real)
    assert (tmp_path / "a.npy").read_text() == "OLD A"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy"]


# -- f9: a register-indexed scalar element overlapping dst is checked when it runs -------------
F9 = """\
.chip ascend950
.ub x f16[256] = arange(0)
.ub m u8[32] = fill(0x0f)
.ub z f16[256] = zeros
    li x2, {k}
    select.f16 z, m, x, scalar({t}[x2]), mode=1, count=200
"""


def test_scalar_element_overlapping_dst_is_a_run_time_error():
    assert errors_of(F9.format(k=3, t="z")) == [
        "6:25: select dst overlaps the scalar element scalar(z[x2]) at 0x226 (x2 = 3) (the "
        "scalar must not overlap dst)"]


def test_scalar_element_outside_dst_runs():
    r = simulator.run(F9.format(k=250, t="z"))  # z[250] lies beyond the 200 selected elements
    assert r.diagnostics == [] or all(d.severity != "error" for d in r.diagnostics)
    r = simulator.run(F9.format(k=3, t="x"))
    z = np.frombuffer(ub(r, "z"), np.float16)
    m = np.unpackbits(np.full(32, 0x0F, np.uint8), bitorder="little").astype(bool)[:200]
    want = np.where(m, np.arange(200, dtype=np.float16), np.float16(3))
    assert z[:200].tobytes() == want.tobytes()


# -- diagnostics in the user's words ---------------------------------------------------------------
def test_scalar_first_select_with_a_small_sel_names_the_sel():
    text = (".chip ascend950\n.ub x f16[256] = arange(0)\n.ub m u8[8] = fill(0x0f)\n"
            ".ub z f16[256] = zeros\n    select.f16 z, m, 5.0, x, mode=1, count=256\n")
    assert errors_of(text) == ["5:19: select sel m needs 32 bytes (256 mask bits), tensor has 8"]


def test_a_dma_footprint_error_says_which_burst_and_block(tmp_path):
    m = one_error(tmp_path, ".chip ascend910b\n.gm g f32[1024] input = zeros\n.ub x f32[64]\n"
                  "    copy_gm_to_ub x, g, nburst=2, burst=8, dst_gap=1\n")
    assert m["msg"] == "copy_gm_to_ub dst x needs 544 bytes, tensor has 256 (burst 1, block 0)"


def test_a_flag_never_waited_for_leaves_no_half_arrow_in_the_chrome_trace(tmp_path):
    import json

    text = (".chip ascend910b\n.ub x f32[64] = zeros\n    set_flag V, MTE3, 0\n"
            "    set_flag MTE2, V, 1\n    wait_flag MTE2, V, 1\n")
    simulator.run(text, trace=tmp_path / "t.json", trace_format="chrome")
    flows = [e for e in json.loads((tmp_path / "t.json").read_text())["traceEvents"]
             if e.get("cat") == "flag"]
    assert sorted(e["ph"] for e in flows) == ["f", "s"] and flows[0]["id"] == flows[1]["id"]


def test_info_pipes_counts_s_issue_cycles_and_lists_nothing_completed_as_queued():
    from simulator.debugger import Commands, Session
    from simulator.run import load_program

    path = Path(__file__).resolve().parents[2] / "programs" / "tutorial" / "maximum.vasm"
    s = Session(load_program(path))
    c = Commands(s)
    c.execute("continue")
    view = c.execute("info pipes")
    summary = simulator.run(path)
    s_line = next(x for x in view if x.startswith("S ") and "busy-until" in x)
    assert f"busy {summary.pipes['S']} " in s_line + " "
    assert all("queued 0" in x for x in view if x.split()[0] in ("V", "MTE2", "MTE3"))
