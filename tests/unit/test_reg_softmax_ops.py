"""Issue 34 (r2): what the vendor's softmax, subnormal and ctrl_spr samples need of the reg-based
unit, at the .vasm level, raw bytes against tests/reference/regvec_fused.py and
regvec_convert.py: Div's DivAlgo modes (FTZ or not), ExpSub (f32, f16 even / odd), Reduce SUM of
int16 into int32, and CTRL (set_ctrl / reset_ctrl) deciding Cast's SatMode."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.diagnostics import AssemblyError
from tests.reference import regvec_convert as conv
from tests.reference import regvec_fused as ref

# f32 specials: ±0, ±inf, NaNs, 1, subnormals (smallest, largest, the Div page's), the smallest
# normal, the largest finite, values whose quotient is subnormal
F32 = [0x0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00123,
       0x3F800000, 0x1, 0x80000001, 0x007FFFFF, 0x8036A794, 0x0014440B, 0x0053E3CF,
       0x00800000, 0x80800000, 0x7F7FFFFF, 0x01000000, 0x40800000, 0x00A00000, 0x3F000000]
F16 = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x3C00, 0x0001, 0x8001, 0x03FF,
       0x0400, 0x8400, 0x7BFF, 0x4400, 0x2000, 0x1400]
SPECIALS = {"f32": F32, "f16": F16}
SIZE = {"f32": 4, "f16": 2}


def run(tmp_path, body: str, **regs: bytes):
    """BODY in a VF after each input's 256 bytes are loaded (v0, v1, ... in order); the UB."""
    lines = [".chip ascend950"]
    loads = []
    for i, (name, raw) in enumerate(regs.items()):
        np.save(tmp_path / f"{name}.npy", np.frombuffer(raw, np.uint8))
        lines.append(f'.ub {name} u8[256] @{i * 0x100:#x} = file("{name}.npy")')
        loads.append(f"    vlds.u8 v{i}, {name}[0]")
    lines.append(".ub out u8[4096] @0x1000")
    text = "\n".join(lines + ['    vf_begin "t"', "    pset.u8 p7, ALL", *loads, body,
                              "    vf_end"]) + "\n"
    (tmp_path / "k.vasm").write_text(text)
    return simulator.run(tmp_path / "k.vasm").ub


