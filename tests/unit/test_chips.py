"""Chip profiles as data (docs/machine.md §2, §3, §8, §14): the profile table, per-chip feature
gating, the ascend950 types end to end, the flexible scalar position, and a made-up chip profile."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from click.testing import CliRunner

import simulator
from isa.chip import CHIP_DIR, ChipError, chip_names, get_chip
from isa.diagnostics import AssemblyError
from isa.types import TYPES, VECTOR_TYPES
from simulator.cli import main as cli
from simulator.errors import SimulationError

ROOT = Path(__file__).resolve().parents[2]
CHIPS = ("ascend910", "ascend310p", "ascend910b", "ascend310b", "ascend950")
ALL_TYPES = VECTOR_TYPES  # the vector ISA's types (bool, f64: memory only)
COUNT_ONLY_950 = ("s8", "u8", "s64", "u64", "c32", "c64")
OPS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "gt": np.greater,
       "le": np.less_equal, "ge": np.greater_equal}

# docs/machine.md §2, copied (tests must not read the spec folder): UB bytes, vsel modes, counter
# mode, vcmp -> CMPMASK, select types, compare types, s32 compares eq only, clock, event ids,
# CMPMASK bits, MASK = 0 severity.
TABLE = {
    "ascend910": (262144, (0,), False, False, {"f16", "f32"}, {"f16", "f32"}, False, 1000, 4,
                  128, "error"),
    "ascend310p": (262144, (0, 1, 2), True, True, {"f16", "f32"}, {"f16", "f32"}, False, 1000,
                   8, 128, "error"),
    "ascend910b": (196608, (0, 1, 2), True, True, {"f16", "f32"}, {"f16", "f32", "s32"}, True,
                   1850, 8, 128, "warning"),
    "ascend310b": (253952, (0, 1, 2), True, False, {"f16", "f32", "s8", "u8"}, {"f16", "f32"},
                   False, 1000, 8, 128, "warning"),
    "ascend950": (262144, (0, 1, 2), True, True, set(ALL_TYPES),
                  set(ALL_TYPES) - {"c32", "c64"}, False, 1650, 8, 256, "warning"),
}


# -- helpers ------------------------------------------------------------------------------------
def run(text: str, chip=None, **kw) -> simulator.RunResult:
    return simulator.run(text, chip=chip, **kw)


def errors(text: str, chip=None) -> str:
    """The error messages of a program that must fail (assembly or run time)."""
    with pytest.raises((AssemblyError, SimulationError)) as info:
        simulator.run(text, chip=chip)
    msgs = [d.message for d in info.value.diagnostics if d.severity == "error"]
    assert msgs
    return "\n".join(msgs)


def ub(result: simulator.RunResult, name: str) -> bytes:
    t = result.program.tensors[name]
    return result.ub[t.addr:t.addr + t.nbytes].tobytes()


def rand_bytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(n))


def bits_init(data: bytes) -> str:
    return f'bits("{data.hex()}")'


def sel_bits(data: bytes, n: int) -> np.ndarray:
    return np.unpackbits(np.frombuffer(data, np.uint8), bitorder="little")[:n].astype(bool)


def supports_select(chip: str, t: str, mode: int) -> bool:
    c = get_chip(chip)
    if t not in c.types["select"] or mode not in c.vsel_modes:
        return False
    return not (mode == 0 and TYPES[t].size == 1 and c.cmpmask_bits < 256)


def widened(raw: np.ndarray, t: str) -> np.ndarray:
    """Values a compare compares (§3): bf16 as widened float32."""
    v = raw.view(TYPES[t].numeric)
    return v.astype(np.float32) if t == "bf16" else v


# -- the profile table ----------------------------------------------------------------------------
def test_every_profile_is_listed():
    assert tuple(sorted(chip_names())) == tuple(sorted(CHIPS))
    assert get_chip(None).name == "ascend910b"


@pytest.mark.parametrize("name", CHIPS)
def test_profile_matches_spec_table(name):
    c = get_chip(name)
    (ub_bytes, modes, counter, to_cmpmask, sel, cmp, eq_only, mhz, events, cmpmask,
     zero) = TABLE[name]
    assert (c.name, c.ub_bytes, c.vsel_modes, c.counter_mode, c.compare_to_cmpmask) == \
        (name, ub_bytes, modes, counter, to_cmpmask)
    assert set(c.types["select"]) == sel and set(c.types["compare"]) == cmp
    assert ("s32" in c.types.get("compare_eq_only", ())) == eq_only
    assert (c.clock_mhz, c.event_ids, c.cmpmask_bits, c.zero_mask) == (mhz, events, cmpmask, zero)
    assert c.scratch_bytes == 8192 and c.scratch_base == ub_bytes - 8192
    assert c.flexible_scalar == (name == "ascend950")
    arith = {"f16", "f32", "s16", "s32"} | ({"bf16"} if name == "ascend950" else set())
    assert set(c.types["arith"]) == arith
    assert set(c.types.get("api_count_only", ())) == \
        (set(COUNT_ONLY_950) if name == "ascend950" else set())


def test_pipev_chips_lists_every_profile():
    out = CliRunner().invoke(cli, ["chips"])
    assert out.exit_code == 0
    for name in CHIPS:
        row = next(line for line in out.output.splitlines() if line.startswith(name))
        assert str(get_chip(name).ub_bytes) in row


# -- gating: every "not supported" cell of §2 -------------------------------------------------
DECLS = """
.ub x   f32[256] = random(1)
.ub y   f32[256] = random(2)
.ub h   f16[256] = random(3)
.ub hb  bf16[256] = random(3)
.ub b8  s8[512] = random(4)
.ub u8t u8[512] = random(4)
.ub i32 s32[256] = random(5)
.ub q   s64[256] = random(6)
.ub uq  u64[256] = random(6)
.ub c   c32[256] = random(7)
.ub cc  c64[256] = random(7)
.ub m   u8[64] = random(8, 0, 255)
.ub z   f32[256]
"""
TENSOR = {"f32": "x", "f16": "h", "bf16": "hb", "s8": "b8", "u8": "u8t", "s32": "i32", "s64": "q",
          "u64": "uq", "c32": "c", "c64": "cc", "s16": "h", "u16": "h", "u32": "i32"}


def prog(body: str) -> str:
    return DECLS + "\n".join("    " + line for line in body.splitlines()) + "\n"


GATED = [
    # (chip, statement, fragments the error must contain)
    ("ascend910", "vsel.f32 z, x, y, mode=1", ["vsel mode 1 is not supported on ascend910",
                                               "supports mode 0 only"]),
    ("ascend910", "vsel.f32 z, x, y, mode=2", ["vsel mode 2 is not supported on ascend910",
                                               "supports mode 0 only"]),
    ("ascend910", "select.f32 z, m, x, 1.5, mode=1, count=64",
     ["select mode 1 is not supported on ascend910", "supports mode 0 only"]),
    ("ascend910", "select.f32 z, m, x, y, mode=2, repeat=1, mask=64",
     ["select mode 2 is not supported on ascend910", "supports mode 0 only"]),
    ("ascend910", "vcmp.lt.f32 x, y", ["not supported on ascend910", "vcmpv"]),
    ("ascend310b", "vcmp.eq.f16 h, h", ["not supported on ascend310b", "vcmpv"]),
    ("ascend910", "compare.lt.f32 cmpmask, x, y", ["CMPMASK is not supported on ascend910"]),
    ("ascend310b", "compare.gt.f32 cmpmask, x, y, mask=64",
     ["CMPMASK is not supported on ascend310b"]),
    ("ascend910", "set_mask_count", ["counter mode is not supported on ascend910",
                                     "normal mask mode only"]),
    ("ascend910b", "compare.lt.s32 m, i32, i32, count=64",
     ["compare.lt.s32 is not supported on ascend910b", "eq only"]),
    ("ascend910b", "compares.ne.s32 m, i32, 3, count=64",
     ["compares.ne.s32 is not supported on ascend910b", "eq only"]),
    ("ascend910b", "vcmpv.ge.s32 m, i32, i32", ["vcmpv.ge.s32 is not supported on ascend910b"]),
    ("ascend910b", "compare.gt.s32 cmpmask, i32, i32", ["not supported on ascend910b"]),
    ("ascend310b", "select.s8 b8, m, b8, b8, mode=0, count=256",
     ["256-bit CMPMASK", "ascend310b"]),
    ("ascend310b", "vsel.u8 u8t, u8t, u8t, mode=0", ["256-bit CMPMASK", "ascend310b"]),
    ("ascend950", "compare.eq.c32 m, c, c, count=64",
     ["compare.eq.c32 is not supported on ascend950", "supports s8, u8"]),
    ("ascend950", "compares.ne.c64 m, cc, 1, count=32",
     ["compares.ne.c64 is not supported on ascend950"]),
    ("ascend950", "vcmpv.lt.c32 m, c, c", ["vcmpv.lt.c32 is not supported on ascend950"]),
    ("ascend910", "set_flag V, MTE3, 4", ["event id 4 is out of range (0..3 on ascend910)"]),
    ("ascend910b", "wait_flag MTE2, V, 8", ["event id 8 is out of range (0..7 on ascend910b)"]),
    ("ascend950", "set_flag V, MTE3, 8", ["(0..7 on ascend950)"]),
    ("ascend910b", "select.f32 z, m, 1.5, y, mode=1, count=64",
     ["flexible scalar position", "not supported on ascend910b"]),
    ("ascend310p", "select.f32 z, m, x, scalar(y[3]), mode=1, count=64",
     ["scalar(NAME[I]) is not supported on ascend310p"]),
    ("ascend910", "vadd.bf16 hb, hb, hb", ["vadd.bf16 is not supported on ascend910",
                                           "supports f16, f32, s16, s32"]),
    ("ascend950", "select.f32 z, m, 1.5, 2.5, mode=1, count=64", ["exactly one scalar"]),
    ("ascend950", "select.f32 z, m, x, y, mode=1, count=64", ["exactly one scalar"]),
    ("ascend950", "select.f32 z, m, x, 1.5, mode=2, count=64", ["takes tensors"]),
    ("ascend950", "select.f32 z, m, x, scalar(z[70]), mode=1, count=100",
     ["overlaps the scalar element"]),
    ("ascend950", "select.f32 z, m, scalar(z[3]), x, mode=1, repeat=1, mask=64",
     ["overlaps the scalar element"]),
]


@pytest.mark.parametrize(("chip", "stmt", "fragments"), GATED,
                         ids=[f"{c}-{s.split()[0]}-{i}" for i, (c, s, _) in enumerate(GATED)])
def test_unsupported_feature_is_an_error_naming_the_chip(chip, stmt, fragments):
    msg = errors(prog(stmt), chip)
    for f in fragments:
        assert f in msg, msg


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("t", ALL_TYPES)
def test_select_and_compare_types_per_chip(chip, t):
    c = get_chip(chip)
    a = TENSOR[t]
    count = 256 // TYPES[t].size
    select = prog(f"select.{t} {a}, m, {a}, {a}, mode=0, count={count}")
    if t in c.types["select"] and supports_select(chip, t, 0):
        run(select, chip)
    elif t not in c.types["select"]:
        msg = errors(select, chip)
        assert f"select.{t} is not supported on {chip} (supports " \
               f"{', '.join(c.types['select'])})" in msg
    compare = prog(f"compare.eq.{t} m, {a}, {a}, count={count}")
    if t in c.types["compare"]:
        run(compare, chip)
    else:
        msg = errors(compare, chip)
        assert f"compare.eq.{t} is not supported on {chip} (supports " \
               f"{', '.join(c.types['compare'])})" in msg


@pytest.mark.parametrize("t", COUNT_ONLY_950)
def test_950_count_only_types_reject_every_other_form(t):
    a = TENSOR[t]
    n = TYPES[t].per_repeat
    full = "mask=256" if TYPES[t].size == 1 else f"mask={n}"
    api = [f"select.{t} {a}, m, {a}, {a}, mode=2, repeat=1, {full}",
           f"select.{t} {a}, {a}, {a}, mode=0, repeat=1"]
    if t in get_chip("ascend950").types["compare"]:
        api += [f"compare.lt.{t} m, {a}, {a}, repeat=1", f"compares.lt.{t} m, {a}, 1, repeat=1",
                f"compare.lt.{t} cmpmask, {a}, {a}"]
    for stmt in api:
        assert "only through count= on ascend950" in errors(prog(stmt), "ascend950"), stmt
    hw = [f"vsel.{t} {a}, {a}, {a}, mode=2", f"vector_dup.{t} {a}, 1", f"vcopy.{t} {a}, {a}"]
    for stmt in hw:
        msg = errors(prog(stmt), "ascend950")
        assert "not supported on ascend950 at hardware level" in msg and "count=" in msg, stmt


@pytest.mark.parametrize("chip", CHIPS)
def test_zero_mask_is_an_error_on_910_and_310p_and_a_warning_elsewhere(chip):
    text = prog("set_vector_mask 0, 0\nvadd.f32 z, x, y\nvsel.f32 z, x, y")
    if get_chip(chip).zero_mask == "error":
        msg = errors(text, chip)
        assert f"MASK = 0 does nothing (an error on {chip})" in msg
    else:
        r = run(text, chip)
        assert sum("MASK = 0 does nothing" in d.message for d in r.warnings) == 2
        assert ub(r, "z") == bytes(1024)  # nothing written


@pytest.mark.parametrize("chip", CHIPS)
def test_event_id_range(chip):
    top = get_chip(chip).event_ids - 1
    run(prog(f"set_flag V, MTE3, {top}\nwait_flag V, MTE3, {top}"), chip)


def test_counter_mode_on_910_is_emulated_by_chunks():
    """ascend910 has no counter mode: count= forms decode to chunks and a masked tail."""
    text = prog("select.f32 z, m, x, y, mode=0, count=100")
    r = run(text, "ascend910")
    hw = [h.name for s in r.program.statements for h in s.hw]
    assert "set_mask_count" not in hw and hw.count("vsel") == 2
    p = r.program.tensors
    s = np.tile(sel_bits(p["m"].init.data.tobytes(), 64), 2)[:100]
    x, y = p["x"].init.data.view(np.uint32), p["y"].init.data.view(np.uint32)
    assert ub(r, "z")[:400] == np.where(s, x[:100], y[:100]).tobytes()


# -- the vendor seed examples, on every chip that supports them ---------------------------------
@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("mode", (0, 2))
def test_seed_ascendc_mask_filter_example(chip, mode):
    """Reference 000: src0 1..8, src1 9..16, selMask 0,0,0,0,1,1,1,1, mask 1,1,1,1,0,0,0,0,
    dst -1..-8 -> 9,10,11,12,-5,-6,-7,-8."""
    if not supports_select(chip, "f32", mode):
        assert "not supported" in errors(prog(f"vsel.f32 z, x, y, mode={mode}"), chip)
        return
    pad = ", 0" * 56
    text = f"""
