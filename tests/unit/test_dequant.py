"""CastDequant's hardware forms and DEQSCALE (#27, #29): set_deqscale, vconv_deq.f16.s32,
vconv_deqs162b8h/l and vconv_vdeqs162b8h/l in .vasm against the element-by-element reference
(tests/reference/dequant.py: exact rational arithmetic), raw bytes, on directed specials and
random programs; the register's checks."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev
from pipev import DiagnosticError
from tests.reference import dequant as ref

SRC, DST, TAB = 0x0, 0x4000, 0x8000
AREA = 0x2000


def ub_bits(data: bytes) -> str:
    return f'bits("{data.hex()}")'


def run_b8(src: np.ndarray, word_or_table, op: str, dst_t: str, keys: str, mask=None):
    """One vconv_(v)deqs162b8 over SRC (int16) into a destination of random bytes."""
    rng = np.random.default_rng(len(src))
    old = rng.integers(0, 256, AREA, dtype=np.uint8)
    lines = [".chip ascend910b",
             f".ub x s16[{AREA // 2}] @{SRC:#x} = {ub_bits(np.resize(src, AREA // 2).tobytes())}",
             f".ub y {dst_t}[{AREA}] @{DST:#x} = {ub_bits(old.tobytes())}"]
    if isinstance(word_or_table, list):
        table = np.array(word_or_table, np.uint64)
        lines.append(f".ub vdeq u64[16] @{TAB:#x} = {ub_bits(table.tobytes())}")
        value = TAB // 32
    else:
        value = word_or_table
    lines.append(f"    li x1, {value}")
    lines.append("    set_deqscale x1")
    if mask is not None:
        lines.append(f"    set_vector_mask {mask[0]}, {mask[1]}")
    lines.append(f"    {op}.{dst_t}.s16 y, x, {keys}")
    return pipev.run("\n".join(lines) + "\n"), old


def expected_b8(src, words, old, repeats, blk, rep, high, srep=8, sblk=1, active=None):
    out = bytearray(old.tobytes())
    flat = np.resize(src, AREA // 2)
    layout = ref.deq_b8_layout(repeats, blk, rep, high)
    for i in range(repeats):
        for k in range(128):
            if active is not None and not active[k]:
                continue
            s = int(flat[i * srep * 16 + (k // 16) * sblk * 16 + k % 16])
            w = words[k % 16] if isinstance(words, list) else words
            out[layout[i][k]] = ref.deq_b8(s, w)
    return bytes(out)


SPECIAL_SCALES = [1.0, 0.5, -1.0, 1.0 / 3, 255.5, 1e-3, 3.4e38, float("inf"), float("-inf"),
                  float("nan"), 0.0, -0.0, 1.0009765625 + 2.0 ** -13]
EDGE_S16 = np.array([0, 1, -1, 127, 128, -128, -129, 255, 256, -256, -257, 32767, -32768, 3, -3,
                     5], np.int16)


@pytest.mark.parametrize("op", ["vconv_deqs162b8h", "vconv_deqs162b8l"])
@pytest.mark.parametrize("scale", SPECIAL_SCALES)
@pytest.mark.parametrize("offset,signed", [(0, True), (0, False), (-1, True), (255, False),
                                           (-256, True), (100, False)])
def test_directed_scalar_deq(op, scale, offset, signed):
    """Saturation bounds, ±0, ±inf and NaN scales, a scale whose low mantissa bits the hardware
    ignores, the offset's sign: raw bytes as the reference computes them."""
    src = np.resize(EDGE_S16, 256)
    w = ref.word(scale, offset, signed)
    result, old = run_b8(src, w, op, "s8" if signed else "u8", "repeat=2")
    want = expected_b8(src, w, old, 2, 1, 8, op.endswith("h"))
    assert result.ub[DST:DST + AREA].tobytes() == want


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10 ** 6), repeat=st.integers(1, 4), blk=st.integers(1, 2),
       rep=st.sampled_from([8, 16]), high=st.booleans(), vec=st.booleans(),
       signed=st.booleans(), mask_lo=st.integers(1, (1 << 64) - 1),
       mask_hi=st.integers(0, (1 << 64) - 1))
