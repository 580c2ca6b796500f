"""vconv / cast, vabs / vnot / vand / vor and their API forms, and the padded DMA
(copy_gm_to_ub_pad / copy_ub_to_gm_pad): hand-computed expectations, every vector example
also through the reference model (tests/reference/model.py); the static and run-time checks;
the listing's micro-ops; timing from the DMA model."""

from __future__ import annotations

import numpy as np
import pytest

import isa
import simulator
from isa.diagnostics import AssemblyError
from isa.listing import listing
from simulator.errors import SimulationError
from tests.reference import run_reference


def run(text: str, chip: str = "ascend910b", reference: bool = True, **kw):
    text = f".chip {chip}\n" + text
    res = simulator.run(text, **kw)
    if reference:
        decls = [ln for ln in text.splitlines() if ln.strip().startswith(".ub")]
        hw = [h.text for s in res.program.statements for h in s.hw]
        ref = run_reference("\n".join([".chip ascend910b"] + decls + hw))
        assert bytes(res.ub) == bytes(ref.ub), "simulator and reference disagree"
    return res


def ub(res, name: str, dtype) -> np.ndarray:
    t = res.program.tensors[name]
    return np.frombuffer(bytes(res.ub[t.addr:t.addr + t.nbytes]), dtype)


def hw(text: str, chip: str = "ascend910b") -> list[str]:
    p = isa.assemble(f".chip {chip}\n" + text)
    return [h.text for h in p.statements[-1].hw]


def error_of(text: str, chip: str = "ascend910b", **kw) -> str:
    with pytest.raises((AssemblyError, SimulationError)) as e:
        simulator.run(f".chip {chip}\n" + text, **kw)
    return str(e.value)


X32 = ".ub x f32[256] @0x0 = random(3)\n"


# --- vconv: per-operand types and strides ------------------------------------------------------
def test_vconv_narrowing_repeat_covers_256_bytes_of_the_wider_type():
    res = run(X32 + ".ub y f16[256] @0x400 = fill(9)\nvconv.f16.f32 y, x, repeat=3, round=rint\n")
    x = ub(res, "x", np.float32)
    y = ub(res, "y", np.float16)
    assert y[:192].tobytes() == x[:192].astype(np.float16).tobytes()  # 3 repeats × 64
    assert (y[192:] == 9).all()


def test_vconv_default_strides_are_contiguous_in_each_type():
    assert hw(X32 + ".ub y f16[256] @0x400\nvconv.f16.f32 y, x, repeat=2\n") == [
        "vconv.f16.f32 y, x, repeat=2, round=none"]
    # vendor-style 8/8 repeat strides are not the default: shown when given
    assert hw(X32 + ".ub y f16[512] @0x400\nvconv.f16.f32 y, x, repeat=2, stride=1,1,8,8\n"
              ) == ["vconv.f16.f32 y, x, repeat=2, round=none, stride=1,1,8,8"]


def test_vconv_strides_count_each_operand_in_its_own_blocks():
    res = run(X32 + ".ub y f16[512] @0x400 = fill(0)\n"
              "vconv.f16.f32 y, x, repeat=2, stride=2,1,16,8\n")
    x = ub(res, "x", np.float32)[:128].astype(np.float16).reshape(2, 4, 16)
    y = ub(res, "y", np.float16).reshape(4, 8, 16)  # 4 groups of 8 blocks of 16 halves
    # repeat i writes its 4 dst blocks at block stride 2 from block 16·i
    for i in range(2):
        for j in range(4):
            assert y[2 * i, 2 * j].tobytes() == x[i, j].tobytes()
            assert (y[2 * i, 2 * j + 1] == 0).all()


def test_vconv_widening_and_the_listing_rows():
    text = ".ub h f16[128] @0x0 = random(5)\n.ub w f32[128] @0x400\nvconv.f32.f16 w, h, repeat=2\n"
    res = run(text)
    assert ub(res, "w", np.float32).tobytes() == \
        ub(res, "h", np.float16).astype(np.float32).tobytes()
    uops = listing(isa.assemble(".chip ascend910b\n" + text))[-1]["hw"][0]["uops"]
    assert [len(u["rows"]["src"]) for u in uops] == [4, 4]  # 64 halves: 4 blocks
    assert [len(u["rows"]["dst"]) for u in uops] == [8, 8]  # 64 floats: 8 blocks


