"""TIK's vgather (h28, issue 28 item 2): the call public TIK operators make —
`vgather(mask, dst, src, src_offset, repeat_times, dst_rep_stride, base_addr, stride_unit,
mask_mode)` — issues the `gather` statement, and its result is the reference Gather's
(tests/reference/gather.py) byte for byte, in normal and counter mode, with base_addr."""

from __future__ import annotations

import runpy
import sys

import numpy as np
import pytest

import pipev
from simulator.tik import SHIM
from simulator.tik import tik as tik_module
from tests.reference.gather import gather

KERNEL = '''
from tbe import tik
tik_instance = tik.Tik()
src = tik_instance.Tensor("{dt}", ({n},), name="src", scope=tik.scope_gm)
idx = tik_instance.Tensor("int32", (256,), name="idx", scope=tik.scope_gm)
out = tik_instance.Tensor("{dt}", ({n},), name="out", scope=tik.scope_gm)
a = tik_instance.Tensor("{dt}", ({n},), name="a", scope=tik.scope_ubuf)
o = tik_instance.Tensor("int32", (256,), name="o", scope=tik.scope_ubuf)
d = tik_instance.Tensor("{dt}", ({n},), name="d", scope=tik.scope_ubuf)
tik_instance.data_move(a, src, 0, 1, {blocks}, 0, 0)
tik_instance.data_move(o, idx, 0, 1, 32, 0, 0)
tik_instance.vec_dup({full}, d, 0, {dup_rep}, 8)
tik_instance.vgather({call})
tik_instance.data_move(out, d, 0, 1, {blocks}, 0, 0)
tik_instance.BuildCCE(kernel_name="vgather", inputs=[src, idx], outputs=[out])
'''
DT = {"float16": (np.float16, 2), "float32": (np.float32, 4), "int32": (np.int32, 4),
      "uint16": (np.uint16, 2)}


def run(monkeypatch, tmp_path, dt: str, call: str):
    np_t, size = DT[dt]
    n = 8192 // size  # 8 KiB of data
    path = tmp_path / "k.py"
    path.write_text(KERNEL.format(dt=dt, n=n, blocks=8192 // 32, full=256 // size,
                                  dup_rep=8192 // 256, call=call))
    monkeypatch.syspath_prepend(SHIM)
    monkeypatch.setitem(tik_module.SETTINGS, "chip", "ascend910b")
    try:
        tik = runpy.run_path(str(path))["tik_instance"]
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    rng = np.random.default_rng(7)
    x = rng.integers(0, 1 << (8 * size), n, dtype=np.uint64).astype(
        np.uint16 if size == 2 else np.uint32).view(np_t)
    idx = (rng.integers(0, n // 2, 256) * size).astype(np.int32)  # byte offsets, aligned
    result = pipev.run(tik.program, inputs={"src": x, "idx": idx})
    return result, x, idx, size, n


def reference(x, idx, size, n, base, **kw) -> bytes:
    ub = bytearray(x.tobytes() + idx.tobytes() + bytes(n * size))
    src, off, dst = 0, n * size, n * size + 1024
    gather(ub, size, dst, src + base, off, **kw)
    return bytes(ub[dst:dst + n * size])


@pytest.mark.parametrize("dt", ["float16", "float32", "int32", "uint16"])
def test_normal_mode(monkeypatch, tmp_path, dt):
    size = DT[dt][1]
    n_rep = 256 // size
    r, x, idx, size, n = run(monkeypatch, tmp_path, dt, f"{n_rep - 3}, d, a, o, 2, 16, 0, 0")
    assert not r.diagnostics
    want = reference(x, idx, size, n, 0, repeat=2, dst_rep=16,
                     active=[k < n_rep - 3 for k in range(n_rep)])
    assert r.outputs["out"].tobytes() == want


def test_counter_mode_and_base(monkeypatch, tmp_path):
    r, x, idx, size, n = run(monkeypatch, tmp_path, "float16",
                             "200, d, a, o, 1, 8, 64, 0, \"counter\"")
    assert not r.diagnostics
    assert r.outputs["out"].tobytes() == reference(x, idx, size, n, 64, repeat=0, dst_rep=8,
                                                   count=200)
    (call,) = [s for s in r.program.statements if "vgather(" in s.source]
    heads = [i.text.split()[0] for i in call.hw]  # counter mode: one vgather of 200 elements
    at = heads.index("vgather.f16")
    assert heads.count("vgather.f16") == 1 and heads[at - 2:at] == ["set_mask_count",
                                                                     "set_vector_mask"], heads


@pytest.mark.parametrize("call, message", [
    ("64, d, a, o, 1, 8, 0, 1", "stride_unit 1"),
    ("64, d, a, o, 1, 8, 0, 0, \"bits\"", "mask_mode must be"),
    ("64, d, a, a, 1, 8, 0, 0", "src_offset 'a' must be int32 or uint32"),
])
def test_errors(monkeypatch, tmp_path, call, message):
    with pytest.raises(pipev.DiagnosticError, match=message):
        run(monkeypatch, tmp_path, "float16", call)
