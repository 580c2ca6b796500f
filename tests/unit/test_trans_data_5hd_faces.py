"""TransDataTo5HD's address registers (issue 28): `set_va` and `vnchwconv_va` in .vasm against the
reference (tests/reference/layout.py), raw bytes, with their checks; AscendC's three list forms
and the C API's asc_set_va_reg / asc_transto5hd in a C++ kernel; TIK's vec_trans_scatter."""

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
from tests.reference.layout import trans_data_5hd

DATA = Path(__file__).parent.parent / "data"
SIZES = {"u8": 1, "s8": 1, "f16": 2, "u16": 2, "s16": 2, "f32": 4, "u32": 4, "s32": 4}
SRC, DST, AREA = 0x0, 0x4000, 0x4000


def set_va_lines(dst_list: list[int], src_list: list[int], d: int = 0, s: int = 2) -> list[str]:
    """Four set_va statements: dst's 16 addresses in VA d, d+1 and src's in VA s, s+1, written
    as raw addresses and as elements of the tensors that hold them, alternately."""
    def operand(a: int, k: int) -> str:
        if k % 2:
            return f"@{a:#x}"
        return f"raw[{a - SRC}]" if a < DST else f"out[{a - DST}]"
    lines = []
    for va, values in ((d, dst_list[:8]), (d + 1, dst_list[8:]), (s, src_list[:8]),
                       (s + 1, src_list[8:])):
        lines.append(f"    set_va va{va}, " + ", ".join(operand(a, k)
                                                         for k, a in enumerate(values)))
    return lines


def run(t, seed, dst_list, src_list, keys, d=0, s=2):
    raw = np.random.default_rng(seed).integers(0, 256, AREA, dtype=np.uint8)
    text = "\n".join([
        ".chip ascend910b",
        f'.ub raw u8[{AREA}] @{SRC:#x} = bits("{raw.tobytes().hex()}")',
        f".ub out u8[{AREA}] @{DST:#x} = zeros",
        *set_va_lines(dst_list, src_list, d, s),
        f"    vnchwconv_va.{t} va{d}, va{s}, {keys}", ""])
    ub = bytearray(DST + AREA)
    ub[SRC:SRC + AREA] = raw.tobytes()
    return pipev.run(text), ub


@settings(max_examples=50, deadline=None)
@given(t=st.sampled_from(list(SIZES)), seed=st.integers(0, 1000), repeat=st.integers(1, 4),
       dst_rep=st.integers(0, 2), src_rep=st.integers(0, 20), high=st.integers(0, 3),
       regs=st.sampled_from([(0, 2), (2, 0), (4, 6), (1, 5), (6, 3)]), data=st.data())
def test_random_registers_match_the_reference(t, seed, repeat, dst_rep, src_rep, high, regs,
                                              data):
    """Any 16 distinct source blocks, any register pairs: raw bytes as the reference moves
    them (the strides keep every repeat's destination blocks apart from the others')."""
    blocks = st.lists(st.integers(0, 60), min_size=16, max_size=16, unique=True)
    src_list = [SRC + 32 * b for b in data.draw(blocks)]
    dst_list = [DST + 32 * 8 * b for b in range(16)]
    dh, sh = high & 1, high >> 1
    result, ub = run(t, seed, dst_list, src_list, f"repeat={repeat}, stride={dst_rep},"
                     f"{src_rep}, dst_high={dh}, src_high={sh}", *regs)
    trans_data_5hd(ub, SIZES[t], dst_list, src_list, repeat, dst_rep, src_rep, dh, sh)
    assert result.ub[DST:DST + AREA].tobytes() == bytes(ub[DST:DST + AREA])


def test_specials_move_as_raw_bits():
    """NaN payloads, -0, infinities and denormals move untouched (f16 and f32)."""
    for t, dtype, specials in (("f16", np.uint16, [0x7E01, 0x8000, 0x7C00, 0xFC00, 0x0001]),
                               ("f32", np.uint32, [0x7FC00123, 0x80000000, 0x7F800000,
                                                   0xFF800000, 0x00000001])):
        x = np.resize(np.array(specials, dtype), 256 if t == "f16" else 128)
        dl = [DST + 32 * k for k in range(16)]
        sl = [SRC + 32 * k for k in range(16)]
        text = "\n".join([".chip ascend910b",
                          f'.ub raw u8[{AREA}] @{SRC:#x} = bits("{x.tobytes().hex()}' +
                          "00" * (AREA - x.nbytes) + '")',
                          f".ub out u8[{AREA}] @{DST:#x} = zeros",
                          *set_va_lines(dl, sl), f"    vnchwconv_va.{t} va0, va2, stride=0,0",
                          ""])
        ub = bytearray(DST + AREA)
        ub[:x.nbytes] = x.tobytes()
        trans_data_5hd(ub, x.itemsize, dl, sl, 1, 0, 0)
        assert pipev.run(text).ub[DST:DST + 512].tobytes() == bytes(ub[DST:DST + 512])


