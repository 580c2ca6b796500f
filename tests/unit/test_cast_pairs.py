"""The Cast pairs of the A2/A3 table pipev refused before issue #27 (s16→f32, bf16→s32,
s32→s16, s32→s64, f32→s16, f32→f32, f32→s64, s64→s32, s64→f32): the vendor's worked examples,
directed specials through whole programs (against the rational reference), the round modes each
pair takes, and the TIK faces (`vec_conv`, the older `vconv` with block strides). The AscendC and
C-API faces are kernels in tests/data/ascendc/kernels (cast_pairs.cpp, c_api_cast.cpp)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

import simulator
from isa.diagnostics import AssemblyError
from isa.types import TYPES
from simulator.semantics.convert import convert
from simulator.tik import SHIM
from tests.reference.convert import convert_one

RAW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
NEW = [("f32", "s16"), ("s32", "bf16"), ("s16", "s32"), ("s64", "s32"), ("s16", "f32"),
       ("f32", "f32"), ("s64", "f32"), ("s32", "s64"), ("f32", "s64")]


def _bits(t: str, values: list) -> np.ndarray:
    if t == "bf16":  # the top half of each f32 (the values are chosen to fit)
        return (np.array(values, np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return np.array(values, TYPES[t].numeric).view(TYPES[t].raw)


def _run(dst: str, src: str, mode: str, raw: np.ndarray) -> np.ndarray:
    ws, wd = TYPES[src].size, TYPES[dst].size
    n = len(raw)
    at = -(-n * ws // 32) * 32
    text = (".chip ascend910b\n"
            f'.ub x {src}[{n}] @0x0 = bits("{raw.tobytes().hex()}")\n'
            f".ub y {dst}[{n}] @{at:#x}\n"
            f"cast.{dst}.{src} y, x, round={mode}, count={n}\n")
    res = simulator.run(text)
    return np.frombuffer(bytes(res.ub[at:at + n * wd]), RAW[wd])


# --- the vendor's worked examples (AscendC Cast, table 1) ------------------------------------
@pytest.mark.parametrize(("mode", "want"), [("rint", 0.0), ("floor", 0.0), ("ceil", 1.0),
                                            ("round", 1.0), ("trunc", 0.0)])
def test_vendor_example_f32_to_f32_rounds_to_an_integer(mode, want):
    got = convert(np.array([0.5], np.float32).view(np.uint32), TYPES["f32"], TYPES["f32"], mode)
    assert got.view(np.float32)[0] == want


@pytest.mark.parametrize(("mode", "want"), [("rint", 1 << 22), ("floor", 1 << 22),
                                            ("ceil", (1 << 22) + 1), ("round", (1 << 22) + 1),
                                            ("trunc", 1 << 22)])
def test_vendor_example_f32_to_s64(mode, want):
    x = np.array([2.0 ** 22 + 0.5], np.float32).view(np.uint32)
    assert int(convert(x, TYPES["f32"], TYPES["s64"], mode).view(np.int64)[0]) == want


# --- directed specials, whole programs against the reference ----------------------------------
F32 = [0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 2.5, 32767.4, 32767.5, -32768.5, -32769.0, 1e10, -1e10,
       2.0 ** 63, -(2.0 ** 63), 2.0 ** 64, float("inf"), float("-inf"), float("nan"), 1e-45,
       -1e-45, 3.4e38, 8388607.5, 16777217.0, -0.7]
S64 = [0, 1, -1, (1 << 24) + 1, -(1 << 24) - 3, (1 << 31) - 1, 1 << 31, -(1 << 31) - 1,
       (1 << 62) - 1, 1 << 62, (1 << 62) + 1, (1 << 63) - 1, -(1 << 63), -(1 << 62) - 5]
S32 = [0, 1, -1, 32767, 32768, -32768, -32769, (1 << 31) - 1, -(1 << 31), 70000, -70000]
SPECIALS = {"f32": F32, "s64": S64, "s32": S32, "s16": [0, 1, -1, 32767, -32768, 12345],
            "bf16": [0.0, -0.0, 0.5, 1.5, -2.5, 3e38, -3e38, float("inf"), float("nan"),
                     1e-40, 2.0 ** 31, -(2.0 ** 31), 2.0 ** 40]}


def _pair_modes() -> list[tuple[str, str, str]]:
    from isa.chip import get_chip
    conv = get_chip("ascend910b").conversions
    return [(d, s, m) for d, s in NEW for m in conv[f"{d}.{s}"]]


@pytest.mark.parametrize(("dst", "src", "mode"), _pair_modes())
def test_new_pairs_on_specials_match_the_reference(dst, src, mode):
    raw = _bits(src, SPECIALS[src])
    got = _run(dst, src, mode, raw)
    want = [convert_one(src, dst, int(b), mode) for b in raw]
    assert [int(g) for g in got] == want


def test_saturation_and_nan_rules():
    """Integer results saturate (±inf too), NaN gives 0; f32 → f32 keeps -0 and NaN."""
    got = _run("s16", "f32", "rint", _bits("f32", [1e6, -1e6, float("inf"), float("nan")]))
    assert list(got.view(np.int16)) == [32767, -32768, 32767, 0]
    got = _run("s32", "s64", "none", _bits("s64", [1 << 40, -(1 << 40), -(1 << 63)]))
    assert list(got.view(np.int32)) == [2**31 - 1, -2**31, -2**31]
    got = _run("f32", "f32", "trunc", _bits("f32", [-0.7, float("nan"), -3.9]))
    assert got[0] == 0x80000000 and np.isnan(got.view(np.float32)[1]) and \
        got.view(np.float32)[2] == -3.0
    got = _run("f32", "s64", "rint", _bits("s64", [(1 << 63) - 1, -(1 << 63)]))
    assert list(got.view(np.float32)) == [2.0 ** 63, -(2.0 ** 63)]


def test_each_pair_takes_only_its_round_modes():
    with pytest.raises(AssemblyError, match=r"cast.f32.f32 round=none is not supported on "
                       r"ascend910b \(supports round=rint, floor, ceil, round, trunc\)"):
        simulator.run(".chip ascend910b\n.ub x f32[64]\n.ub y f32[64]\n"
                      "cast.f32.f32 y, x, count=64\n")
    with pytest.raises(AssemblyError, match="cast.u64.s64 is not supported on ascend910b"):
        simulator.run(".chip ascend910b\n.ub x s64[64]\n.ub y u64[64]\n"
                      "cast.u64.s64 y, x, count=64\n")


# --- TIK: vec_conv and the older vconv (tests/data/conversions/cast_tik.py) -------------------
KERNEL = Path(__file__).resolve().parents[1] / "data" / "conversions" / "cast_tik.py"
TIK_TYPES = {"float32": "f32", "int16": "s16", "int32": "s32", "int64": "s64", "bfloat16": "bf16"}
TIK_MODES = {"": "none", "floor": "floor", "round": "rint", "ceil": "ceil", "to-zero": "trunc",
             "away-zero": "round"}


def test_tik_vec_conv_and_vconv(monkeypatch):
    monkeypatch.syspath_prepend(SHIM)
    try:
        module = runpy.run_path(str(KERNEL))
        tik_instance = module["cast_kernel"]()
        x = np.array((F32 * 3)[:64], np.float32)
        outs = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    bits = {"x": ("f32", [int(b) for b in x.view(np.uint32)])}
    for (name, (dtype, mode, src)), got in zip(module["OUTPUTS"].items(), outs, strict=True):
        st, sbits = bits[src]
        dt = TIK_TYPES[dtype]
        want = [convert_one(st, dt, b, TIK_MODES[mode]) for b in sbits]
        raw = np.ascontiguousarray(got).view(RAW[TYPES[dt].size])
        assert [int(v) for v in raw] == want, name
        bits[name] = (dt, want)


def test_duplicate_fills_bf16():
    """Duplicate refused bf16 before issue #27 (the A2/A3 table lists it with the 16-bit types)."""
    r = simulator.run(".chip ascend910b\n.ub y bf16[256]\nduplicate.bf16 y, 1.5, count=200\n"
                      "duplicate.bf16 y, -2.0, repeat=1, mask=16\n")
    got = np.frombuffer(bytes(r.ub[:512]), np.uint16)
    assert (got[:16] == 0xC000).all() and (got[16:200] == 0x3FC0).all() and (got[200:] == 0).all()


def test_negative_values_to_an_unsigned_type_warn_once_with_their_count():
    """The Cast page calls a negative value converted to an unsigned type unknown: pipev gives
    0 (saturation) and warns once per instruction with the count of such elements (active
    ones only; -0 and NaN are not negative values)."""
    x = np.array([-3.0, -0.0, float("nan"), 2.0, -1.5, 7.0, -100.0] + [1.0] * 121, np.float16)
    text = (".chip ascend910b\n"
            f'.ub x f16[128] = bits("{x.view(np.uint16).tobytes().hex()}")\n'
            ".ub y u8[128]\ncast.u8.f16 y, x, round=rint, count=128\n"
            "cast.u8.f16 y, x, round=floor, count=128\n")
    r = simulator.run(text)
    warns = sorted(str(d) for d in r.warnings if "unknown" in d.message)
    assert len(warns) == 2
    for line, w in zip((4, 5), warns, strict=True):
        assert w.startswith(f"<string>:{line}:1: warning: vconv.u8.f16: negative values "
                            "converted to u8 on 3 elements")
    assert np.frombuffer(bytes(r.ub[256:259]), np.uint8).tolist() == [0, 0, 0]