def test_vconv_mask_in_elements_of_the_wider_type():
    res = run(X32 + ".ub y f16[128] @0x400 = fill(7)\nset_vector_mask 0, 0xf0\n"
              "vconv.f16.f32 y, x, repeat=2\n")
    x = ub(res, "x", np.float32).astype(np.float16)
    y = ub(res, "y", np.float16)
    for i in range(2):
        assert y[64 * i + 4:64 * i + 8].tobytes() == x[64 * i + 4:64 * i + 8].tobytes()
        assert (y[64 * i:64 * i + 4] == 7).all() and (y[64 * i + 8:64 * i + 64] == 7).all()


def test_vconv_to_s8_saturates_nan_gives_zero_in_counter_mode():
    vals = [1.5, 2.5, -2.5, 300, -300, float("nan"), float("inf"), float("-inf"), 127.4, -0.0]
    text = (f".ub h f16[256] @0x0 = [{', '.join(map(str, vals + [0] * 246))}]\n"
            ".ub b s8[256] @0x200 = fill(5)\n"
            "set_mask_count\nset_vector_mask 0, 200\nvconv.s8.f16 b, h, round=rint\n")
    res = run(text)
    got = ub(res, "b", np.int8)
    assert list(got[:10]) == [2, 2, -2, 127, -128, 0, 127, -128, 127, 0]
    assert (got[10:200] == 0).all() and (got[200:] == 5).all()


def test_vconv_8bit_in_normal_mode_takes_a_partial_mask():
    """N = 128 (256 bytes of f16): MASK covers every element, unlike an 8-bit vadd."""
    res = run(".ub h f16[128] @0x0 = fill(3)\n.ub b u8[128] @0x200\n"
              "set_vector_mask 0, 0xff\nvconv.u8.f16 b, h\n")
    assert list(ub(res, "b", np.uint8)[:9]) == [3] * 8 + [0]


@pytest.mark.parametrize(("text", "want"), [
    ("vconv.f16.s32 y, x", "vconv.f16.s32 is not supported on ascend910b"),
    ("vconv.s32.f32 z, x, round=odd", "round=odd is not supported on ascend910b (supports "
     "round=rint, floor, ceil, round, trunc)"),
    ("vconv.f16.f32 y, x, round=nearest", "round=nearest is not one of none, rint"),
    ("vconv.f16 y, x", "vconv needs a destination and a source type, e.g. vconv.f16.f32"),
    ("vconv.f16.f32 y, y", "src 'y' is f16; a f32 operand needs a tensor of 4-byte elements"),
    ("vconv.f16.f32 y, x[4]", "not 32-byte aligned"),
])
def test_vconv_static_errors(text, want):
    msg = error_of(X32 + ".ub y f16[256] @0x400\n.ub z s32[64] @0x800\n" + text)
    assert want in msg


def test_vconv_footprint_of_the_narrow_side_is_its_own():
    # 4 repeats write 4·128 bytes of f16: 256 halves fit exactly; 5 do not
    ok = X32 + ".ub y f16[256] @0x400\nvconv.f16.f32 y, x, repeat=4\n"
    run(ok)
    msg = error_of(".ub x f32[320] @0x0\n.ub y f16[256] @0x800\nvconv.f16.f32 y, x, repeat=5\n")
    assert "dst y needs 640 bytes, tensor has 512" in msg


# --- cast API ----------------------------------------------------------------------------------
def test_cast_count_form_counter_mode():
    assert hw(X32 + ".ub y f16[256] @0x400\ncast.f16.f32 y, x, round=odd, count=200\n") == [
        "set_mask_count", "set_vector_mask 0, 200", "vconv.f16.f32 y, x, repeat=1, round=odd",
        "set_mask_norm", "set_vector_mask 0xffffffffffffffff, 0xffffffffffffffff"]