def test_random_b8(seed, repeat, blk, rep, high, vec, signed, mask_lo, mask_hi):
    rng = np.random.default_rng(seed)
    src = rng.integers(-32768, 32768, AREA // 2).astype(np.int16)
    scales = rng.choice([rng.uniform(-2, 2), 2.0 ** rng.integers(-12, 4), 1.0], 16)
    words = [ref.word(float(s), int(rng.integers(-256, 256)), signed) for s in scales]
    op = f"vconv_{'v' if vec else ''}deqs162b8{'h' if high else 'l'}"
    table = words if vec else words[0]
    active = [bool((mask_lo >> k) & 1) if k < 64 else bool((mask_hi >> (k - 64)) & 1)
              for k in range(128)]
    result, old = run_b8(src, table, op, "s8" if signed else "u8",
                         f"repeat={repeat}, stride={blk},1,{rep},8", (mask_hi, mask_lo))
    want = expected_b8(src, table, old, repeat, blk, rep, high, active=active)
    assert result.ub[DST:DST + AREA].tobytes() == want


EDGE_S32 = [0, 1, -1, 2047, 2049, 65504, 65520, 65536, -65536, 2 ** 31 - 1, -2 ** 31, 12345,
            -77777, 3, 1000001, 4095]
F16_SCALES = [0x3C00, 0x3800, 0xBC00, 0x0001, 0x03FF, 0x7BFF, 0x7C00, 0xFC00, 0x7E01, 0xFD23,
              0x0000, 0x8000, 0x3555, 0x1400]


@pytest.mark.parametrize("scale", F16_SCALES)
def test_directed_int32_to_half(scale):
    """Overflow saturates, a subnormal scale, ±inf and NaN scales, ±0: as the reference."""
    src = np.resize(np.array(EDGE_S32, np.int64), 128).astype(np.int32)
    got = _f16_bits(src, scale)
    want = [ref.deq_f16(int(v), scale) for v in src]
    assert got == want


def _f16_bits(src: np.ndarray, scale: int) -> list[int]:
    lines = [".chip ascend910b", f".ub x s32[{src.size}] = {ub_bits(src.tobytes())}",
             f".ub y f16[{src.size}] = zeros", f"    li x1, {scale}", "    set_deqscale x1",
             f"    vconv_deq.f16.s32 y, x, repeat={src.size // 64}"]
    r = pipev.run("\n".join(lines) + "\n")
    base = r.program.tensors["y"].addr if hasattr(r, "program") else None
    assert base is not None
    return list(r.ub[base:base + 2 * src.size].view(np.uint16))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10 ** 6), scale=st.integers(0, 0xFFFF))
def test_random_int32_to_half(seed, scale):
    src = np.random.default_rng(seed).integers(-2 ** 31, 2 ** 31, 128).astype(np.int32)
    assert _f16_bits(src, scale) == [ref.deq_f16(int(v), scale) for v in src]


def test_reading_deqscale_before_it_is_set_is_an_error():
    text = "\n".join([".chip ascend910b", ".ub x s16[128] = zeros", ".ub y u8[256] = zeros",
                      "    vconv_deqs162b8l.u8.s16 y, x, repeat=1", ""])
    with pytest.raises(DiagnosticError, match="DEQSCALE"):
        pipev.run(text)


def test_a_sign_mode_that_disagrees_with_the_destination_warns():
    src = np.arange(128, dtype=np.int16)
    w = ref.word(1.0, 0, True)  # signed results into a u8 destination
    result, _ = run_b8(src, w, "vconv_deqs162b8l", "u8", "repeat=1")
    assert any("sign mode" in d.message for d in result.diagnostics)


