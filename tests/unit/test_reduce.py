"""The reductions (issue 28): vcmax/vcmin/vcadd, vcgmax/vcgmin/vcgadd, vcpadd and their API
statements against the independent reference (tests/reference/reduce.py), raw bytes compared:
random programs with specials (NaN, ±inf, ±0, ties), directed cases for each documented rule,
the checks, timing and the chip rule for fully masked blocks."""

from __future__ import annotations

from pathlib import Path

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


# -- the front ends: AscendC C++, the C API and TIK issue the same API statements ------------
ROW = (np.arange(256) % 64 - 3 * (np.arange(256) // 64)).astype(np.float32)  # repeat i: k - 3i
CPP = """\
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;
__global__ __aicore__ void kernel() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    auto a = buf.Get<float>();
    auto d = a[256];
    auto w = a[512];
    for (int i = 0; i < 256; i++) a.SetValue(i, float(i % 64 - 3 * (i / 64)));
    Duplicate(d, 0.0f, 64);
    WholeReduceMax(d, a, 10, 4, 1, 1, 8);
    WholeReduceMin(d[8], a, 64, 2, 1, 1, 16, ReduceOrder::ORDER_ONLY_VALUE);
    WholeReduceSum(d[16], a, 64, 4, 1, 1, 8);
    BlockReduceSum(d[24], a, 1, 64, 1, 1, 8);
    PairReduceSum(d[32], a, 1, 64, 1, 1, 8);
    ReduceMax(d[64], a, w, 256, true);  // calIndex: rounds, then the scalar walk back
    ReduceMin(d[66], a, w, 64, 4, 8, true);
    ReduceSum(d[68], a, w, 200);
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    d.SetValue(69, GetReduceRepeatSumSpr<float>());
}
__global__ __aicore__ void c_kernel() {
    auto& a = pipev::ubuf_array<float[256]>("a");
    auto& d = pipev::ubuf_array<float[64]>("d");
    for (int i = 0; i < 256; i++) a[i] = float(i % 64 - 3 * (i / 64));
    asc_set_vector_mask(0, 0xffffffffffffffffull);
    asc_repeat_reduce_max(d, a, 2, 1, 1, 8, 3);
    asc_datablock_reduce_min(d + 8, a, 1, 1, 1, 8);
    asc_pair_reduce_sum(d + 16, a, 1, 1, 1, 8);
}
extern "C" int run_all() {
    kernel<<<1, nullptr, nullptr>>>();
    c_kernel<<<1, nullptr, nullptr>>>();
    return 0;
}
"""


def test_from_ascendc_and_the_c_api(tmp_path):
    from isa.chip import get_chip
    from simulator.ascendc.bridge import Session
    from simulator.ascendc.build import compile_source

    chip = get_chip("ascend910b")
    src = tmp_path / "reduce.cpp"
    src.write_text(CPP)
    build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp_path)})
    import ctypes
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    (ascendc,), (c_api,) = ([c.result for c in launch.cores] for launch in session.launches)
    d = ascendc.ub[1024:1024 + 256].view(np.float32)
    rows = ROW.reshape(4, 64)
    assert d[0:8:2].tolist() == rows[:, :10].max(axis=1).tolist()  # mask 10: value, index
    assert d[1:8:2].view(np.uint32).tolist() == [9, 9, 9, 9]
    assert d[8:10].tolist() == [rows[0].min(), rows[2].min()]  # src_rep 16: repeats 0 and 2
    assert d[16:20].tolist() == rows.sum(axis=1).tolist()  # small integers: exact in any order
    assert d[24:32].tolist() == rows[0].reshape(8, 8).sum(axis=1).tolist()
    assert d[32:64].tolist() == rows[0].reshape(32, 2).sum(axis=1).tolist()
    more = ascendc.ub[1024 + 256:1024 + 256 + 24].view(np.float32)
    assert more[0] == 63 and more[1:2].view(np.uint32)[0] == 63  # the first of the maxima
    assert more[2] == -9 and more[3:4].view(np.uint32)[0] == 192  # repeat 3's first element
    assert more[4] == more[5] == ROW[:200].sum()  # small integers: exact; the register's copy
    got = c_api.ub[1024:1024 + 256].view(np.float32)  # d follows a (1024 bytes)
    assert got[:2].view(np.uint32).tolist() == [63, 63]  # order 3: the index alone, a u32
    assert got[8:16].tolist() == rows[0].reshape(8, 8).min(axis=1).tolist()
    assert got[16:48].tolist() == rows[0].reshape(32, 2).sum(axis=1).tolist()
    assert not ascendc.diagnostics and ascendc.pipes["V"] > 0