.ub src0 f32[64] = [1, 2, 3, 4, 5, 6, 7, 8{pad}]
.ub src1 f32[64] = [9, 10, 11, 12, 13, 14, 15, 16{pad}]
.ub sel  u8[32] = bits("f0{'00' * 31}")
.ub dst  f32[64] = [-1, -2, -3, -4, -5, -6, -7, -8{pad}]
    select.f32 dst, sel, src0, src1, mode={mode}, repeat=1, mask=4
"""
    got = np.frombuffer(ub(run(text, chip), "dst"), np.float32)[:8]
    assert got.tobytes() == np.array([9, 10, 11, 12, -5, -6, -7, -8], np.float32).tobytes()


@pytest.mark.parametrize("chip", CHIPS)
def test_seed_tik_vec_sel_mask48_strided_example(chip):
    """Reference 002: vec_cmpv_le, vec_dup(64, dst, 0, 3, 4), vec_sel(48, 0, dst, is_le, src0,
    src1, 2, 6, 4, 4) on f16 — the page prints the whole 12x16 output."""
    text = """
.ub src0  f16[128] = arange(0)
.ub src1  f16[128] = fill(10)
.ub is_le u16[16]
.ub dst   f16[192]
    vcmpv.le.f16 is_le, src0, src1, repeat=1
    set_mask.f16 64
    vector_dup.f16 dst, 0, repeat=3, stride=1,1,4,4
    select.f16 dst, is_le, src0, src1, mode=0, repeat=2, mask=48, stride=1,1,1,6,4,4
