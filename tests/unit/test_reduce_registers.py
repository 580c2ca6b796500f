"""The registers the whole-repeat reductions leave (issue 28 item 4): vcmax/vcmin's extreme over
all repeats and its position, vcadd's repeat sums added in order — machine state read by
get_reduce_max_min / get_reduce_sum, AscendC GetReduceRepeatMaxMinSpr / GetReduceMaxMinCount /
GetReduceRepeatSumSpr and the C API's asc_get_reduce_max_cnt / asc_get_reduce_min_cnt; checked
against the independent reference (tests/reference/reduce.py), raw bits."""

from __future__ import annotations

import ctypes

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev
from tests.reference.reduce import registers

SPECIAL = {"f16": [0x7E01, 0xFE00, 0x8000, 0x0000, 0x7C00, 0xFC00, 0x0001],
           "f32": [0x7FC00001, 0xFFC00000, 0x80000000, 0x0, 0x7F800000, 0xFF800000, 0x1]}


@st.composite
def cases(draw):
    t = draw(st.sampled_from(["f16", "f32"]))
    n = 128 if t == "f16" else 64
    repeat = draw(st.integers(1, 5))
    raw = {"f16": np.uint16, "f32": np.uint32}[t]
    # few distinct values: ties across repeats are common; specials now and then
    pool = draw(st.lists(st.floats(-4, 4, width=16).map(float), min_size=1, max_size=4))
    values = np.array(draw(st.lists(st.sampled_from(pool), min_size=repeat * n,
                                    max_size=repeat * n)), {"f16": np.float16,
                                                            "f32": np.float32}[t])
    bits = values.view(raw).copy()
    for _ in range(draw(st.integers(0, 3))):
        bits[draw(st.integers(0, repeat * n - 1))] = draw(st.sampled_from(SPECIAL[t]))
    lo = draw(st.integers(1, (1 << 64) - 1))
    hi = draw(st.integers(0, (1 << 64) - 1)) if t == "f16" else 0
    name = draw(st.sampled_from(["vcmax", "vcmin", "vcadd"]))
    return t, repeat, bits, (hi, lo), name


@settings(max_examples=80, deadline=None)
@given(cases())
def test_registers_match_the_reference(case):
    t, repeat, bits, (hi, lo), name = case
    read = "get_reduce_sum x3" if name == "vcadd" else "get_reduce_max_min x3, x4"
    order = "" if name == "vcadd" else ", order=value_index"
    init = f'bits("{bits.tobytes().hex()}")'
    text = "\n".join([".chip ascend910b", f".ub s {t}[{bits.size}] = {init}", f".ub d {t}[16]",
                      f"    set_vector_mask {hi:#x}, {lo:#x}",
                      f"    {name}.{t} d, s, repeat={repeat}{order}", f"    {read}", ""])
    regs = pipev.run(text).registers
    ub = bytearray(bits.tobytes())
    want = registers(ub, name, t, 0, repeat, (hi, lo))
    assert tuple(regs[3:3 + len(want)]) == want


def test_the_c_api_pages_example_and_stepping_repeat_by_repeat():
    """The page's example: 256 halves 1..256 in 2 repeats → max 256 at index 255; the debugger
    running the instruction one repeat at a time leaves the same registers."""
    text = "\n".join([".chip ascend910b", ".ub s f16[256] = arange(1)", ".ub d f16[4]",
                      "    vcmax.f16 d, s, repeat=2, order=value_index",
                      "    get_reduce_max_min x1, x2", "    vcadd.f16 d, s, repeat=2",
                      "    get_reduce_sum x3", ""])
    regs = pipev.run(text).registers
    assert regs[1] == int(np.float16(256).view(np.uint16)) and regs[2] == 255
    s = np.arange(1, 257, dtype=np.float16)
    ub = bytearray(s.tobytes())
    assert (regs[3],) == registers(ub, "vcadd", "f16", 0, 2, ((1 << 64) - 1, (1 << 64) - 1))
    d = pipev.debug(text)
    machine = d.commands.s.machine
    d.execute("stepr 1")
    assert machine.special["reduce_max_min_index"] == 127
    d.execute("stepr 1")
    assert machine.special["reduce_max_min_index"] == 255
    d.execute("next")
    d.execute("stepr 1")
    d.execute("stepr 1")
    assert machine.special["reduce_sum"] == regs[3]
    d.execute("backr")
    assert machine.special["reduce_sum"] != regs[3]


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
    for (int i = 0; i < 256; i++) a.SetValue(i, float((i * 37) % 101));
    WholeReduceMax(d, a, 64, 4, 1, 1, 8);
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    float val, idx;
    GetReduceMaxMinCount<float>(val, idx);
    d.SetValue(16, val);
    d.SetValue(17, idx);
    WholeReduceSum(d, a, 64, 4, 1, 1, 8);
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    d.SetValue(18, GetReduceRepeatSumSpr<float>());
    WholeReduceMin(d, a, 64, 4, 1, 1, 8);
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    GetReduceRepeatMaxMinSpr<float>(val, idx);
    d.SetValue(19, val);
    d.SetValue(20, idx);
}
__global__ __aicore__ void c_kernel() {
    auto& s = pipev::ubuf_array<half[256]>("s");
    auto& d = pipev::ubuf_array<half[16]>("d");
    auto& out = pipev::ubuf_array<uint32_t[8]>("out");
    for (int i = 0; i < 256; i++) s[i] = half(float(i + 1));
    asc_set_vector_mask(~0ull, ~0ull);
    asc_repeat_reduce_max(d, s, 2, 1, 1, 8, 0);
    half v;
    uint32_t k;
    asc_get_reduce_max_cnt(v, k);
    out[0] = uint32_t(float(v));
    out[1] = k;
    asc_repeat_reduce_min(d, s, 2, 1, 1, 8, 0);
    asc_get_reduce_min_cnt(v, k);
    out[2] = uint32_t(float(v));
    out[3] = k;
}
extern "C" int run_all() {
    kernel<<<1, nullptr, nullptr>>>();
    c_kernel<<<1, nullptr, nullptr>>>();
    return 0;
}
"""


def test_ascendc_and_the_c_api(tmp_path):
    from isa.chip import get_chip
    from simulator.ascendc.bridge import Session
    from simulator.ascendc.build import compile_source

    chip = get_chip("ascend910b")
    src = tmp_path / "spr.cpp"
    src.write_text(CPP)
    build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    (ascendc,), (c_api,) = ([c.result for c in launch.cores] for launch in session.launches)
    assert not ascendc.diagnostics
    a = ((np.arange(256) * 37) % 101).astype(np.float32)
    full = ((1 << 64) - 1, (1 << 64) - 1)
    ub = bytearray(a.tobytes())
    d = ascendc.ub[1024:1024 + 128].view(np.float32)
    vmax, imax = registers(ub, "vcmax", "f32", 0, 4, (0, (1 << 64) - 1))
    assert d[16:17].view(np.uint32)[0] == vmax and d[17:18].view(np.uint32)[0] == imax
    assert d[16] == 100 and d[17:18].view(np.uint32)[0] == int(np.argmax(a))
    assert d[18:19].view(np.uint32)[0] == registers(ub, "vcadd", "f32", 0, 4, full)[0]
    assert d[19] == 0 and d[20:21].view(np.uint32)[0] == int(np.argmin(a))
    out = c_api.ub[512 + 32:512 + 64].view(np.uint32)  # s (512 bytes), d (32), out
    assert out[:4].tolist() == [256, 255, 1, 0]
