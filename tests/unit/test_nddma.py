"""ascend950's multi-dimensional DMA, copy_gm_to_ub_nd (#34): bit-exact against the independent
position-by-position reference (tests/reference/nddma.py), directed (the pages' five 2-D
scenarios, five loops, specials) and hypothesis cases, its checks, listing and timing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import isa
import simulator
from isa.chip import get_chip
from isa.diagnostics import AssemblyError
from simulator.errors import SimulationError
from simulator.events import Observer
from tests.reference.nddma import nddma as reference

GM_BYTES = 4096
UB_BYTES = 8192
FILL = 0xA5  # the destination's bytes before the copy (untouched bytes stay so)
TYPES = {"f32": np.float32, "f16": np.float16, "u8": np.uint8, "s16": np.int16,
         "s64": np.int64, "bf16": np.uint16, "f8e5m2": np.uint8}


def _gm(seed: int = 34) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, GM_BYTES, dtype=np.uint8)


def _keys(sizes, src, dst, lps, rps) -> str:
    parts = []
    for d in range(len(sizes)):
        parts += [f"size{d}={sizes[d]}", f"src_stride{d}={src[d]}", f"dst_stride{d}={dst[d]}",
                  f"lp{d}={lps[d]}", f"rp{d}={rps[d]}"]
    return ", ".join(parts)


def run_nd(t: str, sizes, src, dst, lps, rps, pad: int | None = 0, src_off: int = 0,
           dst_off: int = 0, gm: np.ndarray | None = None, chip: str = "ascend950"):
    """Run one copy_gm_to_ub_nd.T and compare UB with the reference, byte for byte; returns
    the run's result. PAD: the pad value's raw bits, None for nearest-value padding."""
    gm = _gm() if gm is None else gm
    esize = np.dtype(TYPES[t]).itemsize
    how = "nearest=1" if pad is None else f"pad_value=raw({pad:#x})"
    text = (f".chip {chip}\n.gm g u8[{GM_BYTES}] input\n"
            f".ub u u8[{UB_BYTES}] @0x0 = fill({FILL})\n"
            f"copy_gm_to_ub_nd.{t} u[{dst_off * esize}], g[{src_off * esize}], "
            f"{_keys(sizes, src, dst, lps, rps)}, {how}\n")
    res = simulator.run(text, inputs={"g": gm})
    want = bytearray([FILL]) * UB_BYTES
    padding = None if pad is None else pad.to_bytes(esize, "little")
    reference(want, gm.tobytes(), esize, dst_off * esize, src_off * esize, list(sizes), list(src),
              list(dst), list(lps), list(rps), padding)
    assert bytes(res.ub[:UB_BYTES]) == bytes(want)
    return res


def error_of(text: str, chip: str = "ascend950", **kw) -> str:
    with pytest.raises((AssemblyError, SimulationError)) as e:
        simulator.run(f".chip {chip}\n.gm g f32[64] input = arange(0)\n"
                      ".ub u f32[256] @0x0\n" + text, **kw)
    return str(e.value)


# -- the pages' 2-D scenarios (DataCopy NDDMA and asc_ndim_copy_gm2ub) ---------------------------
def test_padding_with_a_constant():
    # a [4, 3] source into [9, 6]: left 2, top 2, right 1, bottom 3, the value 88.0 (half)
    res = run_nd("f16", [3, 4], [1, 3], [1, 6], [2, 2], [1, 3], pad=0x5580)
    u = np.frombuffer(bytes(res.ub[:9 * 6 * 2]), np.float16).reshape(9, 6)
    g = np.frombuffer(_gm().tobytes()[:24], np.float16).reshape(4, 3)
    want = np.full((9, 6), 88.0, np.float16)
    want[2:6, 2:5] = g
    assert u.tobytes() == want.tobytes()


def test_padding_with_the_nearest_value():
    res = run_nd("f32", [3, 4], [1, 15], [1, 32], [11, 3], [6, 1], pad=None)
    u = np.frombuffer(bytes(res.ub[:8 * 32 * 4]), np.float32).reshape(8, 32)[:, :20]
    g = np.frombuffer(_gm().tobytes()[:4 * 15 * 4], np.float32).reshape(4, 15)[:, :3]
    want = np.pad(g, ((3, 1), (11, 6)), mode="edge")
    assert u.tobytes() == want.tobytes()


def test_transpose_broadcast_and_slice():
    run_nd("f32", [8, 4], [16, 1], [1, 8], [0, 0], [0, 0])  # transpose [4, 8] of a [8, 16]
    run_nd("u8", [32, 3], [1, 0], [1, 32], [0, 0], [0, 0])  # broadcast one row three times
    run_nd("s16", [7, 5], [1, 64], [1, 16], [0, 0], [0, 0], src_off=64 * 3 + 2)  # a slice


def test_five_loops_with_padding_on_each():
    run_nd("f16", [3, 2, 2, 2, 2], [1, 5, 17, 41, 101], [1, 6, 24, 96, 384],
           [1, 1, 0, 1, 0], [2, 1, 2, 0, 1], pad=0x7C00)


def test_a_loop_of_padding_only_positions_keeps_the_data_once():
    run_nd("f32", [1, 1], [0, 0], [1, 8], [3, 2], [4, 1], pad=0x3F800000)


def test_specials_move_bit_for_bit():
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0] * 4,
                        np.float32)
    specials.view(np.uint32)[0] = 0x7FC01234  # a NaN payload
    gm = np.zeros(GM_BYTES, np.uint8)
    gm[:specials.nbytes] = specials.view(np.uint8)
    res = run_nd("f32", [8, 4], [1, 8], [1, 16], [4, 1], [4, 0], pad=0xFF800000, gm=gm)
    row = np.frombuffer(bytes(res.ub[64:128]), np.uint32)
    assert row[4] == 0x7FC01234 and row[0] == 0xFF800000


@pytest.mark.parametrize("t", ["u8", "s64", "bf16", "f8e5m2"])
def test_other_element_sizes(t):
    run_nd(t, [5, 3], [2, 11], [1, 8], [1, 0], [2, 1], pad=0x5A)


def test_the_dst_offset_and_src_offset():
    run_nd("f32", [4, 2], [1, 9], [1, 8], [0, 1], [4, 0], pad=0, src_off=3, dst_off=16)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_hypothesis_against_the_reference(data):
    t = data.draw(st.sampled_from(["f32", "f16", "u8", "s64"]))
    esize = np.dtype(TYPES[t]).itemsize
    dims = data.draw(st.integers(1, 5))
    sizes = [data.draw(st.integers(1, 4)) for _ in range(dims)]
    lps = [data.draw(st.integers(0, 2)) for _ in range(dims)]
    rps = [data.draw(st.integers(0, 2)) for _ in range(dims)]
    src = [data.draw(st.integers(0, 6)) for _ in range(dims)]
    counts = [lp + n + rp for lp, n, rp in zip(lps, sizes, rps, strict=True)]
    dst, step = [], 1  # disjoint destinations: each loop's stride at least the inner extent
    for c in counts:
        stride = step + data.draw(st.integers(0, 2))
        dst.append(stride)
        step = stride * c
    src_reach = sum((n - 1) * s for n, s in zip(sizes, src, strict=True)) + 1
    if src_reach * esize > GM_BYTES or step * esize > UB_BYTES:
        return
    pad = data.draw(st.one_of(st.none(), st.integers(0, (1 << (8 * esize)) - 1)))
    if pad is None and esize == 8:
        pad = 0  # nearest-value mode is not for 64-bit types (the page)
    run_nd(t, sizes, src, dst, lps, rps, pad=pad, gm=_gm(data.draw(st.integers(0, 99))))


# -- checks --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("stmt", "want"), [
    ("copy_gm_to_ub_nd.f32 u, g, size0=65, src_stride0=1, dst_stride0=1",
     "src touches byte 0x100 outside GM tensor g (256 bytes)"),
    ("copy_gm_to_ub_nd.f32 u, g, size0=8, src_stride0=1, dst_stride0=1, size1=8, src_stride1=8, "
     "dst_stride1=40", "dst u needs 1152 bytes, tensor has 1024"),
    ("copy_gm_to_ub_nd.f32 u[1], g, size0=8, src_stride0=1, dst_stride0=1",
     "not 32-byte aligned"),
    ("copy_gm_to_ub_nd.f32 u, g, size0=4, src_stride0=1, dst_stride0=1, size1=2, src_stride1=4, "
     "dst_stride1=2", "writes dst element 2 more than once"),
    ("copy_gm_to_ub_nd.f32 u, g, size0=0", "size0"),
    ("copy_gm_to_ub_nd.f32 u, g, size0=2, lp0=256", "lp0"),
    ("copy_gm_to_ub_nd.f32 u, g, size0=2, dst_stride0=1048576", "dst_stride0"),
])
def test_checks(stmt, want):
    assert want in error_of(stmt + "\n")


def test_nearest_mode_is_not_for_64_bit_types():
    text = (".gm h s64[8] input = arange(0)\n.ub v s64[32] @0x400\n"
            "copy_gm_to_ub_nd.s64 v, h, size0=4, dst_stride0=1, src_stride0=1, lp0=1, nearest=1\n")
    assert "nearest" in error_of(text)


def test_not_on_ascend910b():
    assert "copy_gm_to_ub_nd.f32 is not supported on ascend910b" in error_of(
        "copy_gm_to_ub_nd.f32 u, g, size0=4, src_stride0=1, dst_stride0=1\n", chip="ascend910b")


def test_overlap_is_a_warning_under_checks_warn():
    res = simulator.run(".chip ascend950\n.gm g f32[64] input = arange(0)\n.ub u f32[256] @0x0\n"
                        "copy_gm_to_ub_nd.f32 u, g, size0=4, src_stride0=1, dst_stride0=1, "
                        "size1=2, src_stride1=4, dst_stride1=2\n", checks="warn")
    assert any("more than once" in str(w) for w in res.warnings)


# -- listing, hazards and timing ----------------------------------------------------------------
def test_the_listing_shows_the_keys_away_from_their_defaults():
    text = (".chip ascend950\n.gm g f32[64] input = arange(0)\n.ub u f32[256] @0x0\n"
            "copy_gm_to_ub_nd.f32 u, g, size0=4, src_stride0=1, dst_stride0=1, lp0=2, "
            "pad_value=1.5\n")
    hw = isa.assemble(text).statements[-1].hw[0].text
    assert hw == ("copy_gm_to_ub_nd.f32 u, g, pad_value=0x3fc00000, size0=4, src_stride0=1, "
                  "dst_stride0=1, lp0=2")



class Timings(Observer):
    def __init__(self) -> None:
        self.rows = []

    def on_event(self, event) -> None:
        self.rows.append(event.timing)


def test_mte2_timing_counts_a_burst_a_row_of_loop_0():
    """The profile's MTE2 figures, one burst a loop-0 row (padding included) of whole blocks:
    16 rows of 8 + 24 = 32 f32 (four blocks) are 64 blocks; 7 f32 rows are one block each."""
    t = get_chip("ascend950").timing
    for rows, blocks in (([8, 16], [24, 0]), ([7, 16], [0, 0])):
        obs = Timings()
        simulator.run(".chip ascend950\n.gm g f32[512] input = arange(0)\n.ub u f32[2048] @0x0\n"
                      f"copy_gm_to_ub_nd.f32 u, g, {_keys(rows, [1, 8], [1, 32], [0, 0], blocks)}"
                      "\n", observers=[obs])
        nblk = 64 if blocks[0] else 16
        want = max(t["mte2_latency"] + t["mte2_cycles_per_block"] * nblk,
                   t["mte2_min_cycles_per_block"] * nblk)
        assert obs.rows[0].busy == int(np.ceil(round(want, 9)))


def test_a_vector_read_after_the_copy_without_a_flag_is_a_race():
    res = simulator.run(".chip ascend950\n.gm g f32[64] input = arange(0)\n.ub u f32[64] @0x0\n"
                        ".ub v f32[64] @0x100\n"
                        "copy_gm_to_ub_nd.f32 u, g, size0=8, src_stride0=1, dst_stride0=1, "
                        "size1=8, src_stride1=8, dst_stride1=8\n"
                        "adds.f32 v, u, 1.0, count=64\n", checks="warn")
    assert any("race" in str(w) for w in res.warnings)


def test_the_debugger_steps_over_the_copy_and_back(tmp_path):
    from simulator.debugger import Commands, Session
    from simulator.run import load_program

    prog = tmp_path / "nd.vasm"
    prog.write_text(".chip ascend950\n.gm g f32[64] input = arange(0)\n"
                    ".ub u f32[64] @0x0 = fill(7)\n"
                    "copy_gm_to_ub_nd.f32 u, g, size0=4, src_stride0=1, dst_stride0=1, size1=3, "
                    "src_stride1=8, dst_stride1=8, lp0=1, pad_value=-1\n")
    s = Session(load_program(prog))
    c = Commands(s)

    def u() -> np.ndarray:
        s.sync()
        return np.frombuffer(s.machine.ub[:256].tobytes(), np.float32)

    before = u().copy()
    c.execute("step")
    assert u()[:6].tolist() == [-1, 0, 1, 2, 3, 7] and u()[8] == -1 and u()[9] == 8
    c.execute("back")
    assert u().tobytes() == before.tobytes()
