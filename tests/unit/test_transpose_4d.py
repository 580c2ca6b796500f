"""Transpose's enhanced NCHW <-> NHWC forms (issue 28 item 5): `transpose_nchw2nhwc` and
`transpose_nhwc2nchw` against numpy's reshape/transpose (tests/reference/layout.py), raw bytes,
on directed shapes (the asc-devkit sample's [3,3,2,8]) and random ones (hypothesis); the 8-bit
types (h28) on shapes whose H x W is a multiple of 32, as the page requires. Shapes off the
page's domain (H x W x size not a multiple of 32 bytes) are a rule: they run with --checks
warn/off and are still the exact layout change."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev
from tests.reference.layout import transpose_4d

NP = {"f16": np.uint16, "u16": np.uint16, "s16": np.uint16, "f32": np.uint32,
      "u32": np.uint32, "s32": np.uint32, "u8": np.uint8, "s8": np.uint8}


def run(t: str, dims: tuple[int, int, int, int], to_nhwc: bool, seed: int = 0,
        tmp_blocks: int | None = None, checks: str = "error"):
    n, c, h, w = dims
    size = np.dtype(NP[t]).itemsize
    total = n * c * h * w
    # random raw bits: NaN payloads and -0 move as bits
    x = np.random.default_rng(seed).integers(0, 1 << (8 * size), max(total, 1),
                                             dtype=np.uint64).astype(NP[t])
    nbytes = -(-max(total, 1) * size // 32) * 32
    tmp = tmp_blocks if tmp_blocks is not None else ((c + 2) if to_nhwc else (2 * c + 1))
    tile = 1024 if size == 1 else 512  # the page's h0 x w0 x sizeof(T)
    name = "transpose_nchw2nhwc" if to_nhwc else "transpose_nhwc2nchw"
    text = (f".chip ascend910b\n"
            f'.ub a {t}[{nbytes // size}] @0x0 = bits("{x.tobytes().hex()}'
            f'{"00" * (nbytes - x.nbytes)}")\n'
            f".ub d {t}[{nbytes // size}] @{nbytes:#x} = zeros\n"
            f".ub tmp u8[{max(tmp, 1) * tile}] @{2 * nbytes:#x}\n"
            f"    {name}.{t} d, a, tmp, nsize={n}, csize={c}, hsize={h}, wsize={w}\n")
    r = pipev.run(text, checks=checks)
    got = r.ub[nbytes:nbytes + total * size].tobytes()
    return got, transpose_4d(x[:total], n, c, h, w, to_nhwc).tobytes(), r


@pytest.mark.parametrize("to_nhwc", [True, False])
@pytest.mark.parametrize("t", ["f16", "u16", "s16", "f32", "u32", "s32"])
@pytest.mark.parametrize("dims", [(3, 3, 2, 8), (1, 16, 4, 4), (2, 5, 3, 7), (1, 1, 1, 1),
                                  (1, 70, 1, 1)])
def test_directed(t, dims, to_nhwc):
    aligned = dims[2] * dims[3] * np.dtype(NP[t]).itemsize % 32 == 0
    got, want, _ = run(t, dims, to_nhwc, checks="error" if aligned else "off")
    assert got == want


@pytest.mark.parametrize("to_nhwc", [True, False])
@pytest.mark.parametrize("t", ["u8", "s8"])
@pytest.mark.parametrize("dims", [(3, 3, 4, 8), (1, 16, 2, 16), (2, 5, 1, 32), (1, 1, 32, 1),
                                  (1, 70, 1, 32), (1, 3, 1, 64)])
def test_directed_8bit(t, dims, to_nhwc):
    """Every byte pattern (NaN-free: raw bytes), odd and even source offsets, several chunks
    of 128 and a partial last one."""
    got, want, _ = run(t, dims, to_nhwc)
    assert got == want


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["u8", "s8"]), st.integers(1, 3), st.integers(1, 9),
       st.sampled_from([(1, 32), (2, 16), (4, 8), (32, 2), (3, 32), (8, 12)]), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_random_8bit(t, n, c, hw, to_nhwc, seed):
    got, want, _ = run(t, (n, c, *hw), to_nhwc, seed)
    assert got == want


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["f16", "f32", "u16", "s32"]), st.integers(1, 3), st.integers(1, 9),
       st.integers(1, 5), st.integers(1, 9), st.booleans(), st.integers(0, 2**32 - 1))
def test_random(t, n, c, h, w, to_nhwc, seed):
    got, want, _ = run(t, (n, c, h, w), to_nhwc, seed, checks="off")
    assert got == want


def test_empty_shape_writes_nothing():
    got, want, r = run("f16", (0, 3, 2, 8), True)
    assert got == want == b"" and r.pipes["V"] == 0


def test_expansion_and_mask():
    """64 dst elements a vgather, their offsets put in tmp by one-lane vector_dups; MASK is all
    ones afterwards."""
    _, _, r = run("f16", (3, 3, 2, 8), True)
    heads = [h.text.split()[0] for s in r.program.statements for h in s.hw]
    assert heads.count("vgather.f16") == 3 and heads.count("vector_dup.u32") == 144
    assert r.pipes["V"] > 0


def test_checks():
    with pytest.raises(pipev.AssemblyError, match="must hold 2560 bytes for csize=3"):
        run("f16", (3, 3, 2, 8), True, tmp_blocks=4)
    with pytest.raises(pipev.AssemblyError, match="must hold 5120 bytes for csize=3"):
        run("u8", (1, 3, 4, 8), True, tmp_blocks=4)  # 8-bit: 1024-byte tiles
    with pytest.raises(pipev.AssemblyError, match="must hold 7168 bytes for csize=3"):
        run("s8", (1, 3, 4, 8), False, tmp_blocks=6)
    with pytest.raises(pipev.AssemblyError, match=r"hsize x wsize x 1 = 16 bytes is not a "
                       "multiple of 32"):
        run("u8", (1, 2, 4, 4), True)
    with pytest.raises(pipev.AssemblyError, match="hsize x wsize x 2 = 42 bytes"):
        run("f16", (2, 5, 3, 7), True)
    with pytest.raises(pipev.AssemblyError, match="csize=4096 is over 4095"):
        run("u8", (0, 4096, 1, 32), True, tmp_blocks=1)
    with pytest.raises(pipev.AssemblyError, match="hsize x wsize = 4096 is over 4095"):
        run("u8", (0, 1, 64, 64), True)
    _, _, r = run("f16", (2, 5, 3, 7), True, checks="warn")
    assert any("not a multiple of 32" in str(d) for d in r.diagnostics)
    for chip in ("ascend910", "ascend310p", "ascend950"):
        with pytest.raises(pipev.AssemblyError, match="transpose_nchw2nhwc"):
            pipev.run(f".chip {chip}\n.ub a f16[256]\n.ub d f16[256]\n.ub tmp u8[4096]\n"
                      "    transpose_nchw2nhwc.f16 d, a, tmp, nsize=1, csize=2, hsize=4, "
                      "wsize=8\n")


def test_8bit_expansion():
    """128 dst bytes a vgather.u16 of the halfwords holding them; W <<= 8 only in the lanes
    whose byte is the low one; the bytes leave through f16 (exact); MASK all ones after."""
    _, _, r = run("u8", (1, 3, 4, 8), True)  # 96 bytes: one chunk
    heads = [h.text.split()[0] for s in r.program.statements for h in s.hw]
    assert heads.count("vgather.u16") == 1 and heads.count("vector_dup.u32") == 96
    assert heads.count("vshl.u16") == 1 and heads.count("vshr.u16") == 1
    assert heads.count("vconv.f16.s16") == 1 and heads.count("vconv.u8.f16") == 1
    assert heads[-1] == "set_vector_mask" and r.pipes["V"] > 0
    # C = 1: dst[p] = src[p], every other byte at an odd offset
    _, _, r = run("u8", (1, 1, 1, 32), True)
    heads = [h.text.split()[0] for s in r.program.statements for h in s.hw]
    assert heads.count("vshl.u16") == 1


def test_ascendc(tmp_path):
    import ctypes
    from pathlib import Path

    from isa.chip import get_chip
    from simulator.ascendc.bridge import Session
    from simulator.ascendc.build import compile_source

    chip = get_chip("ascend910b")
    src = Path(__file__).resolve().parents[1] / "data/ascendc/kernels/transpose_4d.cpp"
    build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    (core,) = [c.result for c in session.launches[0].cores]
    assert not core.diagnostics
    h = core.ub[:576].view(np.float16)
    x = np.arange(96, dtype=np.float16)
    assert h[96:192].tobytes() == transpose_4d(x, 3, 2, 2, 8, True).tobytes()
    assert h[192:288].tobytes() == x.tobytes()
    f = core.ub[1024:1024 + 768].view(np.float32)
    y = np.arange(48, dtype=np.float32) + np.float32(0.5)
    assert f[64:112].tobytes() == transpose_4d(y, 2, 3, 1, 8, True).tobytes()
    assert f[128:176].tobytes() == y.tobytes()
    b = core.ub[2048:2048 + 512].view(np.int8)
    z = (np.arange(96) - 48).astype(np.int8)
    assert b[128:224].tobytes() == transpose_4d(z, 1, 3, 1, 32, True).tobytes()
    assert b[256:352].tobytes() == z.tobytes()
