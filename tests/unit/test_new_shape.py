"""Issue 26's promise: an instruction family of a new shape is data. This file alone adds a
per-repeat reduction — `vrmax.T dst, src, repeat=R`: dst element i is the largest active element
of src's repeat i, one element a repeat written back to back — with its family record, its one
semantics body, its API statement (`rmax.T dst, src, count=N` or `repeat=` and a mask) and one
binding row per language, and runs it from `.vasm`, AscendC C++ and TIK with the checks, timing,
traces and the debugger."""

from __future__ import annotations

import ctypes
import json
import os
import runpy
import sys

import numpy as np
import pytest

import pipev
from isa.chip import get_chip
from isa.families import VECTOR, Family, api
from isa.listing import listing
from isa.table import InstrDef, StrideLayout
from simulator.ascendc.bridge import Session
from simulator.ascendc.build import compile_source
from simulator.bindings import ROWS, Binding
from simulator.semantics.common import load, numeric, store
from simulator.stream import Stream
from simulator.tik import SHIM
from simulator.tik import tik as tik_module

# -- the new shape, all of it ------------------------------------------------------------------
# dst is one element a repeat, back to back (no strides of its own); src is a full vector
# operand with the unary block and repeat strides; timed as pipev's unary family
RMAX = Family("rmax", VECTOR, "V", "unary", packed=(("dst", 1),))
LAYOUT = StrideLayout("reduce", ("src_blk", "src_rep"), (1, 8))


def rmax(m, vop, scalar, lo, hi):
    """Repeats [lo, hi): the largest active element of each (numpy's max: a NaN wins); a repeat
    with no active element writes the type's lowest value (-inf for floats)."""
    src = numeric(load(m, vop, vop.access("src"), lo, hi), vop)
    t = vop.t.numeric
    lowest = -np.inf if vop.t.kind == "float" else np.iinfo(t).min
    picked = np.where(vop.active[lo:hi], src, lowest)
    store(m, vop, vop.access("dst"), picked.max(axis=1, keepdims=True).astype(t), lo, hi)


ISA = pipev.instruction_set().extended(
    InstrDef("vrmax", (("dst", "vec"), ("src", "vec")), RMAX, typed=True, types="arith",
             strides=LAYOUT, keys=("repeat",), doc="dst[i] = max of src repeat i's active "
             "elements"),
    InstrDef("rmax", (("dst", "vec"), ("src", "vec")), api("api_unary"), level="api",
             typed=True, types="arith", strides=LAYOUT,
             keys=("count", "repeat", "mask", "mask_lo", "mask_hi"), hw="vrmax",
             doc="ReduceMax per repeat → vrmax"),
    vector={"rmax": rmax})

# one binding row per language: each call's parameters as data
FIRST_N, HIGH_DIM = ("dst", "src", "count"), ("dst", "src", "mask", "repeat", "src_blk", "src_rep")
BINDINGS = (Binding("ascendc", "ReduceMaxEach", "rmax", params=(FIRST_N, HIGH_DIM)),
            Binding("c_api", "asc_reduce_max_each", "rmax",
                    params=(FIRST_N, ("dst", "src", "repeat", "src_blk", "src_rep"))),
            Binding("tik", "vec_reduce_max_each", "rmax",
                    params=(("mask", "dst", "src", "repeat", "src_rep"),)))


def data(n: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-100, 100, n).astype(np.float32)


def expected(a: np.ndarray, repeats: int, active: int = 64) -> list[float]:
    return a.reshape(-1, 64)[:repeats, :active].max(axis=1).tolist()


VASM = """\
.chip ascend910b
.ub a f32[256] = random(1)
.ub d f32[24]
    vrmax.f32 d, a, repeat=4
    rmax.f32 d[8], a[64], repeat=2, mask=10
    rmax.f32 d[16], a, count=130
"""


