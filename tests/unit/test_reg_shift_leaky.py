"""Issue 34: Reg ShiftLeft / ShiftRight (by a RegTensor of counts), ShiftLefts / ShiftRights (by
an int16 scalar) and LeakyRelu at the .vasm level and from C++, bit-exact against
tests/reference/regvec.py's element-by-element model of their pages."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isa.types import TYPES
from tests.reference import regvec as ref
from tests.unit.test_regvec import run_ub

INTS = ("s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64")


def shift_program(t: str, op: str, count: int, scalar: int | None) -> str:
    n = 256 // TYPES[t].size
    src1 = "v1" if scalar is None else "x2"
    suffix = "" if scalar is None else "s"
    return f""".chip ascend950
.ub a {t}[{n}] @0x0 = file("a.npy")
.ub b {t}[{n}] @0x100 = file("b.npy")
.ub z {t}[{n}] @0x200
    li x1, {count}
    li x2, {0 if scalar is None else scalar & 0xFFFF}
    vf_begin "t"
    plt.{t} p0, x1
    vlds.{t} v0, a[0]
    vlds.{t} v1, b[0]
    vr{op}{suffix}.{t} v2, v0, {src1}, p0
    vsts.{t} z[0], v2, p0
    vf_end
"""


def expected(t: str, op: str, a: np.ndarray, counts: np.ndarray, on: np.ndarray) -> bytes:
    dt = TYPES[t]
    bits, signed = 8 * dt.size, t.startswith("s")
    out = []
    for x, n, live in zip(a.tolist(), counts.tolist(), on.tolist(), strict=True):
        out.append(ref.shift(op == "shl", int(x), int(n), bits, signed) if live else 0)
    return np.array(out, np.uint64).astype(dt.raw).tobytes()


@settings(max_examples=40, deadline=None)
@given(t=st.sampled_from(INTS), op=st.sampled_from(("shl", "shr")), count=st.integers(0, 300),
       scalar=st.one_of(st.none(), st.integers(0, 70)), seed=st.integers(0, 2**32 - 1))
def test_shifts_are_bit_exact(tmp_path_factory, t, op, count, scalar, seed):
    dt = TYPES[t]
    n = 256 // dt.size
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 256, 256, dtype=np.uint8).view(dt.raw).view(dt.numeric)
    # counts around the width: inside, at it, past it (the signed view of b's elements)
    counts = rng.integers(0, 8 * dt.size + 3, n).astype(dt.numeric)
    res = run_ub(shift_program(t, op, count, scalar), tmp_path_factory.mktemp("sh"), a=a,
                 b=counts)
    used = np.full(n, scalar) if scalar is not None else counts.view(
        {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}[dt.size])
    assert res.ub[0x200:0x300].tobytes() == expected(t, op, a, used, ref.mask_first(n, count))


@pytest.mark.parametrize("op, n, want", [("shl", 1, 0xD554), ("shl", 3, 0xD550),
                                         ("shr", 1, 0xD555), ("shr", 3, 0xF555),
                                         ("shr", 17, 0xFFFF), ("shl", 17, 0)])
def test_the_pages_int16_examples(tmp_path, op, n, want):
    a = np.full(128, 0xAAAA, np.uint16).view(np.int16)
    res = run_ub(shift_program("s16", op, 128, n), tmp_path, a=a, b=a)
    assert res.ub[0x200:0x300].view(np.uint16).tolist() == [want] * 128


def test_a_negative_count_is_warned_once_with_its_count(tmp_path):
    a = np.arange(64, dtype=np.int32)
    counts = np.where(np.arange(64) % 4 == 0, -1, 2).astype(np.int32)
    res = run_ub(shift_program("s32", "shr", 64, None), tmp_path, a=a, b=counts)
    text = "\n".join(str(w) for w in res.warnings)
    assert "negative shift count" in text and "16" in text
    assert res.ub[0x200:0x300].view(np.int32).tolist() == [
        0 if k % 4 == 0 else k >> 2 for k in range(64)]


SPECIAL = {"f16": [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x3C00, 0xBC00, 0x0001,
                   0x8001],
           "f32": [0x0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x3F800000,
                   0x1, 0x80000001]}


@settings(max_examples=30, deadline=None)
@given(t=st.sampled_from(("f16", "f32")), count=st.integers(0, 70),
       scalar=st.floats(-4, 4, width=16), seed=st.integers(0, 2**32 - 1))
def test_leaky_relu_is_bit_exact(tmp_path_factory, t, count, scalar, seed):
    dt = TYPES[t]
    n = 256 // dt.size
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 256, 256, dtype=np.uint8).view(dt.raw)
    raw[: len(SPECIAL[t])] = SPECIAL[t]
    s_bits = int(np.asarray(scalar, dt.numeric).view(dt.raw))
    text = f""".chip ascend950
.ub a {t}[{n}] @0x0 = file("a.npy")
.ub z {t}[{n}] @0x200
    li x1, {count}
    li x2, {s_bits}
    vf_begin "t"
    plt.{t} p0, x1
    vlds.{t} v0, a[0]
    vrlrelu.{t} v2, v0, x2, p0
    vsts.{t} z[0], v2, p0
    vf_end
"""
    res = run_ub(text, tmp_path_factory.mktemp("lr"), a=raw.view(dt.numeric))
    on = ref.mask_first(n, count)
    want = np.array([ref.leaky_relu(x, scalar, dt.numeric.type) if live else 0.0
                     for x, live in zip(raw.view(dt.numeric).tolist(), on.tolist(), strict=True)],
                    dt.numeric).view(dt.raw)
    got = res.ub[0x200:0x200 + 256].view(dt.raw)
    # NaN payloads: the product keeps x's payload, quieted (IEEE); compare bit patterns
    assert got.tobytes() == want.tobytes()