TIK_KERNEL = Path(__file__).resolve().parents[1] / "data" / "tik" / "reductions.py"


def _mask(n: int) -> tuple[int, int]:
    bits = (1 << n) - 1
    return bits >> 64, bits & ((1 << 64) - 1)


def test_from_tik(monkeypatch):
    """tests/data/tik/reductions.py: each call against the reference, byte for byte."""
    import runpy
    import sys

    from simulator.tik import SHIM
    from simulator.tik import tik as tik_module
    from tests.reference.reduce import reduce_all

    monkeypatch.syspath_prepend(SHIM)
    monkeypatch.setitem(tik_module.SETTINGS, "chip", "ascend910b")
    try:
        tik = runpy.run_path(str(TIK_KERNEL))["tik_instance"]
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    src = np.random.default_rng(5).uniform(-50, 50, 512).astype(np.float32)
    src[[7, 9, 200]] = src[3]  # ties
    src[300] = np.nan
    result = pipev.run(tik.program, inputs={"src": src})
    ub = bytearray(src.tobytes()) + bytearray(1024)
    calls = [("vcmax", 0, 8, _mask(64), (1, 1, 8)),
             ("vcmin", 16, 4, (0, 0xFF00FF00FF00FF00), (1, 1, 16)),
             ("vcadd", 24, 8, _mask(40), (1, 1, 8)),
             ("vcgmax", 32, 2, _mask(64), (1, 1, 8)),
             ("vcgmin", 48, 2, (0, 0x00FF00FF00FF00FF), (1, 1, 8)),
             ("vcgadd", 64, 2, _mask(64), (2, 1, 8)),
             ("vcpadd", 96, 2, _mask(64), (1, 1, 8))]
    for name, at, repeat, mask, strides in calls:
        reduce(ub, name, "f32", 2048 + 4 * at, 0, repeat, mask, *strides)
    rows = src.reshape(8, 64)
    for name, at, rs, lanes in (("reduce_max", 160, rows, 64), ("reduce_min", 168, rows[::2], 32),
                                ("reduce_sum", 176, rows, 64)):
        act = [[k < lanes for k in range(64)]] * len(rs)
        ub[2048 + 4 * at:2052 + 4 * at] = np.float32(reduce_all(  # vec_reduce_add: A2's runs
            [list(r) for r in rs[:8 if name != "reduce_min" else 4]], act, name, "f32",
            runs=name == "reduce_sum")).tobytes()
    assert result.outputs["out"].tobytes() == bytes(ub[2048:])
    assert not result.diagnostics


def test_the_debugger_steps_a_reduction_repeat_by_repeat_and_undoes_it():
    text = (".chip ascend910b\n.ub s f32[256] = arange(0)\n.ub d f32[16]\n"
            "    vcmax.f32 d, s, repeat=4, stride=2,1,8, order=only_value\n"
            "    vcadd.f32 d[1], s, repeat=2\n")
    d = pipev.debug(text)
    before = d.execute("print d[0:8]")
    d.execute("stepr 2")  # two repeats: results 0 and 1, two results apart (dst_rep 2)
    assert d.execute("print d[0:8]") == [
        f"d[0:8] = {np.array([63, 0, 127, 0, 0, 0, 0, 0], np.float32)}"]
    d.execute("backr")
    assert d.execute("print d[0:4]") == [f"d[0:4] = {np.array([63, 0, 0, 0], np.float32)}"]
    d.execute("step 2")  # the rest of vcmax, then vcadd over d[1:3] (127 overwritten)
    sums = [sum(range(64)), sum(range(64, 128))]
    assert d.execute("print d[0:8]") == [
        f"d[0:8] = {np.array([63, sums[0], sums[1], 0, 191, 0, 255, 0], np.float32)}"]
    d.execute("back")
    d.execute("back")
    assert d.execute("print d[0:8]") == before


