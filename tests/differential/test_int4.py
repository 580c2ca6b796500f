"""int4b_t (s4) end to end against the element-by-element reference (tests/reference/int4.py):
vconv between f16 and s4 on directed specials in every round mode and on random repeats, masks
and strides, comparing every byte of UB (the untouched halves of shared bytes included); the
pair rules (even counts, MASK bits 2j and 2j+1 equal, even element offsets) at the user's line;
declarations, .npy files and DMA of s4 tensors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simulator
from isa.diagnostics import AssemblyError
from simulator.errors import SimulationError
from tests.reference.int4 import vconv_s4

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MODES = ("none", "rint", "floor", "ceil", "round", "trunc")
SRC_AT, DST_AT, UB_BYTES = 0x0, 0x4000, 0x8000  # x (f16 side) and y (s4 side) of each program
FILL = 0x5A  # what every byte not written must still hold

# halves: −8 and 7 (the range's ends), just beyond them, ties in every position, ±0, the largest
# finite, ±inf, NaN of either sign, subnormals
SPECIAL_F16 = [-8.0, 7.0, -8.5, 7.5, -9.0, 8.0, 7.49, -8.49, 0.5, 1.5, 2.5, 3.5, -0.5, -1.5,
               -2.5, -3.5, 6.5, -7.5, 0.0, -0.0, 65504.0, -65504.0, np.inf, -np.inf, np.nan,
               -np.nan, 6e-8, -6e-8, 0.49, -0.51, 100.0, -1000.0]


def _f16_bits(values) -> np.ndarray:
    out = np.array(values, np.float16).view(np.uint16)
    return out


def _program(dst: str, body: str, x: bytes, y: bytes) -> str:
    """x: f16 at SRC_AT, y: s4 at DST_AT (DST "s4" only: the f16 → s4 direction)."""
    assert dst == "s4"
    xt, yt = "f16", "s4"
    return (".chip ascend910b\n"
            f'.ub x {xt}[{len(x) // 2 if xt == "f16" else 2 * len(x)}] @{SRC_AT:#x} = '
            f'bits("{x.hex()}")\n'
            f'.ub y {yt}[{2 * len(y)}] @{DST_AT:#x} = bits("{y.hex()}")\n' + body)


def _run(text: str) -> bytes:
    return bytes(simulator.run(text).ub[:UB_BYTES])


def _image(x: bytes, y: bytes) -> bytearray:
    mem = bytearray([0] * UB_BYTES)
    mem[SRC_AT:SRC_AT + len(x)] = x
    mem[DST_AT:DST_AT + len(y)] = y
    return mem


@pytest.mark.parametrize("mode", MODES)
def test_f16_to_s4_specials_match_the_reference(mode):
    vals = _f16_bits(SPECIAL_F16 * 4)[:128]
    x = vals.tobytes()
    y = bytes([FILL]) * 64
    text = _program("s4", f"vconv.s4.f16 y, x, repeat=1, round={mode}\n", x, y)
    got = _run(text)
    want = _image(x, y)
    vconv_s4(want, "s4", DST_AT, SRC_AT, 1, mode, (1, 1, 2, 8))
    assert got == bytes(want)


def test_the_page_worked_example_and_saturation():
    """The precision page's 1.5 in each mode; saturation at −8 and 7; NaN gives 0."""
    x = _f16_bits([1.5, 1.5, 1.5, 1.5, 1.5, 100, -100, np.nan] + [0] * 120).tobytes()
    outs = {}
    for mode in ("rint", "floor", "ceil", "round", "trunc"):
        got = _run(_program("s4", f"vconv.s4.f16 y, x, repeat=1, round={mode}\n", x,
                            bytes(64)))
        b = got[DST_AT:DST_AT + 4]
        outs[mode] = [b[0] & 0xF, b[0] >> 4, b[1] & 0xF, b[1] >> 4, b[2] & 0xF, b[2] >> 4,
                      b[3] & 0xF, b[3] >> 4]
    assert [outs[m][0] for m in ("rint", "floor", "ceil", "round", "trunc")] == [2, 1, 2, 2, 1]
    assert outs["rint"][5:8] == [7, 8, 0]  # 100 → 7, −100 → −8 (0b1000), NaN → 0


