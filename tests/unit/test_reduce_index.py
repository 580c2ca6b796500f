"""ReduceMax / ReduceMin with calIndex in `.vasm` and TIK (issue 28 item 3): `reduce_max/min …
index=1, tmp_a=xA, tmp_b=xB` runs the vendor's rounds into 32-byte aligned work regions, then
the scalar unit walks the indices back (`ld`/`st`); dst = value, position in src (its raw bits in
an element of T). Checked against numpy: the first NaN, else the first of the extremes."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev

DATA = Path(__file__).resolve().parents[1] / "data"
NUM = {"f16": np.float16, "f32": np.float32}
RAW = {"f16": np.uint16, "f32": np.uint32}


def want(x: np.ndarray, active: np.ndarray, largest: bool) -> tuple[int, int]:
    """(raw bits of the value, position): the first active NaN, else the first extreme."""
    pos = np.flatnonzero(active)
    vals = x[pos]
    nan = np.isnan(vals)
    if nan.any():
        k = int(pos[np.argmax(nan)])
    else:
        best = vals.max() if largest else vals.min()
        k = int(pos[np.argmax(vals == best)])
    return int(x[k:k + 1].view(RAW["f16" if x.dtype == np.float16 else "f32"])[0]), k


@st.composite
def cases(draw):
    t = draw(st.sampled_from(["f16", "f32"]))
    n = 128 if t == "f16" else 64
    count = draw(st.one_of(st.integers(1, 3 * n), st.integers(1, 300 * n)))
    pool = draw(st.lists(st.integers(-6, 6), min_size=1, max_size=5))
    rng = np.random.default_rng(draw(st.integers(0, 1000)))
    x = rng.choice(np.array(pool, NUM[t]), count)
    if draw(st.booleans()):  # a NaN somewhere (its payload kept)
        x[draw(st.integers(0, count - 1))] = np.array([0x7E01 if t == "f16" else 0x7FC00123],
                                                      RAW[t]).view(NUM[t])[0]
    return t, x, draw(st.sampled_from(["reduce_max", "reduce_min"]))


def run(t: str, x: np.ndarray, stmt: str) -> np.ndarray:
    n = x.size
    text = "\n".join([".chip ascend910b", f'.ub s {t}[{n}] = bits("{x.tobytes().hex()}")',
                      f".ub w {t}[{n + 256}]", f".ub d {t}[16]",
                      f"    {stmt}", ""])
    result = pipev.run(text)
    assert not result.diagnostics, result.diagnostics
    d = result.program.tensors["d"].addr
    return result.ub[d:d + 2 * x.itemsize].view(RAW[t])


@settings(max_examples=40, deadline=None)
@given(cases())
def test_count_form_matches_numpy(case):
    t, x, name = case
    got = run(t, x, f"{name}.{t} d, s, w, count={x.size}, index=1, tmp_a=x3, tmp_b=x7")
    assert tuple(int(v) for v in got) == want(x, np.ones(x.size, bool), name == "reduce_max")


@pytest.mark.parametrize("t", ["f16", "f32"])
def test_repeats_form_with_a_mask_and_stride(t):
    """R repeats, MASK of 10 lanes, src_rep 16 blocks (every other repeat of src skipped): the
    position is repeat · N + lane, as the vendor's walk computes it."""
    n = 128 if t == "f16" else 64
    rng = np.random.default_rng(1)
    x = rng.integers(-50, 50, 2 * n * 9).astype(NUM[t])
    got = run(t, x, f"reduce_min.{t} d, s, w, mask=10, repeats=9, src_rep=16, index=1, "
              "tmp_a=x1, tmp_b=x2")
    xs = x.reshape(9, 2 * n)[:, :n]
    active = np.zeros((9, n), bool)
    active[:, :10] = True
    bits, k = want(xs.reshape(-1), active.reshape(-1), False)
    assert tuple(int(v) for v in got) == (bits, k)


def test_it_needs_two_registers_and_an_extreme():
    base = ".chip ascend910b\n.ub s f32[256]\n.ub w f32[64]\n.ub d f32[8]\n    {}\n"
    with pytest.raises(pipev.AssemblyError, match="tmp_a=xA, tmp_b=xB"):
        pipev.run(base.format("reduce_max.f32 d, s, w, count=256, index=1"))
    with pytest.raises(pipev.AssemblyError, match="no index"):
        pipev.run(base.format("reduce_sum.f32 d, s, w, count=256, index=1, tmp_a=x1, tmp_b=x2"))


def test_tik_vec_reduce_max_with_cal_index(monkeypatch):
    from simulator.tik import SHIM
    from simulator.tik import tik as tik_module

    monkeypatch.syspath_prepend(SHIM)
    monkeypatch.setitem(tik_module.SETTINGS, "chip", "ascend910b")
    try:
        tik = runpy.run_path(str(DATA / "tik/reduce_index_tik.py"))["tik_instance"]
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    x = np.random.default_rng(9).integers(-1000, 1000, 4096).astype(np.float16)
    result = pipev.run(tik.program, inputs={"x": x})
    assert not result.diagnostics
    y = result.outputs["y"]
    assert y[0] == x.max() and int(y[1:2].view(np.uint16)[0]) == int(np.argmax(x))
    assert y[16] == x.min() and int(y[17:18].view(np.uint16)[0]) == int(np.argmin(x))


def test_count_must_be_a_constant():
    text = (".chip ascend910b\n.ub s f32[256]\n.ub w f32[64]\n.ub d f32[8]\n    li x1, 64\n"
            "    reduce_max.f32 d, s, w, count=x1, index=1, tmp_a=x2, tmp_b=x3\n")
    with pytest.raises(pipev.AssemblyError, match="count= must be a constant"):
        pipev.run(text)