def test_traces_show_one_result_a_repeat(tmp_path):
    import json

    text = (".chip ascend910b\n.ub s f32[256] = arange(0)\n.ub d f32[16]\n"
            "    vcgadd.f32 d, s, repeat=2\n")
    result = pipev.run(text, trace=tmp_path / "t.jsonl")
    events = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
    d = result.program.tensors["d"].addr
    assert [e["addr"]["dst"] for e in events if e.get("ev") == "repeat"] == [[d], [d + 32]]


def test_a_result_may_overwrite_its_own_repeat_but_not_a_later_one():
    """In place (WholeReduceSum(x, x, …)): repeat i reads its 64 elements, then writes x[i];
    repeat i's result may not land where a later repeat reads (repeat 0's at x[64] is read by
    repeat 1)."""
    text = ".chip ascend910b\n.ub x f32[256] = arange(0)\n    vcadd.f32 x, x, repeat=4\n"
    result = pipev.run(text)
    got = result.ub[:16].view(np.float32)[:4].tolist()
    assert got == [sum(range(64 * i, 64 * i + 64)) for i in range(4)]
    assert not result.diagnostics
    with pytest.raises(pipev.SimulationError, match="overlap across repeats: repeat 1 reads"):
        pipev.run(text.replace("x, x, repeat=4", "x[64], x, repeat=2"))


# -- the composites: ReduceMax / ReduceMin / ReduceSum ----------------------------------------
COMPOSITE = {"reduce_max": "vcmax", "reduce_min": "vcmin", "reduce_sum": "vcadd"}


