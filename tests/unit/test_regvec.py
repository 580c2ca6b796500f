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