def test_the_ub_list_and_register_forms_agree():
    """vnchwconv (lists in UB) and vnchwconv_va (lists in VA registers) move the same bytes."""
    dl = [DST + 64 * k for k in range(16)]
    sl = [SRC + 96 * k for k in range(16)]
    keys = "repeat=3, stride=1,2"
    va, _ = run("s16", 7, dl, sl, keys)
    raw = np.random.default_rng(7).integers(0, 256, AREA, dtype=np.uint8)
    text = "\n".join([
        ".chip ascend910b",
        f'.ub raw u8[{AREA}] @{SRC:#x} = bits("{raw.tobytes().hex()}")',
        f".ub out u8[{AREA}] @{DST:#x} = zeros",
        f".ub dl u64[16] @{2 * AREA:#x} = [{', '.join(map(str, dl))}]",
        f".ub sl u64[16] @{2 * AREA + 128:#x} = [{', '.join(map(str, sl))}]",
        f"    vnchwconv.s16 dl, sl, {keys}", ""])
    assert pipev.run(text).ub[DST:DST + AREA].tobytes() == va.ub[DST:DST + AREA].tobytes()


BASE = [".chip ascend910b", ".ub a f16[256] = arange(0)", ".ub d f16[512]"]
LISTS = ["    set_va va0, d[0], d[16], d[32], d[48], d[64], d[80], d[96], d[112]",
         "    set_va va1, d[128], d[144], d[160], d[176], d[192], d[208], d[224], d[240]",
         "    set_va va2, a[0], a[16], a[32], a[48], a[64], a[80], a[96], a[112]",
         "    set_va va3, a[128], a[144], a[160], a[176], a[192], a[208], a[224], a[240]"]


@pytest.mark.parametrize(("edit", "error"), [
    (lambda s: s.replace("va0, va2", "va0, va7"),
     r"8:27: error: vnchwconv_va.f16 src = va7: its 16 addresses are in va7 and the next "
     r"register; there is no va8"),
    (lambda s: s.replace("va0, va2", "va4, va2"),
     r"8:22: error: vnchwconv_va.f16 dst reads va4, which no set_va has written"),
    (lambda s: s.replace("a[16],", "a[17],"),
     r"vnchwconv_va.f16 src entry 1 = 0x22 is not 32-byte aligned"),
    (lambda s: s.replace(" d[16],", " a[16],"), r"vnchwconv_va.f16 dst and src overlap"),
    (lambda s: s.replace("d[240]", "@0x3ffffe0"), r"outside UB"),
    (lambda s: s.replace("va0, d[0]", "va8, d[0]"), r"expected an address register va0..va7"),
])
def test_checks_at_the_users_line(tmp_path, edit, error):
    text = "\n".join(BASE + LISTS + ["    vnchwconv_va.f16 va0, va2, stride=0,0", ""])
    path = tmp_path / "k.vasm"
    path.write_text(edit(text))
    with pytest.raises((pipev.SimulationError, pipev.AssemblyError), match=error):
        pipev.run(path)


def test_registers_are_machine_state_the_debugger_undoes():
    """set_va's values are machine state: a later set_va of va0 replaces it (the transposed
    blocks 0-7 go to its new addresses), and stepping back over it restores the old one."""
    second = ("    set_va va0, d[256], d[272], d[288], d[304], d[320], d[336], d[352], "
              "d[368]")
    text = "\n".join(BASE + LISTS + [second, "    vnchwconv_va.f16 va0, va2, stride=0,0", ""])
    x = np.arange(256, dtype=np.float16).reshape(16, 16)
    d = pipev.run(text).ub[512:1536].view(np.float16)
    assert np.array_equal(d[256:384].reshape(8, 16), x.T[:8])
    assert np.array_equal(d[128:256].reshape(8, 16), x.T[8:])
    assert not d[:128].any()
    dbg = pipev.debug(text)
    machine = dbg.commands.s.machine
    for _ in range(5):
        dbg.execute("step")
    assert machine.special["va0"] == tuple(512 + 512 + 32 * k for k in range(8))
    dbg.execute("back")  # the second set_va undone: va0 holds d[0] ... d[112] again
    assert machine.special["va0"] == tuple(512 + 32 * k for k in range(8))