@st.composite
def composites(draw):
    name = draw(st.sampled_from(sorted(COMPOSITE)))
    t = draw(st.sampled_from(("f16", "f32")))
    n = 256 // np.dtype(NUM[t]).itemsize
    pool = st.one_of(st.sampled_from(SPECIALS), st.floats(-1e3, 1e3, width=16))
    vals = np.array(draw(st.lists(pool, min_size=97, max_size=97)), NUM[t])
    src = np.resize(vals, 255 * n)
    if draw(st.booleans()):
        count = draw(st.integers(1, 200 * n))
        repeats = -(-count // n)
        rows = [src[i * n:(i + 1) * n].tolist() for i in range(repeats)]
        act = [[i * n + k < count for k in range(n)] for i in range(repeats)]
        form = f"count={count}"
    else:
        repeats = draw(st.integers(1, 200))
        bits = draw(st.integers(1, (1 << n) - 1))
        src_rep = draw(st.sampled_from((8, 16)))
        if src_rep == 16:
            repeats = min(repeats, 127)
        rows = [src[i * src_rep * 8 * 4 // np.dtype(NUM[t]).itemsize:][:n].tolist()
                for i in range(repeats)]
        act = [[bool(bits >> k & 1) for k in range(n)]] * repeats
        form = f"repeats={repeats}, mask_hi={bits >> 64:#x}, mask_lo={bits & ((1 << 64) - 1):#x}" \
            f", stride={src_rep}"
    return name, t, src, form, rows, act, draw(st.sampled_from(("ascend910b", "ascend910")))


@settings(max_examples=120, deadline=None, derandomize=True)
@given(composites())
def test_random_composite_reductions_match_the_reference(case):
    from tests.reference.reduce import reduce_all

    name, t, src, form, rows, act, chip = case
    text = (f".chip {chip}\n.ub s {t}[{src.size}] = bits(\"{src.tobytes().hex()}\")\n"
            f".ub w {t}[512]\n.ub d {t}[16] = fill(7)\n    {name}.{t} d, s, w, {form}\n")
    sequential = chip == "ascend910b" and form.startswith("count")
    want = reduce_all([[NUM[t](v) for v in r] for r in rows], act, name, t, sequential)
    assert run_dst(text)[:np.dtype(NUM[t]).itemsize] == np.asarray(want, NUM[t]).tobytes(), form


def test_reduce_sum_first_n_adds_the_repeat_sums_in_order_on_a2():
    """Repeat sums 2048, 1, 1, …: in order each + 1 rounds away (f16: 2049 → 2048); by trees
    (ascend910, and every chip's repeats= form) the ones are added first."""
    src = np.zeros(128 * 9, np.float16)
    src[0] = 2048
    src[128::128] = 1
    text = (f".chip CHIP\n.ub s f16[{src.size}] = bits(\"{src.tobytes().hex()}\")\n"
            ".ub w f16[32]\n.ub d f16[16]\n    reduce_sum.f16 d, s, w, FORM\n")
    got = {(chip, form): float(np.frombuffer(run_dst(text.replace("CHIP", chip)
                                                     .replace("FORM", form))[:2], np.float16)[0])
           for chip in ("ascend910b", "ascend910") for form in ("count=1152", "repeats=9")}
    assert got == {("ascend910b", "count=1152"): 2048, ("ascend910", "count=1152"): 2056,
                   ("ascend910b", "repeats=9"): 2056, ("ascend910", "repeats=9"): 2056}


def test_the_work_tensor_size_rule():
    text = (".chip ascend910b\n.ub s f32[16384]\n.ub w f32[WORK]\n.ub d f32[8]\n"
            "    reduce_max.f32 d, s, w, count=16384\n")
    pipev.assemble(text.replace("WORK", "512"))  # 256 repeats: 512 results, whole blocks
    with pytest.raises(pipev.AssemblyError, match=r"<string>:5:26: error: reduce_max.f32 work w "
                       r"has 504 elements from w, needs 512 \(256 repeats: 2 results a repeat"):
        pipev.assemble(text.replace("WORK", "504"))
    pipev.assemble(text.replace("WORK", "256").replace("reduce_max", "reduce_sum"))
    # calIndex (index=1) runs in the statement now, given two scalar registers for its walk
    with pytest.raises(pipev.AssemblyError, match="name two scalar registers it may use"):
        pipev.assemble(text.replace("WORK", "512").replace("16384\n", "16384, index=1\n"))


@pytest.mark.parametrize("repeats", [2, 9, 255, 256, 300, 511])
@pytest.mark.parametrize("chip", ["ascend910b", "ascend910"])
def test_tik_vec_reduce_add_order_is_its_pages(repeats, chip):
    """h28: `runs=1` (TIK vec_reduce_add) on A2/A3 adds the repeat sums in order within each run
    of 255 and the runs' sums by a tree (the TIK page's A2 paragraph); other chips keep the
    trees. Large and small repeat sums make the order visible in f16."""
    from tests.reference.reduce import reduce_all

    rng = np.random.default_rng(repeats)
    rows = rng.uniform(-1, 1, (repeats, 128)).astype(np.float16)
    rows[::7] *= np.float16(8)
    text = (f".chip {chip}\n.ub s f16[{rows.size}] = bits(\"{rows.tobytes().hex()}\")\n"
            f".ub w f16[{-(-repeats // 16) * 16}]\n.ub d f16[16] = fill(7)\n"
            f"    reduce_sum.f16 d, s, w, repeats={repeats}, mask=128, runs=1\n")
    act = [[True] * 128] * repeats
    want = reduce_all([list(r) for r in rows], act, "reduce_sum", "f16",
                      runs=chip == "ascend910b")
    assert run_dst(text)[:2] == np.float16(want).tobytes()


def test_tik_vec_reduce_add_on_a2_adds_in_order():
    """Repeat sums 2048, 1, 1, …: in order (A2's vec_reduce_add) each + 1 rounds away in f16,
    by trees (ascend910's) the ones are added first."""
    src = np.zeros(128 * 9, np.float16)
    src[0] = 2048
    src[128::128] = 1
    for chip, want in (("ascend910b", 2048), ("ascend910", 2056)):
        text = (f".chip {chip}\n.ub s f16[{src.size}] = bits(\"{src.tobytes().hex()}\")\n"
                ".ub w f16[16]\n.ub d f16[16] = fill(7)\n"
                "    reduce_sum.f16 d, s, w, repeats=9, mask=128, runs=1\n")
        assert run_dst(text)[:2] == np.float16(want).tobytes(), chip


def test_runs_is_reduce_sums_repeats_form_only():
    base = ".chip ascend910b\n.ub s f32[512]\n.ub w f32[64]\n.ub d f32[8]\n"
    with pytest.raises(pipev.AssemblyError, match="runs=1 is vec_reduce_add's order"):
        pipev.run(base + "    reduce_max.f32 d, s, w, repeats=8, mask=64, runs=1\n")
    with pytest.raises(pipev.AssemblyError, match="runs=1 is vec_reduce_add's order"):
        pipev.run(base + "    reduce_sum.f32 d, s, w, count=100, runs=1\n")
