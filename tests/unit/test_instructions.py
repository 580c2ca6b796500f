"""Focused examples per hardware instruction (docs/machine.md §5–§6) and per API-level decoding
(§8), on ascend910b: hand-computed expected bytes, the exact hardware sequence of each API
statement, and the listing (`pipev asm`) showing every expansion with its per-repeat micro-ops.

Every hardware-level example is also run through tests/reference/model.py, so the hand-written
expectation, the reference and the simulator must all agree.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import isa
import simulator
from isa.families import VECTOR
from isa.listing import MAX_UOPS_SHOWN, listing
from simulator.errors import SimulationError
from tests.reference import run_reference

SCR = 196608 - 8192  # ascend910b scratch base
ONES = "0xffffffffffffffff"
RESET = ["set_mask_norm", f"set_vector_mask {ONES}, {ONES}"]


def run(text: str, checks: str = "error", reference: bool = True):
    """Run on the simulator (and the reference, which must give the same UB bytes)."""
    text = ".chip ascend910b\n" + text
    res = simulator.run(text, checks=checks)
    if reference:
        # API statements reach the reference as their hardware expansion (§8)
        decls = [ln for ln in text.splitlines() if ln.strip().startswith(".")]
        hw = [h.text for s in res.program.statements for h in s.hw]
        ref = run_reference("\n".join(decls + hw), checks)
        assert bytes(res.ub) == bytes(ref.ub), "simulator and reference disagree"
    return res


def tensor(res, name: str, dtype) -> np.ndarray:
    t = res.program.tensors[name]
    return np.frombuffer(bytes(res.ub[t.addr:t.addr + t.nbytes]), dtype)


def raw(values, dtype) -> bytes:
    return np.asarray(values, dtype).tobytes()


def bits_hex(bits: list[int], nbytes: int) -> str:
    b = np.packbits(np.asarray(bits + [0] * (8 * nbytes - len(bits)), np.uint8),
                    bitorder="little")
    return b.tobytes().hex()


def hw_texts(text: str) -> list[list[str]]:
    p = isa.assemble(".chip ascend910b\n" + text)
    return [[h.text for h in s.hw] for s in p.statements]


# --- vsel (§6.2) ---------------------------------------------------------------------------------
VENDOR = """
.ub src0 f32[8] @0x0 = [1, 2, 3, 4, 5, 6, 7, 8]
.ub src1 f32[8] @0x20 = [9, 10, 11, 12, 13, 14, 15, 16]
.ub dst  f32[8] @0x40 = [-1, -2, -3, -4, -5, -6, -7, -8]
.ub sel  u8[32] @0x60 = bits("f0{zeros}")
""".format(zeros="00" * 31)
VENDOR_RESULT = raw([9, 10, 11, 12, -5, -6, -7, -8], np.float32)


def test_vsel_mode0_vendor_example():
    res = run(VENDOR + "set_cmpmask sel\nset_vector_mask 0, 0xf\n"
              "vsel.f32 dst, src0, src1, mode=0\n")
    assert tensor(res, "dst", np.float32).tobytes() == VENDOR_RESULT


def test_vsel_mode2_vendor_example_mask_address_from_cmpmask():
    res = run(VENDOR + ".ub ptr u32[8] @0x80 = [0x60, 0, 0, 0, 0, 0, 0, 0]\n"
              "set_cmpmask ptr\nset_vector_mask 0, 0xf\nvsel.f32 dst, src0, src1, mode=2\n")
    assert tensor(res, "dst", np.float32).tobytes() == VENDOR_RESULT


def test_vsel_api_high_dimensional_vendor_example():
    text = VENDOR + "select.f32 dst, sel, src0, src1, mode=0, repeat=1, mask_lo=0xf\n"
    assert hw_texts(text)[-1] == ["set_cmpmask sel", "set_vector_mask 0, 15",
                                  "vsel.f32 dst, src0, src1, repeat=1, mode=0"]
    res = run(text)
    assert tensor(res, "dst", np.float32).tobytes() == VENDOR_RESULT


def test_vsel_mode1_scalar_from_cmpmask_and_mask_consumed_per_repeat():
    # f16, 2 repeats: repeat i uses mask bits [128 i, 128 i + 128); other = CMPMASK[15:0]
    sel = [k % 3 == 0 for k in range(256)]
    res = run(f"""