def test_cast_count_form_chunks_on_ascend910():
    text = ".ub h f16[20000] @0x0 = random(2)\n.ub w f32[20000] @0x9c80\n" \
        "cast.f32.f16 w, h, count=16300\n"
    texts = hw(text, "ascend910")
    assert texts[1] == "vconv.f32.f16 w, h, repeat=254, round=none"
    assert texts[2:4] == ["set_vector_mask 0, 0xfffffffffff",
                          "vconv.f32.f16 w[16256], h[16256], repeat=1, round=none"]
    res = simulator.run(".chip ascend910\n" + text)
    h = ub(res, "h", np.float16)
    w = ub(res, "w", np.float32)
    assert w[:16300].tobytes() == h[:16300].astype(np.float32).tobytes()
    assert (w[16300:] == 0).all()


def test_cast_high_dimensional_mask_in_wider_elements():
    assert hw(X32 + ".ub y f16[256] @0x400\n"
              "cast.f16.f32 y, x, round=rint, repeat=2, mask=64, stride=1,1,4,8\n") == [
        "set_vector_mask 0, 0xffffffffffffffff", "vconv.f16.f32 y, x, repeat=2, round=rint"]


# --- vabs, vnot, vand, vor and the API forms ---------------------------------------------------
def test_vabs_clears_the_sign_bit_keeping_nan_payloads():
    pats = [0xFE01, 0x8000, 0xBC00, 0x7C00, 0xFC00, 0x3C00, 0xFFFF, 0x8001] * 16
    res = run(f'.ub a u16[128] @0x0 = bits("{np.array(pats, np.uint16).tobytes().hex()}")\n'
              ".ub d f16[128] @0x100\nvabs.f16 d, a\n")
    assert list(ub(res, "d", np.uint16)[:8]) == [0x7E01, 0, 0x3C00, 0x7C00, 0x7C00, 0x3C00,
                                                 0x7FFF, 1]


def test_bitwise_binary_and_not():
    res = run(".ub a u16[128] @0x0 = arange(0, 37)\n.ub b u16[128] @0x100 = arange(3, 77)\n"
              ".ub p u16[128] @0x200\n.ub q u16[128] @0x300\n.ub r u16[128] @0x400\n"
              "vand.u16 p, a, b\nvor.u16 q, a, b\nvnot.u16 r, a\n")
    a, b = ub(res, "a", np.uint16), ub(res, "b", np.uint16)
    assert (ub(res, "p", np.uint16) == a & b).all()
    assert (ub(res, "q", np.uint16) == a | b).all()
    assert (ub(res, "r", np.uint16) == ~a).all()


def test_api_and_or_not_abs_expand_and_scalar_and_stays_scalar():
    decl = ".ub a s16[320] @0x0 = fill(0)\n.ub b s16[320] @0x400\n.ub d s16[320] @0x800\n"
    assert hw(decl + "and.s16 d, a, b, count=100\n")[2] == "vand.s16 d, a, b, repeat=1"
    assert hw(decl + "or.s16 d, a, b, repeat=2, mask=16\n") == [
        "set_vector_mask 0, 65535", "vor.s16 d, a, b, repeat=2"]
    assert hw(decl + "not.s16 d, a, count=300\n")[2] == "vnot.s16 d, a, repeat=1"
    assert hw(".ub a f32[64] @0x0\nabs.f32 a, a, count=64\n")[2] == "vabs.f32 a, a, repeat=1"
    assert hw("and x1, x2, 3\n") == ["and x1, x2, 3"]
    res = simulator.run(".chip ascend910\n" + decl
                        + "not.s16 d, a, count=300\n")
    assert (ub(res, "d", np.int16)[:300] == -1).all()  # ~0, in chunks of full repeats + a tail


def test_bitwise_and_abs_types_are_checked():
    assert "vand.f16 is not supported on ascend910b (supports s16, u16)" in error_of(
        ".ub a f16[128] @0x0\nvand.f16 a, a, a\n")
    assert "vabs.s16 is not supported" in error_of(".ub a s16[128] @0x0\nvabs.s16 a, a\n")


# --- padded DMA ----------------------------------------------------------------------------------
PAD = """.gm g f16[60] input = arange(1)
.gm o f16[40] output
.ub u f16[96] @0x0 = fill(7)
"""


