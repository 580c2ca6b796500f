"""The reductions (issue 28): vcmax/vcmin/vcadd, vcgmax/vcgmin/vcgadd, vcpadd and their API
statements against the independent reference (tests/reference/reduce.py), raw bytes compared:
random programs with specials (NaN, ±inf, ±0, ties), directed cases for each documented rule,
the checks, timing and the chip rule for fully masked blocks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev
from tests.reference.reduce import ORDERS, reduce

HW = ("vcmax", "vcmin", "vcadd", "vcgmax", "vcgmin", "vcgadd", "vcpadd")
API = {"vcmax": "whole_reduce_max", "vcmin": "whole_reduce_min", "vcadd": "whole_reduce_sum",
       "vcgmax": "block_reduce_max", "vcgmin": "block_reduce_min", "vcgadd": "block_reduce_sum",
       "vcpadd": "pair_reduce_sum"}
NUM = {"f16": np.float16, "f32": np.float32}
SPECIALS = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 1.0, 65504.0, -65504.0]
SRC_ELEMS, DST_ELEMS = 4096, 2048


def unit(name: str, t: str, order: int) -> int:
    """Bytes of one repeat's result (what dst_rep counts)."""
    size = np.dtype(NUM[t]).itemsize
    if name in ("vcmax", "vcmin"):
        return {0: 2 * size, 1: 2 * size, 2: size, 3: 4}[order]
    return {"vcadd": size, "vcpadd": 128}.get(name, 8 * size)


def program(name, t, src_bytes, repeat, mask, strides, order, api, chip="ascend910b"):
    size = np.dtype(NUM[t]).itemsize
    head = API[name] if api else name
    keys = f"repeat={repeat}, stride={','.join(map(str, strides))}"
    if name in ("vcmax", "vcmin"):
        keys += f", order={ORDERS[order]}"
    mask_line = f"    set_vector_mask {mask[0]:#x}, {mask[1]:#x}\n" if not api else ""
    if api:
        keys += f", mask_lo={mask[1]:#x}, mask_hi={mask[0]:#x}"
    return (f".chip {chip}\n.ub s {t}[{SRC_ELEMS}] = bits(\"{src_bytes.hex()}\")\n"
            f".ub d {t}[{DST_ELEMS}] = fill(7)\n{mask_line}    {head}.{t} d, s, {keys}\n",
            DST_ELEMS * size)


def expected(name, t, src_bytes, repeat, mask, strides, order, identity=False) -> bytes:
    size = np.dtype(NUM[t]).itemsize
    ub = bytearray(src_bytes) + bytearray(np.full(DST_ELEMS, 7, NUM[t]).tobytes())
    reduce(ub, name, t, len(src_bytes), 0, repeat, mask, *strides, order=order,
           identity_chip=identity)
    return bytes(ub[len(src_bytes):len(src_bytes) + DST_ELEMS * size])


def run_dst(text: str) -> bytes:
    result = pipev.run(text)
    d = result.program.tensors["d"]
    return result.ub[d.addr:d.addr + d.nbytes].tobytes()


@st.composite
def cases(draw):
    name = draw(st.sampled_from(HW))
    t = draw(st.sampled_from(("f16", "f32")))
    n = 256 // np.dtype(NUM[t]).itemsize
    pool = st.one_of(st.sampled_from(SPECIALS), st.floats(-1e4, 1e4, width=16),
                     st.sampled_from([2.0, 3.0, -2.0]))  # few values: ties
    vals = draw(st.lists(pool, min_size=64, max_size=64))
    src = np.resize(np.array(vals, NUM[t]), SRC_ELEMS)
    src = np.roll(src, draw(st.integers(0, 63)))
    repeat = draw(st.integers(1, 6))
    bits = draw(st.integers(1, (1 << n) - 1))
    mask = (bits >> 64, bits & ((1 << 64) - 1))
    strides = (draw(st.integers(0, 3)), draw(st.integers(0, 2)), draw(st.integers(0, 9)))
    order = draw(st.integers(0, 3))
    return name, t, src.tobytes(), repeat, mask, strides, order, draw(st.booleans())