.ub a   f16[256] @0x0 = arange(0)
.ub d   f16[256] @0x200 = fill(-1)
.ub m   u8[32]   @0x400 = bits("{bits_hex([int(b) for b in sel], 32)}")
.ub cm  u16[16]  @0x420 = [0x4d00, 7, 7, 7, 7, 7, 7, 7, 0, 0, 0, 0, 0, 0, 0, 0]
set_cmpmask cm
vsel.f16 d, a, m, repeat=2, mode=1
""")
    a = np.arange(256, dtype=np.float16)
    want = np.where(sel, a, np.float16(20.0))  # 0x4d00 = 20.0
    assert tensor(res, "d", np.float16).tobytes() == want.tobytes()


def test_vsel_mode0_same_cmpmask_bits_every_repeat_f32_uses_low_64():
    res = run("""
.ub a  f32[128] @0x0 = fill(1)
.ub b  f32[128] @0x200 = fill(2)
.ub d  f32[128] @0x400
.ub cm u64[2] @0x600 = [0x5, 0xffffffffffffffff]
set_cmpmask cm
vsel.f32 d, a, b, repeat=2
""")
    row = np.where(np.arange(64) < 3, np.where(np.arange(64) % 2 == 0, 1, 2), 2)
    assert tensor(res, "d", np.float32).tobytes() == raw(np.tile(row, 2), np.float32)


def test_vsel_moves_nan_payloads_and_negative_zero_as_bits():
    payloads = [0x7F800001, 0xFFC12345, 0x80000000, 0x7FA00000] * 16
    res = run(f"""
.ub a  u32[64] @0x0 = bits("{raw(payloads, np.uint32).hex()}")
.ub b  f32[64] @0x100 = fill(3)
.ub d  f32[64] @0x200
.ub cm u64[2] @0x300 = [0xffffffffffffffff, 0]
set_cmpmask cm
vsel.f32 d, a, b
vcopy.f32 @0x400, d
copy_ub_to_ub @0x600, @0x400, nburst=1, burst=8
""")
    assert bytes(res.ub[0x600:0x700]) == raw(payloads, np.uint32)


def test_vsel_counter_mode_only_first_c_elements():
    res = run("""
.ub a  f16[256] @0x0 = fill(1)
.ub b  f16[256] @0x200 = fill(2)
.ub d  f16[256] @0x400 = fill(9)
.ub cm u8[16] @0x600 = bits("ffffffffffffffffffffffffffffffff")
set_cmpmask cm
set_mask_count
set_vector_mask 0, 130
vsel.f16 d, a, b, repeat=7
""")
    want = np.full(256, 9, np.float16)
    want[:130] = 1
    assert tensor(res, "d", np.float16).tobytes() == want.tobytes()


# --- compares (§6.3) -----------------------------------------------------------------------------
def test_vcmp_keeps_bits_of_inactive_elements_and_above_n():
    res = run("""
.ub a  f32[64] @0x0 = arange(0)
.ub b  f32[64] @0x100 = fill(10)
.ub cm u8[16] @0x200 = bits("aaaaaaaaaaaaaaaaffffffffffffffff")
.ub out u8[16] @0x220
set_cmpmask cm
set_vector_mask 0, 0xff00ff
vcmp.lt.f32 a, b
get_cmpmask out
""")
    bits = [(0xAA >> (k % 8)) & 1 for k in range(64)]
    for k in list(range(8)) + list(range(16, 24)):
        bits[k] = int(k < 10)
    want = bits_hex(bits, 8) + "ff" * 8
    assert bytes(tensor(res, "out", np.uint8)).hex() == want


def test_vcmpv_ignores_mask_writes_contiguous_bits_and_ignores_dst_strides():
    res = run("""
.ub a  f16[256] @0x0 = arange(0)
.ub d  u8[64] @0x200 = fill(0x55)
set_vector_mask 0, 1
vcmpvs.ge.f16 d, a, 100.0, repeat=2, stride=4,1,9,8
""")
    want = bits_hex([int(k >= 100) for k in range(256)], 32) + "55" * 32
    assert bytes(tensor(res, "d", np.uint8)).hex() == want


def test_vcmpv_ieee_nan_and_signed_zero():
    a = raw([np.nan, 0.0, -0.0, np.inf, 1.0, np.nan, 2.0, -np.inf] * 8, np.float32)
    b = raw([np.nan, -0.0, 0.0, np.inf, np.nan, 1.0, 2.0, -np.inf] * 8, np.float32)
    prog = f"""
