"""#27 AddReluCast / SubReluCast / MulCast (vaddreluconv, vsubreluconv, vmulconv): directed
specials per pair through whole programs against tests/reference/binary_conv.py, the vendor's
worked example, the pairs each chip takes, the mask and count rules of the wider type, and the
unknown-result warning."""

from __future__ import annotations

import numpy as np
import pytest

import simulator
from isa.diagnostics import AssemblyError
from tests.reference.binary_conv import PAIRS, element

NP = {"f16": np.float16, "f32": np.float32, "s16": np.int16, "s8": np.int8, "u8": np.uint8}
SIZE = {"f16": 2, "f32": 4, "s16": 2, "s8": 1, "u8": 1}
SPECIALS = {
    "f32": [0.0, -0.0, 1.5, -1.5, 2.5, 65504.0, 65519.0, 65520.0, 1e30, -1e30, np.inf, -np.inf,
            np.nan, 1e-45, 6e-8, 2.9802322e-08, 3e-8, -3.4e38, 3.4e38, 0.5, 7.0],
    "f16": [0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 126.5, 127.5, 128.0, -129.0, 255.5, 300.0, np.inf,
            -np.inf, np.nan, 6e-8, -6e-8, 65504.0, -65504.0, 11.0, -0.75],
    "s16": [0, 1, -1, 127, 128, -128, -129, 32767, -32768, 200, -200, 90, 37, -37, 5, 16384],
}
STAT = {"vaddreluconv": "add_relu_cast", "vsubreluconv": "sub_relu_cast", "vmulconv": "mul_cast"}


def _pairs() -> list[tuple[str, str, str]]:
    return [(name, d, s) for name, pairs in PAIRS.items() for d, s in pairs]


def _bits(t: str, values) -> np.ndarray:
    return np.asarray(values, NP[t])