def test_s4_to_f16_every_value():
    """All 16 values in both halves of a byte, read back as halves exactly."""
    y = bytes((lo | hi << 4) for hi in range(16) for lo in range(16))[:64]
    text = (".chip ascend910b\n"
            f'.ub y s4[128] @{SRC_AT:#x} = bits("{y.hex()}")\n'
            f'.ub z f16[128] @{DST_AT:#x} = bits("{"5a" * 256}")\n'
            "vconv.f16.s4 z, y, repeat=1\n")
    got = np.frombuffer(_run(text)[DST_AT:DST_AT + 256], np.float16)
    want = [((v & 0xF ^ 8) - 8) for b in y for v in (b & 0xF, b >> 4)]
    assert got.tolist() == want


@st.composite
def vconv_cases(draw):
    dst = draw(st.sampled_from(("s4", "f16")))
    mode = draw(st.sampled_from(MODES)) if dst == "s4" else "none"
    repeats = draw(st.integers(1, 4))
    # a destination block stride of 0 is refused (undefined on hardware); a source's reads one
    s4_blk, f16_blk = draw(st.integers(1 if dst == "s4" else 0, 3)), draw(st.integers(1, 2))
    s4_rep, f16_rep = draw(st.integers(0, 6)), draw(st.integers(0, 16))
    pairs = draw(st.integers(0, 2**64 - 1))  # one bit per byte of the s4 side (64 a repeat)
    bits = 0
    for j in range(64):
        if pairs >> j & 1:
            bits |= 3 << (2 * j)
    counter = draw(st.booleans())
    count = 2 * draw(st.integers(1, 4 * 64))
    seed = draw(st.integers(0, 2**32 - 1))
    return dst, mode, repeats, (s4_blk, f16_blk, s4_rep, f16_rep), bits, counter, count, seed


@SETTINGS
@given(vconv_cases())
def test_random_vconv_matches_the_reference_byte_for_byte(case):
    dst, mode, repeats, (s4_blk, f16_blk, s4_rep, f16_rep), bits, counter, count, seed = case
    rng = np.random.default_rng(seed)
    specials = _f16_bits(SPECIAL_F16)
    f16 = rng.integers(-12, 12, 4096).astype(np.float16).view(np.uint16)
    f16 = np.where(rng.random(4096) < 0.3, rng.choice(specials, 4096), f16).astype(np.uint16)
    halves = f16.tobytes()
    nibbles = rng.integers(0, 256, 0x2000, dtype=np.uint8).tobytes()
    x, y = (halves, nibbles) if dst == "s4" else (nibbles, halves)
    if dst == "s4":
        strides = (s4_blk, f16_blk, s4_rep, f16_rep)
        fields = f"dst_blk={s4_blk}, src_blk={f16_blk}, dst_rep={s4_rep}, src_rep={f16_rep}"
    else:
        strides = (f16_blk, s4_blk, f16_rep, s4_rep)
        fields = f"dst_blk={f16_blk}, src_blk={s4_blk}, dst_rep={f16_rep}, src_rep={s4_rep}"
    ytype, xtype = ("s4", "f16") if dst == "s4" else ("f16", "s4")
    n_x = len(x) // 2 if xtype == "f16" else 2 * len(x)
    n_y = len(y) // 2 if ytype == "f16" else 2 * len(y)
    if counter:
        setup = f"set_mask_count\nset_vector_mask 0, {count}\n"
    else:
        setup = f"set_vector_mask {bits >> 64:#x}, {bits & (2**64 - 1):#x}\n"
    text = (".chip ascend910b\n"
            f'.ub x {xtype}[{n_x}] @{SRC_AT:#x} = bits("{x.hex()}")\n'
            f'.ub y {ytype}[{n_y}] @{DST_AT:#x} = bits("{y.hex()}")\n' + setup +
            f"vconv.{dst}.{xtype} y, x, repeat={repeats}, round={mode}, {fields}\n")
    if not counter and bits == 0:
        return  # MASK = 0 does nothing (a warning)
    got = _run(text)
    want = _image(x, y)
    vconv_s4(want, dst, DST_AT, SRC_AT, repeats, mode, strides, (bits >> 64, bits & (2**64 - 1)),
             counter, count)
    diff = [i for i in range(UB_BYTES) if got[i] != want[i]]
    assert not diff, f"first differing bytes {[hex(i) for i in diff[:8]]}"


