"""The reductions' first-n form (h28, issue 28: the C API's `asc_repeat_reduce_*`,
`asc_datablock_reduce_*`, `asc_pair_reduce_sum` `(dst, src, count)`): `count=N` on the
reduction statements is the instruction over src's first N elements in counter mode, the results
back to back — against the reference (tests/reference/reduce.py) applied as the page reads:
the full repeats, then one repeat whose first N mod per-repeat elements are active, raw bytes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev
from tests.reference.reduce import ORDERS, reduce
from tests.unit.test_reduce import API, DST_ELEMS, NUM, SPECIALS, SRC_ELEMS, run_dst, unit


def expected(name: str, t: str, src: bytes, count: int, order: int) -> bytes:
    size = np.dtype(NUM[t]).itemsize
    n = 256 // size
    ub = bytearray(src) + bytearray(np.full(DST_ELEMS, 7, NUM[t]).tobytes())
    dst = len(src)
    full, tail = divmod(count, n)
    ones = ((1 << 64) - 1, (1 << 64) - 1) if size == 2 else (0, (1 << 64) - 1)
    if full:
        reduce(ub, name, t, dst, 0, full, ones, order=order)
    if tail:
        bits = (1 << tail) - 1
        reduce(ub, name, t, dst + full * unit(name, t, order), full * 256, 1,
               (bits >> 64, bits & ((1 << 64) - 1)), order=order)
    return bytes(ub[dst:dst + DST_ELEMS * size])


def text(name: str, t: str, src: bytes, count: int, order: int, chip: str = "ascend910b") -> str:
    keys = f"count={count}" + (f", order={ORDERS[order]}" if name in ("vcmax", "vcmin") else "")
    return (f".chip {chip}\n.ub s {t}[{SRC_ELEMS}] = bits(\"{src.hex()}\")\n"
            f".ub d {t}[{DST_ELEMS}] = fill(7)\n    {API[name]}.{t} d, s, {keys}\n")


@st.composite
def cases(draw):
    name = draw(st.sampled_from(sorted(API)))
    t = draw(st.sampled_from(["f16", "f32"]))
    n = 256 // np.dtype(NUM[t]).itemsize
    count = draw(st.integers(1, 12 * n))
    order = draw(st.integers(0, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    values = rng.uniform(-100, 100, SRC_ELEMS).astype(NUM[t])
    specials = rng.random(SRC_ELEMS) < 0.05
    values[specials] = rng.choice(np.array(SPECIALS, NUM[t]), int(specials.sum()))
    return name, t, values.tobytes(), count, order


@settings(max_examples=60, deadline=None)
@given(cases())
def test_count_form_matches_the_reference(case):
    name, t, src, count, order = case
    assert run_dst(text(name, t, src, count, order)) == expected(name, t, src, count, order)


@pytest.mark.parametrize("chip", ["ascend910b", "ascend910"])
@pytest.mark.parametrize("name", sorted(API))
def test_directed_counts(name, chip):
    """ascend910 has no counter mode: whole repeats, then the tail under the contiguous rule."""
    src = np.arange(SRC_ELEMS, dtype=np.float32)[::-1].copy().tobytes()
    for count in (1, 63, 64, 65, 640, 700):
        assert run_dst(text(name, "f32", src, count, 1, chip)) == \
            expected(name, "f32", src, count, 1), count


def test_count_form_rules():
    base = ".chip ascend910b\n.ub s f32[256]\n.ub d f32[64]\n"
    with pytest.raises(pipev.AssemblyError, match="takes no repeat="):
        pipev.run(base + "    whole_reduce_sum.f32 d, s, count=10, repeat=1\n")
    with pytest.raises(pipev.AssemblyError, match="must be a constant on ascend910"):
        pipev.run(".chip ascend910\n.ub s f32[256]\n.ub d f32[64]\n    li x1, 10\n"
                  "    whole_reduce_sum.f32 d, s, count=x1\n")
    r = pipev.run(base + "    whole_reduce_sum.f32 d, s, count=0\n")
    assert any("does nothing" in str(d) for d in r.diagnostics)