def _run(stmt: str, dst: str, src: str, a: np.ndarray, b: np.ndarray, keys: str,
         chip: str = "ascend910b"):
    n = len(a)
    nb = -(-n * SIZE[src] // 32) * 32
    text = (f".chip {chip}\n"
            f'.ub a {src}[{n}] @0x0 = bits("{a.tobytes().hex()}")\n'
            f'.ub b {src}[{n}] @{nb:#x} = bits("{b.tobytes().hex()}")\n'
            f".ub y {dst}[{n}] @{2 * nb:#x}\n"
            f"{stmt}.{dst}.{src} y, a, b, {keys}\n")
    res = simulator.run(text)
    return np.frombuffer(bytes(res.ub[2 * nb:2 * nb + n * SIZE[dst]]), NP[dst]), res


def _want(name: str, dst: str, src: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.frombuffer(b"".join(element(name, dst, src, x.tobytes(), y.tobytes())
                                  for x, y in zip(a, b, strict=True)), NP[dst])


@pytest.mark.parametrize(("name", "dst", "src"), _pairs())
def test_specials_against_the_reference(name, dst, src):
    sp = _bits(src, SPECIALS[src])
    a = np.repeat(sp, len(sp))  # every special against every special
    b = np.tile(sp, len(sp))
    got, _ = _run(STAT[name], dst, src, a, b, f"count={len(a)}")
    assert got.tobytes() == _want(name, dst, src, a, b).tobytes()


def test_the_vendor_example_half_to_int8():
    """The AddReluCast page: [1 1 3 …] + [0 0.5 -4 …] → [1 2 0 …] (1.5 rounds to 2)."""
    a, b = _bits("f16", [1, 1, 3, 512]), _bits("f16", [0, 0.5, -4, -513])
    got, _ = _run("add_relu_cast", "s8", "f16", a, b, "count=4")
    assert got.tolist() == [1, 2, 0, 0]


def test_rint_ties_to_even_and_saturation():
    a, b = _bits("f16", [0.5, 1.5, 2.5, 200, 3.5]), _bits("f16", [1, 1, 1, 2, -1])
    got, _ = _run("mul_cast", "s8", "f16", a, b, "count=5")
    assert got.tolist() == [0, 2, 2, 127, -4]


def test_high_dimensional_form_counts_elements_of_the_wider_type():
    """f32 → f16: 64 elements a repeat; the f16 destination moves 4 blocks a repeat."""
    rng = np.random.default_rng(3)
    a = rng.uniform(-9, 9, 256).astype(np.float32)
    b = rng.uniform(-9, 9, 256).astype(np.float32)
    got, _ = _run("add_relu_cast", "f16", "f32", a, b, "repeat=4, mask=32")
    want = _want("vaddreluconv", "f16", "f32", a, b)
    active = np.arange(256) % 64 < 32
    assert got[active].tobytes() == want[active].tobytes()
    assert not got[~active].any()


@pytest.mark.parametrize(("stmt", "pair", "chip"), [
    ("add_relu_cast", "s8.f32", "ascend910b"),  # not a pair of the table
    ("add_relu_cast", "s8.s16", "ascend310b"),  # the 200I/500 A2 table lacks it
    ("mul_cast", "s8.f16", "ascend910"),  # not on Atlas training products
    ("vmulconv", "s8.s16", "ascend910b"),
])
def test_pairs_outside_the_chip_table_are_refused(stmt, pair, chip):
    text = (f".chip {chip}\n.ub a f32[64]\n.ub b f32[64]\n.ub y f32[64]\n"
            f"{stmt}.{pair} y, a, b, {'count=64' if '_' in stmt else 'repeat=1'}\n")
    with pytest.raises(AssemblyError, match=rf"{stmt}\.{pair} is not supported on {chip}"):
        simulator.run(text)


def test_negative_products_to_uint8_warn_with_their_count():
    a, b = _bits("f16", [1, -1, 2, -3, 0, -0.0]), _bits("f16", [1, 1, -1, -1, -1, 1])
    got, res = _run("mul_cast", "u8", "f16", a, b, "count=6")
    assert got.tolist() == [1, 0, 0, 3, 0, 0]
    warned = [str(d) for d in res.diagnostics if "unknown" in str(d)]
    assert len(warned) == 1 and "on 2 elements" in warned[0], warned


def test_hardware_form_default_strides_are_each_operands_own():
    """vmulconv.s8.f16 repeat=2 with no stride=: sources 8 blocks a repeat, dst 4."""
    rng = np.random.default_rng(5)
    a = rng.uniform(-4, 4, 256).astype(np.float16)
    b = rng.uniform(-4, 4, 256).astype(np.float16)
    got, _ = _run("vmulconv", "s8", "f16", a, b, "repeat=2")
    assert got.tobytes() == _want("vmulconv", "s8", "f16", a, b).tobytes()


# --- the mixed forms: Axpy / MulAddDst half → float (vaxpy.f32.f16, vmla.f32.f16) --------------
F16 = [0.0, -0.0, 1.0, -1.5, 65504.0, -65504.0, 6e-8, -6e-8, 6.1e-5, np.inf, -np.inf, np.nan,
       0.333, 1000.0]
F32 = [0.0, -0.0, 1.0, -1e30, 3.4e38, -3.4e38, 1e-45, np.inf, -np.inf, np.nan, 4.2e9, -7.0]


def _mixed_run(head: str, a, b, d, keys: str, scalar: str = "") -> np.ndarray:
    n = len(a)
    nb = -(-n * 2 // 32) * 32
    db = 2 * nb
    text = (".chip ascend910b\n"
            f'.ub a f16[{n}] @0x0 = bits("{a.tobytes().hex()}")\n'
            f'.ub b f16[{n}] @{nb:#x} = bits("{b.tobytes().hex()}")\n'
            f'.ub y f32[{n}] @{db:#x} = bits("{d.tobytes().hex()}")\n'
            f"{head} y, a, {scalar or 'b'}, {keys}\n")
    res = simulator.run(text)
    return np.frombuffer(bytes(res.ub[db:db + n * 4]), np.float32)


def test_mixed_specials_against_the_reference():
    from tests.reference.binary_conv import mixed
    sp = np.array(F16, np.float16)
    a, b = np.repeat(sp, len(sp)), np.tile(sp, len(sp))
    d = np.resize(np.array(F32, np.float32), len(a))
    got = _mixed_run("mul_add_dst.f32.f16", a, b, d, f"count={len(a)}")
    want = b"".join(mixed("vmla", "f32", "f16", x.tobytes(), y.tobytes(), o.tobytes())
                    for x, y, o in zip(a, b, d, strict=True))
    assert got.tobytes() == want
    got = _mixed_run("axpy.f32.f16", a, b, d, f"count={len(a)}", scalar="-0.333")
    s = np.float16(-0.333).tobytes()
    want = b"".join(mixed("vaxpy", "f32", "f16", x.tobytes(), s, o.tobytes())
                    for x, o in zip(a, d, strict=True))
    assert got.tobytes() == want


def test_the_mixed_product_is_exact_and_rounded_once():
    """65504 · 65504 = 4290774016 exactly in f32, + 1 rounds once (to the product); 2047² + 0.5
    is exact in f32 (a product rounded to f16 first would lose it)."""
    a = np.array([65504.0, 2047.0], np.float16)
    d = np.array([1.0, 0.5], np.float32)
    got = _mixed_run("mul_add_dst.f32.f16", a, a, d, "count=2")
    assert got.tolist() == [4290774016.0, 4190209.5]


@pytest.mark.parametrize(("text", "message"), [
    (".chip ascend310b\n.ub a f16[64]\n.ub y f32[64]\nmul_add_dst.f32.f16 y, a, a, count=64",
     r"mul_add_dst\.f32\.f16 is not supported on ascend310b \(mixed forms: none\)"),
    (".chip ascend910b\n.ub a s16[64]\n.ub y f32[64]\naxpy.f32.s16 y, a, 2, count=64",
     r"axpy\.f32\.s16 is not supported on ascend910b \(mixed forms: f32\.f16\)"),
    (".chip ascend910b\n.ub a f32[64]\n.ub y f32[64]\nvaxpy.f32.f16 y, a, 2.0",
     r"src 'a' is f32; a f16 operand needs a tensor of 2-byte elements"),
    (".chip ascend910b\n.ub a f16[128] @0x0\n.ub y f32[64] @0x0\nvaxpy.f32.f16 y, a, 2.0",
     r"overlap"),
])
def test_mixed_forms_are_checked(text, message):
    with pytest.raises((AssemblyError, simulator.SimulationError), match=message):
        simulator.run(text + "\n")


# --- ascend950: ands / ors / divs, the scalar in either position --------------------------------
def test_flex_scalar_statements_on_ascend950():
    rng = np.random.default_rng(9)
    a = rng.integers(-30000, 30000, 256).astype(np.int16)
    h = rng.uniform(-8, 8, 128).astype(np.float16)
    h[::7] = np.float16(0)
    text = (".chip ascend950\n"
            f'.ub a s16[256] @0x0 = bits("{a.tobytes().hex()}")\n'
            f'.ub h f16[128] @0x200 = bits("{h.tobytes().hex()}")\n'
            ".ub d s16[256] @0x400\n.ub q f16[128] @0x600\n.ub r f16[128] @0x700\n"
            "ands.s16 d, -4, a, repeat=2, mask=128\n"
            "divs.f16 q, h, x0, count=128\n"  # x0 = 0: x / 0
            "divs.f16 r, scalar(h[1]), h, count=128\n")
    res = simulator.run(text)
    ub = bytes(res.ub)
    assert (np.frombuffer(ub[0x400:0x600], np.int16) == (a & np.int16(-4))).all()
    with np.errstate(all="ignore"):
        q = np.frombuffer(ub[0x600:0x700], np.float16)
        assert q.tobytes() == (h / np.float16(0)).astype(np.float16).tobytes()
        r = np.frombuffer(ub[0x700:0x800], np.float16)
        assert r.tobytes() == (h[1] / h).astype(np.float16).tobytes()


@pytest.mark.parametrize(("text", "message"), [
    (".chip ascend910b\n.ub a s16[128]\n.ub d s16[128]\nands.s16 d, a, 3, count=128",
     r"ands\.s16 is not supported on ascend910b \(supports none\)"),
    (".chip ascend950\n.ub a s16[128]\n.ub d s16[128]\nors.s16 d, a, a, count=128",
     r"exactly one scalar"),
    (".chip ascend950\n.ub a s16[128]\n.ub d s16[128]\nors.s16 d, 1, 2, count=128",
     r"exactly one scalar"),
    (".chip ascend950\n.ub a f16[128]\n.ub d f16[128] @0x0\ndivs.f16 d, scalar(d[3]), a, "
     "count=128", r"overlaps the scalar element"),
])
def test_flex_scalar_statements_are_checked(text, message):
    with pytest.raises((AssemblyError, simulator.SimulationError), match=message):
        simulator.run(text + "\n")
