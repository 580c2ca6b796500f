"""The C API's asc_gather (count, repeat and _sync forms) and asc_transpose (issue 28) in a C++
kernel, against numpy expressions of the pages (raw bits)."""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np

from isa.chip import get_chip
from simulator.ascendc.bridge import Session
from simulator.ascendc.build import compile_source

DATA = Path(__file__).resolve().parents[1] / "data"


def test_asc_gather_and_asc_transpose(tmp_path):
    chip = get_chip("ascend910b")
    src = DATA / "ascendc/kernels/c_api_gather_transpose.cpp"
    build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    (core,) = [c.result for c in session.launches[0].cores]
    f = core.ub.view(np.float32)
    x = np.arange(128, dtype=np.float32) + 0.5
    idx = (5 * np.arange(128) + 3) % 128
    assert f[:128].tobytes() == x.tobytes()
    assert f[256:356].tobytes() == x[idx[:100]].tobytes()  # dst[j] = src at off[j] bytes
    want = np.full(128, -1.0, np.float32)  # 2 repeats of 16 (MASK), repeat i at 8i blocks
    want[0:16] = x[idx[0:16]]
    want[64:80] = x[idx[64:80]]  # repeat 1 reads the offsets of its own repeat: 64..79
    assert f[384:512].tobytes() == want.tobytes()
    m = (np.arange(256) - 100).astype(np.int16).reshape(16, 16)
    assert core.ub[2560:3072].view(np.int16).reshape(16, 16).tobytes() == m.T.tobytes()