def test_copy_gm_to_ub_pad_bursts_padding_and_gaps():
    res = simulator.run(".chip ascend910b\n" + PAD + "copy_gm_to_ub_pad.f16 u, g[1], nburst=2, "
                        "len=20, src_gap=6, dst_gap=1, left_pad=2, right_pad=3, pad_value=-1\n")
    u = ub(res, "u", np.float16)
    want = np.full(96, 7, np.float16)
    # burst k reads halves 1 + 13k .. 1 + 13k + 9 (20 bytes, 26 bytes apart)
    for k, start in enumerate((0, 32)):  # 2 + 10 + 3 = 15 halves: one block, then a gap block
        want[start:start + 2] = -1
        want[start + 2:start + 12] = np.arange(2 + 13 * k, 12 + 13 * k)
        want[start + 12:start + 16] = -1  # right padding, then the dummy half (block end)
    assert u.tobytes() == want.tobytes()


def test_copy_gm_to_ub_pad_without_pad_value_leaves_the_left_padding():
    """Without a pad value the left padding is not written; the bytes after the data up to the
    block boundary (right padding included) repeat the burst's first element (issue #27)."""
    res = simulator.run(".chip ascend910b\n" + PAD + "copy_gm_to_ub_pad.f16 u, g, nburst=1, "
                        "len=6, left_pad=1, right_pad=1\n")
    assert list(ub(res, "u", np.float16)[:17]) == [7, 1, 2, 3] + [1] * 12 + [7]


def test_copy_gm_to_ub_pad_compact_packs_the_bursts():
    """ascend950's PaddingMode::Compact (#34 r6): the bursts back to back, the pad value after
    the last only, up to the 32-byte boundary; left_pad, right_pad and dst_gap not in effect."""
    res = simulator.run(".chip ascend950\n" + PAD + "copy_gm_to_ub_pad.f16 u, g[1], nburst=3, "
                        "len=10, src_gap=6, dst_gap=1, left_pad=2, right_pad=3, pad_value=-1, "
                        "compact=1\n")
    want = np.full(96, 7, np.float16)
    for k in range(3):  # burst k: halves 1 + 8k .. 5 + 8k (10 bytes, 16 apart), packed
        want[5 * k:5 * k + 5] = np.arange(2 + 8 * k, 7 + 8 * k)
    want[15:16] = -1  # 30 bytes of data, 2 of padding
    assert ub(res, "u", np.float16).tobytes() == want.tobytes()


def test_compact_is_ascend950s():
    assert "compact=1 is ascend950's" in error_of(
        PAD + "copy_gm_to_ub_pad.f16 u, g, len=8, compact=1\n")


def test_copy_ub_to_gm_pad_writes_len_bytes_per_burst():
    res = simulator.run(".chip ascend910b\n.gm o u8[40] output\n"
                        ".ub u u8[192] @0x0 = arange(0)\n"
                        "copy_ub_to_gm_pad.u8 o[1], u, nburst=3, len=10, src_gap=1, dst_gap=3\n")
    want = np.zeros(40, np.uint8)
    for k in range(3):  # UB bursts 64 bytes apart (one block of data + a gap block)
        want[1 + 13 * k:11 + 13 * k] = np.arange(64 * k, 64 * k + 10)
    assert res.outputs["o"].tobytes() == want.tobytes()


@pytest.mark.parametrize(("stmt", "want"), [
    ("copy_gm_to_ub_pad.f16 u, g, nburst=1, len=8, left_pad=17, pad_value=0",
     "left_pad of 34 bytes is beyond a 32-byte block"),
    ("copy_gm_to_ub_pad.f16 u[3], g, len=8", "not 32-byte aligned"),
    ("copy_gm_to_ub_pad.f16 u, g, nburst=1", "needs len="),
    ("copy_gm_to_ub_pad.f16 u, g, nburst=2, len=100", "src touches byte 0x78 outside GM tensor"),
    ("copy_gm_to_ub_pad.f16 u, g, nburst=4, len=30, dst_gap=1",
     "dst u needs 224 bytes, tensor has 192 (burst 3, block 0)"),
    ("copy_ub_to_gm_pad.f16 o, u, nburst=3, len=30", "touches byte 0x50 outside GM tensor o"),
    ("copy_gm_to_ub_pad.f16 u, g, len=8, pad_value=1e9", "overflows f16"),
])
def test_padded_dma_checks(stmt, want):
    assert want in error_of(PAD + stmt + "\n")