@SETTINGS
@given(st.integers(1, 600), st.sampled_from(MODES), st.integers(0, 2**32 - 1))
def test_cast_count_form_round_trip(half_count, mode, seed):
    """cast.s4.f16 / cast.f16.s4 count=N (N even): the first N elements, nothing after."""
    n = 2 * half_count
    rng = np.random.default_rng(seed)
    vals = rng.uniform(-10, 10, 1280).astype(np.float16)
    x = vals.view(np.uint16).tobytes()
    text = (".chip ascend910b\n"
            f'.ub x f16[1280] @{SRC_AT:#x} = bits("{x.hex()}")\n'
            f'.ub y s4[1280] @{DST_AT:#x} = bits("{"5a" * 640}")\n'
            f'.ub z f16[1280] @0x6000 = bits("{"5a" * 2560}")\n'
            f"cast.s4.f16 y, x, count={n}, round={mode}\n"
            f"cast.f16.s4 z, y, count={n}\n")
    ub = _run(text)
    want = _image(x, bytes([FILL]) * 640)
    want[0x6000:0x6000 + 2560] = bytes([FILL]) * 2560
    vconv_s4(want, "s4", DST_AT, SRC_AT, 0, mode, (1, 1, 2, 8), counter=True, count=n)
    vconv_s4(want, "f16", 0x6000, DST_AT, 0, "none", (1, 1, 8, 2), counter=True, count=n)
    assert ub == bytes(want)


# --- the pair rules, at the user's line ------------------------------------------------------
def test_odd_count_is_an_error_at_the_line():
    text = (".chip ascend910b\n.ub x f16[256]\n.ub y s4[256]\n"
            "duplicate.f16 x, 1.0, count=256\n"
            "cast.s4.f16 y, x, count=255, round=rint\n")
    with pytest.raises(SimulationError, match=r":5:\d+: error: vconv.s4.f16 dst y: counter "
                       r"mode count 255 is odd"):
        simulator.run(text)


def test_mask_bits_of_one_byte_must_agree():
    text = (".chip ascend910b\n.ub x f16[256]\n.ub y s4[256]\n"
            "duplicate.f16 x, 1.0, count=256\n"
            "cast.s4.f16 y, x, repeat=1, mask_lo=0b0110, mask_hi=0, round=rint\n")
    with pytest.raises(SimulationError, match=r":5:\d+: error: vconv.s4.f16 dst y: MASK bits 0 "
                       r"and 1 differ"):
        simulator.run(text)


def test_an_odd_element_offset_splits_a_byte():
    text = ".chip ascend910b\n.ub x f16[256]\n.ub y s4[256]\ncast.s4.f16 y[3], x, count=64\n"
    with pytest.raises(AssemblyError, match=r"y\[3\] splits a byte"):
        simulator.run(text)


def test_an_even_offset_is_a_byte_offset_and_alignment_is_checked():
    ok = ".chip ascend910b\n.ub x f16[256]\n.ub y s4[512]\ncast.s4.f16 y[64], x, count=64\n"
    simulator.run(ok)  # element 64 = byte 32: aligned
    bad = ".chip ascend910b\n.ub x f16[256]\n.ub y s4[512]\ncast.s4.f16 y[2], x, count=64\n"
    with pytest.raises(AssemblyError, match="not 32-byte aligned"):
        simulator.run(bad)


def test_footprint_counts_bytes():
    """256 s4 elements are 128 bytes: a cast of 258 leaves the tensor."""
    text = (".chip ascend910b\n.ub x f16[512]\n.ub y s4[256]\n.ub w u8[64]\n"
            "cast.s4.f16 y, x, count=258, round=rint\n")
    with pytest.raises(SimulationError, match="needs 129 bytes, tensor has 128"):
        simulator.run(text)


def test_odd_declaration_and_out_of_range_values():
    with pytest.raises(AssemblyError, match="s4 tensor holds an even number of elements"):
        simulator.run(".chip ascend910b\n.ub y s4[5]\n")
    with pytest.raises(AssemblyError, match=r"8 is out of range for s4 \(-8..7\)"):
        simulator.run(".chip ascend910b\n.ub y s4[2] = [1, 8]\n")


