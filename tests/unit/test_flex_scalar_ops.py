"""#27 (h27c): ascend950's flexible-scalar forms of Adds / Muls / Maxs / Mins / Subs — the scalar
before the tensor, or a tensor element as the scalar — against the reference model's element
rule (tests/reference/model.arith), raw bytes."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.assembler import AssemblyError
from tests.reference.model import arith

HW = {"adds": "vadd", "muls": "vmul", "maxs": "vmax", "mins": "vmin", "subs": "vsub"}
DT = {"f16": np.float16, "f32": np.float32, "s16": np.int16, "s32": np.int32}
SPECIAL = {"f16": [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E01, 0xFD55, 0x0001, 0x7BFF, 0x3C00],
           "f32": [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00123, 0xFFA00001, 1,
                   0x7F7FFFFF, 0x3F800000],
           "s16": [0, -1, 1, 32767, -32768, 255], "s32": [0, -1, 1, 2**31 - 1, -2**31, 7]}
N = 160  # two repeats of 16-bit, five of 32-bit: a partial last repeat either way


def _data(t: str, rng: np.random.Generator) -> np.ndarray:
    dt = DT[t]
    raw = dt(0).view(f"u{dt().itemsize}").dtype
    x = rng.integers(0, np.iinfo(raw).max, N, dtype=raw, endpoint=True).view(dt)
    sp = np.array(SPECIAL[t], np.int64).astype(raw) if t[0] == "f" else np.array(SPECIAL[t], dt)
    x[:len(sp)] = sp.view(dt)
    return x


def _run(t: str, text: str, x: np.ndarray, s: np.ndarray) -> bytes:
    size = x.itemsize
    prog = (".chip ascend950\n"
            f'.ub x {t}[{N}] @0x0 = bits("{x.tobytes().hex()}")\n'
            f'.ub s {t}[16] @0x400 = bits("{s.tobytes().hex()}")\n'
            f".ub d {t}[{N}] @0x800\n" + text + "\n")
    res = simulator.run(prog)
    return bytes(res.ub)[0x800:0x800 + N * size]


def _expect(name: str, t: str, x: np.ndarray, s: bytes, first: bool) -> bytes:
    hw = HW[name]
    out = b""
    for v in x:
        e = v.tobytes()
        out += arith(hw, t, s, e) if first else arith(hw, t, e, s)
    return out


@pytest.mark.parametrize("t", list(DT))
@pytest.mark.parametrize("name", list(HW))
def test_scalar_first_and_tensor_element(name, t):
    rng = np.random.default_rng(hash((name, t)) % 2**32)
    x, s = _data(t, rng), _data(t, rng)[:16]
    for k in range(len(SPECIAL[t])):  # every special as the scalar, first
        got = _run(t, f"{name}.{t} d, scalar(s[{k}]), x, count={N}", x, s)
        assert got == _expect(name, t, x, s[k].tobytes(), True), (name, t, k)
    got = _run(t, f"{name}.{t} d, x, scalar(s[3]), count={N}", x, s)
    assert got == _expect(name, t, x, s[3].tobytes(), False)


def test_immediate_first_and_high_dimensional_form():
    x = np.arange(N, dtype=np.float16) - 80
    s = np.zeros(16, np.float16)
    got = _run("f16", f"subs.f16 d, 1.5, x, count={N}", x, s)
    assert got == (np.float16(1.5) - x).tobytes()
    got = _run("f16", "maxs.f16 d, 0, x, repeat=1, mask=128", x, s)
    assert got[:256] == np.maximum(x, np.float16(0))[:128].tobytes()
    # mask 64 of 128: the rest of each repeat is left as it was (zero)
    got = _run("f16", "muls.f16 d, -2, x, repeat=1, mask=64", x, s)
    assert got[:128] == (x[:64] * np.float16(-2)).tobytes() and got[128:256] == bytes(128)


@pytest.mark.parametrize(("text", "message"), [
    (".chip ascend910b\n.ub a f16[128]\n.ub d f16[128]\nadds.f16 d, 1, a, count=128",
     r"scalar src0 \(flexible scalar position\) is not supported on ascend910b"),
    (".chip ascend950\n.ub a f16[128]\n.ub d f16[128]\nmuls.f16 d, 1, 2, count=128",
     r"exactly one scalar"),
    (".chip ascend950\n.ub a f16[128]\n.ub d f16[128] @0x0\nmins.f16 d, scalar(d[3]), a, "
     "count=128", r"overlaps the scalar element"),
])
def test_flexible_forms_are_checked(text, message):
    with pytest.raises((AssemblyError, simulator.SimulationError), match=message):
        simulator.run(text + "\n")


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(list(HW)), t=st.sampled_from(list(DT)), seed=st.integers(0, 2**32 - 1),
       first=st.booleans(), k=st.integers(0, 15), count=st.integers(1, N))
def test_random_flexible_forms(name, t, seed, first, k, count):
    rng = np.random.default_rng(seed)
    x, s = _data(t, rng), _data(t, rng)[:16]
    rng.shuffle(x)
    src = f"scalar(s[{k}]), x" if first else f"x, scalar(s[{k}])"
    got = _run(t, f"{name}.{t} d, {src}, count={count}", x, s)
    size = x.itemsize
    assert got[:count * size] == _expect(name, t, x[:count], s[k].tobytes(), first)
    assert got[count * size:] == bytes((N - count) * size)