.ub a f32[64] @0x0 = bits("{a.hex()}")
.ub b f32[64] @0x100 = bits("{b.hex()}")
.ub d u8[8] @0x200
"""
    want = {"eq": [0, 1, 1, 1, 0, 0, 1, 1], "ne": [1, 0, 0, 0, 1, 1, 0, 0],
            "lt": [0] * 8, "gt": [0] * 8, "le": [0, 1, 1, 1, 0, 0, 1, 1],
            "ge": [0, 1, 1, 1, 0, 0, 1, 1]}
    for op, bits in want.items():
        res = run(prog + f"vcmpv.{op}.f32 d, a, b\n")
        assert bytes(tensor(res, "d", np.uint8)).hex() == bits_hex(bits * 8, 8), op


def test_vcmpv_counter_mode_compares_whole_last_repeat():
    res = run("""
.ub a  s32[128] @0x0 = arange(0)
.ub b  s32[128] @0x200 = arange(0)
.ub d  u8[32] @0x400 = fill(0x11)
set_mask_count
set_vector_mask 0, 65
vcmpv.eq.s32 d, a, b
""")
    assert bytes(tensor(res, "d", np.uint8)).hex() == "ff" * 16 + "11" * 16


# --- arithmetic, dup, copies, address generation (§5, §6.4) ---------------------------------------
def test_integer_arithmetic_wraps():
    res = run("""
.ub a s16[128] @0x0 = fill(32767)
.ub b s16[128] @0x100 = fill(2)
.ub d s16[128] @0x200
.ub e s32[64] @0x300
vadd.s16 d, a, b
vmuls.s32 e, @0x0, 0x7f
""")
    assert tensor(res, "d", np.int16).tobytes() == raw([-32767] * 128, np.int16)
    assert tensor(res, "e", np.int32).tobytes() == \
        (np.full(64, 0x7FFF7FFF, np.int64) * 127).astype(np.int32).tobytes()


@pytest.mark.parametrize("checks", ["error", "off"])
def test_two_nan_operands_give_src0_nan_quieted(checks):
    """Regression: numpy's f32 add/mul returned a position-dependent payload."""
    n = 64 * 200
    a = raw([0xFFB7EC42] * n, np.uint32)
    b = raw([0x7F97BF98] * n, np.uint32)
    for op in ("vadd", "vsub", "vmul"):
        res = run(f"""
.ub a f32[{n}] @0x0 = bits("{a.hex()}")
.ub b f32[{n}] @0x10000 = bits("{b.hex()}")
.ub d f32[{n}] @0x20000
{op}.f32 d, a, b, repeat=200
""", checks, reference=False)
        assert set(tensor(res, "d", np.uint32).tolist()) == {0xFFF7EC42}, op


def test_vector_dup_counter_mode_and_later_repeat_wins():
    res = run("""
.ub d f32[64] @0x0 = fill(-1)
.ub s f32[128] @0x100 = arange(0)
.ub e f32[64] @0x300
set_mask_count
set_vector_mask 0, 70
vector_dup.f32 d, 5.0, stride=1,1,0,8
set_mask_norm
set_vector_mask 0, 0xffffffffffffffff
vcopy.f32 e, s, repeat=2, stride=1,1,0,8
""")
    # counter mode: 2 repeats over the same bytes; repeat 1 has 6 active elements
    assert tensor(res, "d", np.float32).tobytes() == raw([5.0] * 64, np.float32)
    assert tensor(res, "e", np.float32).tobytes() == raw(np.arange(64, 128), np.float32)


def test_source_block_stride_zero_rereads_block_zero():
    res = run("""
.ub s f16[256] @0x0 = arange(0)
.ub d f16[256] @0x200
vadds.f16 d, s, 0.0, repeat=2, stride=1,0,8,3
""")
    block = np.arange(16)
    want = np.concatenate([np.tile(block, 8), np.tile(block + 48, 8)]).astype(np.float16)
    assert tensor(res, "d", np.float16).tobytes() == want.tobytes()