"""
    exp = np.zeros((12, 16), np.float16)
    exp[0, :11] = np.arange(11)
    exp[0, 11:] = exp[1] = exp[2] = 10
    exp[6, :11] = np.arange(64, 75)
    exp[6, 11:] = exp[7] = exp[8] = 10
    assert ub(run(text, chip), "dst") == exp.tobytes()


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("mode", (1, 2))
def test_seed_tik_vec_sel_mode1_mode2_examples(chip, mode):
    """Reference 002: vec_sel(128, mode, dst, sel_ub(u16[16]), src0, 5.2 | src1, 1, 8, 8, 8)."""
    other = "5.2" if mode == 1 else "src1"
    text = f"""
.ub src0 f16[128] = random(11)
.ub src1 f16[128] = random(12)
.ub sel  u16[16] = random(13, 0, 65535)
.ub dst  f16[128]
    select.f16 dst, sel, src0, {other}, mode={mode}, repeat=1, mask=128
"""
    if not supports_select(chip, "f16", mode):
        assert f"select mode {mode} is not supported on {chip}" in errors(text, chip)
        return
    r = run(text, chip)
    p = r.program.tensors
    s = sel_bits(p["sel"].init.data.tobytes(), 128)
    b = np.float16(5.2) if mode == 1 else p["src1"].init.data.view(np.float16)
    exp = np.where(s, p["src0"].init.data.view(np.float16), b)
    assert ub(r, "dst") == exp.tobytes()


@pytest.mark.parametrize("chip", CHIPS)
def test_seed_asc_ne_example(chip):
    """Reference 003: asc_ne on 128 halves, to CMPMASK (read back with asc_get_cmp_mask) and to
    UB bits; bits of the 16-bit compare above 127 keep CMPMASK's old (zero) value."""
    text = """
.ub src0 f16[128] = random(21, -2, 2)
.ub src1 f16[128] = random(22, -2, 2)
.ub reg  u8[32] = zeros
.ub dst  u8[32] = zeros
    vcmpv.ne.f16 dst, src0, src1, repeat=1
    compare.ne.f16 cmpmask, src0, src1
    get_cmp_mask reg
"""
    src = text
    if not get_chip(chip).compare_to_cmpmask:
        assert f"compare to CMPMASK is not supported on {chip}" in errors(src, chip)
        src = src.replace("    compare.ne.f16 cmpmask, src0, src1\n    get_cmp_mask reg\n", "")
    r = run(src, chip)
    p = r.program.tensors
    a, b = p["src0"].init.data.view(np.float16), p["src1"].init.data.view(np.float16)
    exp = np.packbits(a != b, bitorder="little").tobytes()
    assert ub(r, "dst") == exp + bytes(16)
    if get_chip(chip).compare_to_cmpmask:
        width = get_chip(chip).cmpmask_bits // 8
        assert ub(r, "reg")[:width] == (exp + bytes(16))[:width]


