"""Issue 34: ReduceDataBlock's widening SUM (`vredblkwsum.s32.s16`, `.u32.u16`) against
tests/reference/regvec_data.py: extremes (a block of 16 × 32767 / -32768 / 65535, which no
16-bit sum holds) and random registers and masks; other pairs are assembly errors. Also the
8-bit Scatter / Gather with 16-bit indices (`vsct.s8`, `vgthw.s16.s8`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.diagnostics import AssemblyError
from tests.reference.regvec_data import widening_block_sums


def _run(tmp_path, raw: bytes, p: bytes, pair: str) -> bytes:
    np.save(tmp_path / "a.npy", np.frombuffer(raw, np.uint8))
    np.save(tmp_path / "p.npy", np.frombuffer(p, np.uint8))
    (tmp_path / "k.vasm").write_text(f""".chip ascend950
.ub a u8[256] @0x0 = file("a.npy")
.ub p u8[32] @0x100
.ub q u8[32] @0x200 = file("p.npy")
.ub out u8[256] @0x400
    vf_begin "t"
    pset.u8 p7, ALL
    vlds.u8 v0, a[0]
    plds p1, q[0]
    vredblkwsum.{pair} v1, v0, p1
    vsts.u8 out[0], v1, p7
    vf_end
""")
    return simulator.run(tmp_path / "k.vasm").ub[0x400:0x500].tobytes()


@pytest.mark.parametrize("pair,fill", [("s32.s16", 0x7FFF), ("s32.s16", 0x8000),
                                       ("u32.u16", 0xFFFF), ("s32.s16", 0xFFFF)])
def test_extreme_blocks_sum_exactly(tmp_path, pair, fill):
    raw = np.full(128, fill, "<u2").tobytes()
    p = bytes([0x55]) * 32  # CreateMask<int16_t>: bit 2k for element k
    want = widening_block_sums(raw, p, pair[0] == "s")
    assert _run(tmp_path, raw, p, pair) == want
    assert int.from_bytes(want[:4], "little", signed=pair[0] == "s") == 16 * (
        fill - (1 << 16) if pair[0] == "s" and fill >> 15 else fill)


@settings(max_examples=20, deadline=None)
@given(pair=st.sampled_from(["s32.s16", "u32.u16"]), seed=st.integers(0, 2**32 - 1))
def test_random_registers_and_masks(tmp_path_factory, pair, seed):
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 256, 256, dtype=np.uint8).tobytes()
    p = rng.integers(0, 256, 32, dtype=np.uint8).tobytes()
    got = _run(tmp_path_factory.mktemp("w"), raw, p, pair)
    assert got == widening_block_sums(raw, p, pair[0] == "s")


@pytest.mark.parametrize("pair", ["u32.s16", "s32.s8", "s16.s16", "f32.f16"])
def test_other_pairs_are_assembly_errors(tmp_path, pair):
    with pytest.raises(AssemblyError) as e:
        _run(tmp_path, bytes(256), bytes(32), pair)
    assert "sums s16 into s32 and u16 into u32" in str(e.value)


def _run_indexed(tmp_path, data: bytes, idx: np.ndarray, p: bytes, body: str) -> np.ndarray:
    np.save(tmp_path / "a.npy", np.frombuffer(data, np.uint8))
    np.save(tmp_path / "ix.npy", idx.astype(np.uint16))
    np.save(tmp_path / "p.npy", np.frombuffer(p, np.uint8))
    (tmp_path / "k.vasm").write_text(f""".chip ascend950
.ub a u8[256] @0x0 = file("a.npy")
.ub ix u16[128] @0x100 = file("ix.npy")
.ub q u8[32] @0x200 = file("p.npy")
.ub o u8[512] @0x400
.ub g u8[256] @0x800
    vf_begin "t"
    pset.u8 p7, ALL
    vlds.u8 v0, a[0]
    vlds.u16 v1, ix[0]
    plds p1, q[0]
{body}
    vf_end
""")
    return simulator.run(tmp_path / "k.vasm").ub


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), signed=st.booleans())
def test_8_bit_scatter_and_gather_take_16_bit_indices(tmp_path_factory, seed, signed):
    """Scatter of s8/u8: the even source elements to base + index (u16); Gather from UB of
    s8/u8 into s16/u16: zero-extended bytes; random data, distinct indices, random masks."""
    from tests.reference.regvec_data import gather_bytes_widened, scatter_bytes

    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, 256, dtype=np.uint8).tobytes()
    idx = rng.permutation(512)[:128]
    gidx = rng.integers(0, 256, 128)
    p = rng.integers(0, 256, 32, dtype=np.uint8).tobytes()
    on = [bool(p[(2 * k) // 8] >> ((2 * k) % 8) & 1) for k in range(128)]
    s8, s16 = ("s8", "s16") if signed else ("u8", "u16")
    tmp = tmp_path_factory.mktemp("sg")
    ub = _run_indexed(tmp, data, idx, p, f"    vsct.{s8} o[0], v0, v1, p1")
    assert ub[0x400:0x600].tobytes() == bytes(scatter_bytes(bytearray(512), 0, data,
                                                            list(map(int, idx)), on))
    ub = _run_indexed(tmp, data, gidx, p, f"    vgthw.{s16}.{s8} v2, a[0], v1, p1\n"
                      "    vsts.u8 g[0], v2, p7")
    assert ub[0x800:0x900].tobytes() == gather_bytes_widened(data, 0, list(map(int, gidx)), on)


def test_a_widening_gather_of_other_types_is_an_assembly_error(tmp_path):
    with pytest.raises(AssemblyError) as e:
        _run_indexed(tmp_path, bytes(256), np.zeros(128), bytes(32),
                     "    vgthw.s32.s8 v2, a[0], v1, p1")
    assert "Gather widens s8 into s16 and u8 into u16" in str(e.value)