def test_padded_dma_not_on_ascend910():
    assert "copy_gm_to_ub_pad.f16 is not supported on ascend910" in error_of(
        PAD + "copy_gm_to_ub_pad.f16 u, g, len=8\n", chip="ascend910")


def test_padded_dma_times_as_its_blocks_rounded_up():
    """len=40 bytes a burst plus 4 bytes of padding occupy 2 blocks: as copy_gm_to_ub
    burst=2."""
    def cycles(stmt: str) -> int:
        return simulator.run(".chip ascend910b\n.gm g f16[200] input = arange(0)\n"
                             ".ub u f16[200] @0x0\n" + stmt + "\n").cycles
    assert cycles("copy_gm_to_ub_pad.f16 u, g, nburst=3, len=40, left_pad=2, pad_value=0") \
        == cycles("copy_gm_to_ub u, g, nburst=3, burst=2")


# --- traces and the debugger ---------------------------------------------------------------------
def test_jsonl_trace_shows_vconv_repeats_with_each_sides_rows(tmp_path):
    import json

    out = tmp_path / "t.jsonl"
    simulator.run(".chip ascend910b\n" + X32 + ".ub y f16[256] @0x400\n"
                  "vconv.f16.f32 y, x, repeat=2, round=odd\n", trace=out)
    events = [json.loads(ln) for ln in out.read_text().splitlines()]
    reps = [e for e in events if e.get("ev") == "repeat"]
    assert len(reps) == 2
    assert reps[1]["addr"]["src"] == [0x100 + 32 * j for j in range(8)]
    assert reps[1]["addr"]["dst"] == [0x480 + 32 * j for j in range(4)]
    assert reps[0]["active"] == "0x" + "f" * 16  # 64 elements a repeat


def test_debugger_back_over_a_padded_copy_restores_data_and_padding():
    import pipev

    text = ".chip ascend910b\n" + PAD + "copy_gm_to_ub_pad.f16 u, g, nburst=2, len=20, " \
        "left_pad=1, right_pad=2, pad_value=-1\n"
    d = pipev.debug(text)
    before = bytes(d.ub)
    d.execute("step")
    after = bytes(d.ub)
    assert after != before
    assert np.frombuffer(after, np.float16)[:14].tolist() == [-1, *range(1, 11), -1, -1, -1]
    d.execute("back")
    assert bytes(d.ub) == before


@pytest.mark.parametrize("stmt", [
    "vconv.f16.f32 y, x, repeat=2, round=odd, stride=2,1,8,8",
    "copy_gm_to_ub_pad.f16 u, g, nburst=2, len=6, src_gap=2, left_pad=1, pad_value=0",
    "copy_ub_to_gm_pad.f16 o, u, nburst=2, len=6, dst_gap=4",
    "vand.s16 s, s, s, repeat=1",
])
def test_listing_text_assembles_to_itself(stmt):
    decls = X32 + ".ub y f16[256] @0x400\n.ub s s16[128] @0x800\n" + PAD
    text = hw(decls + stmt + "\n")[0]
    assert hw(decls + text + "\n") == [text]


def test_vconv_register_addressed_again_at_a_new_address_keeps_its_narrower_side():
    """A register-addressed vconv re-run with its operands moved together reuses its decoding
    rebased (simulator/decodings.py): the f16 side still covers 64 elements a repeat."""
    head = ".ub x f32[512] @0x0 = random(3)\n.ub y f16[1024] @0x800 = fill(9)\n"
    moved = head + ("li x1, 0\nli x2, 0\nvconv.f16.f32 y[x2], x[x1], repeat=1, round=rint\n"
                    "li x1, 256\nli x2, 512\nvconv.f16.f32 y[x2], x[x1], repeat=1, round=rint\n")
    static = head + ("vconv.f16.f32 y[0], x[0], repeat=1, round=rint\n"
                     "vconv.f16.f32 y[512], x[256], repeat=1, round=rint\n")
    got, want = run(moved, reference=False), run(static)  # the reference has no registers
    assert ub(got, "y", np.uint16).tobytes() == ub(want, "y", np.uint16).tobytes()
