"""#27 (h27e) ascend950's Ands / Ors on int64_t / uint64_t (the pages: count form only), against
tests/reference/bitwise64.py element by element on raw bytes: directed extremes (INT64_MIN/MAX,
-1, 0, UINT64_MAX, single bits), the scalar first and last, as a value, a register and a tensor
element, counts that end mid-repeat, random data (hypothesis); the high-dimensional forms and
the other chips refuse."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.diagnostics import AssemblyError
from tests.reference.bitwise64 import element

NP = {"s64": np.int64, "u64": np.uint64}
EXTREMES = [0, 1, -1, -(1 << 63), (1 << 63) - 1, 0x5555555555555555, -0x5555555555555556,
            1 << 32, (1 << 32) - 1, -(1 << 32), 0x00FF00FF00FF00FF, 0x7FFFFFFF80000000]


def _values(t: str, ints) -> np.ndarray:
    return np.array([v & ((1 << 64) - 1) for v in ints], np.uint64).view(NP[t])


def _run(name: str, t: str, x: np.ndarray, scalar: int, first: bool, count: int,
         how: str = "value"):
    n = len(x)
    nb = -(-n * 8 // 256) * 256
    spre = ""
    s_text = str(int(np.array([scalar & ((1 << 64) - 1)], np.uint64).view(NP[t])[0]))
    if how == "register":
        spre, s_text = f"li x5, {s_text}\n", "x5"
    elif how == "element":
        sv = _values(t, [0, 0, scalar])
        spre = f'.ub s {t}[4] @{2 * nb:#x} = bits("{sv.tobytes().hex()}{"00" * 8}")\n'
        s_text = "scalar(s[2])"
    ops = f"{s_text}, x" if first else f"x, {s_text}"
    text = (".chip ascend950\n"
            f'.ub x {t}[{n}] @0x0 = bits("{x.tobytes().hex()}")\n'
            f'.ub y {t}[{n}] @{nb:#x} = bits("{"ab" * 8 * n}")\n' + spre
            + f"{name}.{t} y, {ops}, count={count}\n")
    res = simulator.run(text)
    return bytes(res.ub[nb:nb + 8 * n])


def _want(name: str, t: str, x: np.ndarray, scalar: int, first: bool, count: int) -> bytes:
    raw = x.tobytes()
    out = b"".join(element(name, t == "s64", raw[8 * i:8 * i + 8], scalar, first)
                   for i in range(count))
    return out + b"\xab" * (8 * (len(x) - count))  # past count: untouched


@pytest.mark.parametrize("name", ["ands", "ors"])
@pytest.mark.parametrize("t", ["s64", "u64"])
@pytest.mark.parametrize("first", [False, True])
def test_extremes_against_the_reference(name, t, first):
    x = _values(t, EXTREMES * 6)  # 72 elements: two full repeats and a part
    for s in EXTREMES:
        assert _run(name, t, x, s, first, 70) == _want(name, t, x, s, first, 70), (name, t, s)


@pytest.mark.parametrize("how", ["register", "element"])
@pytest.mark.parametrize("name", ["ands", "ors"])
def test_the_scalar_from_a_register_or_a_tensor_element(name, how):
    x = _values("s64", EXTREMES * 3)
    for first in (False, True):
        s = -0x0123456789ABCDEF
        assert _run(name, "s64", x, s, first, 33, how) == _want(name, "s64", x, s, first, 33)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["ands", "ors"]), st.sampled_from(["s64", "u64"]), st.booleans(),
       st.lists(st.integers(-(1 << 63), (1 << 64) - 1), min_size=1, max_size=100),
       st.integers(-(1 << 63), (1 << 64) - 1), st.data())
def test_random_against_the_reference(name, t, first, ints, scalar, data):
    x = _values(t, ints)
    count = data.draw(st.integers(1, len(ints)))
    assert _run(name, t, x, scalar, first, count) == _want(name, t, x, scalar, first, count)


@pytest.mark.parametrize(("text", "message"), [
    (".chip ascend950\n.ub a s64[64]\n.ub d s64[64]\nands.s64 d, a, 3, repeat=1, mask=32",
     r"ands\.s64 is supported only through count= on ascend950"),
    (".chip ascend950\n.ub a u64[64]\n.ub d u64[64]\nors.u64 d, 3, a, repeat=2",
     r"ors\.u64 is supported only through count= on ascend950"),
    (".chip ascend910b\n.ub a s64[64]\n.ub d s64[64]\nands.s64 d, a, 3, count=64",
     r"ands\.s64 is not supported on ascend910b"),
    (".chip ascend950\n.ub a s32[64]\n.ub d s32[64]\nors.s32 d, a, 3, count=64",
     r"ors\.s32 is not supported on ascend950"),
])
def test_the_forms_the_pages_do_not_give_are_refused(text, message):
    with pytest.raises((AssemblyError, simulator.SimulationError), match=message):
        simulator.run(text + "\n")


@pytest.mark.parametrize("name", ["ands", "ors"])
def test_a_register_count_covers_every_element(name):
    """count= from a register: the expansion counts twice as many u32 halves (a scaled register
    read, x * 2), so all N 64-bit elements are written and none past them."""
    x = _values("u64", EXTREMES * 4)
    s = 0x8000000000000001
    text = (".chip ascend950\n"
            f'.ub x u64[48] @0x0 = bits("{x.tobytes().hex()}")\n'
            f'.ub y u64[48] @0x200 = bits("{"ab" * 8 * 48}")\n'
            f"li x7, 37\n{name}.u64 y, x, {s}, count=x7\n")
    got = bytes(simulator.run(text).ub[0x200:0x200 + 8 * 48])
    assert got == _want(name, "u64", x, s, False, 37)