def test_deqscale_is_a_register_the_next_conversion_reads():
    """Two set_deqscale: each conversion reads the value in force when it issues."""
    src = np.arange(-64, 64, dtype=np.int16)
    text = "\n".join([".chip ascend910b", f".ub x s16[128] = {ub_bits(src.tobytes())}",
                      ".ub y s8[256] = zeros",
                      f"    li x1, {ref.word(2.0, 0, True)}", "    set_deqscale x1",
                      "    vconv_deqs162b8l.s8.s16 y, x, repeat=1",
                      f"    li x1, {ref.word(0.5, 1, True)}", "    set_deqscale x1",
                      "    vconv_deqs162b8h.s8.s16 y, x, repeat=1", ""])
    out = pipev.run(text)
    y = out.program.tensors["y"].addr
    raw = out.ub[y:y + 256].tobytes()
    for k in range(128):
        lo = raw[(k // 16) * 32 + k % 16]
        hi = raw[(k // 16) * 32 + 16 + k % 16]
        assert lo == ref.deq_b8(int(src[k]), ref.word(2.0, 0, True))
        assert hi == ref.deq_b8(int(src[k]), ref.word(0.5, 1, True))


def test_word_packs_as_the_setdeqscale_page_says():
    w = ref.word(1.5, -3, True)
    assert w & 0xFFFFFFFF == struct.unpack("<I", struct.pack("<f", 1.5))[0]
    assert (w >> 37) & 0x1FF == 0x1FD and (w >> 46) & 1 == 1


# -- the AscendC and C-API faces (tests/data/ascendc/kernels/cast_dequant.cpp) -------------------
def _session(tmp_path):
    import ctypes
    from pathlib import Path

    from isa.chip import get_chip
    from simulator.ascendc.bridge import Session
    from simulator.ascendc.build import compile_source

    chip = get_chip("ascend910b")
    src = Path(__file__).parent.parent / "data/ascendc/kernels/cast_dequant.cpp"
    build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    return [c.result for launch in session.launches for c in launch.cores]


def _b8(src, words, old: bytes, repeats: int, high: bool) -> bytes:
    out = bytearray(old)
    for i, row in enumerate(ref.deq_b8_layout(repeats, 1, 8, high)):
        for k, at in enumerate(row):
            w = words[k % 16] if isinstance(words, list) else words
            out[at] = ref.deq_b8(int(src[i * 128 + k]), w)
    return bytes(out)


def test_ascendc_and_c_api_forms(tmp_path):
    ascendc, c_api = _session(tmp_path)
    assert not ascendc.diagnostics
    # the C API kernel fills its __ubuf__ arrays natively, which pipev does not see as writes
    assert all("never written" in d.message for d in c_api.diagnostics)
    ub = ascendc.ub
    x = (97 * np.arange(256) - 12000).astype(np.int16)
    assert ub[512:1024].tobytes() == _b8(x, ref.word(0.5, -3, False), bytes(range(256)) * 2, 2,
                                         False)
    words = [ref.word(float(np.float32(0.001) * np.float32(k + 1)), k - 8, True)
             for k in range(16)]
    assert ub[1536:1664].view(np.uint64).tolist() == words
    assert ub[1024:1536].tobytes() == _b8(x, words, bytes(512), 2, True)
    a = (7919 * np.arange(128) - 500000).astype(np.int32)
    want = [ref.deq_f16(int(v), 0x3400) for v in a]
    assert ub[2560:2816].view(np.uint16).tolist() == want  # Cast int32_t → half
    assert ub[2816:3072].view(np.uint16).tolist() == want  # CastDequant int32_t → half
    ub = c_api.ub
    s = (131 * np.arange(256) - 16000).astype(np.int16)
    assert ub[512:1024].tobytes() == _b8(s, ref.word(2.0, 1, True), bytes(512), 2, True)
    cw = [ref.word(float(np.float32(0.01) * np.float32(k)), 2 * k, False) for k in range(16)]
    assert ub[1024:1280].tobytes() == _b8(s, cw, bytes(256), 1, False)
    a = (100003 * np.arange(64) - 3000000).astype(np.int32)
    assert ub[1664:1792].view(np.uint16).tolist() == [ref.deq_f16(int(v), 0x3E00) for v in a]


def test_tik_vconv_with_deqscale(monkeypatch):
    """TIK vec_conv / vconv with deqscale: a float16 scale, a uint64 word, a uint64 tensor with
    ldst_high_half (tests/data/tik/dequant_tik.py), raw bytes against the reference."""
    import runpy
    import sys
    from pathlib import Path

    from simulator.tik import SHIM
    from simulator.tik import tik as tik_module

    monkeypatch.syspath_prepend(SHIM)
    monkeypatch.setitem(tik_module.SETTINGS, "chip", "ascend910b")
    try:
        tik = runpy.run_path(str(Path(__file__).parent.parent / "data/tik/dequant_tik.py"))[
            "tik_instance"]
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    rng = np.random.default_rng(11)
    acc = rng.integers(-2 ** 24, 2 ** 24, 128).astype(np.int32)
    q16 = rng.integers(-32768, 32768, 256).astype(np.int16)
    words = [ref.word(float(s), int(o), False) for s, o in
             zip(rng.uniform(-0.2, 0.2, 16), rng.integers(-256, 256, 16), strict=True)]
    result = pipev.run(tik.program, inputs={"acc": acc, "q16": q16,
                                            "words": np.array(words, np.uint64)})
    assert not result.diagnostics
    assert result.outputs["out_h"].view(np.uint16).tolist() == \
        [ref.deq_f16(int(v), 0x2400) for v in acc]
    w = ref.word(0.5, -2, True)
    assert result.outputs["out_s8"].tobytes() == _b8(q16, w, bytes(512), 2, False)
    assert result.outputs["out_u8"].tobytes() == _b8(q16, words, bytes(512), 2, True)


def test_tik_deqscale_sign_bit_must_match_the_destination(monkeypatch):
    from simulator.tik import SHIM
    from simulator.tik import tik as tik_module

    monkeypatch.syspath_prepend(SHIM)
    monkeypatch.setitem(tik_module.SETTINGS, "chip", "ascend910b")
    import sys
    try:
        from tbe import tik
        t = tik.Tik()
        q = t.Tensor("int16", (128,), name="q", scope=tik.scope_ubuf)
        d = t.Tensor("int8", (256,), name="d", scope=tik.scope_ubuf)
        with pytest.raises(Exception, match=r"deqscale\[46\]"):
            t.vconv(128, "", d, q, 1, 1, 1, 8, 8, deqscale=ref.word(1.0, 0, False))
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]


def test_deqscale_is_machine_state_the_debugger_shows_and_undoes():
    """`print $deqscale` reads the register, `info registers` lists it once written, and
    stepping back over a set_deqscale restores the value before it."""
    text = "\n".join([".chip ascend910b", ".ub x s16[128] = zeros", ".ub y s8[256] = zeros",
                      f"    li x1, {ref.word(2.0, 0, True)}", "    set_deqscale x1",
                      f"    li x1, {ref.word(0.5, 1, True)}", "    set_deqscale x1",
                      "    vconv_deqs162b8l.s8.s16 y, x, repeat=1", ""])
    dbg = pipev.debug(text)

    def run(cmd: str) -> str:
        return "\n".join(dbg.execute(cmd))
    assert "has not been written" in run("print $deqscale")
    for _ in range(4):
        dbg.execute("step")
    assert str(ref.word(0.5, 1, True)) in run("print $deqscale")
    assert "$deqscale" in run("info registers")
    dbg.execute("back")
    assert str(ref.word(2.0, 0, True)) in run("print $deqscale")


def test_the_vdeq_table_is_read_like_an_operand():
    """An unwritten table is an uninitialised read at the line; a table past UB is an error."""
    text = "\n".join([".chip ascend910b", ".ub x s16[128] = zeros", ".ub y s8[256] = zeros",
                      ".ub t u64[16]", "    set_deqscale t", "    li x1, 0",
                      "    vconv_vdeqs162b8l.s8.s16 y, x, repeat=1", ""])
    result = pipev.run(text)
    assert any("table reads byte" in d.message and "never written" in d.message
               for d in result.diagnostics)
    far = text.replace("    set_deqscale t", "    li x2, 0x3FFF\n    set_deqscale x2")
    with pytest.raises(DiagnosticError, match="table"):
        pipev.run(far)


def test_a_loop_reuses_its_decodings_with_each_iterations_addresses_and_table():
    """A register-addressed vconv_(v)deqs162b8 in a loop takes its stored decoding rebased to
    each iteration's addresses, and the vdeq table's address (DEQSCALE, changing between
    iterations) keys it: every iteration's bytes are the reference's."""
    rng = np.random.default_rng(7)
    src = rng.integers(-2000, 2000, 1024).astype(np.int16)
    tables = [[ref.word(float(s), int(o), True) for s, o in zip(
        rng.uniform(-2, 2, 16), rng.integers(-256, 256, 16), strict=True)] for _ in range(2)]
    flat = np.array(tables, np.uint64).reshape(-1)
    text = "\n".join([
        ".chip ascend910b",
        f".ub x s16[1024] @0x0 = {ub_bits(src.tobytes())}",
        ".ub y s8[2048] @0x4000 = zeros",
        ".ub z s8[2048] @0x8000 = zeros",
        f".ub t u64[32] @0xC000 = {ub_bits(flat.tobytes())}",
        "    li x1, 0", "    li x2, 0", "    li x3, 0",  # x2: the destinations' byte offset
        "top:",
        "    li x4, 0x600", "    and x5, x3, 1", "    mul x5, x5, 4", "    add x4, x4, x5",
        "    set_deqscale x4",  # table 0 at 0xC000 (0x600 * 32), table 1 at 0xC080
        "    vconv_vdeqs162b8l.s8.s16 y[x2], x[x1], repeat=1",
        f"    li x6, {ref.word(0.5, 3, True)}", "    set_deqscale x6",
        "    vconv_deqs162b8h.s8.s16 z[x2], x[x1], repeat=1",
        "    add x1, x1, 128", "    add x2, x2, 256", "    add x3, x3, 1",
        "    blt x1, 1024, top", ""])
    ub = pipev.run(text).ub
    y, z = bytearray(2048), bytearray(2048)
    layout_l, layout_h = ref.deq_b8_layout(1, 1, 8, False), ref.deq_b8_layout(1, 1, 8, True)
    for it in range(8):
        for k in range(128):
            s = int(src[it * 128 + k])
            y[it * 256 + layout_l[0][k]] = ref.deq_b8(s, tables[it % 2][k % 16])
            z[it * 256 + layout_h[0][k]] = ref.deq_b8(s, ref.word(0.5, 3, True))
    assert ub[0x4000:0x4000 + 2048].tobytes() == bytes(y)
    assert ub[0x8000:0x8000 + 2048].tobytes() == bytes(z)


def test_a_loops_stored_decoding_reads_the_table_deqscale_names_now():
    """The table is an operand of the stored decoding: when DEQSCALE moves to an unwritten
    table between iterations (while src and dst move alike, so their layout repeats), the
    uninitialised-read check sees that table, not the first one moved by the loop's shift."""
    words = np.array([ref.word(1.0, 0, True)] * 64, np.uint64)
    text = "\n".join([
        ".chip ascend910b",
        ".ub x s16[512] @0x0 = zeros",
        ".ub y s8[1024] @0x4000 = zeros",
        f".ub t0 u64[64] @0xC000 = {ub_bits(words.tobytes())}",
        ".ub t1 u64[16] @0xD000",
        "    li x1, 0", "    li x2, 0", "    li x4, 0x600",
        "top:",
        "    set_deqscale x4",
        "    vconv_vdeqs162b8l.s8.s16 y[x2], x[x1], repeat=1",
        "    li x4, 0x680",  # the second iteration's table: t1 at 0xD000
        "    add x1, x1, 128", "    add x2, x2, 256",
        "    blt x1, 256, top", ""])
    result = pipev.run(text)
    assert [d.line for d in result.diagnostics
            if "table reads byte" in d.message and "never written" in d.message] == [11]
