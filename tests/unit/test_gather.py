"""Gather (vgather, gather) (issue 28, 28b): byte offsets into UB, per element, against the
independent reference (tests/reference/gather.py), raw bytes compared; its checks over the bytes
actually read, `check`'s note, the cost, and AscendC's three forms."""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev
from isa.chip import get_chip
from simulator.ascendc.bridge import Session
from simulator.ascendc.build import compile_source
from simulator.cli import main
from tests.reference.gather import gather

DATA = Path(__file__).resolve().parents[1] / "data"
TYPES = {"f16": 2, "bf16": 2, "u16": 2, "s16": 2, "f32": 4, "u32": 4, "s32": 4}
SRC, OFF, DST, AREA = 0x0, 0x2000, 0x4000, 0x2000


def setup(t: str, seed: int, repeats: int) -> tuple[str, bytearray]:
    """src: random bytes (specials included: any bit pattern); offsets: random multiples of the
    element size inside src; dst zeros."""
    size = TYPES[t]
    rng = np.random.default_rng(seed)
    src = rng.integers(0, 256, AREA, dtype=np.uint8)
    n = repeats * 256 // size
    off = (rng.integers(0, AREA // size, n) * size).astype(np.uint32)
    offs = np.zeros(AREA // 4, np.uint32)
    offs[:n] = off
    text = [".chip ascend910b",
            f'.ub raw u8[{AREA}] @{SRC:#x} = bits("{src.tobytes().hex()}")',
            f'.ub o u32[{AREA // 4}] @{OFF:#x} = bits("{offs.tobytes().hex()}")',
            f".ub out u8[{AREA}] @{DST:#x} = zeros",
            f".ub a {t}[{AREA // size}] @{SRC:#x}",
            f".ub d {t}[{AREA // size}] @{DST:#x}"]
    ub = bytearray(DST + AREA)
    ub[SRC:SRC + AREA] = src.tobytes()
    ub[OFF:OFF + AREA] = offs.tobytes()
    return "\n".join(text) + "\n", ub


@pytest.mark.parametrize("t", list(TYPES))
def test_every_type_count_and_masked_forms(t):
    size = TYPES[t]
    n = 256 // size
    text, ub = setup(t, 3, 4)
    count = 2 * n + 7
    result = pipev.run(text + f"    gather.{t} d, a, o, count={count}\n")
    gather(ub, size, DST, SRC, OFF, 0, 8, count=count)
    assert result.ub[DST:DST + AREA].tobytes() == bytes(ub[DST:DST + AREA])
    text, ub = setup(t, 4, 3)
    result = pipev.run(text + f"    gather.{t} d, a, o, repeat=3, mask=9, stride=12\n")
    gather(ub, size, DST, SRC, OFF, 3, 12, active=[k < 9 for k in range(n)])
    assert result.ub[DST:DST + AREA].tobytes() == bytes(ub[DST:DST + AREA])


@settings(max_examples=40, deadline=None)
@given(t=st.sampled_from(list(TYPES)), seed=st.integers(0, 500), repeat=st.integers(1, 4),
       rep=st.integers(0, 20), lo=st.integers(0, (1 << 64) - 1))
def test_random_gathers_match_the_reference(t, seed, repeat, rep, lo):
    size = TYPES[t]
    n = 256 // size
    text, ub = setup(t, seed, repeat)
    lo_mask = lo if size == 2 else lo or 1
    hi_key = ", mask_hi=0" if size == 2 else ""
    result = pipev.run(text + f"    gather.{t} d, a, o, repeat={repeat}, stride={rep}, "
                       f"mask_lo={lo_mask}{hi_key}\n")
    active = [bool(lo_mask >> k & 1) if k < 64 else False for k in range(n)]
    gather(ub, size, DST, SRC, OFF, repeat, rep, active=active)
    assert result.ub[DST:DST + AREA].tobytes() == bytes(ub[DST:DST + AREA])


BASE = """\
.chip ascend910b
.ub a f32[64] = arange(0)
.ub o u32[64] = zeros
.ub d f32[64]
"""


def offsets(*first: int, fill: int = 0) -> str:
    """BASE with the offsets FIRST, then FILL."""
    values = list(first) + [fill] * (64 - len(first))
    return BASE.replace("= zeros", f"= [{', '.join(map(str, values))}]")


def test_the_reads_are_checked_where_they_land():
    """A misaligned offset, one past the src tensor (footprint) or past UB (bounds): each an
    error naming the element; masked-off elements' offsets are not read."""
    with pytest.raises(pipev.SimulationError, match=r"vgather.f32 src address 0x[0-9a-f]+ "
                       r"\(offset 2 of element 1\) is not 4-byte aligned"):
        pipev.run(offsets(0, 2) +
                  "    gather.f32 d, a, o, count=64\n")
    with pytest.raises(pipev.SimulationError, match="vgather.f32 src a needs 260 bytes, "
                       "tensor has 256"):
        pipev.run(offsets(256) +
                  "    gather.f32 d, a, o, count=64\n")
    with pytest.raises(pipev.SimulationError, match="touches byte 0x[0-9a-f]+ outside UB"):
        pipev.run(offsets(4000000) +
                  "    gather.f32 d, a, o, count=64\n")
    result = pipev.run(offsets(4, 8, fill=3) +
                       "    gather.f32 d, a, o, repeat=1, mask=2\n")
    d = result.program.tensors["d"]
    assert result.ub[d.addr:d.addr + 8].view(np.float32).tolist() == [1, 2]


def test_a_gather_in_place_may_read_where_it_writes_now_or_later_not_earlier():
    """dst = src (a third-party NLLLoss gathers a tile's picks into the tile itself): element k
    may read the element it writes or a later one — read before written whether the repeat
    works element by element or reads everything first — but not one an earlier element of the
    repeat wrote, whose value would depend on that order."""
    for form in ("repeat=1, mask=8", "count=8"):
        picks = [3, 1, 7, 3, 6, 5, 7, 7]
        result = pipev.run(offsets(*(4 * p for p in picks)) + f"    gather.f32 a, a, o, {form}\n")
        a = result.program.tensors["a"]
        got = result.ub[a.addr:a.addr + 32].view(np.float32)
        assert got.tolist() == picks, form  # (a = arange: element p holds p)
        with pytest.raises(pipev.SimulationError, match=r"vgather.f32 dst a and src a overlap "
                           r"in repeat 0: element 2 reads byte 0x4, which element 1 of the "
                           r"repeat wrote"):
            pipev.run(offsets(0, 4, 4) + f"    gather.f32 a, a, o, {form}\n")


def test_check_says_a_data_driven_gather_is_left_to_run(tmp_path):
    src = tmp_path / "g.vasm"
    src.write_text(".chip ascend910b\n.gm x u32[64] input\n.ub a f32[64] = zeros\n"
                   ".ub o u32[64]\n.ub d f32[64]\n    copy_gm_to_ub o, x, burst=8\n"
                   "    set_flag MTE2, V, 0\n    wait_flag MTE2, V, 0\n"
                   "    gather.f32 d, a, o, repeat=1\n")
    out = CliRunner().invoke(main, ["check", str(src)]).output
    assert "the bytes 1 gather instruction(s) (line 9) touch follow a pattern or offsets " \
        "loaded from input data" in out


def test_the_cost_is_per_element_width():
    """Gather: 5 elements a cycle — 13 cycles a 64-element repeat, 26 a 128-element one."""
    base = BASE.replace("u32[64]", "u32[128]")
    one = pipev.run(base + "    gather.f32 d, a, o, repeat=2, stride=0\n")
    assert one.pipes["V"] == 26
    two = pipev.run(base.replace("f32[64] = arange(0)", "f16[128] = arange(0)")
                    .replace("d f32[64]", "d f16[128]") + "    gather.f16 d, a, o, repeat=1\n")
    assert two.pipes["V"] == 26


def test_ascendc_forms(tmp_path):
    chip = get_chip("ascend910b")
    src = DATA / "ascendc/kernels/gather.cpp"
    build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    (core,) = [c.result for c in session.launches[0].cores]
    assert not core.diagnostics
    f = core.ub.view(np.float32)
    x = np.arange(128, dtype=np.float32)
    rev = x[::-1][:64]  # offsets (127 - j)·4: x reversed
    assert f[256:320].tolist() == rev.tolist()  # count form
    assert f[320:330].tolist() == list(range(120, 110, -1))  # offsets from off[8], base 4
    assert f[330:384].tolist() == [0] * 54  # mask 10: the rest untouched