def register(t: str, rng: np.random.Generator, head: list[int]) -> bytes:
    raw = bytearray(rng.integers(0, 256, 256, dtype=np.uint8).tobytes())
    for k, v in enumerate(head[:256 // SIZE[t]]):
        raw[k * SIZE[t]:(k + 1) * SIZE[t]] = v.to_bytes(SIZE[t], "little")
    return bytes(raw)


def elements(raw: bytes, size: int) -> list[bytes]:
    return [raw[k:k + size] for k in range(0, len(raw), size)]


ALGOS = ("intrinsic", "diff", "p1ulp_ftz", "p0ulp_ftz", "p0ulp", "p1ulp")
TAKES = {"f32": ALGOS, "f16": ("intrinsic", "p1ulp_ftz", "p1ulp")}


@pytest.mark.parametrize("t", ["f32", "f16"])
def test_div_flushes_subnormals_but_in_the_ftz_false_modes(tmp_path, t):
    rng = np.random.default_rng(34)
    specials = SPECIALS[t]
    pairs = [(x, y) for x in specials for y in specials]
    n = 256 // SIZE[t]
    for start in range(0, len(pairs), n):
        chunk = pairs[start:start + n]
        a = register(t, rng, [x for x, _ in chunk])
        b = register(t, rng, [y for _, y in chunk])
        body = "\n".join(f"    vrdiv.{t} v2, v0, v1, p0, algo={algo}\n"
                         f"    vsts.{t} out[{k * 256}], v2, p0"
                         for k, algo in enumerate(TAKES[t]))
        ub = run(tmp_path, f"    pset.{t} p0, ALL\n" + body, a=a, b=b)
        for k, algo in enumerate(TAKES[t]):
            got = bytes(ub[0x1000 + k * 256:0x1000 + (k + 1) * 256])
            keep = algo in ("p0ulp", "p1ulp")
            xs, ys = elements(a, SIZE[t]), elements(b, SIZE[t])
            want = b"".join(ref.reg_div(t, x, y, keep) for x, y in zip(xs, ys, strict=True))
            assert got == want, (t, algo)


def test_the_div_pages_table_8(tmp_path):
    """1 / -5.0e-39 and 1.86e-39 / 7.7e-39: with a Subnormal mode the quotients, without it
    -inf and NaN 0x7FFFFFFF (the page's bits)."""
    a = struct.pack("<2I", 0x3F800000, 0x0014440B) + bytes(248)
    b = struct.pack("<2I", 0x8036A794, 0x0053E3CF) + bytes(248)
    ub = run(tmp_path, "    pset.f32 p0, VL2\n    vrdiv.f32 v2, v0, v1, p0\n"
             "    vsts.f32 out[0], v2, p0\n    vrdiv.f32 v3, v0, v1, p0, algo=p0ulp\n"
             "    vsts.f32 out[256], v3, p0", a=a, b=b)
    assert ub[0x1000:0x1008].view(np.uint32).tolist() == [0xFF800000, 0x7FFFFFFF]
    assert ub[0x1100:0x1108].view(np.uint32).tolist() == [0xFF15E301, 0x3E775FBC]


@pytest.mark.parametrize("line, why", [
    ("vrdiv.f16 v2, v0, v1, p0, algo=p0ulp", "takes f32"),
    ("vrdiv.s32 v2, v0, v1, p0, algo=diff", "takes f32"),
    ("vrdiv.f32 v2, v0, v1, p0, algo=fast", "algo"),
    ("vrexpsub.f16.f16 v2, v0, v1, p0", "f32.f32, f32.f16"),
    ("vrexpsub.f32.f32 v2, v0, v1, p0, part=one", "RegLayout"),
    ("vredsumw.s32.u16 v2, v0, p0", "s32.s16, u32.u16"),
    ("set_ctrl 48, 48, x1, x2", "operand"),
])
def test_forms_the_pages_do_not_have_are_refused(tmp_path, line, why):
    with pytest.raises(AssemblyError) as e:
        run(tmp_path, f"    pset.f32 p0, ALL\n    {line}")
    assert why in str(e.value)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from(["f32", "f16"]), st.integers(0, 1),
       st.integers(1, 128))
def test_exp_sub_is_bit_exact(tmp_path_factory, seed, src, part, count):
    tmp_path = tmp_path_factory.mktemp("es")
    rng = np.random.default_rng(seed)
    size = SIZE[src]
    a = register(src, rng, SPECIALS[src])
    # differences of moderate size, so e^d is neither 0 nor inf everywhere
    b = bytearray(np.asarray(rng.uniform(-8, 8, 256 // size), np.float32 if size == 4 else
                             np.float16).tobytes())
    b[:size * 4] = a[size * 4:size * 8]  # a few equal pairs and specials against specials
    p = f"plt.{src} p0, {count}" if count < 256 // size else f"pset.{src} p0, ALL"
    part = part if size == 2 else 0  # RegLayout is in effect for half sources only
    layout = ", part=one" if part else ""
    ub = run(tmp_path, f"    {p}\n    vrexpsub.f32.{src} v2, v0, v1, p0{layout}\n"
             "    pset.f32 p1, ALL\n    vsts.f32 out[0], v2, p1", a=a, b=bytes(b))
    got = bytes(ub[0x1000:0x1100])
    xs, ys = elements(a, size), elements(bytes(b), size)
    active = conv.mask_on(_mask_bytes(min(count, 256 // size), size), size, 256 // size)
    picks = range(part, 256 // size, 2) if size == 2 else range(64)
    want = b"".join(ref.exp_sub(src, xs[k], ys[k]) if active[k] else bytes(4) for k in picks)
    assert got == want


def _mask_bytes(n: int, size: int) -> bytes:
    bits = np.zeros(256, np.uint8)
    bits[:n * size:size] = 1
    return np.packbits(bits, bitorder="little").tobytes()


@pytest.mark.parametrize("dst, src", [("s32", "s16"), ("u32", "u16")])
def test_reduce_sum_of_int16_into_int32(tmp_path, dst, src):
    rng = np.random.default_rng(7)
    vals = rng.integers(-32768, 32768, 128) if src == "s16" else rng.integers(0, 65536, 128)
    vals[:3] = (32767, -32768, 32767) if src == "s16" else (65535, 65535, 0)
    a = np.asarray(vals, np.int16 if src == "s16" else np.uint16).tobytes()
    for count in (128, 77, 0):
        ub = run(tmp_path, f"    plt.{src} p0, {count}\n    vredsumw.{dst}.{src} v2, v0, p0\n"
                 "    vsts.u8 out[0], v2, p7", a=a)
        got = ub[0x1000:0x1100].view(np.uint32)
        assert got[0] == ref.wide_sum([int(v) for v in vals], [k < count for k in range(128)],
                                      32)
        assert not got[1:].any()


# -- CTRL and Cast's SatMode ------------------------------------------------------------------
CASES = [("f16", "f32", [0x47FFF000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xC8000000,
                         0x3F800000]),
         ("s16", "f32", [0x471C4000, 0xC71C4000, 0x7F800000, 0x7FC00000, 0x3FC00000]),
         ("u8", "s32", [300, (-5) % (1 << 32), 255, 256, 7, 0x7FFFFFFF])]
SIZE["s32"] = 4


LAUNCH = 1 << 60 | 1 << 48  # the page's defaults (CTRL[60] = 1), CTRL[48] = 1 at launch


@pytest.mark.parametrize("dst, src, head", CASES)
@pytest.mark.parametrize("ctrl, word, own", [
    ("", LAUNCH, ""),
    ("set_ctrl 48, 48, 0", 1 << 60, ""),
    ("set_ctrl 59, 59, 1", LAUNCH | 1 << 59, ""),
    ("set_ctrl 60, 60, 0", 1 << 48, "sat=nosat"),
    ("set_ctrl 60, 60, 0", 1 << 48, "sat=sat"),
    ("set_ctrl 0, 63, x1", LAUNCH | 1 << 59, "sat=sat"),  # asc_set_ctrl's whole register
    ("set_ctrl 60, 60, 0\n    reset_ctrl 60, 60", LAUNCH, "sat=nosat"),
])
def test_cast_follows_ctrl(tmp_path, dst, src, head, ctrl, word, own):
    """CTRL[60] = 1 (its default): CTRL[48] decides for a float destination, CTRL[59] for an
    integer one (0 saturates); CTRL[60] = 0: the Cast's own SatMode (the Cast page's table 5)."""
    integer = dst[0] in "su"
    sat = own == "sat=sat" if not word >> 60 & 1 else not word >> (59 if integer else 48) & 1
    a = register(src, np.random.default_rng(1), head)
    keys = (", round=rint" if src == "f32" else "") + (f", {own}" if own else "")
    np.save(tmp_path / "a.npy", np.frombuffer(a, np.uint8))
    lines = [".chip ascend950", '.ub a u8[256] @0x0 = file("a.npy")', ".ub out u8[256] @0x1000",
             f"    li x1, {LAUNCH | 1 << 59}", f"    {ctrl}", '    vf_begin "t"',
             "    pset.u8 p7, ALL", "    pset.u32 p0, ALL", "    vlds.u8 v0, a[0]",
             f"    vrcvt.{dst}.{src} v2, v0, p0{keys}", "    vsts.u8 out[0], v2, p7",
             "    vf_end"]
    (tmp_path / "k.vasm").write_text("\n".join(lines) + "\n")
    ub = simulator.run(tmp_path / "k.vasm").ub
    want = conv.cast_register(a, _mask_bytes(64, 4), dst, src, "rint" if src == "f32" else
                              "none", sat, 0)
    assert bytes(ub[0x1000:0x1100]) == want


def test_set_ctrl_checks_its_range_and_value(tmp_path):
    for line, why in (("set_ctrl 48, 47, 1", "are not a range"),
                      ("set_ctrl 48, 48, 2", "does not fit in CTRL[48:48]")):
        (tmp_path / "k.vasm").write_text(f".chip ascend950\n    {line}\n")
        with pytest.raises(simulator.SimulationError) as e:
            simulator.run(tmp_path / "k.vasm")
        assert why in str(e.value)


def test_ctrl_is_machine_state_the_debugger_shows_and_undoes():
    """`print $ctrl` and `info registers` on ascend950; stepping back over a set_ctrl restores
    the bits before it."""
    import pipev

    text = "\n".join([".chip ascend950", "    set_ctrl 48, 48, 0", "    set_ctrl 60, 60, 0",
                      "    reset_ctrl 48, 60", ""])
    dbg = pipev.debug(text)

    def run(cmd: str) -> str:
        return "\n".join(dbg.execute(cmd))
    assert str(LAUNCH) in run("print $ctrl")
    dbg.execute("step")
    assert str(1 << 60) in run("print $ctrl")
    dbg.execute("step")
    assert run("print $ctrl").split()[-1] == "0"
    assert "$ctrl" in run("info registers")
    dbg.execute("back")
    assert str(1 << 60) in run("print $ctrl")
    for _ in range(2):
        dbg.execute("step")
    assert str(1 << 60) in run("print $ctrl")  # reset: CTRL[60]'s default 1, the others 0


@pytest.mark.parametrize("dst, src, head, mode", [
    ("f16", "f32", [0x47FFF000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xC8000000, 0x3F800000],
     "rint"),
    ("s16", "f32", [0x471C4000, 0xC71C4000, 0x7F800000, 0x7FC00000, 0x3FC00000], "trunc"),
    ("s16", "s32", [40000, (-40000) % (1 << 32), 300, 0x7FFFFFFF], "none"),
])
@pytest.mark.parametrize("ctrl, sat", [("", None), ("set_ctrl 48, 48, 0", None),
                                       ("set_ctrl 59, 59, 1", None),
                                       ("set_ctrl 60, 60, 0", True)])
def test_the_memory_based_cast_on_ascend950_is_the_reg_cast(tmp_path, dst, src, head, mode, ctrl,
                                                            sat):
    """The 950's Cast page: the memory-based Cast runs through the Reg API, so it converts as
    the reg Cast does, saturating as CTRL says (CTRL[60] = 0: saturating, its
    "溢出默认按照饱和处理")."""
    word = {"": LAUNCH, "set_ctrl 48, 48, 0": 1 << 60, "set_ctrl 59, 59, 1": LAUNCH | 1 << 59,
            "set_ctrl 60, 60, 0": 1 << 48}[ctrl]
    if sat is None:
        sat = not word >> (59 if dst[0] in "su" else 48) & 1
    a = register(src, np.random.default_rng(3), head)
    np.save(tmp_path / "a.npy", np.frombuffer(a, np.uint8))
    size = {"f16": 2, "s16": 2}[dst]
    lines = [".chip ascend950", '.ub a u8[256] @0x0 = file("a.npy")',
             f".ub y {dst}[64] @0x1000", f"    {ctrl}",
             f"    cast.{dst}.{src} y, @0, round={mode}, count=64"]
    (tmp_path / "k.vasm").write_text("\n".join(lines) + "\n")
    got = bytes(simulator.run(tmp_path / "k.vasm").ub[0x1000:0x1000 + 64 * size])
    want = conv.cast_register(a, _mask_bytes(64, 4), dst, src, mode, sat, 0)
    assert got == np.frombuffer(want, f"<u{size}")[0::2].tobytes()


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from(["f32", "f16"]), st.booleans())
def test_div_of_random_bits_is_bit_exact(tmp_path_factory, seed, t, keep):
    """Random registers (every exponent, subnormals and NaNs among them) in the default and a
    subnormal-keeping DivAlgo."""
    tmp_path = tmp_path_factory.mktemp("div")
    rng = np.random.default_rng(seed)
    a, b = register(t, rng, []), register(t, rng, [])
    algo = "p1ulp" if keep else "intrinsic"
    ub = run(tmp_path, f"    pset.{t} p0, ALL\n    vrdiv.{t} v2, v0, v1, p0, algo={algo}\n"
             f"    vsts.{t} out[0], v2, p0", a=a, b=b)
    xs, ys = elements(a, SIZE[t]), elements(b, SIZE[t])
    want = b"".join(ref.reg_div(t, x, y, keep) for x, y in zip(xs, ys, strict=True))
    assert bytes(ub[0x1000:0x1100]) == want


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([("s32", "s16"), ("u32", "u16")]),
       st.integers(0, 128))
def test_reduce_sum_of_random_int16_is_bit_exact(tmp_path_factory, seed, pair, count):
    tmp_path = tmp_path_factory.mktemp("rs")
    dst, src = pair
    raw = np.random.default_rng(seed).integers(0, 256, 256, dtype=np.uint8).tobytes()
    ub = run(tmp_path, f"    plt.{src} p0, {count}\n    vredsumw.{dst}.{src} v2, v0, p0\n"
             "    vsts.u8 out[0], v2, p7", a=raw)
    vals = np.frombuffer(raw, np.int16 if src == "s16" else np.uint16).tolist()
    want = ref.wide_sum(vals, [k < count for k in range(128)], 32).to_bytes(4, "little")
    assert bytes(ub[0x1000:0x1100]) == want + bytes(252)