def test_seed_950_flexible_scalar_examples_match_expected():
    """Reference 001 as programs/chips/flexible_scalar.vasm; expected outputs from numpy."""
    _check_program("flexible_scalar")


def test_950_select_s64_program_matches_expected():
    _check_program("select_s64")


def _check_program(name: str) -> None:
    r = simulator.run(ROOT / "programs" / "chips" / f"{name}.vasm")
    expected = ROOT / "programs" / "expected" / "chips" / name
    files = sorted(expected.glob("*.npy"))
    assert {f.stem for f in files} == set(r.outputs)
    for f in files:
        exp = np.load(f)
        got = r.outputs[f.stem]
        assert (got.dtype, got.shape, got.tobytes()) == (exp.dtype, exp.shape, exp.tobytes())


def test_flexible_scalar_listing_inverts_the_mask_into_scratch():
    r = run(prog("select.f32 z, m, scalar(x[1]), y, mode=1, count=64"), "ascend950")
    texts = [h.text for h in r.program.statements[0].hw]
    scr = get_chip("ascend950").scratch_base
    assert texts[2].startswith(f"vmuls.s16 @{scr:#x}, m, ")
    assert texts[3].startswith(f"vadds.s16 @{scr:#x}, @{scr:#x}, ")
    assert any(t.startswith(f"vsel.f32 z, y, @{scr:#x}") and "mode=1" in t for t in texts)