def test_from_vasm_with_timing_traces_and_the_listing(tmp_path):
    result = pipev.run(VASM, trace=tmp_path / "t.jsonl", isa=ISA)
    a = data(256)
    d = result.program.tensors["d"]
    got = result.ub[d.addr:d.addr + 96].view(np.float32).tolist()
    assert got[:4] == expected(a, 4)
    assert got[8:10] == expected(a[64:], 2, 10)
    assert got[16:19] == expected(a, 2) + [a[128:130].max()]  # the counter-mode tail repeat
    assert got[4:8] + got[10:16] + got[19:] == [0.0] * 15  # nothing else written
    assert result.pipes["V"] > 0 and result.cycles > 0  # timed as the unary cost class
    events = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
    heads = [e["text"].split()[0] for e in events if e.get("ev") == "instr"]
    assert heads.count("vrmax.f32") == 3
    rows = listing(result.program)
    assert [len(h["uops"]) for s in rows for h in s["hw"] if h["text"].startswith("vrmax")] \
        == [4, 2, 3]
    trace = tmp_path / "t.json"
    chrome = pipev.run(VASM, trace=trace, isa=ISA)
    assert chrome.cycles == result.cycles
    assert sum(e.get("name", "").startswith("vrmax.f32") for e in json.loads(
        trace.read_text())["traceEvents"]) >= 3
    repeats = [e["addr"]["dst"] for e in events if e.get("ev") == "repeat"]
    assert repeats[:6] == [[d.addr]] * 4 + [[d.addr + 32]] * 2  # one element a repeat
    plain = pipev.run(VASM, isa=ISA)  # no trace: the fast loop, the same bytes and cycles
    assert plain.ub.tobytes() == result.ub.tobytes() and plain.cycles == result.cycles


def test_the_api_statement_chunks_on_ascend910_moving_dst_by_its_own_elements():
    """No counter mode: count=517 is eight whole repeats, then a repeat of five elements whose
    dst is eight elements on (src: eight repeats on)."""
    text = ".chip ascend910\n.ub a f32[576] = random(1)\n.ub d f32[16]\n" \
        "    rmax.f32 d, a, count=517\n"
    result = pipev.run(text, isa=ISA)
    a, d = data(576), result.program.tensors["d"]
    hw = [i.text for i in result.program.statements[0].hw if i.text.startswith("vrmax")]
    assert hw == ["vrmax.f32 d, a, repeat=8", "vrmax.f32 d[8], a[512], repeat=1"]
    got = result.ub[d.addr:d.addr + 64].view(np.float32).tolist()
    assert got[:9] == expected(a, 8) + [a[512:517].max()] and got[9:] == [0] * 7


def test_the_debugger_steps_over_it_prints_its_dst_and_undoes_it():
    d = pipev.debug(VASM, isa=ISA)
    before = d.execute("print d[0:4]")
    assert before == [f"d[0:4] = {np.zeros(4, np.float32)}"]
    assert d.execute("step")[0].endswith("rmax.f32 d[8], a[64], repeat=2, mask=10")  # next
    want = np.array(expected(data(256), 4), np.float32)
    assert d.execute("print d[0:4]") == [f"d[0:4] = {want}"]
    d.execute("back")
    assert d.execute("print d[0:4]") == before
    d.execute("stepr 3")  # three of its repeats: three of its elements
    assert d.execute("print d[0:4]") == [f"d[0:4] = {np.array([*want[:3], 0], np.float32)}"]
    d.execute("backr")
    assert d.execute("print d[0:4]") == [f"d[0:4] = {np.array([*want[:2], 0, 0], np.float32)}"]
    d.execute("step 3")  # the rest of vrmax, then rmax d[8]: set_vector_mask and vrmax
    masked = np.array(expected(data(256)[64:], 2, 10), np.float32)
    assert d.execute("print d[8:10]") == [f"d[8:10] = {masked}"]
    d.execute("back")
    assert d.execute("print d[8:10]") == [f"d[8:10] = {np.zeros(2, np.float32)}"]


CHECKS = """\
.chip ascend910b
.gm out f32[8] output
.ub a f32[256] = random(1)
.ub b f32[64]
.ub d f32[8]
    vrmax.f32 d, b, repeat=1
    copy_ub_to_gm out, d, burst=1
"""