# --- declarations, .npy and DMA ----------------------------------------------------------------
def test_npy_values_out_of_range_are_refused():
    text = ".chip ascend910b\n.gm q s4[4] input\n"
    with pytest.raises(Exception, match="int8"):
        simulator.run(text, inputs={"q": np.array([0, 8, 0, 0], np.int8)})


def test_declaration_packs_and_npy_unpacks(tmp_path):
    np.save(tmp_path / "q.npy", np.array([-8, 7, 1, -1, 0, 3] * 10 + [0] * 4, np.int8))
    text = (".chip ascend910b\n"
            ".gm q s4[64] input\n.gm out s4[64] output\n"
            ".ub y s4[64] = [" + ", ".join(str((k % 16) - 8) for k in range(64)) + "]\n"
            "copy_gm_to_ub y, q, nburst=1, burst=1\n"  # 64 elements = 32 bytes, one block
            "set_flag MTE2, MTE3, 0\nwait_flag MTE2, MTE3, 0\n"
            "copy_ub_to_gm out, y, nburst=1, burst=1\n")
    res = simulator.run(text, inputs={"q": np.load(tmp_path / "q.npy")})
    out = res.outputs["out"]
    assert out.dtype == np.int8 and out.shape == (64,)
    assert out.tolist() == np.load(tmp_path / "q.npy").tolist()
    assert res.ub[0] == 0x78 and res.ub[1] == 0xF1  # −8 low, 7 high; 1 low, −1 high


def test_overlap_is_found_in_bytes():
    """Repeat 0 writes s4 bytes 0x100..0x13f (128 elements, 64 bytes), which repeat 1 reads as
    halves: the across-repeat rule, located in bytes."""
    text = (".chip ascend910b\n.ub x f16[512] = random(1)\n"
            "vconv.s4.f16 @0x100, @0x0, repeat=4, dst_rep=2\n")
    with pytest.raises(SimulationError, match=r"repeat 1 reads byte 0x100, which repeat 0 "
                       r"wrote"):
        simulator.run(text)


def test_a_masked_footprint_is_the_bytes_of_the_enabled_pairs():
    """MASK enables elements 0..63 of each repeat: 32 bytes of the s4 side a repeat, so two
    repeats at dst_rep=1 fill the 64-byte tensor exactly; with every element enabled the second
    repeat's second block (bytes 64..95) leaves it."""
    body = ("vconv.s4.f16 y, x, repeat=2, dst_rep=1\n")
    head = (".chip ascend910b\n.ub x f16[256] = fill(1.0)\n"
            f'.ub y s4[128] = bits("{bytes(range(64)).hex()}")\n')
    ub = bytes(simulator.run(head + "set_vector_mask 0, 0xffffffffffffffff\n" + body).ub)
    assert ub[0x200:0x240] == bytes([0x11]) * 64  # 1 in both halves of every byte
    with pytest.raises(SimulationError, match="needs 96 bytes, tensor has 64"):
        simulator.run(head + body)


def test_ascend950_pairs_saturate_and_widen():
    """The 950 table adds int16_t -> int4b_t and int4b_t -> int16_t / bfloat16_t: −128..127
    saturates to −8..7 (the precision page: 2^15 − 1 → 2^3 − 1), and widens back exactly."""
    text = (".chip ascend950\n"
            ".ub x s16[256] @0x0 = arange(-128, 1)\n.ub q s4[256] @0x200\n"
            ".ub h s16[256] @0x400\n.ub b bf16[256] @0x600\n"
            "cast.s4.s16 q, x, count=256\ncast.s16.s4 h, q, count=256\n"
            "cast.bf16.s4 b, q, count=256\n")
    ub = bytes(simulator.run(text).ub)
    want = np.clip(np.arange(-128, 128), -8, 7)
    assert np.frombuffer(ub[0x400:0x600], np.int16).tolist() == want.tolist()
    bf = np.frombuffer(ub[0x600:0x800], np.uint16).astype(np.uint32) << 16
    assert bf.view(np.float32).tolist() == want.astype(np.float32).tolist()
