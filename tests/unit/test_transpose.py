"""Transpose (vtranspose, transpose; AscendC Transpose, TIK vec_trans) (issue 28, 28b): the
16 x 16 two-byte form against the reference (tests/reference/layout.py), raw bytes."""

from __future__ import annotations

import ctypes
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

import pipev
from isa.chip import get_chip
from simulator.ascendc.bridge import Session
from simulator.ascendc.build import compile_source
from simulator.tik import SHIM
from simulator.tik import tik as tik_module
from tests.reference.layout import transpose16

DATA = Path(__file__).resolve().parents[1] / "data"


def program(t: str, seed: int, line: str) -> tuple[pipev.RunResult, bytearray]:
    raw = np.random.default_rng(seed).integers(0, 256, 4096, dtype=np.uint8)
    text = (f'.chip ascend910b\n.ub raw u8[4096] @0x0 = bits("{raw.tobytes().hex()}")\n'
            f".ub a {t}[2048] @0x0\n.ub out u8[4096] @0x1000 = zeros\n.ub d {t}[2048] @0x1000\n"
            f"    {line}\n")
    ub = bytearray(0x2000)
    ub[:4096] = raw.tobytes()
    return pipev.run(text), ub


@pytest.mark.parametrize("t", ["f16", "s16", "u16"])
def test_repeats_with_strides(t):
    result, ub = program(t, 1, f"transpose.{t} d, a, repeat=3, dst_rep=2, src_rep=1")
    for i in range(3):
        transpose16(ub, 0x1000 + i * 1024, i * 512)
    assert result.ub[:0x2000].tobytes() == bytes(ub)
    heads = [h.text for s in result.program.statements for h in s.hw]
    assert heads == [f"vtranspose.{t} d, a", f"vtranspose.{t} d[512], a[256]",
                     f"vtranspose.{t} d[1024], a[512]"]


def test_in_place_and_specials():
    """dst may be src; NaN payloads move as bits."""
    result, ub = program("f16", 2, "vtranspose.f16 a[256], a[256]")
    transpose16(ub, 512, 512)
    assert result.ub[:0x2000].tobytes() == bytes(ub)


def test_checks_and_cost():
    base = ".chip ascend910b\n.ub a f16[256] = arange(0)\n.ub d f16[128]\n"
    with pytest.raises(pipev.SimulationError, match="vtranspose.f16 dst d needs 512 bytes, "
                       "tensor has 256"):
        pipev.run(base + "    vtranspose.f16 d, a\n")
    with pytest.raises(pipev.SimulationError, match="overlap"):
        pipev.run(base.replace("f16[256]", "f16[512]") + "    vtranspose.f16 a[16], a\n")
    with pytest.raises(pipev.AssemblyError, match="vtranspose"):
        pipev.run(base.replace("f16[256]", "f32[128]").replace("d f16", "d f32") +
                  "    vtranspose.f32 d, a\n")
    ok = pipev.run(base.replace("d f16[128]", "d f16[256]") + "    vtranspose.f16 d, a\n")
    assert ok.pipes["V"] == 3  # 2 cycles (128 elements a cycle), min_cycles 3


def test_ascendc(tmp_path):
    chip = get_chip("ascend910b")
    src = DATA / "ascendc/kernels/transpose.cpp"
    build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    (core,) = [c.result for c in session.launches[0].cores]
    assert not core.diagnostics
    h = core.ub[:2048].view(np.float16).reshape(4, 16, 16)
    x = np.arange(256, dtype=np.float16).reshape(16, 16)
    assert np.array_equal(h[1], x.T) and np.array_equal(h[2], x.T) and np.array_equal(h[3], x)


def test_tik(monkeypatch):
    monkeypatch.syspath_prepend(SHIM)
    monkeypatch.setitem(tik_module.SETTINGS, "chip", "ascend910b")
    try:
        tik = runpy.run_path(str(DATA / "tik/transpose_tik.py"))["tik_instance"]
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    x = np.random.default_rng(0).uniform(-1, 1, 512).astype(np.float16)
    result = pipev.run(tik.program, inputs={"src": x})
    assert not result.diagnostics
    want = x.reshape(2, 16, 16).transpose(0, 2, 1).reshape(-1)
    assert result.outputs["out"].tobytes() == want.tobytes()
