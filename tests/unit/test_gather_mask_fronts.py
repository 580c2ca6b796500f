"""GatherMask's AscendC, C API and TIK faces (issue 28, 28b): the kernels in tests/data run and
their results are the reference's (tests/reference/gather.py)."""

from __future__ import annotations

import ctypes
import runpy
import sys
from pathlib import Path

import numpy as np

import pipev
from isa.chip import get_chip
from simulator.ascendc.bridge import Session
from simulator.ascendc.build import compile_source
from simulator.tik import SHIM
from simulator.tik import tik as tik_module
from tests.reference.gather import gather_mask

DATA = Path(__file__).resolve().parents[1] / "data"


def test_ascendc_and_the_c_api(tmp_path):
    chip = get_chip("ascend910b")
    build = compile_source(DATA / "ascendc/kernels/gather_mask.cpp", npu_arch=chip.npu_arch,
                           env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(DATA / "ascendc/kernels/gather_mask.cpp"))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    (ascendc,), (c_api,) = ([c.result for c in launch.cores] for launch in session.launches)
    assert not ascendc.diagnostics  # (the C API's arrays are written natively: unseen)

    # AscendC: reference over the same UB: x, the compare bits, out at 1280
    x = np.arange(128, dtype=np.float32) - 40
    ub = bytearray(ascendc.ub.tobytes())
    ub[1280:1280 + 1024] = np.full(256, -1, np.float32).tobytes()
    kept = gather_mask(ub, 4, 1280, 0, 1024, 0, 2, 1, 8, 1)
    odd = gather_mask(ub, 4, 1280 + 512, 0, None, 2, 1, 1, 8, 0, count=70)
    out = np.frombuffer(bytes(ub[1280:1280 + 1024]), np.float32).copy()
    got = ascendc.ub[1280:1280 + 1024].view(np.float32)
    assert kept == 87 and odd == 35  # x > 0: 41..127 → 87; odd of 70 → 35
    assert got[:kept].tolist() == x[x > 0].tolist() == out[:kept].tolist()
    assert got[128:128 + odd].tolist() == x[1:70:2].tolist()
    assert got[252:255].tolist() == [87, 35, 35]  # kept, odd, GetRsvdCnt()

    # the C API on its own arrays: x = 0..127, bits, then out (placed in that order)
    words = c_api.ub.view(np.uint32)
    xa = 4 * int(np.flatnonzero(words == 127)[0] - 127)
    ba = 4 * int(np.flatnonzero(words == 0x80000001)[0])
    oa = ba + 32
    assert words[xa // 4:xa // 4 + 128].tolist() == list(range(128))
    ub = bytearray(c_api.ub.tobytes())
    ub[oa:oa + 768] = b"\xff" * 768
    first = gather_mask(ub, 4, oa, xa, ba, 0, 1, 1, 8, 1, count=64)
    second = gather_mask(ub, 4, oa + 256, xa, None, 6, 2, 1, 8, 0)
    ub[oa + 760:oa + 768] = np.array([first, second], np.uint32).tobytes()
    assert (first, second) == (4, 32)
    assert c_api.ub[oa:oa + 768].tobytes() == bytes(ub[oa:oa + 768])
    assert words[oa // 4:oa // 4 + 4].tolist() == [0, 31, 32, 63]
    assert c_api.cycles > 0


def test_tik(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(SHIM)
    monkeypatch.setitem(tik_module.SETTINGS, "chip", "ascend910b")
    try:
        tik = runpy.run_path(str(DATA / "tik/gather_mask_tik.py"))["tik_instance"]
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    src = np.random.default_rng(0).uniform(-1, 1, 128).astype(np.float32)
    result = pipev.run(tik.program, inputs={"src": src})
    assert not result.diagnostics
    out = result.outputs["out"]
    keep = src[:64] > src[64:]
    n = int(keep.sum())
    assert out[:n].tolist() == src[:64][keep].tolist()
    assert out[64:80].tolist() == src[0:64:4].tolist()
    heads = [i.text.split()[0] for s in tik.program.statements for i in s.hw]
    assert "get_rsvd_cnt" in heads and heads.count("vreducev2.f32") == 2
