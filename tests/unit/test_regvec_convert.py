"""Issue 34 (h34a): the reg-based unit's Cast (every pair of the Cast page pipev has, every round
mode, SatMode and RegLayout part each takes), Truncate, Arange, Interleave / DeInterleave and
Pack / UnPack at the .vasm level, raw bytes against tests/reference/regvec_convert.py, on
directed specials and on random registers and masks (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.diagnostics import AssemblyError
from isa.regvec_convert import CAST_PAIRS, PACK_PAIRS, PARTS, UNPACK_PAIRS
from tests.reference import regvec_convert as ref

# float specials by size: ±0, ±inf, NaNs (quiet, signalling, negative), 1, -1, ties, the largest
# finite, the smallest subnormal, values beyond int16 / int8 / half
F16 = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE01, 0x3C00, 0xBC00, 0x3E00, 0xBE00,
       0x4100, 0xC100, 0x7BFF, 0xFBFF, 0x0001, 0x8001, 0x5C04, 0xDC04, 0x3800, 0xB800, 0x4040]
BF16 = [0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x3F80, 0xBF80, 0x3FC0, 0xBFC0, 0x7F7F,
        0xFF7F, 0x0001, 0x8001, 0x4780, 0xC780, 0x477F, 0x4F00, 0xCF00, 0x4B80]
F32 = [0x0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00123, 0x3F800000,
       0xBF800000, 0x3FC00000, 0xBFC00000, 0x40200000, 0xC0200000, 0x7F7FFFFF, 0xFF7FFFFF, 0x1,
       0x80000001, 0x47000000, 0xC7000000, 0x477FE000, 0x477FF000, 0x477FF001, 0x4F000000,
       0xCF000000, 0x5F000000, 0xDF000000, 0x33800000, 0x33000001, 0x38800000, 0x387FC000,
       0x46FFFE00, 0x3F000000, 0x3F400000, 0x4B800001]
SPECIALS = {"f16": F16, "bf16": BF16, "f32": F32}
DTYPE = {"s8": "i1", "u8": "u1", "s16": "<i2", "u16": "<u2", "s32": "<i4", "u32": "<u4",
         "s64": "<i8", "u64": "<u8", "f16": "<u2", "bf16": "<u2", "f32": "<u4"}


def raw_register(t: str, rng: np.random.Generator) -> bytes:
    """A register's 256 bytes of T: random bits, the specials of T (integers: the extremes,
    0, ±1, a value past each narrower width) at its head."""
    size = ref.SIZES[t]
    raw = bytearray(rng.integers(0, 256, 256, dtype=np.uint8).tobytes())
    if t in SPECIALS:
        head = SPECIALS[t]
    else:
        n = 8 * size
        head = [0, 1, (1 << n) - 1, 1 << (n - 1), (1 << (n - 1)) - 1, 257 % (1 << n),
                (-257) % (1 << n), 70000 % (1 << n), (-70000) % (1 << n)]
    for k, v in enumerate(head[: 256 // size]):
        raw[k * size:(k + 1) * size] = v.to_bytes(size, "little")
    return bytes(raw)


def run_registers(tmp_path, body: str, **regs: bytes):
    """Run BODY inside a VF after each named input register's 256 bytes are loaded from UB
    (vlds.u8 v0.. in order; mask bytes p*: plds) and return the UB after it. CTRL[60] = 0
    first: each Cast's own SatMode decides (the Cast page's table 5), as these tests ask."""
    lines = [".chip ascend950"]
    loads = []
    for i, (name, raw) in enumerate(regs.items()):
        np.save(tmp_path / f"{name}.npy", np.frombuffer(raw, np.uint8))
        lines.append(f".ub {name} u8[{len(raw)}] @{i * 0x100:#x} = file(\"{name}.npy\")")
        if name.startswith("p"):
            loads.append(f"    plds {name}, {name}[0]")
        else:
            loads.append(f"    vlds.u8 v{i}, {name}[0]")
    lines.append(".ub out u8[16384] @0x1000")
    text = "\n".join(lines + ["    set_ctrl 60, 60, 0", '    vf_begin "t"',
                              "    pset.u8 p7, ALL", *loads, body,
                              "    vf_end"]) + "\n"
    src = tmp_path / "k.vasm"
    src.write_text(text)
    return simulator.run(src).ub


def out_slot(k: int) -> str:
    return f"out[{k * 256}]"


def _vbits(t: str) -> int:
    """Bits of one value: the RegLayout ratio counts values (int4x2_t, fp4x2: 4 bits each)."""
    return 4 if t in ref.PAIRS else 8 * ref.SIZES[t]


def _cast_cases(dst: str, src: str) -> list[tuple[str, str, int]]:
    modes, sats = CAST_PAIRS[(dst, src)]
    ratio = max(_vbits(dst), _vbits(src)) // min(_vbits(dst), _vbits(src))
    return [(mode, sat, part) for mode in (modes or ("none",))
            for sat in (("auto", "nosat", "sat") if sats == "sat" else ("auto",))
            for part in range(ratio)]


@pytest.mark.parametrize("dst,src", sorted(CAST_PAIRS))
def test_every_cast_pair_mode_satmode_and_part_is_bit_exact(tmp_path, dst, src):
    rng = np.random.default_rng(abs(hash((dst, src))) % 2**32)
    a = raw_register(src, rng)
    p = rng.integers(0, 256, 32, dtype=np.uint8).tobytes()
    cases = _cast_cases(dst, src)
    body = []
    for k, (mode, sat, part) in enumerate(cases):
        body.append(f"    vrcvt.{dst}.{src} v8, v0, p1, round={mode}, sat={sat}, "
                    f"part={PARTS[part]}")
        body.append(f"    vsts.u8 {out_slot(k)}, v8, p7")
    ub = run_registers(tmp_path, "\n".join(body), a=a, p1=p)
    for k, (mode, sat, part) in enumerate(cases):
        want = ref.cast_register(a, p, dst, src, mode, sat != "nosat", part)
        got = ub[0x1000 + 256 * k:0x1000 + 256 * (k + 1)].tobytes()
        assert got == want, (dst, src, mode, sat, part)


@settings(max_examples=30, deadline=None)
@given(pair=st.sampled_from(sorted(CAST_PAIRS)), seed=st.integers(0, 2**32 - 1),
       pick=st.integers(0, 1000))
def test_random_casts_are_bit_exact(tmp_path_factory, pair, seed, pick):
    dst, src = pair
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 256, 256, dtype=np.uint8).tobytes()
    p = rng.integers(0, 256, 32, dtype=np.uint8).tobytes()
    cases = _cast_cases(dst, src)
    mode, sat, part = cases[pick % len(cases)]
    ub = run_registers(tmp_path_factory.mktemp("cvt"),
                       f"    vrcvt.{dst}.{src} v8, v0, p1, round={mode}, sat={sat}, "
                       f"part={PARTS[part]}\n    vsts.u8 out[0], v8, p7", a=a, p1=p)
    assert ub[0x1000:0x1100].tobytes() == ref.cast_register(a, p, dst, src, mode,
                                                             sat != "nosat", part)


@pytest.mark.parametrize("t", ["f16", "bf16", "f32"])
def test_truncate_in_every_round_mode(tmp_path, t):
    rng = np.random.default_rng(7)
    a = raw_register(t, rng)
    p = rng.integers(0, 256, 32, dtype=np.uint8).tobytes()
    modes = ("rint", "round", "floor", "ceil", "trunc")
    body = "\n".join(f"    vrtrunc.{t} v8, v0, p1, round={m}\n    vsts.u8 {out_slot(k)}, v8, p7"
                     for k, m in enumerate(modes))
    ub = run_registers(tmp_path, body, a=a, p1=p)
    for k, m in enumerate(modes):
        assert ub[0x1000 + 256 * k:0x1000 + 256 * (k + 1)].tobytes() == \
            ref.truncate_register(a, p, t, m), m


ARANGE_STARTS = {"s8": [0, 100, 0x80, 0xFF], "s16": [10, 0x7FC0, 0xFFFF],
                 "s32": [0, 0x7FFFFFF0, 0x80000000], "s64": [5, (1 << 63) - 3],
                 "f16": [0x0000, 0x8000, 0x6800, 0x67FF, 0x7BFF, 0xC000, 0x7C00, 0x7E00, 0x3800],
                 "f32": [0x0, 0x80000000, 0x4B7FFFFF, 0x4B800000, 0xC2000000, 0x7F800000,
                         0x7FC00000, 0x3F000000]}


@pytest.mark.parametrize("t", sorted(ARANGE_STARTS))
def test_arange_counts_up_and_down_with_wrap_and_rounding(tmp_path, t):
    size = ref.SIZES[t]
    cases = [(s, d) for s in ARANGE_STARTS[t] for d in (0, 1)]
    body = []
    for k, (start, desc) in enumerate(cases):
        body.append(f"    li x1, {start}\n    vrarange.{t} v8, x1, desc={desc}")
        body.append(f"    vsts.u8 {out_slot(k)}, v8, p7")
    ub = run_registers(tmp_path, "\n".join(body), a=bytes(256))
    for k, (start, desc) in enumerate(cases):
        want = ref.arange_register(t, start % (1 << (8 * size)), bool(desc))
        assert ub[0x1000 + 256 * k:0x1000 + 256 * (k + 1)].tobytes() == want, (start, desc)


@settings(max_examples=15, deadline=None)
@given(size=st.sampled_from([1, 2, 4, 8]), seed=st.integers(0, 2**32 - 1))
def test_interleave_and_deinterleave(tmp_path_factory, size, seed):
    t = {1: "u8", 2: "f16", 4: "s32", 8: "u64"}[size]
    rng = np.random.default_rng(seed)
    a, b = (rng.integers(0, 256, 256, dtype=np.uint8).tobytes() for _ in range(2))
    body = (f"    vrintlv.{t} v8, v9, v0, v1\n    vsts.u8 out[0], v8, p7\n"
            f"    vsts.u8 out[256], v9, p7\n"
            f"    vrdintlv.{t} v0, v1, v0, v1\n    vsts.u8 out[512], v0, p7\n"
            f"    vsts.u8 out[768], v1, p7")
    ub = run_registers(tmp_path_factory.mktemp("il"), body, a=a, b=b)
    x, y = ref.interleave("vrintlv", a, b, size)
    u, v = ref.interleave("vrdintlv", a, b, size)
    assert ub[0x1000:0x1400].tobytes() == x + y + u + v


@pytest.mark.parametrize("dst,src", sorted(PACK_PAIRS | UNPACK_PAIRS))
def test_pack_and_unpack_both_halves(tmp_path, dst, src):
    name = "vrpack" if (dst, src) in PACK_PAIRS else "vrunpack"
    a = raw_register(src, np.random.default_rng(3))
    body = (f"    {name}.{dst}.{src} v8, v0\n    vsts.u8 out[0], v8, p7\n"
            f"    {name}.{dst}.{src} v8, v0, half=highest\n    vsts.u8 out[256], v8, p7")
    ub = run_registers(tmp_path, body, a=a)
    pack = name == "vrpack"
    assert ub[0x1000:0x1100].tobytes() == ref.pack_register(a, dst, src, False, pack)
    assert ub[0x1100:0x1200].tobytes() == ref.pack_register(a, dst, src, True, pack)


@pytest.mark.parametrize("line,message", [
    ("vrcvt.s8.f32 v8, v0, p7", "not a conversion of the Cast page"),
    ("vrcvt.s16.f32 v8, v0, p7, round=odd", "takes round modes"),
    ("vrcvt.s32.f16 v8, v0, p7, sat=nosat", "takes no SatMode"),
    ("vrcvt.f32.f16 v8, v0, p7, part=two", "RegLayout parts zero, one only"),
    ("vrtrunc.s32 v8, v0, p7", "not supported"),
    ("vrpack.u8.u32 v8, v0", "Pack takes"),
])
def test_forms_the_pages_do_not_list_are_assembly_errors(tmp_path, line, message):
    with pytest.raises(AssemblyError) as e:
        run_registers(tmp_path, "    " + line, a=bytes(256))
    assert message in str(e.value)


FLOAT_DST = sorted((d, s) for d, s in CAST_PAIRS if d in ("f16", "bf16", "f32") and d != s
                   and s in DTYPE)  # the 950 types' exact widenings: test_reg_cast_950.py


@pytest.mark.parametrize("dst,src", FLOAT_DST)
def test_casts_to_a_float_of_finite_in_range_values_round_to_nearest_even(tmp_path, dst, src):
    """Registers without NaN or overflow (the usual data, which the cast converts with numpy's
    own correctly rounded cast): ties, subnormals, -0, ±inf where unsaturated."""
    rng = np.random.default_rng(11)
    size = ref.SIZES[src]
    n = 256 // size
    if src in ("f16", "bf16", "f32"):
        # values within half's range (the smallest destination), many near ties and subnormal
        mag = np.ldexp(rng.random(n) + 1, rng.integers(-26, 15, n))
        vals = (mag * rng.choice([-1, 1], n)).astype(np.float32)
        vals[:4] = [0.0, -0.0, 5.960464477539063e-08, -2.980232238769531e-08]
        raw = {"f32": vals.view(np.uint32).astype("<u4").tobytes(),
               "f16": vals.astype(np.float16).tobytes(),
               "bf16": (vals.view(np.uint32) >> 16).astype("<u2").tobytes()}[src]
    else:
        bits = 8 * size
        lo, hi = (-(1 << (bits - 1)), 1 << (bits - 1)) if src[0] == "s" else (0, 1 << bits)
        raw = rng.integers(lo, hi, n, dtype=np.int64).astype(f"<{src[0].replace('s', 'i')}"
                                                              f"{size}").tobytes()
    p = bytes([0xFF]) * 32
    body = [f"    vrcvt.{dst}.{src} v8, v0, p1, round=rint\n    vsts.u8 out[0], v8, p7"]
    ub = run_registers(tmp_path, "\n".join(body), a=raw, p1=p)
    assert ub[0x1000:0x1100].tobytes() == ref.cast_register(raw, p, dst, src, "rint", True, 0)


@settings(max_examples=15, deadline=None)
@given(t=st.sampled_from(["u8", "f16", "s32"]), seed=st.integers(0, 2**32 - 1))
def test_mask_interleave_deinterleave_pack_and_unpack(tmp_path_factory, t, seed):
    rng = np.random.default_rng(seed)
    a, b = (rng.integers(0, 256, 32, dtype=np.uint8).tobytes() for _ in range(2))
    body = (f"    pintlv.{t} p3, p4, p1, p2\n    psts out[0], p3\n    psts out[32], p4\n"
            f"    pdintlv.{t} p3, p4, p1, p2\n    psts out[64], p3\n    psts out[96], p4\n"
            "    ppack p3, p1\n    psts out[128], p3\n"
            "    ppack p3, p1, half=highest\n    psts out[160], p3\n"
            "    punpack p3, p1\n    psts out[192], p3\n"
            "    punpack p3, p1, half=highest\n    psts out[224], p3")
    ub = run_registers(tmp_path_factory.mktemp("pm"), body, p1=a, p2=b)
    size = ref.SIZES[t]
    want = (b"".join(ref.mask_interleave("pintlv", a, b, size)) +
            b"".join(ref.mask_interleave("pdintlv", a, b, size)) +
            ref.mask_pack(a, False, True) + ref.mask_pack(a, True, True) +
            ref.mask_pack(a, False, False) + ref.mask_pack(a, True, False))
    assert ub[0x1000:0x1100].tobytes() == want
