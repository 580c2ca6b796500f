"""Issue 34: ascend950's reg-based vector unit at the .vasm level: Compare into a MaskReg then
Select, UpdateMask tails, CreateMask patterns, the checks, bit-exact against tests/reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.diagnostics import AssemblyError
from isa.types import TYPES
from simulator.errors import SimulationError
from tests.reference import regvec as ref

SPECIALS = {2: [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x3C00, 0xBC00],
            4: [0x0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x3F800000]}


def program(t: str, op: str, count: int) -> str:
    n = 256 // TYPES[t].size
    return f""".chip ascend950
.ub a {t}[{n}] @0x0 = file("a.npy")
.ub b {t}[{n}] @0x100 = file("b.npy")
.ub z {t}[{n}] @0x200
    li x1, {count}
    vf_begin "t"
    plt.{t} p0, x1
    vlds.{t} v0, a[0]
    vlds.{t} v1, b[0]
    vrcmp.{op}.{t} p1, v0, v1, p0
    vrsel.{t} v2, v0, v1, p1
    vsts.{t} z[0], v2, p0
    vf_end
"""


def run_ub(text: str, tmp_path, **arrays):
    for name, a in arrays.items():
        np.save(tmp_path / f"{name}.npy", a)
    src = tmp_path / "k.vasm"
    src.write_text(text)
    return simulator.run(src)


def values(t: str, raw: np.ndarray) -> np.ndarray:
    return raw.view(TYPES[t].raw).view(TYPES[t].numeric)


TYPE_NAMES = ("f16", "f32", "bf16", "s8", "u8", "s16", "u16", "s32", "u32", "s64")


@settings(max_examples=25, deadline=None)
@given(t=st.sampled_from(TYPE_NAMES), op=st.sampled_from(sorted(ref.CMP)),
       count=st.integers(0, 300), seed=st.integers(0, 2**32 - 1))
def test_compare_then_select_is_bit_exact(tmp_path_factory, t, op, count, seed):
    tmp = tmp_path_factory.mktemp("rv")
    dt = TYPES[t]
    n = 256 // dt.size
    rng = np.random.default_rng(seed)
    raw_a = rng.integers(0, 256, 256, dtype=np.uint8).view(dt.raw)
    raw_b = rng.integers(0, 256, 256, dtype=np.uint8).view(dt.raw)
    if dt.size in SPECIALS and dt.is_float and dt.name != "bf16":
        sp = np.array(SPECIALS[dt.size], dt.raw)
        raw_a[: sp.size], raw_b[: sp.size] = sp, sp[rng.permutation(sp.size)]
    raw_b[::5] = raw_a[::5]  # equal pairs for eq/le/ge
    res = run_ub(program(t, op, count), tmp, a=raw_a.view(dt.npy) if t != "bf16" else raw_a,
                 b=raw_b.view(dt.npy) if t != "bf16" else raw_b)
    ub = res.ub
    got = ub[0x200:0x300].view(dt.raw)
    want = ref.compare_select(values(t, raw_a), values(t, raw_b), op, ref.mask_first(n, count),
                              np.zeros(n, dt.numeric)).view(dt.raw)
    assert got.tobytes() == want.tobytes()


def test_mask_patterns_and_update_mask(tmp_path):
    text = """.chip ascend950
.ub z u8[32] @0x0
.ub w u8[32] @0x20
    li x1, 70
    vf_begin "t"
    pset.f16 p0, M3
    psts z[0], p0
    plt.f32 p1, x1
    psts w[0], p1
    vf_end
"""
    res = run_ub(text, tmp_path)
    bits = np.unpackbits(res.ub[:32], bitorder="little")
    assert bits[::2][:128].tolist() == [k % 3 == 0 for k in range(128)]
    assert not bits[1::2].any()  # a b16 element's high bit is 0
    wbits = np.unpackbits(res.ub[32:64], bitorder="little")
    assert wbits[::4].tolist() == [True] * 64 and not wbits[1::4].any()


@pytest.mark.parametrize("body, rule", [
    ("vrsel.f32 v2, v0, v1, p0", "reads v0"),  # read before written
    ("pset.f16 p0, ALL\n    vlds.f32 v0, a[0]\n    vsts.f32 z[0], v0, p0",
     "a MaskReg made for 16-bit elements"),
    ("pset.f32 p0, ALL\n    vlds.f32 v0, @0x4", "not 32-byte aligned"),
    ("pset.f32 p0, ALL\n    vlds.f32 v0, a[0]\n    vsts.f32 a[32], v0, p0", "outside tensor a"),
])
def test_checks_at_the_line(tmp_path, body, rule):
    text = f""".chip ascend950
.ub a f32[64] @0x0 = random(1)
.ub z f32[64] @0x100
    vf_begin "t"
    {body}
    vf_end