def test_the_checks_see_its_one_element_a_repeat():
    """An uninitialised source; a race on its dst, of which it wrote one element (the next is
    still uninitialised); a dst past its tensor (repeat 8 writes element 8 of 8) and a
    misaligned one: each at the user's line and column."""
    warnings = [str(d) for d in pipev.run(CHECKS, isa=ISA).diagnostics]
    d = pipev.assemble(CHECKS, table=ISA).tensors["d"].addr
    assert [w.split(" (")[0].split(",")[0] for w in warnings] == [
        "<string>:6:18: warning: vrmax.f32 src b reads byte 0x400",
        f"<string>:7:24: warning: race: copy_ub_to_gm on MTE3 reads src d byte {d:#x}",
        f"<string>:7:24: warning: copy_ub_to_gm src d reads byte {d + 4:#x}"]
    with pytest.raises(pipev.SimulationError) as e:
        pipev.run(CHECKS + "    vrmax.f32 d, a, repeat=12\n", isa=ISA)
    assert str(e.value.diagnostics[-1]) == "<string>:8:15: error: vrmax.f32 dst d needs 48 " \
        "bytes, tensor has 32 (repeat 8, block 0)"
    with pytest.raises(pipev.AssemblyError, match=r"<string>:8:15: error: vrmax.f32 dst "
                       "address 0x[0-9a-f]+ is not 32-byte aligned"):
        pipev.run(CHECKS + "    vrmax.f32 d[1], a, repeat=1\n", isa=ISA)
    with pytest.raises(pipev.SimulationError, match=r"<string>:9:15: error: vrmax.f32 dst "
                       r"address 0x[0-9a-f]+ \(x1 = 0x[0-9a-f]+\) is not 32-byte aligned"):
        pipev.run(CHECKS + f"    li x1, {d + 4}\n    vrmax.f32 @x1, a, repeat=1\n", isa=ISA)


# -- the front ends ------------------------------------------------------------------------------
# src element k of repeat i is k - 3i: repeat i's largest is 63 - 3i, its first ten's 9 - 3i
SRC = (np.arange(256) % 64 - 3 * (np.arange(256) // 64)).astype(np.float32)
CPP = """\
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;
__global__ __aicore__ void kernel() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    auto a = buf.Get<float>();
    auto d = a[256];
    for (int i = 0; i < 256; i++) a.SetValue(i, float(i % 64 - 3 * (i / 64)));
    Duplicate(d, 0.0f, 64);
    ReduceMaxEach(d, a, 4, 4, 1, 8);
    ReduceMaxEach(d[8], a, 130);
}
__global__ __aicore__ void c_kernel() {
    auto& a = pipev::ubuf_array<float[256]>("a");
    auto& d = pipev::ubuf_array<float[64]>("d");
    for (int i = 0; i < 256; i++) a[i] = float(i % 64 - 3 * (i / 64));
    asc_reduce_max_each(d, a, 130);
    asc_reduce_max_each(d + 8, a, 2, 1, 16);
}
extern "C" int run_all() {
    kernel<<<1, nullptr, nullptr>>>();
    c_kernel<<<1, nullptr, nullptr>>>();
    return 0;
}
"""


def test_from_cpp_and_the_c_api(tmp_path):
    """The rows reach C++ through the header the build generates: no header is edited."""
    chip = get_chip("ascend910b")
    src = tmp_path / "rmax.cpp"
    src.write_text(CPP)
    streams: list[Stream] = []

    def factory(*args, **kwargs):
        streams.append(Stream(*args, **kwargs, isa=ISA))
        return streams[-1]

    with ROWS.added(*BINDINGS):
        build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src), stream_factory=factory)
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    issued = [[x.strip() for x in s.vasm_text().splitlines() if x.startswith("    rmax")]
              for s in streams]  # API statements, registers replaced by their values
    assert issued == [["rmax.f32 tbuf0[(256)], tbuf0[(0)], mask=(4), repeat=(4), src_blk=1, "
                       "src_rep=8", "rmax.f32 tbuf0[(264)], tbuf0[(0)], count=(130)"],
                      ["rmax.f32 d[(0)], a[(0)], count=(130)",
                       "rmax.f32 d[(8)], a[(0)], repeat=(2), src_blk=1, src_rep=16"]]
    (ascendc,), (c_api,) = ([c.result for c in launch.cores] for launch in session.launches)
    d = ascendc.ub[1024:1024 + 64].view(np.float32).tolist()
    assert d[:4] == [3, 0, -3, -6]  # mask 4: each repeat's first four
    assert d[8:11] == [63, 60, -5]  # count=130: two repeats and two elements
    assert d[4:8] + d[11:] == [0] * 9
    d = c_api.ub[1024:1024 + 64].view(np.float32).tolist()
    assert d[:3] == [63, 60, -5] and d[8:10] == [63, 57]  # repeat stride 16: repeats 0 and 2
    assert ascendc.cycles > 0 and c_api.cycles > 0
    assert not ascendc.diagnostics


