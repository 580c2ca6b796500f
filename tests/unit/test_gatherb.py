"""Gatherb (vgatherb, gatherb; AscendC Gatherb, the C API's asc_gather_datablock) (issue 28):
whole 32-byte blocks by byte offsets, against the page's reference code
(tests/reference/gather.py), raw bytes; its checks over the blocks actually read; the cost."""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev
from isa.chip import get_chip
from simulator.ascendc.bridge import Session
from simulator.ascendc.build import compile_source
from tests.reference.gather import gatherb

DATA = Path(__file__).resolve().parents[1] / "data"
SRC, OFF, DST, AREA = 0x0, 0x2000, 0x4000, 0x2000


def program(t: str, seed: int, offsets: list[int], line: str) -> tuple[str, bytearray]:
    src = np.random.default_rng(seed).integers(0, 256, AREA, dtype=np.uint8)
    offs = np.zeros(AREA // 4, np.uint32)
    offs[:len(offsets)] = offsets
    text = "\n".join([
        ".chip ascend910b",
        f'.ub a {t}[{AREA // 2 if t == "u16" else AREA // 4}] @{SRC:#x} = '
        f'bits("{src.tobytes().hex()}")',
        f'.ub o u32[{AREA // 4}] @{OFF:#x} = bits("{offs.tobytes().hex()}")',
        f".ub d {t}[{AREA // 2 if t == 'u16' else AREA // 4}] @{DST:#x} = zeros",
        line, ""])
    ub = bytearray(DST + AREA)
    ub[SRC:SRC + AREA] = src.tobytes()
    ub[OFF:OFF + AREA] = offs.tobytes()
    return text, ub


@settings(max_examples=60, deadline=None)
@given(t=st.sampled_from(["u16", "u32"]), seed=st.integers(0, 10_000), repeat=st.integers(0, 4),
       blk=st.integers(0, 2), rep=st.integers(0, 24), data=st.data())
def test_random_gathers_match_the_reference(t, seed, repeat, blk, rep, data):
    """Any block offsets (repeats and overlaps between them allowed), any dst strides that keep
    the destination inside its area: the bytes the page's reference code moves."""
    n = max(repeat, 1) * 8
    offsets = data.draw(st.lists(st.integers(0, AREA // 32 - 1), min_size=n, max_size=n))
    offsets = [32 * b for b in offsets]
    api = data.draw(st.booleans())
    stmt = "gatherb" if api else "vgatherb"
    text, ub = program(t, seed, offsets, f"    {stmt}.{t} d, a, o, repeat={repeat}, "
                       f"stride={blk},{rep}")
    result = pipev.run(text)
    gatherb(ub, DST, SRC, offsets, repeat, blk, rep)
    assert result.ub[DST:DST + AREA].tobytes() == bytes(ub[DST:DST + AREA])


def test_the_pages_example_and_specials():
    """The page's example: offsets 224 … 0 reverse the 8 blocks of 0..127; any bit pattern
    (NaN-like words, sign bits) moves untouched."""
    text, _ = program("u16", 0, [], "")
    text = "\n".join([".chip ascend910b", ".ub x u16[128] = arange(0)",
                      ".ub o u32[8] = [224, 192, 160, 128, 96, 64, 32, 0]",
                      ".ub y u16[128]", "    gatherb.u16 y, x, o, repeat=1, stride=1,8", ""])
    y = pipev.run(text).ub[288:544].view(np.uint16).reshape(8, 16)
    assert y.tolist() == np.arange(128).reshape(8, 16)[::-1].tolist()
    words = np.array([0x7FC00001, 0x80000000, 0xFFFFFFFF, 0x00000001] * 16, np.uint32)
    text = "\n".join([".chip ascend910b", f'.ub x u32[64] = bits("{words.tobytes().hex()}")',
                      ".ub o u32[8] = [0, 32, 64, 96, 128, 160, 192, 224]",
                      ".ub y u32[64]", "    vgatherb.u32 y, x, o, repeat=1, stride=1,8", ""])
    assert pipev.run(text).ub[288:544].tobytes() == words.tobytes()


BASE = [".chip ascend910b", ".ub x u16[256] = arange(0)", ".ub y u16[256]"]


@pytest.mark.parametrize(("offsets", "line", "error"), [
    ("[16, 0, 0, 0, 0, 0, 0, 0]", "vgatherb.u16 y, x, o, repeat=1, stride=1,8",
     r"vgatherb.u16 offset 0 = 16: src \+ it = 0x10 is not 32-byte aligned"),
    ("[4194304, 0, 0, 0, 0, 0, 0, 0]", "vgatherb.u16 y, x, o, repeat=1, stride=1,8",
     r"outside UB"),
    ("[0, 32, 64, 96, 128, 160, 192, 224]", "vgatherb.u16 x[64], x, o, repeat=1, stride=1,8",
     r"overlap"),
])
def test_checks(offsets, line, error):
    text = "\n".join(BASE + [f".ub o u32[8] = {offsets}", f"    {line}", ""])
    with pytest.raises(pipev.SimulationError, match=error):
        pipev.run(text)


def test_cost_and_chips():
    text = "\n".join(BASE + [".ub o u32[16] = zeros", "    vgatherb.u16 y, x, o, repeat=2, "
                             "stride=1,8", ""])
    assert pipev.run(text).pipes["V"] == 6  # 3 cycles a repeat (42 elements/cycle)
    with pytest.raises(pipev.AssemblyError, match="gatherb"):
        pipev.run(text.replace("ascend910b", "ascend950"))


def test_ascendc_and_the_c_api(tmp_path):
    chip = get_chip("ascend910b")
    src = DATA / "ascendc/kernels/gatherb.cpp"
    build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    ascendc, c_api = (c.result for launch in session.launches for c in launch.cores)
    assert not ascendc.diagnostics
    x = np.arange(256, dtype=np.uint16)
    ub = bytearray(ascendc.ub.nbytes)
    ub[:512] = x.tobytes()
    offsets = [32 * ((3 * j) % 16) for j in range(16)]
    gatherb(ub, 1024, 0, offsets, 2, 2, 16)  # dst blocks 2 apart, repeats 16 blocks apart
    assert ascendc.ub[1024:2048].tobytes() == bytes(ub[1024:2048])
    w = c_api.ub[:512].view(np.uint32)  # src: __ubuf__ arrays from UB 0
    assert w[:128].tolist() == list(range(128))
    got = c_api.ub[576:1088].view(np.uint32).reshape(16, 8)  # dst after src (512) and off (64)
    want = np.arange(128, dtype=np.uint32).reshape(16, 8)[[15 - j for j in range(16)]]
    assert got.tolist() == want.tolist()