"""
    with pytest.raises((SimulationError, AssemblyError)) as e:
        run_ub(text, tmp_path)
    assert rule in str(e.value)


def test_other_chips_refuse_the_unit(tmp_path):
    with pytest.raises(AssemblyError) as e:
        run_ub(".chip ascend910b\n    pset.f32 p0, ALL\n", tmp_path)
    assert "reg-based vector unit" in str(e.value)


def test_the_debugger_prints_and_undoes_the_registers(tmp_path):
    import subprocess
    import sys

    src = tmp_path / "k.vasm"
    src.write_text(""".chip ascend950
.ub a f16[128] @0x0 = random(1)
.ub z f16[128] @0x100
    vf_begin "t"
    pset.f16 p0, VL8
    vlds.f16 v0, a[0]
    vredmax.f16 v2, v0, p0
    vsts.f16 z[0], v2, p0
    vf_end
""")
    cmds = tmp_path / "c.txt"
    cmds.write_text("break 7\nrun\nprint $v2_f16[0]\nprint $p0\nnext\nprint $v2_f16[0]\n"
                    "back\nprint $v2_f16[0]\n")
    proc = subprocess.run([sys.executable, "-m", "simulator.cli", "debug", str(src),
                           "--commands", str(cmds)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    res = simulator.run(src)  # the maximum the run leaves in z[0], as the debugger shows it
    top = values("f16", res.ub[:16].copy()).max()
    shown = [ln.split("= ")[1] for ln in proc.stdout.splitlines() if ln.startswith("$v2_f16[0]")]
    assert shown[0] == "0.0" and shown[2] == "0.0" and shown[1] == f"{top:.4g}"
    assert f"$p0 = {sum(1 << (2 * k) for k in range(8))}" in proc.stdout


DIST_CASES = [("norm", "f32"), ("brc_b16", "f16"), ("brc_b32", "f32"), ("brc_b8", "u8"),
              ("us_b16", "f16"), ("us_b8", "s8"), ("ds_b16", "u16"), ("ds_b8", "u8"),
              ("unpack_b8", "u8"), ("unpack_b16", "u16"), ("unpack_b32", "u32"),
              ("unpack4_b8", "u8"), ("blk", "f32"), ("e2b_b16", "f16"), ("e2b_b32", "f32")]


@pytest.mark.parametrize("dist, t", DIST_CASES)
def test_load_distributions(tmp_path, dist, t):
    """Every LoadDist against the element-by-element reference, from an offset it allows."""
    from isa.regvec import LOAD_DISTS

    nbytes, align, e = LOAD_DISTS[dist]
    src = np.random.default_rng(len(dist)).integers(0, 256, 1024, dtype=np.uint8)
    off = 64 + (align if align < 32 else 0)
    text = f""".chip ascend950
.ub a u8[1024] @0x0 = file("a.npy")
.ub z u8[256] @0x400
    vf_begin "t"
    pset.u8 p0, ALL
    vlds.{t} v0, @{off}, dist={dist}
    vsts.u8 z[0], v0, p0
    vf_end
"""
    res = run_ub(text, tmp_path, a=src)
    want = ref.load_dist(src[off:off + nbytes], dist, e or TYPES[t].size)
    assert res.ub[0x400:0x500].tobytes() == want.tobytes()


def test_stores_first_pack_and_the_interleaved_pair(tmp_path):
    src = np.arange(256, dtype=np.uint8)
    text = """.chip ascend950
.ub a u8[512] @0x0 = file("a.npy")
.ub f u16[16] @0x200
.ub k u8[128] @0x300
.ub w u8[512] @0x400
    vf_begin "t"
    pset.u16 p0, VL8
    vlds.u16 v0, a[0]
    vsts.u16 f[0], v0, p0, sdist=first
    vsts.u16 k[0], v0, p0, sdist=pack
    vlds2.u16 v1, v2, a[0]
    vsts2.u16 w[0], v2, v1
    vf_end
"""
    a = np.concatenate([src, src[::-1]])
    res = run_ub(text, tmp_path, a=a)
    u16 = a.view(np.uint16)
    assert res.ub[0x200:0x202].view(np.uint16)[0] == u16[0]  # element 0 only
    assert not res.ub[0x202:0x220].any()
    assert res.ub[0x300:0x308].tobytes() == (u16[:8] & 0xFF).astype(np.uint8).tobytes()
    assert not res.ub[0x308:0x380].any()  # VL8: only 8 narrowed elements written
    swapped = np.stack([u16[1::2], u16[0::2]], axis=1).reshape(-1)
    assert res.ub[0x400:0x600].view(np.uint16).tobytes() == swapped.tobytes()


def test_block_strided_load_and_store(tmp_path):
    src = np.random.default_rng(5).integers(0, 256, 1024, dtype=np.uint8)
    text = """.chip ascend950
.ub a u8[1024] @0x0 = file("a.npy")
.ub z f32[256] @0x400
    vf_begin "t"
    pset.f32 p0, VL32
    vldsb.f32 v0, a[0], p0, blk=3
    vstsb.f32 z[0], v0, p0, blk=2
    vf_end
