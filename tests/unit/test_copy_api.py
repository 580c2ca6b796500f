"""AscendC Copy (UB to UB) as the `copy` API statement (AscendC `Copy`, simulator/bindings.py):
its forms expand to vcopy, and the bytes it writes follow an element-by-element reading of the
Copy page — element e of block b of repeat r read at src_rep·r + src_blk·b blocks and written at
dst_rep·r + dst_blk·b blocks, where the mask's bit (b·E + e) is set; nothing else written."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa import assemble

RAW = {2: np.uint16, 4: np.uint32}
SIZE = {"u16": 2, "s16": 2, "f16": 2, "bf16": 2, "u32": 4, "s32": 4, "f32": 4}
N = 8192  # elements of each tensor: room for 4 repeats at repeat strides up to 16 blocks


def expected(src: np.ndarray, fill: np.ndarray, size: int, repeat: int, strides: tuple,
             hi: int, lo: int) -> np.ndarray:
    """Copy's destination, element by element."""
    dst_blk, src_blk, dst_rep, src_rep = strides
    per_block, out = 32 // size, fill.copy()
    for r in range(repeat):
        for k in range(256 // size):
            if not ((lo >> k) & 1 if k < 64 else (hi >> (k - 64)) & 1):
                continue
            b, e = divmod(k, per_block)
            out[(dst_rep * r + dst_blk * b) * per_block + e] = \
                src[(src_rep * r + src_blk * b) * per_block + e]
    return out


def run_copy(t: str, src: np.ndarray, fill: np.ndarray, statement: str) -> np.ndarray:
    size = SIZE[t]
    at = N * size
    text = (".chip ascend910b\n"
            f'.ub a {t}[{N}] @0x0 = bits("{src.tobytes().hex()}")\n'
            f'.ub d {t}[{N}] @{at:#x} = bits("{fill.tobytes().hex()}")\n'
            f"{statement}\n")
    res = simulator.run(text)
    return np.frombuffer(bytes(res.ub[at:2 * at]), RAW[size])


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(SIZE)), st.integers(1, 4),
       st.tuples(st.integers(1, 3), st.integers(0, 3), st.integers(8, 16), st.integers(0, 16)),
       st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(0, 2**32 - 1))
def test_high_dimensional_copy_follows_strides_and_mask_element_by_element(t, repeat, strides,
                                                                          hi, lo, seed):
    size = SIZE[t]
    if size == 4:
        hi = 0  # a 32-bit element's repeat is 64 elements: MASK_LO alone
    rng = np.random.default_rng(seed)
    src = rng.integers(0, 1 << (8 * size), N, dtype=np.uint64).astype(RAW[size])
    fill = np.full(N, 0x5A5A5A5A, np.uint32).astype(RAW[size])
    keys = f"mask_lo={lo:#x}" + (f", mask_hi={hi:#x}" if size == 2 else "")
    got = run_copy(t, src, fill, f"copy.{t} d, a, repeat={repeat}, "
                   f"stride={','.join(map(str, strides))}, {keys}")
    want = expected(src, fill, size, repeat, strides, hi, lo)
    assert got.tobytes() == want.tobytes()


def test_copy_forms_expand_to_vcopy():
    prog = assemble(".chip ascend910b\n.ub a f32[512]\n.ub d f32[512]\n"
                    "copy.f32 d, a, count=100\n"
                    "copy.f32 d, a, repeat=2, mask=64, stride=1,2,8,16\n")
    hw = [i.text for s in prog.statements for i in s.hw]
    assert "vcopy.f32 d, a, repeat=1" in hw
    assert "vcopy.f32 d, a, repeat=2, stride=1,2,8,16" in hw