def _session(name: str, tmp_path):
    chip = get_chip("ascend910b")
    src = DATA / "ascendc/kernels" / name
    build = compile_source(src, npu_arch=chip.npu_arch,
                           env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    return [c.result for launch in session.launches for c in launch.cores]


def test_ascendc_list_forms_and_the_c_api(tmp_path):
    ascendc, c_api = _session("trans_5hd.cpp", tmp_path)
    assert not ascendc.diagnostics
    ub = bytearray(16384)
    ub[:4096] = bytes((37 * i + 11) % 256 for i in range(4096))
    # 1. uint64_t lists: halves, 2 repeats, strides 16, 1
    trans_data_5hd(ub, 2, [4096 + 32 * k for k in range(16)], [64 * k for k in range(16)],
                   2, 16, 1)
    # 2. LocalTensor lists: floats, source blocks in reverse
    trans_data_5hd(ub, 4, [6144 + 32 * k for k in range(16)],
                   [32 * (15 - k) for k in range(16)], 1, 0, 0)
    # 3. lists in UB: int8, the high halves
    lists = np.array([9216 + 32 * k for k in range(16)] + [64 * k for k in range(16)],
                     np.uint64)
    trans_data_5hd(ub, 1, [9216 + 32 * k for k in range(16)], [64 * k for k in range(16)],
                   1, 0, 0, 1, 1)
    got = ascendc.ub
    assert got[4096:4096 + 1024].tobytes() == bytes(ub[4096:4096 + 1024])
    assert got[6144:6144 + 512].tobytes() == bytes(ub[6144:6144 + 512])
    assert got[9216:9216 + 512].tobytes() == bytes(ub[9216:9216 + 512])
    # the lists in UB hold host addresses (GetPhyAddr): their offsets from the first agree
    held = got[8192:8192 + 256].view(np.uint64).astype(np.int64)
    assert (held - held[0]).tolist() == (lists.astype(np.int64) - 9216).tolist()
    # the C API: __ubuf__ arrays placed one after another from UB 0: src (0..511 as halves),
    # dst, out8; dst = src's first 16 x 16 transposed; out8 block k = byte 16 + k of src's
    # 16 blocks (the b8 form, src_high_half)
    x = c_api.ub[:1024].view(np.float16)
    assert x.tolist() == list(range(512))
    assert np.array_equal(c_api.ub[1024:1536].view(np.float16).reshape(16, 16),
                          x[:256].reshape(16, 16).T)
    raw = c_api.ub[:1024].tobytes()
    out8 = c_api.ub[2048:2560].reshape(16, 32)
    assert out8[:, :16].tobytes() == bytes(raw[32 * r + 16 + k] for k in range(16)
                                           for r in range(16))


def test_tik_vec_trans_scatter_and_vnchwconv(monkeypatch):
    import runpy
    import sys

    from simulator.tik import SHIM
    from simulator.tik import tik as tik_module

    monkeypatch.syspath_prepend(SHIM)
    monkeypatch.setitem(tik_module.SETTINGS, "chip", "ascend910b")
    try:
        tik = runpy.run_path(str(DATA / "tik/trans_5hd_tik.py"))["tik_instance"]
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    rng = np.random.default_rng(3)
    x = rng.uniform(-8, 8, 1024).astype(np.float16)
    x[:4] = np.array([0x7E01, 0x8000, 0x7C00, 0x0001], np.uint16).view(np.float16)
    b = rng.integers(-128, 128, 512).astype(np.int8)
    result = pipev.run(tik.program, inputs={"x": x, "b": b})
    assert not result.diagnostics
    want = x.reshape(16, 64).T.reshape(-1)  # (C, HW) -> (HW, C0)
    assert result.outputs["y"].tobytes() == want.tobytes()
    ub = bytearray(1024)
    ub[:512] = b.tobytes()
    trans_data_5hd(ub, 1, [512 + 32 * k for k in range(16)], [32 * k for k in range(16)],
                   1, 0, 0, 1, 1)
    assert result.outputs["c"].tobytes() == bytes(ub[512:])


def test_mask_is_not_considered_by_the_layout_instructions():
    """vtranspose and vnchwconv(_va) do not consider MASK: a partial MASK neither stops nor
    changes them (before, the 8-bit rule of a 256-element repeat refused them)."""
    x = np.arange(256, dtype=np.float16).reshape(16, 16)
    for line in ("    vtranspose.f16 d, a", "    vnchwconv_va.f16 va0, va2, stride=0,0"):
        text = "\n".join(BASE + LISTS + ["    set_vector_mask 0, 0xffff", line, ""])
        result = pipev.run(text)
        assert result.ub[512:1024].view(np.float16).reshape(16, 16).tobytes() == x.T.tobytes()