"""
    res = run_ub(text, tmp_path, a=src)
    out = res.ub[0x400:0x800].reshape(-1, 32)
    for j in range(8):
        want = src[96 * j:96 * j + 32] if j < 4 else None  # VL32 floats: blocks 0..3 active
        if want is None:
            assert not out[2 * j].any()
        else:
            assert out[2 * j].tobytes() == want.tobytes()
        assert not out[2 * j + 1].any()  # stride 2: the blocks between are not written


@settings(max_examples=20, deadline=None)
@given(t=st.sampled_from(("f16", "f32", "s32")), op=st.sampled_from(("sum", "max", "min")),
       count=st.integers(0, 128), seed=st.integers(0, 2**32 - 1))
def test_reduce_against_the_reference(tmp_path_factory, t, op, count, seed):
    dt = TYPES[t]
    if op == "sum" and t == "s32":
        count = min(count, 64)
    n = 256 // dt.size
    rng = np.random.default_rng(seed)
    if dt.is_float:
        x = (rng.integers(-64, 64, n) / 4).astype(dt.numeric)
        x[rng.integers(0, n)] = dt.numeric.type(-0.0)
    else:
        x = rng.integers(-1000, 1000, n).astype(dt.numeric)
    tmp = tmp_path_factory.mktemp("red")
    text = f""".chip ascend950
.ub a {t}[{n}] @0x0 = file("a.npy")
.ub z {t}[{n}] @0x100
    li x1, {count}
    vf_begin "t"
    plt.{t} p0, x1
    pset.{t} p1, ALL
    vlds.{t} v0, a[0]
    vred{op}.{t} v1, v0, p0
    vsts.{t} z[0], v1, p1
    vf_end
"""
    res = run_ub(text, tmp, a=x)
    got = res.ub[0x100:0x200].view(dt.raw)
    on = np.arange(n) < min(count, n)
    want = np.zeros(n, dt.raw)
    if op == "sum":
        want.view(dt.numeric)[0] = ref.tree_sum(np.where(on, x, dt.numeric.type(0)))
    else:
        pick = max if op == "max" else min
        live = [k for k in range(n) if on[k]]
        if live:
            best = pick(live, key=lambda k: (float(x[k]), (not np.signbit(x[k])) == (op == "max"),
                                             -k if op == "max" else k))
            if op == "min":
                best = min(live, key=lambda k: (float(x[k]), not np.signbit(x[k]), k))
            want.view(dt.numeric)[0], want[1] = x[best], best
        else:
            lim = (-np.inf if op == "max" else np.inf) if dt.is_float else \
                (np.iinfo(dt.numeric).min if op == "max" else np.iinfo(dt.numeric).max)
            want.view(dt.numeric)[0] = lim
    assert got.tobytes() == want.tobytes()


def test_merging_keeps_and_zeroing_clears(tmp_path):
    text = """.chip ascend950
.ub z f32[128] @0x0
    vf_begin "t"
    pset.f32 p0, ALL
    pset.f32 p1, VL4
    vrdup.f32 v0, 7.0, p0
    vrdup.f32 v1, 1.0, p0
    vradd.f32 v2, v1, v1, p1
    vrmov.f32 v3, v0
    vradd.f32 v3, v1, v1, p1, merge=1
    vsts.f32 z[0], v2, p0
    vsts.f32 z[64], v3, p0
    vf_end
"""
    res = run_ub(text, tmp_path)
    z = res.ub[:512].view(np.float32)
    assert z[:4].tolist() == [2.0] * 4 and not z[4:64].any()
    assert z[64:68].tolist() == [2.0] * 4 and (z[68:] == 7.0).all()


def test_a_load_of_what_the_vf_stored_needs_local_mem_bar(tmp_path):
    """The race is a warning, once per line, and the load reads the stored data (program
    order): the vendor's softmax sample has such a load and passes on silicon."""
    body = """.chip ascend950
.ub a f32[128] @0x0 = random(1)
    vf_begin "t"
    pset.f32 p0, ALL
    vlds.f32 v0, a[0]
    vsts.f32 a[64], v0, p0
    {bar}
    vlds.f32 v2, a[64]
    vf_end
"""
    res = run_ub(body.format(bar=""), tmp_path)
    races = [d for d in res.diagnostics if "LocalMemBar<MemType::VEC_STORE, "
             "MemType::VEC_LOAD>" in d.message]
    assert len(races) == 1 and races[0].severity == "warning" and races[0].line == 8
    quiet = [run_ub(body.format(bar="vmembar vst, vld"), tmp_path),  # ordered: no finding
             run_ub(body.format(bar="").replace("vlds.f32 v2", "vlds.f32 v0"), tmp_path)]
    assert not any("race" in d.message or "LocalMemBar" in d.message
                   for r in quiet for d in r.diagnostics)
    looped = body.replace("    vlds.f32 v2", ".rept 3\n    vlds.f32 v2").replace(
        "    vf_end", ".endr\n    vf_end")
    assert sum("LocalMemBar" in d.message
               for d in run_ub(looped.format(bar=""), tmp_path).diagnostics) == 1
