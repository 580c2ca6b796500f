"""`Access`, the one address formula (isa/decode.py), against a brute-force per-element
formula written here from docs/machine.md §5: element k of repeat i of a vector operand lies in
block k // E (E = 32 / size elements a block) at base + i·rep·32 + (k // E)·blk·32 +
(k % E)·size; byte k of repeat i of a bit stream of C bytes a repeat at base + i·C + k."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from isa.decode import Access

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True)


@st.composite
def vectors(draw):
    size = draw(st.sampled_from((1, 2, 4, 8)))
    full = 256 // size
    count = draw(st.sampled_from((0, 0, full // 2, full // 4, full // 8)))
    count = count if count * size >= 32 else 0  # a narrower side spans whole blocks
    base = draw(st.integers(0, 4096)) * size
    return Access("src0", base, "vector", size, draw(st.integers(0, 9)),
                  draw(st.integers(0, 20)), count=count)


@st.composite
def bit_streams(draw):
    return Access("sel", draw(st.integers(0, 4096)), "bits", 1, 1, 8,
                  count=draw(st.sampled_from((8, 16, 32))))


def per_element(acc: Access, repeats: int) -> list[list[tuple[int, int]]]:
    """[repeat][element] → (byte address, block), element by element."""
    if acc.kind == "bits":
        return [[(acc.base + i * acc.count + k, 0) for k in range(acc.count)]
                for i in range(repeats)]
    per_block = 32 // acc.size
    n = acc.count or 256 // acc.size
    return [[(acc.base + i * acc.rep * 32 + (k // per_block) * acc.blk * 32
              + (k % per_block) * acc.size, k // per_block) for k in range(n)]
            for i in range(repeats)]


def addresses(acc: Access, repeats: int) -> list[list[int]]:
    return [[a for a, _ in row] for row in per_element(acc, repeats)]


def touched(acc: Access, rows: list[list[int]]) -> set[int]:
    return {a + b for row in rows for a in row for b in range(acc.size)}


@SETTINGS
@given(st.one_of(vectors(), bit_streams()), st.integers(1, 12))
def test_elements_match_the_per_element_formula(acc, repeats):
    want = addresses(acc, repeats)
    assert acc.addresses(repeats).tolist() == want
    assert (acc.base + acc.offsets(repeats)).tolist() == want
    assert acc.per_repeat == len(want[0])
    assert [acc.start(i) for i in range(repeats)] == [row[0] for row in want]
    flat = [a for row in want for a in row]
    assert acc.has_duplicates(repeats) == (len(set(flat)) != len(flat))
    assert acc.extent(repeats) == (min(flat), max(flat) + acc.size - 1)
    assert acc.last_offset(repeats) == max(flat) - acc.base
    if acc.base % acc.size == 0:
        assert (acc.base // acc.size + acc.index_offsets(repeats)).tolist() == \
            [[a // acc.size for a in row] for row in want]
    assert acc.rebased(acc.base + 96).addresses(repeats).tolist() == \
        [[a + 96 for a in row] for row in want]
    assert acc.rebased(acc.base + 96) == Access(acc.role, acc.base + 96, acc.kind, acc.size,
                                                acc.blk, acc.rep, count=acc.count)


@SETTINGS
@given(st.one_of(vectors(), bit_streams()), st.integers(1, 12), st.data())
def test_positions_name_the_repeat_and_block_of_an_element(acc, repeats, data):
    elems = per_element(acc, repeats)
    i = data.draw(st.integers(0, repeats - 1))
    k = data.draw(st.integers(0, acc.per_repeat - 1))
    addr, block = elems[i][k]
    assert acc.locate(i * acc.per_repeat + k) == (i, block)
    byte = addr + data.draw(st.integers(0, acc.size - 1))
    # the first block of repeat i holding BYTE (block stride 0: every block is the first)
    first = min(b for a, b in elems[i] if a <= byte < a + acc.size)
    assert acc.block_at(i, byte) == first


@SETTINGS
@given(st.one_of(vectors(), bit_streams()), st.integers(1, 12), st.data())
def test_a_run_is_exactly_the_bytes_of_its_repeats(acc, repeats, data):
    lo = data.draw(st.integers(0, repeats - 1))
    hi = data.draw(st.integers(lo + 1, repeats))
    last = data.draw(st.sampled_from((None, 1, acc.per_repeat // 2 or 1, acc.per_repeat)))
    rows = addresses(acc, repeats)[lo:hi]
    if last is not None:
        rows[-1] = rows[-1][:last]
    run = acc.run(lo, hi, last)
    if run is not None:
        assert set(range(*run)) == touched(acc, rows)
    if acc.blk == 1 and (hi - lo == 1 or acc.rep * 32 == acc.per_repeat * acc.size
                         or acc.kind == "bits"):
        assert run is not None  # block stride 1, repeats back to back (or one): one run


@SETTINGS
@given(vectors(), st.integers(1, 12), st.data())
def test_blocks_are_the_rows_of_the_elements(acc, repeats, data):
    elems = per_element(acc, repeats)
    per_block = 32 // acc.size
    starts = [[row[j * per_block][0] for j in range(len(row) // per_block)] for row in elems]
    assert (acc.base + acc.block_offsets(repeats)).tolist() == starts
    assert acc.blocks == len(starts[0])
    assert acc.base + acc.last_block(repeats) == max(max(row) for row in starts)
    assert acc.block_starts(repeats).tolist() == sorted({a for row in starts for a in row})
    if acc.base % 32 == 0:
        assert acc.block_indices(repeats).tolist() == [[a // 32 for a in row] for row in starts]
    lo = data.draw(st.integers(0, repeats - 1))
    hi = data.draw(st.integers(lo + 1, repeats))
    span = [a for row in starts[lo:hi] for a in row]
    assert acc.block_span(lo, hi) == (min(span), max(span) + 32)
    # a view of UB's bytes whose element [i, j, e] lies where the formula says
    ub = np.zeros(acc.block_span(0, repeats)[1], np.uint8)
    view = acc.block_view(ub, np.dtype(f"u{acc.size}"), lo, hi)
    origin = ub.__array_interface__["data"][0]
    at = view.__array_interface__["data"][0] - origin
    s0, s1, s2 = view.strides
    got = [[at + i * s0 + j * s1 + e * s2 for j in range(view.shape[1])
            for e in range(view.shape[2])] for i in range(view.shape[0])]
    assert got == addresses(acc, repeats)[lo:hi]


def test_distinct_blocks_on_a_grid_match_the_set_of_every_block():
    """`_distinct_blocks` works a block stride above 1 out by arithmetic when the repeat
    stride is a multiple of it (the whole grid, or repeats apart); every (repeats, blocks,
    blk, rep) of small values against the sorted set of i·rep + j·blk."""
    from isa.decode import _distinct_blocks

    for repeats, nb, blk, rep in itertools.product(range(1, 7), range(1, 9), range(6),
                                                   range(20)):
        want = sorted({i * rep + j * blk for i in range(repeats) for j in range(nb)})
        got = _distinct_blocks(repeats, nb, blk, rep)
        assert got.dtype == np.int64 and got.tolist() == want, (repeats, nb, blk, rep)