TIK = """\
from tbe import tik
tik_instance = tik.Tik()
src = tik_instance.Tensor("float32", (256,), name="src", scope=tik.scope_gm)
out = tik_instance.Tensor("float32", (8,), name="out", scope=tik.scope_gm)
a = tik_instance.Tensor("float32", (256,), name="a", scope=tik.scope_ubuf)
d = tik_instance.Tensor("float32", (8,), name="d", scope=tik.scope_ubuf)
tik_instance.data_move(a, src, 0, 1, 32, 0, 0)
tik_instance.vec_dup(8, d, 0.0, 1, 8)
tik_instance.vec_reduce_max_each(10, d, a, 2, 16)
tik_instance.data_move(out, d, 0, 1, 1, 0, 0)
tik_instance.BuildCCE(kernel_name="k", inputs=[src], outputs=[out])
"""


def test_from_tik(tmp_path, monkeypatch):
    path = tmp_path / "rmax_tik.py"
    path.write_text(TIK)
    monkeypatch.syspath_prepend(SHIM)
    monkeypatch.setitem(tik_module.SETTINGS, "chip", "ascend910b")
    monkeypatch.setitem(tik_module.SETTINGS, "isa", ISA)
    try:
        with ROWS.added(*BINDINGS):
            tik = runpy.run_path(str(path))["tik_instance"]
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    assert [i.text for s in tik.program.statements for i in s.hw
            if i.text.startswith("vrmax")] == ["vrmax.f32 d[0], a[0], repeat=2, stride=1,16"]
    result = pipev.run(tik.program, inputs={"src": SRC}, trace=tmp_path / "t.jsonl")
    assert result.outputs["out"].tolist() == [9, 3, 0, 0, 0, 0, 0, 0]  # repeats 0 and 2
    assert result.pipes["V"] > 0 and not result.diagnostics
    assert "vrmax.f32" in (tmp_path / "t.jsonl").read_text()


def test_pipev_run_takes_the_instruction_set_for_a_tik_script(tmp_path, monkeypatch):
    """`pipev run --isa FILE:NAME SCRIPT.py`: the kernel is recorded with that set."""
    from click.testing import CliRunner

    from simulator.cli import main

    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(tik_module, "SETTINGS", dict(tik_module.SETTINGS))
    for var in ("PYTHONPATH", "PIPEV_CHIP", "PIPEV_CHECKS"):
        monkeypatch.setenv(var, os.environ.get(var, ""))
    script = tmp_path / "k.py"
    script.write_text(TIK.replace("tik_instance.data_move(a, src, 0, 1, 32, 0, 0)",
                                  "tik_instance.vec_dup(64, a, 1.5, 4, 8)")
                      .replace("inputs=[src]", "inputs=[]"))
    try:
        with ROWS.added(*BINDINGS):
            result = CliRunner().invoke(main, ["run", "--isa", f"{__file__}:ISA", str(script),
                                               "--chip", "ascend910b", "--output-dir",
                                               str(tmp_path)])
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    assert result.exit_code == 0, result.output
    assert np.load(tmp_path / "out.npy").tolist() == [1.5, 1.5] + [0] * 6
