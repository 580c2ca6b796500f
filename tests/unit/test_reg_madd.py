"""Issue 34 (r6): Reg MulDstAdd (`vrmadd`), vD = vD·vA + vB rounded once, at the .vasm level,
raw bytes against tests/reference/regvec_fused.py: every triple of specials (±0, ±inf, NaNs,
subnormals, the largest finite), cancellations and ties a two-rounding model gets wrong, the
mask's zeroing, and hypothesis over random bits."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.diagnostics import AssemblyError
from tests.reference import regvec_fused as ref

F32 = [0x0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00123,
       0x3F800000, 0xBF800000, 0x1, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF,
       0xFF7FFFFF, 0x3F800001, 0xBF800002, 0x33800000]
F16 = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x3C00, 0xBC00, 0x0001, 0x8001,
       0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x3C01, 0xBC02, 0x1400]
SPECIALS = {"f32": F32, "f16": F16}
SIZE = {"f32": 4, "f16": 2}


def run(tmp_path, body: str, d: bytes, a: bytes, b: bytes) -> bytes:
    """BODY in a VF with v0 = D, v1 = A, v2 = B loaded; the 256 bytes at `out`."""
    lines = [".chip ascend950"]
    for i, (name, raw) in enumerate((("d", d), ("a", a), ("b", b))):
        np.save(tmp_path / f"{name}.npy", np.frombuffer(raw, np.uint8))
        lines.append(f'.ub {name} u8[256] @{i * 0x100:#x} = file("{name}.npy")')
    lines += [".ub out u8[256] @0x400", '    vf_begin "t"',
              *(f"    vlds.u8 v{i}, {n}[0]" for i, n in enumerate("dab")), body, "    vf_end"]
    (tmp_path / "k.vasm").write_text("\n".join(lines) + "\n")
    return bytes(simulator.run(tmp_path / "k.vasm").ub[0x400:0x500])


def _pack(t: str, values: list[int], rng: np.random.Generator) -> bytes:
    raw = bytearray(rng.integers(0, 256, 256, dtype=np.uint8).tobytes())
    for k, v in enumerate(values):
        raw[k * SIZE[t]:(k + 1) * SIZE[t]] = v.to_bytes(SIZE[t], "little")
    return bytes(raw)


def _want(t: str, d: bytes, a: bytes, b: bytes, on: int) -> bytes:
    n = SIZE[t]
    out = [ref.mul_dst_add(t, d[k:k + n], a[k:k + n], b[k:k + n]) if k // n < on else bytes(n)
           for k in range(0, 256, n)]
    return b"".join(out)


def _check(tmp_path, t: str, d: bytes, a: bytes, b: bytes, on: int | None = None) -> None:
    n = 256 // SIZE[t]
    on = n if on is None else on
    mask = f"    pset.{t} p0, ALL" if on == n else f"    li x1, {on}\n    plt.{t} p0, x1"
    got = run(tmp_path, f"{mask}\n    vrmadd.{t} v0, v1, v2, p0\n    pset.{t} p1, ALL\n"
              f"    vsts.{t} out[0], v0, p1", d, a, b)
    assert got == _want(t, d, a, b, on), t


@pytest.mark.parametrize("t", ["f32", "f16"])
def test_every_triple_of_specials(tmp_path, t):
    rng = np.random.default_rng(6)
    triples = list(itertools.product(SPECIALS[t], repeat=3))
    n = 256 // SIZE[t]
    for start in range(0, len(triples), n):
        chunk = triples[start:start + n]
        d, a, b = (_pack(t, [x[i] for x in chunk], rng) for i in range(3))
        _check(tmp_path, t, d, a, b)


def test_one_rounding_not_two(tmp_path):
    """(1 + 2^-23)·(1 - 2^-23) - 1 = -2^-46 exactly: fused, not the 0 two roundings give."""
    d = (0x3F800001).to_bytes(4, "little") * 64
    a = (0x3F7FFFFE).to_bytes(4, "little") * 64  # 1 - 2^-23 (an even step below 1: 2^-24 each)
    b = (0xBF800000).to_bytes(4, "little") * 64
    got = run(tmp_path, "    pset.f32 p0, ALL\n    vrmadd.f32 v0, v1, v2, p0\n"
              "    vsts.f32 out[0], v0, p0", d, a, b)
    assert got == _want("f32", d, a, b, 64)
    assert got[:4] != bytes(4)


def test_mask_zeroes_the_disabled_elements(tmp_path):
    rng = np.random.default_rng(7)
    d, a, b = (_pack("f16", [], rng) for _ in range(3))
    _check(tmp_path, "f16", d, a, b, on=37)


def test_merging_and_integers_are_refused(tmp_path):
    for text in ("vrmadd.s32 v0, v1, v2, p0", "vrmadd.f32 v0, v1, v2, p0, merge=1"):
        (tmp_path / "k.vasm").write_text(f".chip ascend950\n    {text}\n")
        with pytest.raises(AssemblyError):
            simulator.run(tmp_path / "k.vasm")


def test_vf_dst_read_before_written_is_reported(tmp_path):
    (tmp_path / "k.vasm").write_text(
        ".chip ascend950\n.ub a u8[256] @0\n    vf_begin \"t\"\n    pset.f32 p0, ALL\n"
        "    vlds.f32 v1, a[0]\n    vrmadd.f32 v0, v1, v1, p0\n    vf_end\n")
    with pytest.raises(simulator.SimulationError, match="vrmadd reads v0 \\(d\\) before"):
        simulator.run(tmp_path / "k.vasm")


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=768, max_size=768), st.sampled_from(["f32", "f16"]))
def test_random_bits(tmp_path_factory, raw, t):
    tmp = tmp_path_factory.mktemp("madd")
    _check(tmp, t, raw[:256], raw[256:512], raw[512:])