@settings(max_examples=250, deadline=None, derandomize=True)
@given(cases())
def test_random_reductions_match_the_reference_bit_for_bit(case):
    name, t, src, repeat, mask, strides, order, api = case
    text, _ = program(name, t, src, repeat, mask, strides, order, api)
    assert run_dst(text) == expected(name, t, src, repeat, mask, strides, order), text


def _f32(values) -> bytes:
    return np.resize(np.array(values, np.float32), SRC_ELEMS).tobytes()


def _dst(text: str, t=np.float32) -> np.ndarray:
    return np.frombuffer(run_dst(text), t)


def test_whole_reduce_max_ties_take_the_smallest_index_and_a_nan_wins():
    src = np.zeros(SRC_ELEMS, np.float32)
    src[[5, 9, 40]] = 3.0  # repeat 0: three equal maxima
    src[64 + 7] = np.nan
    src[64 + 3] = np.inf  # repeat 1: NaN beats +inf
    text, _ = program("vcmax", "f32", src.tobytes(), 2, (0, (1 << 64) - 1), (1, 1, 8), 0, True)
    d = _dst(text)
    assert d[0] == 3.0 and d[1:2].view(np.uint32)[0] == 5
    assert np.isnan(d[2]) and d[3:4].view(np.uint32)[0] == 7


def test_whole_reduce_orders_and_the_u32_index_of_only_index_in_f16():
    src = np.zeros(SRC_ELEMS, np.float16)
    src[100] = -5.0
    for order, want in ((0, [-5.0, 100]), (1, [100, -5.0]), (2, [-5.0])):
        text, _ = program("vcmin", "f16", src.tobytes(), 1, (~0 & (1 << 64) - 1, (1 << 64) - 1),
                          (1, 1, 8), order, True)
        d = np.frombuffer(run_dst(text), np.float16)
        got = [float(d[k]) if w == -5.0 else int(d[k:k + 1].view(np.uint16)[0])
               for k, w in enumerate(want)]
        assert got == want, order
    text, _ = program("vcmin", "f16", src.tobytes(), 1, ((1 << 64) - 1, (1 << 64) - 1),
                      (1, 1, 8), 3, True)
    assert np.frombuffer(run_dst(text)[:4], np.uint32)[0] == 100


def test_the_sum_is_the_documented_binary_tree_not_a_sequential_sum():
    """f16: 2048 + 1 + 1 + ... : a sequential sum loses every 1 (2049 rounds to 2048), the tree
    adds the ones first."""
    src = np.zeros(SRC_ELEMS, np.float16)
    src[:128] = 1.0
    src[0] = 2048.0
    text, _ = program("vcadd", "f16", src.tobytes(), 1, ((1 << 64) - 1, (1 << 64) - 1),
                      (1, 1, 8), 0, True)
    tree = float(np.frombuffer(run_dst(text), np.float16)[0])
    seq = np.float16(0)
    for v in src[:128]:
        seq = np.float16(seq + v)
    assert float(seq) == 2048.0 and tree == 2048.0 + 126  # (2048+1) rounds, the rest is exact


def test_f16_sums_overflow_to_inf_in_the_a2_default_mode():
    src = np.zeros(SRC_ELEMS, np.float16)
    src[:4] = [60000, 60000, -30000, 100]  # the vendor's example (65504 in saturation mode)
    text, _ = program("vcgadd", "f16", src.tobytes(), 1, ((1 << 64) - 1, (1 << 64) - 1),
                      (1, 1, 8), 0, True)
    assert np.isinf(np.frombuffer(run_dst(text), np.float16)[0])


@pytest.mark.parametrize(("chip", "identity"), [("ascend910b", False), ("ascend950", True),
                                                ("ascend310b", True)])
