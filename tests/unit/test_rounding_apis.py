"""#32 class 4: the rounding advanced APIs (floor ceil trunc rint round frac) as API
statements: their expansions (vconv with the round mode; half through float in the work
tensor; Frac's vsub), checked byte for byte against tests/reference/rounding.py on directed
specials (±0, ±inf, quiet and signalling NaN, halfway values, the largest values) and on
random data (hypothesis), and their refusals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import isa
import simulator
from isa.diagnostics import AssemblyError
from tests.reference import rounding as ref

NAMES = ("floor", "ceil", "trunc", "rint", "round", "frac")
TYPES = {"f32": np.float32, "f16": np.float16}
RAW = {"f32": np.uint32, "f16": np.uint16}
N = 512


def _specials(t: str) -> np.ndarray:
    npt = TYPES[t]
    big = np.finfo(npt).max
    vals = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49, -0.3,
            3.0, -3.0, big, -big, np.finfo(npt).tiny, -np.finfo(npt).smallest_subnormal,
            1023.5, -1024.5, 2049.0, 8388607.5 if t == "f32" else 1000.5, 16777215.0]
    x = np.array(vals, np.float64).astype(npt)
    snan = np.array([0x7C01 if t == "f16" else 0x7F800001], RAW[t]).view(npt)
    neg_nan = np.array([0xFE00 if t == "f16" else 0xFFC00001], RAW[t]).view(npt)
    return np.concatenate([x, snan, neg_nan])


def _run(name: str, t: str, x: np.ndarray, count: int, tmp_path,
         chip: str = "ascend910b") -> np.ndarray:
    npt = TYPES[t]
    data = np.zeros(N, npt)
    data[:len(x)] = x
    np.save(tmp_path / "x.npy", data)
    size = np.dtype(npt).itemsize
    text = (f".chip {chip}\n.ub x {t}[{N}] @0x0 = file(\"{tmp_path / 'x.npy'}\")\n"
            f".ub z {t}[{N}] @0x1000\n.ub w {t}[{N * 4 // size}] @0x2000\n"
            f"{name}.{t} z, x, w, count={count}\n")
    res = simulator.run(text)
    return np.frombuffer(bytes(res.ub[0x1000:0x1000 + N * size]), npt)


def _same(got: np.ndarray, want: np.ndarray, t: str) -> None:
    g, w = got.view(RAW[t]), want.view(RAW[t])
    bad = np.nonzero(g != w)[0]
    assert not len(bad), [(i, hex(g[i]), hex(w[i])) for i in bad[:5]]


@pytest.mark.parametrize("chip", ["ascend910b", "ascend950"])
@pytest.mark.parametrize("t", ["f32", "f16"])
@pytest.mark.parametrize("name", NAMES)
def test_specials_are_exact(name, t, chip, tmp_path):
    x = _specials(t)
    got = _run(name, t, x, len(x), tmp_path, chip)
    _same(got[:len(x)], ref.reference(name, x), t)
    assert not got[len(x):].any()  # past the count: untouched


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(NAMES), t=st.sampled_from(["f32", "f16"]),
       count=st.integers(1, N), seed=st.integers(0, 2**32 - 1),
       scale=st.sampled_from([1, 8, 1 << 12, 1 << 24]))
def test_random_data_is_exact(tmp_path_factory, name, t, count, seed, scale):
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 1 << (16 if t == "f16" else 32), N, dtype=np.uint64)
    bits = raw.astype(RAW[t]).view(TYPES[t])  # every bit pattern: NaNs, subnormals, huge
    near = (rng.integers(-4 * scale, 4 * scale, N) / 4).astype(TYPES[t])  # halfway values
    x = np.where(rng.random(N) < 0.5, bits, near)
    got = _run(name, t, x, count, tmp_path_factory.mktemp("r"))
    _same(got[:count], ref.reference(name, x[:count]), t)


def _error(text: str) -> str:
    with pytest.raises(AssemblyError) as e:
        isa.assemble(text)
    return str(e.value)


def test_the_expansions_are_pipevs_sequences():
    text = (".chip ascend910b\n.ub x f16[256] @0x0\n.ub z f16[256] @0x200\n"
            ".ub w f16[512] @0x400\n.ub a f32[64] @0x800\n.ub b f32[64] @0x900\n")
    hw = [h.text for h in isa.assemble(text + "floor.f16 z, x, w, count=100\n")
          .statements[-1].hw]
    assert hw[2:5] == ["vconv.f32.f16 w, x, repeat=1, round=none",
                       "vconv.f32.f32 w, w, repeat=1, round=floor",
                       "vconv.f16.f32 z, w, repeat=1, round=none"]
    hw = [h.text for h in isa.assemble(text + "ceil.f32 b, a, count=64\n").statements[-1].hw]
    assert hw[2] == "vconv.f32.f32 b, a, repeat=1, round=ceil"  # float: no work needed


def test_refusals():
    text = ".ub x f16[256] @0x0\n.ub z f16[256] @0x200\n.ub w f16[64] @0x400\n"
    assert "floor.f16 takes a work tensor" in _error(".chip ascend910b\n" + text +
                                                     "floor.f16 z, x, count=16\n")
    assert "key 'repeat' does not apply to frac" in _error(".chip ascend910b\n" + text +
                                                            "frac.f16 z, x, w, repeat=1\n")
    assert "frac takes count=" in _error(".chip ascend910b\n" + text + "frac.f16 z, x, w\n")
    assert "work w has 128 bytes from w, needs 400" in _error(
        ".chip ascend910b\n" + text + "trunc.f16 z, x, w, count=100\n")
    assert "rint is not on ascend910 (no counter mode" in _error(
        ".chip ascend910\n" + text + "rint.f16 z, x, w, count=16\n")