def test_repeat_zero_and_zero_mask_are_noops_with_a_warning():
    res = run("""
.ub d f32[64] @0x0 = fill(1)
vector_dup.f32 d, 2.0, repeat=0
set_vector_mask 0, 0
vector_dup.f32 d, 3.0
""")
    assert tensor(res, "d", np.float32).tobytes() == raw([1.0] * 64, np.float32)
    warned = [d.line for d in res.diagnostics if d.severity == "warning"]
    assert warned == [4, 6]  # (line 1 is .chip)


def test_cmpmask_round_trip_and_copy_ub_to_ub_gaps():
    res = run("""
.ub a u8[128] @0x0 = random(7)
.ub d u8[128] @0x100
set_cmpmask @0x10
get_cmpmask @0x100
copy_ub_to_ub @0x120, @0x20, nburst=2, burst=1, src_gap=1, dst_gap=0
""")
    a = tensor(res, "a", np.uint8)
    d = tensor(res, "d", np.uint8)
    assert bytes(d[:16]) == bytes(a[16:32])
    assert bytes(d[32:96]) == bytes(a[32:64]) + bytes(a[96:128])


def test_overlap_rejected_but_sequential_with_checks_off():
    text = """
.ub s f32[128] @0x0 = arange(0)
vadds.f32 @0x20, @0x0, 1.0, repeat=2, stride=1,1,8,8
"""
    with pytest.raises(SimulationError, match="overlap"):
        run(text)
    res = run(text, "off")
    # repeat 0 reads elements 0..63 first; repeat 1 reads 64..71 after repeat 0 wrote them
    want = np.arange(128, dtype=np.float32)
    want[8:72] = np.arange(64) + 1
    want[72:128] = np.concatenate([want[64:72] + 1, np.arange(72, 120) + 1])
    assert tensor(res, "s", np.float32)[8:].tobytes() == want[8:].tobytes()


# --- API-level decodings (§8) ---------------------------------------------------------------------
DECLS = """
.ub x  f32[512] @0x0 = random(1)
.ub y  f32[512] @0x800 = random(2)
.ub z  f32[512] @0x1000 = fill(7)
.ub h  f16[1024] @0x1800 = random(3)
.ub m  u8[128] @0x2000 = random(4)
.ub hm u8[128] @0x2080
"""


def sel_bits(res, n: int) -> np.ndarray:
    m = tensor(res, "m", np.uint8)
    return np.unpackbits(m, bitorder="little")[:n].astype(bool)


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_select_count_form(mode):
    src1 = "2.5" if mode == 1 else "y"
    stmt = f"select.f32 z, m, x, {src1}, mode={mode}, count=100"
    s1 = "m" if mode == 1 else "y"
    load = {0: ["set_cmpmask m"],
            1: ["set_mask_norm", "set_vector_mask 0, 255",
                f"vector_dup.f32 @{SCR:#x}, 2.5, repeat=1", f"set_cmpmask @{SCR:#x}"],
            2: ["set_mask_norm", "set_vector_mask 0, 255",
                f"vector_dup.u32 @{SCR:#x}, 0x2000, repeat=1", f"set_cmpmask @{SCR:#x}"]}
    assert hw_texts(DECLS + stmt)[-1] == load[mode] + [
        "set_mask_count", "set_vector_mask 0, 100",
        f"vsel.f32 z, x, {s1}, repeat=1, mode={mode}"] + RESET
    res = run(DECLS + stmt)
    x, y = tensor(res, "x", np.float32), tensor(res, "y", np.float32)
    other = np.float32(2.5) if mode == 1 else y[:100]
    bits = sel_bits(res, 64)
    bits = np.concatenate([bits, bits[:36]]) if mode == 0 else sel_bits(res, 100)
    want = np.full(512, 7, np.float32)
    want[:100] = np.where(bits, x[:100], other)
    assert tensor(res, "z", np.float32).tobytes() == want.tobytes()


def test_select_high_dimensional_contiguous_mask_keeps_mask():
    stmt = "select.f16 h, m, h, h[256], mode=2, repeat=2, mask=100, stride=1,1,1,8,8,8"
    assert hw_texts(DECLS + stmt)[-1] == [
        "set_mask_norm", "set_vector_mask 0, 255", f"vector_dup.u32 @{SCR:#x}, 0x2000, "
        "repeat=1", f"set_cmpmask @{SCR:#x}", "set_vector_mask 0xfffffffff, 0xffffffffffffffff",
        "vsel.f16 h, h, h[256], repeat=2, mode=2"]
    run(DECLS + stmt)


