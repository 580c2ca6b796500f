"""Issue 34 (r6): Reg Sqrt's SqrtAlgo (`vrsqt … salgo=`), raw bytes against
tests/reference/regvec_fused.py: subnormal inputs flushed or kept by mode, the fast-inverse
modes' 0 above 2^126, the page's table 3 input, and the modes' type rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.diagnostics import AssemblyError
from tests.reference import regvec_fused as ref

F32 = [0x0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00123,
       0x3F800000, 0xBF800000, 0x1, 0x80000001, 0x007FFFFF, 0x00776672, 0x00800000,
       0x7F7FFFFF, 0x7E800000, 0x7E800001, 0x7E7FFFFF, 0x40000000, 0x40400000]
F16 = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x3C00, 0xBC00, 0x0001, 0x8001,
       0x03FF, 0x0400, 0x7BFF, 0x4000, 0x4200]
SPECIALS = {"f32": F32, "f16": F16}
SIZE = {"f32": 4, "f16": 2}
MODES = {"f32": ("intrinsic", "fast", "p1ulp_ftz", "p0ulp", "p1ulp"),
         "f16": ("intrinsic", "p1ulp_ftz", "p1ulp")}


def run(tmp_path, t: str, raw: bytes, modes: tuple[str, ...]) -> bytes:
    np.save(tmp_path / "a.npy", np.frombuffer(raw, np.uint8))
    body = "\n".join(f"    vrsqt.{t} v1, v0, p0, salgo={m}\n    vsts.{t} out[{256 * k}], v1, p0"
                     for k, m in enumerate(modes))
    text = (f'.chip ascend950\n.ub a u8[256] @0 = file("a.npy")\n.ub out u8[2048] @0x100\n'
            f'    vf_begin "t"\n    pset.{t} p0, ALL\n    vlds.{t} v0, a[0]\n{body}\n'
            "    vf_end\n")
    (tmp_path / "k.vasm").write_text(text)
    return bytes(simulator.run(tmp_path / "k.vasm").ub[0x100:0x100 + 256 * len(modes)])


def _check(tmp_path, t: str, raw: bytes) -> None:
    n = SIZE[t]
    got = run(tmp_path, t, raw, MODES[t])
    for k, mode in enumerate(MODES[t]):
        want = b"".join(ref.reg_sqrt(t, raw[i:i + n], mode) for i in range(0, 256, n))
        assert got[256 * k:256 * (k + 1)] == want, (t, mode)


@pytest.mark.parametrize("t", ["f32", "f16"])
def test_specials_in_every_mode(tmp_path, t):
    n = SIZE[t]
    raw = b"".join(v.to_bytes(n, "little") for v in SPECIALS[t])
    raw += bytes(256 - len(raw))
    _check(tmp_path, t, raw)


def test_the_pages_subnormal_example(tmp_path):
    """Table 3: sqrt(0x00776672) = 0x1FF7402B (0 ulp, subnormal kept); the default flushes."""
    got = run(tmp_path, "f32", (0x00776672).to_bytes(4, "little") * 64, ("p0ulp", "intrinsic"))
    assert got[:4] == (0x1FF7402B).to_bytes(4, "little") and got[256:260] == bytes(4)


def test_fast_modes_take_float_only(tmp_path):
    for text in ("vrsqt.f16 v1, v0, p0, salgo=fast", "vrsqt.f16 v1, v0, p0, salgo=p0ulp",
                 "vrsqt.s32 v1, v0, p0"):
        (tmp_path / "k.vasm").write_text(f".chip ascend950\n    {text}\n")
        with pytest.raises(AssemblyError):
            simulator.run(tmp_path / "k.vasm")


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=256, max_size=256), st.sampled_from(["f32", "f16"]))
def test_random_bits(tmp_path_factory, raw, t):
    _check(tmp_path_factory.mktemp("sqrt"), t, raw)
