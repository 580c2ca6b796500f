"""#27 (h27c): ascend950's ShiftLeft / ShiftRight by a tensor of counts (vshlv / vshrv) against
tests/reference/shift_tensor.py, raw bytes: every type, directed counts (0, width-1, the width,
past it, negative), the pages' worked values, and random programs."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.diagnostics import AssemblyError
from tests.reference.shift_tensor import BITS, shift

N = 320  # a partial last repeat for every width


def _raw(t: str) -> type:
    return {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[BITS[t][1]]


def _run(name: str, t: str, a: np.ndarray, c: np.ndarray, count: int):
    size = a.itemsize
    text = (".chip ascend950\n"
            f'.ub a {t}[{N}] @0x0 = bits("{a.tobytes().hex()}")\n'
            f'.ub c {t}[{N}] @0x{N * size:x} = bits("{c.tobytes().hex()}")\n'
            f".ub d {t}[{N}] @0x{2 * N * size:x}\n"
            f"{name}.{t} d, a, c, count={count}\n")
    res = simulator.run(text)
    return bytes(res.ub)[2 * N * size:3 * N * size], res


def _want(name: str, t: str, a: np.ndarray, c: np.ndarray, count: int) -> bytes:
    size = a.itemsize
    body = b"".join(shift(name, t, a[i:i + 1].tobytes(), c[i:i + 1].tobytes())
                    for i in range(count))
    return body + bytes((N - count) * size)


def _data(t: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    bits = BITS[t][1]
    raw = _raw(t)
    a = rng.integers(0, np.iinfo(raw).max, N, dtype=raw, endpoint=True)
    a[:6] = np.array([0, 1, 0xAA, 1 << (bits - 1), (1 << bits) - 1, (1 << (bits - 1)) - 1],
                     object).astype(raw)
    counts = [0, 1, bits - 1, bits, bits + 1, -1, -bits, 127 if bits == 8 else 1000]
    c = rng.choice(np.array(counts, np.int64), N).astype(_raw(t).__name__.replace("u", ""))
    return a, c.view(raw)


@pytest.mark.parametrize("t", list(BITS))
@pytest.mark.parametrize("name", ["shift_left", "shift_right"])
def test_every_type_and_special_count(name, t):
    rng = np.random.default_rng(sum(map(ord, name + t)))
    a, c = _data(t, rng)
    got, res = _run(name, t, a, c, N)
    assert got == _want(name, t, a, c, N)
    neg = int(np.count_nonzero(c.view(c.dtype.name.replace("uint", "int")) < 0))
    warns = [d.message for d in res.diagnostics if "negative shift counts" in d.message]
    assert warns and f"on {neg} element" in warns[0]


def test_the_pages_worked_values():
    a = np.zeros(N, np.uint16)
    a[:4] = [0xAAAA, 0xAAAA, 0xAAAA, 0xAAAA]
    c = np.zeros(N, np.uint16)
    c[:4] = [1, 3, 1, 3]
    left, _ = _run("shift_left", "s16", a, c, 2)
    assert np.frombuffer(left[:4], np.uint16).tolist() == [0xD554, 0xD550]
    right, _ = _run("shift_right", "s16", a, c, 2)
    assert np.frombuffer(right[:4], np.uint16).tolist() == [0xD555, 0xF555]
    right, _ = _run("shift_right", "u16", a, c, 1)
    assert np.frombuffer(right[:2], np.uint16).tolist() == [0x5555]
    x = np.arange(1, N + 1, dtype=np.int32)  # the ShiftLeft page's example: [1 2 3 …] << 2
    got, _ = _run("shift_left", "s32", x, np.full(N, 2, np.int32), N)
    assert np.frombuffer(got, np.int32).tolist() == (x * 4).tolist()


@pytest.mark.parametrize(("text", "message"), [
    (".chip ascend910b\n.ub a s16[128]\n.ub c s16[128]\n.ub d s16[128]\n"
     "shift_left.s16 d, a, c, count=128",
     r"shift_left\.s16 by a tensor of counts \(vshlv\) is not supported on ascend910b "
     r"\(supports none\)"),
    (".chip ascend950\n.ub a s16[128]\n.ub c s16[128]\n.ub d s16[128]\n"
     "shift_right.s16 d, a, c, repeat=1, mask=128", r"takes count= only"),
    (".chip ascend950\n.ub a f16[128]\n.ub c f16[128]\n.ub d f16[128]\n"
     "shift_left.f16 d, a, c, count=128", r"not supported on ascend950"),
])
def test_tensor_counts_are_checked(text, message):
    with pytest.raises((AssemblyError, simulator.SimulationError), match=message):
        simulator.run(text + "\n")


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(["shift_left", "shift_right"]), t=st.sampled_from(list(BITS)),
       seed=st.integers(0, 2**32 - 1), count=st.integers(1, N))
def test_random_tensor_count_shifts(name, t, seed, count):
    rng = np.random.default_rng(seed)
    a, c = _data(t, rng)
    rng.shuffle(a)
    got, _ = _run(name, t, a, c, count)
    assert got == _want(name, t, a, c, count)