def test_select_no_mask_forms():
    assert hw_texts(DECLS + "select.f32 z, x, y, mode=0, repeat=3")[-1] == \
        ["vsel.f32 z, x, y, repeat=3, mode=0"]
    assert hw_texts(DECLS + "select.f32 z, m, x, mode=1, repeat=2, stride=1,1,1,8,8,8")[-1] == \
        ["vsel.f32 z, x, m, repeat=2, mode=1"]
    assert hw_texts(DECLS + "select.f32 z, x, y, mode=2, repeat=1")[-1] == \
        ["vsel.f32 z, x, y, repeat=1, mode=2"]


def test_select_mode1_bitwise_mask_result():
    stmt = "select.f32 z, m, x, -0.0, mode=1, repeat=2, mask_lo=0xf0f0"
    assert hw_texts(DECLS + stmt)[-1][-2:] == ["set_vector_mask 0, 61680",
                                               "vsel.f32 z, x, m, repeat=2, mode=1"]
    res = run(DECLS + stmt)
    x = tensor(res, "x", np.float32)
    bits = sel_bits(res, 128)
    act = np.tile([(0xF0F0 >> k) & 1 for k in range(64)], 2).astype(bool)
    want = np.full(512, 7, np.float32)
    want[:128] = np.where(act, np.where(bits, x[:128], np.float32(-0.0)), 7)
    assert tensor(res, "z", np.float32).tobytes() == want.tobytes()


def test_compare_count_form_chunks_of_252_repeats():
    text = """
.ub a f16[32384] @0x0 = random(5)
.ub b f16[32384] @0x10000 = random(6)
.ub d u8[4048] @0x20000
compare.le.f16 d, a, b, count=32384
"""
    assert hw_texts(text)[-1] == ["vcmpv.le.f16 d, a, b, repeat=252",
                                  "vcmpv.le.f16 d[4032], a[32256], b[32256], repeat=1"]
    res = run(text, reference=False)
    a, b = tensor(res, "a", np.float16), tensor(res, "b", np.float16)
    want = np.packbits(a <= b, bitorder="little")
    assert bytes(tensor(res, "d", np.uint8)) == want.tobytes()


def test_compare_repeat_form_ignores_mask_and_cmpmask_form():
    text = DECLS + "compare.gt.f32 hm, x, y, repeat=2, mask=3\n" \
        "compare.ne.f32 cmpmask, x, y, mask=10\ncompare.eq.f32 cmpmask, x, x\n" \
        "get_cmp_mask @0x2100\nset_cmp_mask @0x2000"
    got = hw_texts(text)
    assert got[-5:] == [["vcmpv.gt.f32 hm, x, y, repeat=2"],
                        ["set_vector_mask 0, 1023", "vcmp.ne.f32 x, y"],
                        ["vcmp.eq.f32 x, x"], ["get_cmpmask @0x2100"], ["set_cmpmask @0x2000"]]
    p = isa.assemble(".chip ascend910b\n" + text)
    assert any("ignores mask" in d.message for d in p.warnings)
    res = run(text)
    x, y = tensor(res, "x", np.float32), tensor(res, "y", np.float32)
    assert bytes(tensor(res, "hm", np.uint8)[:16]) == \
        np.packbits(x[:128] > y[:128], bitorder="little").tobytes()
    # ne then eq, both with MASK = 10 elements (eq has no mask key: MASK stays): bits 0..9 are
    # x == x, bits 10..63 keep CMPMASK's reset value 0
    assert bytes(res.ub[0x2100:0x2110]) == bytes([0xFF, 0x03]) + bytes(14)


def test_compares_count_form_whole_repeats():
    text = DECLS + "compares.lt.f16 hm, h, 0.0, count=300"
    assert hw_texts(text)[-1] == ["vcmpvs.lt.f16 hm, h, 0.0, repeat=3"]
    res = run(text)
    h = tensor(res, "h", np.float16)
    assert bytes(tensor(res, "hm", np.uint8)[:48]) == \
        np.packbits(h[:384] < 0, bitorder="little").tobytes()