# -- ascend950 types end to end -------------------------------------------------------------------
SCALAR_TEXT = {"int": "-7", "uint": "7", "float": "2.5", "complex": "(1.5, -2)"}


def _scalar_raw(t: str) -> np.ndarray:
    T = TYPES[t]
    if T.kind == "complex":
        arr = np.array([1.5, -2], np.float16) if t == "c32" else np.array([1.5 - 2j], np.complex64)
        return arr.view(T.raw)
    return np.array([SCALAR_TEXT[T.kind]], np.float64).astype(T.numeric).view(T.raw)


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("t", ALL_TYPES)
def test_random_select_programs_are_bit_exact(chip, t):
    """Random bit patterns (NaN payloads included), every mode and operand form the chip
    supports, count= and (where allowed) high-dimensional forms, against numpy on raw bits."""
    T = TYPES[t]
    c = get_chip(chip)
    rng = random.Random(f"{chip}-{t}")
    n_rep = T.per_repeat
    for mode in (0, 1, 2):
        if not supports_select(chip, t, mode):
            continue
        for trial in range(4):
            count = rng.randint(1, 3 * n_rep)
            elems = 3 * n_rep
            xs, ys = rand_bytes(rng, elems * T.size), rand_bytes(rng, elems * T.size)
            ms = rand_bytes(rng, max(3 * n_rep // 8, 32))
            forms = ["tensor"]
            if mode == 1:
                forms = ["imm1"] + (["imm0", "elem0", "elem1"] if c.flexible_scalar else [])
            form = forms[trial % len(forms)]
            highdim = trial % 2 == 1 and t not in c.types.get("api_count_only", ())
            _select_case(chip, t, mode, form, highdim, count, xs, ys, ms, rng)


def _select_case(chip, t, mode, form, highdim, count, xs, ys, ms, rng) -> None:
    T = TYPES[t]
    n_rep, raw = T.per_repeat, T.raw
    x, y = np.frombuffer(xs, raw), np.frombuffer(ys, raw)
    k = rng.randrange(x.size)
    src0, src1 = "x", "y"
    a, b = x, y
    if form == "imm1":
        src1, b = SCALAR_TEXT[T.kind], _scalar_raw(t)[0]
    elif form == "imm0":
        src0, a = SCALAR_TEXT[T.kind], _scalar_raw(t)[0]
    elif form == "elem1":
        src1, b = f"scalar(y[{k}])", y[k]
    elif form == "elem0":
        src0, a = f"scalar(x[{k}])", x[k]
    if highdim:
        length = n_rep if T.size == 1 else rng.randint(1, n_rep)
        reps = rng.randint(1, 3)
        tail = f"repeat={reps}, mask={length}"
        active = np.zeros(3 * n_rep, bool)
        active[:reps * n_rep] = np.tile(np.arange(n_rep) < length, reps)
    else:
        tail = f"count={count}"
        active = np.arange(3 * n_rep) < count
    text = f"""
.ub x {t}[{x.size}] = {bits_init(xs)}
.ub y {t}[{y.size}] = {bits_init(ys)}
.ub m u8[{len(ms)}] = {bits_init(ms)}
.ub z {t}[{x.size}] = zeros
    select.{t} z, m, {src0}, {src1}, mode={mode}, {tail}
"""
    r = run(text, chip)
    s = sel_bits(ms, len(ms) * 8)
    s = np.tile(s[:n_rep], 3) if mode == 0 else s[:3 * n_rep]
    pick = np.where(s[:active.size], np.broadcast_to(a, x.shape), np.broadcast_to(b, y.shape))
    exp = np.where(active, pick, np.zeros_like(x))
    assert ub(r, "z") == exp.tobytes(), (chip, t, mode, form, highdim, text)


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("t", ALL_TYPES)
def test_random_compare_programs_match_numpy(chip, t):
    """compare (two tensors) and compares (tensor and scalar) on every type the chip compares:
    raw random bits for floats (NaN: unordered, ne true), bf16 compared widened, 64-bit ints."""
    c = get_chip(chip)
    if t not in c.types["compare"]:
        return
    T = TYPES[t]
    rng = random.Random(f"cmp-{chip}-{t}")
    n = 2 * T.per_repeat
    ops = ["eq"] if t in c.types.get("compare_eq_only", ()) else list(OPS)
    for op in ops:
        xs = rand_bytes(rng, n * T.size)
        x = np.frombuffer(xs, T.raw).copy()
        y = x.copy()
        change = np.array([rng.random() < 0.5 for _ in range(n)])
        y[change] = np.frombuffer(rand_bytes(rng, int(change.sum()) * T.size), T.raw)
        k = rng.randrange(n)
        scalar = widened(x[k:k + 1], t)[0]
        text = f"""
.ub x  {t}[{n}] = {bits_init(xs)}
.ub y  {t}[{n}] = {bits_init(y.tobytes())}
.ub s  {t}[1] = {bits_init(x[k:k + 1].tobytes())}
.ub d  u8[{max(n // 8, 32)}] = zeros
.ub ds u8[{max(n // 8, 32)}] = zeros
    compare.{op}.{t} d, x, y, count={n}
    compares.{op}.{t} ds, x, {_literal(t, scalar)}, count={n}
"""
        r = run(text, chip)
        with np.errstate(invalid="ignore"):
            exp = OPS[op](widened(x, t), widened(y, t))
            exps = OPS[op](widened(x, t), scalar)
        assert ub(r, "d")[:n // 8] == np.packbits(exp, bitorder="little").tobytes(), (op, t)
        assert ub(r, "ds")[:n // 8] == np.packbits(exps, bitorder="little").tobytes()


def _literal(t: str, v) -> str:
    """A program literal that converts back to exactly V in type T."""
    if TYPES[t].is_int:
        return str(int(v))
    return repr(float(v))


@pytest.mark.parametrize("t", ALL_TYPES)
def test_950_init_forms_and_npy_round_trip(t, tmp_path):
    """Every INIT form (§4.1) and the .npy conventions (§3): bf16 as uint16 bit patterns, c32
    as float16 (COUNT, 2), c64 as complex64; outputs round-trip inputs byte for byte."""
    T = TYPES[t]
    n = 256 // T.size
    rng = np.random.default_rng(0)
    if t == "bf16":
        arr = rng.uniform(-5, 5, n).astype(ml_dtypes.bfloat16).view(np.uint16)
    elif t == "c32":
        arr = rng.uniform(-5, 5, (n, 2)).astype(np.float16)
    elif t == "c64":
        arr = (rng.uniform(-5, 5, n) + 1j * rng.uniform(-5, 5, n)).astype(np.complex64)
    elif T.is_int:
        arr = rng.integers(0, 100, n).astype(T.numeric)
    else:
        arr = rng.uniform(-5, 5, n).astype(T.numeric)
    np.save(tmp_path / "in.npy", arr)
    one = "(1.5, -2)" if T.kind == "complex" else "3"
    text = f"""
.chip ascend950
.gm  a   {t}[{n}] input = random(9)
.gm  out {t}[{n}] output
.ub  x   {t}[{n}]
.ub  f   {t}[{n}] = fill({one})
.ub  ar  {t}[8] = arange(1, 2)
.ub  li  {t}[2] = [{one}, 0]
.ub  fi  {t}[{n}] = file("in.npy")
.ub  bi  {t}[{n}] = bits("{'ab' * 256}")
.ub  ze  {t}[{n}] = zeros
    copy_gm_to_ub x, a, nburst=1, burst=8
    set_flag MTE2, MTE3, 0
    wait_flag MTE2, MTE3, 0
    copy_ub_to_gm out, x, nburst=1, burst=8
"""
    path = tmp_path / "p.vasm"
    path.write_text(text)
    r = simulator.run(path, inputs={"a": arr})
    out = r.outputs["out"]
    assert (out.dtype, out.shape, out.tobytes()) == (arr.dtype, arr.shape, arr.tobytes())
    one_raw = _scalar_raw(t).tobytes() if T.kind == "complex" else \
        np.array([3], T.numeric).tobytes()
    assert ub(r, "f") == one_raw * n
    assert ub(r, "li") == one_raw + bytes(T.size)
    assert ub(r, "fi") == arr.tobytes()
    assert ub(r, "bi") == b"\xab" * 256 and ub(r, "ze") == bytes(256)
    steps = 1 + 2 * np.arange(8)
    ar = steps.astype(np.complex64) if t == "c64" else steps.astype(T.numeric)
    if t == "c32":
        ar = np.stack([steps, np.zeros(8)], -1).astype(np.float16)
    assert ub(r, "ar") == ar.tobytes()
    # the default random(9) input, and a wrongly shaped or typed input is an error
    assert simulator.run(path).outputs["out"].dtype == T.npy
    bad = arr.reshape(-1) if t == "c32" else arr[:-1]
    with pytest.raises(SimulationError) as info:
        simulator.run(path, inputs={"a": bad})
    assert "--input a" in info.value.diagnostics[0].message


def test_64bit_mode0_uses_32_bits_and_8bit_mode0_uses_256_bits():
    for t, nbits in (("s64", 32), ("u64", 32), ("s8", 256), ("u8", 256)):
        T = TYPES[t]
        n = 3 * T.per_repeat
        text = f"""
.chip ascend950
.ub x {t}[{n}] = fill(1)
.ub y {t}[{n}] = fill(2)
.ub m u8[32] = bits("{'5a' * 32}")
.ub z {t}[{n}]
    select.{t} z, m, x, y, mode=0, count={n}
"""
        r = run(text)
        s = np.tile(sel_bits(bytes([0x5A] * 32), nbits), n // nbits)
        assert ub(r, "z") == np.where(s, 1, 2).astype(T.numeric).tobytes(), t


def test_bf16_compares_widened_values_and_nan():
    vals = np.array([1.0, -0.0, 0.0, np.nan, np.inf, -np.inf, 3.140625, 1e30] * 16,
                    ml_dtypes.bfloat16)
    other = np.array([1.0, 0.0, -0.0, np.nan, 1.0, -np.inf, 3.15625, 1e30] * 16,
                     ml_dtypes.bfloat16)
    text = f"""
.chip ascend950
.ub x bf16[128] = {bits_init(vals.tobytes())}
.ub y bf16[128] = {bits_init(other.tobytes())}
.ub d u8[32] = zeros
.ub e u8[32] = zeros
    compare.eq.bf16 d, x, y, count=128
    compare.ne.bf16 e, x, y, count=128
"""
    r = run(text)
    with np.errstate(invalid="ignore"):
        eq = vals.astype(np.float32) == other.astype(np.float32)
    assert ub(r, "d")[:16] == np.packbits(eq, bitorder="little").tobytes()
    assert ub(r, "e")[:16] == np.packbits(~eq, bitorder="little").tobytes()
    assert list(eq[:8]) == [True, True, True, False, False, True, False, True]


# -- chips are data: a profile of our own --------------------------------------------------------
def _my_chip(tmp_path: Path, **changes) -> Path:
    text = (CHIP_DIR / "ascend950.toml").read_text()
    text = re.sub(r'^name = ".*"', 'name = "mychip"', text, flags=re.M)
    for key, value in changes.items():
        text = re.sub(rf"^{key} = .*$", f"{key} = {value}", text, count=1, flags=re.M)
    path = tmp_path / "mychip.toml"
    path.write_text(text)
    return path


FLEX = """
.chip ascend950
.gm out f32[128] output
.ub x f32[128] = arange(0)
.ub m u8[32] = bits("{sel}")
.ub z f32[128] = zeros
    select.f32 z, m, scalar(x[5]), x, mode=1, count=128
    set_flag V, MTE3, 0
    wait_flag V, MTE3, 0
    copy_ub_to_gm out, z, nburst=1, burst=16
"""


def test_made_up_chip_profile_runs_a_program(tmp_path):
    path = _my_chip(tmp_path, ub_bytes=65536, clock_mhz=500)
    sel = "0f" * 16 + "00" * 16
    r = simulator.run(FLEX.format(sel=sel), chip=path)
    assert r.program.chip.name == "mychip" and r.program.chip.ub_bytes == 65536
    s = sel_bits(bytes.fromhex(sel), 128)
    x = np.arange(128, dtype=np.float32)
    assert r.outputs["out"].tobytes() == np.where(s, x[5], x).tobytes()
    # the scratch area moved with the UB size: SCR = 65536 - 8192
    texts = [h.text for s_ in r.program.statements for h in s_.hw]
    assert any(t_.startswith("vmuls.s16 @0xe000, m") for t_ in texts)
    assert r.time_us == pytest.approx(r.cycles / 500)
    assert get_chip(str(path)) is get_chip(path)


def test_made_up_chip_ub_size_changes_placement_and_bounds(tmp_path):
    small = _my_chip(tmp_path, ub_bytes=65536)
    big = ".ub a f32[8192]\n.ub b f32[8192]\n    vadd.f32 a, a, a\n"  # 64 KB in all
    run(big, "ascend950")
    msg = errors(big, small)
    assert "mychip" in msg
    # placement: the same program's auto-placed tensors keep their addresses, but a raw address
    # past the smaller UB is out of bounds only on mychip
    raw = ".ub a f32[64] = zeros\n    vadd.f32 @0x20000, a, a\n"
    run(raw, "ascend950")
    assert "outside UB (65536 bytes)" in errors(raw, small)


def test_made_up_chip_features_gate_with_its_name(tmp_path):
    path = _my_chip(tmp_path, vsel_modes="[0]", counter_mode="false", event_ids=2,
                    flexible_scalar="false")
    assert "vsel mode 2 is not supported on mychip (supports mode 0 only)" in \
        errors(prog("vsel.f32 z, x, y, mode=2"), path)
    assert "counter mode is not supported on mychip" in errors(prog("set_mask_count"), path)
    assert "(0..1 on mychip)" in errors(prog("set_flag V, MTE3, 2"), path)
    assert "not supported on mychip" in \
        errors(prog("select.f32 z, m, scalar(x[1]), y, mode=0, count=64"), path)


def test_made_up_chip_through_the_cli(tmp_path):
    path = _my_chip(tmp_path, ub_bytes=131072)
    program = tmp_path / "flex.vasm"
    program.write_text(FLEX.format(sel="ff" * 32))
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["run", str(program), "--chip", str(path), "--output-dir",
                                   str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "--chip mychip overrides .chip ascend950" in res.output
    # every bit set: the scalar src0 (x[5]) everywhere
    assert np.load(out / "out.npy").tobytes() == np.full(128, 5, np.float32).tobytes()
    res = CliRunner().invoke(cli, ["check", str(program), "--chip", str(tmp_path / "none.toml")])
    assert res.exit_code == 2


def test_malformed_profiles_are_reported_not_raised(tmp_path):
    good = (CHIP_DIR / "ascend910b.toml").read_text()
    cases = {
        "lacks.toml": good.replace("ub_bytes = 196608\n", ""),
        "badtype.toml": good.replace('select = ["f16", "f32"]', 'select = ["f16", "f128"]'),
        "badmode.toml": good.replace("vsel_modes = [0, 1, 2]", "vsel_modes = [0, 3]"),
        "syntax.toml": good + "\n[[[",
        "badpair.toml": good.replace('"f32.f16" = ["none"]', '"f32.f99" = ["none"]'),
        "badround.toml": good.replace('"f32.f16" = ["none"]', '"f32.f16" = ["nearest"]'),
    }
    for name, text in cases.items():
        p = tmp_path / name
        p.write_text(text)
        with pytest.raises(ChipError) as info:
            get_chip(p)
        assert name in str(info.value)
        with pytest.raises(SimulationError):
            simulator.run(prog("nop"), chip=p)
    assert "unknown chip 'ascend999'" in _chip_error("ascend999")


def _chip_error(name: str) -> str:
    with pytest.raises(ChipError) as info:
        get_chip(name)
    return str(info.value)


def test_copied_builtin_profile_behaves_like_the_original(tmp_path):
    """A renamed copy of a shipped profile gives the same outputs and cycles: nothing about a
    chip lives outside its TOML file."""
    copy = tmp_path / "clone.toml"
    shutil.copy(CHIP_DIR / "ascend910b.toml", copy)
    a = simulator.run(ROOT / "programs" / "quickstart.vasm")
    b = simulator.run(ROOT / "programs" / "quickstart.vasm", chip=copy)
    assert a.outputs["out"].tobytes() == b.outputs["out"].tobytes()
    assert (a.cycles, a.pipes) == (b.cycles, b.pipes)


def test_64bit_compare_chunks_keep_dst_aligned():
    """A 64-bit vcmpv writes 4 bytes a repeat: count= chunks of 248 repeats (not 252) keep every
    chunk's bit output 32-byte aligned; results match numpy over the chunk boundary."""
    text = """
.chip ascend950
.ub x s64[8192] = random(1)
.ub y s64[8192] = random(2)
.ub d u8[1024] = zeros
    compare.lt.s64 d, x, y, count=8192
"""
    r = run(text)
    hw = r.program.statements[0].hw
    assert [h.fields["repeat"] for h in hw] == [248, 8]
    assert hw[1].text.startswith("vcmpv.lt.s64 d[992], x[7936], y[7936]")
    d = r.program.tensors["d"]
    assert all((h.operands["dst"].addr - d.addr) % 32 == 0 for h in hw)
    p = r.program.tensors
    exp = p["x"].init.data.view(np.int64) < p["y"].init.data.view(np.int64)
    assert ub(r, "d") == np.packbits(exp, bitorder="little").tobytes()


def test_an_edited_profile_is_read_again(tmp_path):
    import os

    path = _my_chip(tmp_path, clock_mhz=500)
    assert get_chip(path).clock_mhz == 500
    _my_chip(tmp_path, clock_mhz=750)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert get_chip(path).clock_mhz == 750


def test_shipped_profiles_are_parsed_once_and_cached_like_bytecode(tmp_path, monkeypatch):
    """A shipped profile's parse is kept (marshal) where Python keeps bytecode, so a run starts
    without tomllib; the cache is used only while the profile's size and mtime are the ones it
    recorded, a broken one is parsed over, and none is written with PYTHONDONTWRITEBYTECODE."""
    import os
    import sys
    import tomllib

    from isa import chip as chip_module

    shipped = tmp_path / "chips"
    shipped.mkdir()
    path = shipped / "ascend910b.toml"
    shutil.copy(CHIP_DIR / "ascend910b.toml", path)
    monkeypatch.setattr(chip_module, "CHIP_DIR", shipped)
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "prefix"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    original = chip_module.load_chip_file(path)
    cache = chip_module.cache_file(path)
    assert cache is not None and not cache.exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert chip_module.load_chip_file(path) == original and cache.is_file()
    assert str(cache).startswith(str(tmp_path / "prefix"))

    def no_parse(text):
        raise AssertionError("parsed although the cache is valid")

    with monkeypatch.context() as m:
        m.setattr(tomllib, "loads", no_parse)
        cached = chip_module.load_chip_file(path)
    assert cached == original and (cached.types, cached.timing) == (original.types,
                                                                    original.timing)
    path.write_text(path.read_text().replace("clock_mhz = 1850", "clock_mhz = 925"))
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert chip_module.load_chip_file(path).clock_mhz == 925  # stale cache: parsed again
    cache.write_bytes(b"\x00 not a cache")
    assert chip_module.load_chip_file(path).clock_mhz == 925
    assert chip_module.load_chip_file(path) == chip_module.load_chip_file(path)
    assert not [p for p in cache.parent.iterdir() if p.suffix == ".tmp"]