def test_a_fully_masked_block_keeps_its_dst_on_a2_and_writes_the_identity_elsewhere(chip,
                                                                                    identity):
    src = np.arange(SRC_ELEMS, dtype=np.float32)
    mask = (0, 0xFF00FF)  # blocks 0 and 2 active, 1 and 3..7 masked out
    for name in ("vcgmax", "vcgmin", "vcgadd", "vcpadd"):
        text, _ = program(name, "f32", src.tobytes(), 2, mask, (1, 1, 8), 0, True, chip)
        assert run_dst(text) == expected(name, "f32", src.tobytes(), 2, mask, (1, 1, 8), 0,
                                         identity), (chip, name)
    got = _dst(program("vcgmax", "f32", src.tobytes(), 1, mask, (1, 1, 8), 0, True, chip)[0])
    assert got[1] == (-np.inf if identity else 7)


def test_dst_alignment_is_one_result_and_dst_rep_counts_results():
    text = (".chip ascend910b\n.ub s f32[128] = arange(0)\n.ub d f32[64]\n"
            "    whole_reduce_sum.f32 d[1], s, repeat=2, mask=64, stride=3,1,8\n"
            "    block_reduce_sum.f32 d[40], s, repeat=1, mask=64, stride=1,1,8\n")
    result = pipev.run(text)
    d = result.program.tensors["d"]
    got = result.ub[d.addr:d.addr + 256].view(np.float32)
    assert got[1] == sum(range(64)) and got[4] == sum(range(64, 128))  # d[1 + 3·1]
    assert got[40:48].tolist() == [sum(range(8 * j, 8 * j + 8)) for j in range(8)]
    with pytest.raises(pipev.AssemblyError, match=r"vcgadd.f32 dst address 0x[0-9a-f]+ is not "
                       "32-byte aligned"):
        pipev.run(text.replace("d[40]", "d[41]").replace("block_reduce_sum", "vcgadd")
                  .replace(", mask=64", ""))
    with pytest.raises(pipev.AssemblyError, match="is not 8-byte aligned"):
        pipev.run(".chip ascend910b\n.ub s f32[64]\n.ub d f32[8]\n"
                  "    whole_reduce_max.f32 d[1], s, repeat=1, mask=64\n")


def test_checks_report_the_packed_footprint_and_timing_comes_from_the_throughput_table():
    text = (".chip ascend910b\n.ub s f32[1024] = random(1)\n.ub d f32[8]\n"
            "    vcmax.f32 d, s, repeat=4\n")
    result = pipev.run(text)
    assert result.pipes["V"] == 4 * 7  # ReduceRepeat f32 64/7 elements a cycle: 7 a repeat
    with pytest.raises(pipev.SimulationError) as e:
        pipev.run(text.replace("repeat=4", "repeat=5"))
    assert "vcmax.f32 dst d needs 40 bytes, tensor has 32 (repeat 4" in str(e.value)
    f16 = pipev.run(".chip ascend910b\n.ub s f16[1024] = random(1)\n.ub d f16[64]\n"
                    "    vcgadd.f16 d, s, repeat=3\n    vcpadd.f16 d, s, repeat=1\n")
    assert f16.pipes["V"] == 3 * 7 + 3  # ReduceDataBlock f16 7 a repeat; ReducePairElem min 3


def test_the_api_takes_repeat_only_and_ascend910_types():
    with pytest.raises(pipev.AssemblyError, match="takes repeat="):
        pipev.run(".chip ascend910b\n.ub s f32[64]\n.ub d f32[8]\n"
                  "    whole_reduce_sum.f32 d, s, mask=64\n")
    with pytest.raises(pipev.AssemblyError, match="vcadd.s32 is not supported"):
        pipev.run(".chip ascend910b\n.ub s s32[64]\n.ub d s32[8]\n    vcadd.s32 d, s\n")