def test_duplicate_and_set_mask():
    text = DECLS + "duplicate.f32 z, -0.0, count=70\nset_mask.f16 100\nset_mask.f32 100\n" \
        "vector_dup.f32 x, 1.0\nset_mask_count\nset_mask.f32 3\nvector_dup.f32 y, 1.0"
    got = hw_texts(text)
    assert got[-7] == ["set_mask_count", "set_vector_mask 0, 70",
                       "vector_dup.f32 z, -0.0, repeat=1"] + RESET
    assert got[-6:-4] == [["set_mask.f16 100"], ["set_mask.f32 100"]]
    res = run(text)
    z = tensor(res, "z", np.float32)
    assert z[:70].tobytes() == raw([-0.0] * 70, np.float32)
    assert z[70:].tobytes() == raw([7.0] * 442, np.float32)
    x, y = tensor(res, "x", np.float32), tensor(res, "y", np.float32)
    assert (x[:64] == 1).all() and not (x[64:] == 1).all()  # LEN clamped to N(T) = 64
    assert (y[:3] == 1).all() and not (y[3] == 1)  # counter mode: the count


# --- the listing shows every expansion (§8, §12 `pipev asm`) --------------------------------------
@st.composite
def api_statements(draw) -> tuple[str, int]:
    """An API statement and the number of repeats its (last) vector instruction runs."""
    kind = draw(st.sampled_from(("select", "compare", "compares", "duplicate", "cmpmask")))
    t = draw(st.sampled_from(("f16", "f32")))
    n = 256 // (2 if t == "f16" else 4)
    src = "h" if t == "f16" else "x"
    if kind == "select":
        mode = draw(st.sampled_from((0, 1, 2)))
        s1 = "1.5" if mode == 1 else src
        if draw(st.booleans()):
            count = draw(st.integers(1, 4 * n))
            return f"select.{t} {src}, m, {src}, {s1}, mode={mode}, count={count}", -(-count // n)
        r = draw(st.integers(1, 3))
        return f"select.{t} {src}, m, {src}, {s1}, mode={mode}, repeat={r}, mask=7", r
    if kind == "compare":
        r = draw(st.integers(1, 4))
        return f"compare.lt.{t} hm, {src}, {src}, count={r * n}", r
    if kind == "compares":
        count = draw(st.integers(1, 4 * n))
        return f"compares.ge.{t} hm, {src}, 0.5, count={count}", -(-count // n)
    if kind == "duplicate":
        count = draw(st.integers(1, 12 * n))
        return f"duplicate.{t} {src}, 2.0, count={count}", -(-count // n)
    return f"compare.eq.{t} cmpmask, {src}, {src}, mask=5", 1


@settings(max_examples=60, deadline=None, derandomize=True)
@given(api_statements())
def test_listing_shows_every_expansion_with_per_repeat_micro_ops(case):
    stmt, repeats = case
    p = isa.assemble(".chip ascend910b\n" + DECLS + stmt)
    entry = listing(p)[-1]
    hw = p.statements[-1].hw
    assert entry["api"] and [h["text"] for h in entry["hw"]] == [h.text for h in hw]
    vector = [(h, e) for h, e in zip(hw, entry["hw"], strict=True)
              if h.defn.family.kind == VECTOR]
    assert vector, stmt
    h, e = vector[-1]
    shown = [u["repeat"] for u in e["uops"] if "repeat" in u]
    if repeats <= MAX_UOPS_SHOWN + 1:
        assert shown == list(range(repeats)), stmt
    else:
        assert shown == list(range(MAX_UOPS_SHOWN)) + [repeats - 1], stmt
        assert any("more repeats" in u.get("note", "") for u in e["uops"])
    for _, e in vector:
        assert all("note" in u or {"repeat", "active", "rows"} <= set(u) for u in e["uops"])


def test_listing_of_a_counter_mode_count_past_255_repeats_says_so():
    """A count of 2**32-1 would be 67M repeats: the listing says the run rejects it instead of
    expanding them (it once grew to the machine's whole memory)."""
    p = isa.assemble(".chip ascend910b\n.ub x f32[64] = random(1)\n    set_mask_count\n"
                     "    set_vector_mask 0, 0x7ffffffffff\n    vadd.f32 x, x, x\n")
    (note,) = listing(p)[-1]["hw"][0]["uops"]
    assert note == {"note": "counter mode count 4294967295 needs 67108864 repeats of 64 elements "
                            "(at most 255: the run rejects it)"}
