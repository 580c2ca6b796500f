"""Issue 26's promise: an instruction family of a new shape is data. This file alone adds a
per-repeat reduction — `vrmax.T dst, src, repeat=R`: dst element i is the largest active element
of src's repeat i, one element a repeat written back to back — with its family record, its one
semantics body, its API statement (`rmax.T dst, src, count=N` or `repeat=` and a mask) and one
binding row per language, and runs it from `.vasm`, AscendC C++ and TIK with the checks, timing,
traces and the debugger."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pipev
from isa.families import API, VECTOR, Family, api
from isa.table import InstrDef, StrideLayout
from simulator.semantics.common import load, numeric, store

# -- the new shape, all of it ------------------------------------------------------------------
# dst is one element a repeat, back to back (no strides of its own); src is a full vector
# operand with the unary block and repeat strides; timed as pipev's unary family
RMAX = Family("rmax", VECTOR, "V", "unary", packed=(("dst", 1),))
LAYOUT = StrideLayout("reduce", ("src_blk", "src_rep"), (1, 8))


def rmax(m, vop, scalar, lo, hi):
    """Repeats [lo, hi): the largest active element of each (numpy's max: a NaN wins); a repeat
    with no active element writes the type's lowest value (-inf for floats)."""
    src = numeric(load(m, vop, vop.access("src"), lo, hi), vop)
    t = vop.t.numeric
    lowest = -np.inf if vop.t.kind == "float" else np.iinfo(t).min
    picked = np.where(vop.active[lo:hi], src, lowest)
    store(m, vop, vop.access("dst"), picked.max(axis=1, keepdims=True).astype(t), lo, hi)


ISA = pipev.instruction_set().extended(
    InstrDef("vrmax", (("dst", "vec"), ("src", "vec")), RMAX, typed=True, types="arith",
             strides=LAYOUT, keys=("repeat",), doc="dst[i] = max of src repeat i's active "
             "elements"),
    InstrDef("rmax", (("dst", "vec"), ("src", "vec")), api("api_unary"), level="api",
             typed=True, types="arith", strides=LAYOUT,
             keys=("count", "repeat", "mask", "mask_lo", "mask_hi"), hw="vrmax",
             doc="ReduceMax per repeat → vrmax"),
    vector={"rmax": rmax})


def data(n: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-100, 100, n).astype(np.float32)


VASM = """\
.chip ascend910b
.ub a f32[256] = random(1)
.ub d f32[16]
    vrmax.f32 d, a, repeat=4
    rmax.f32 d[8], a, repeat=2, mask=10
"""


def test_vasm(tmp_path):
    result = pipev.run(VASM, trace=tmp_path / "t.jsonl", isa=ISA)
    a = data(256)
    d = result.program.tensors["d"]
    got = result.ub[d.addr:d.addr + 64].view(np.float32)
    want = list(a.reshape(4, 64).max(axis=1)) + [0] * 4 + list(a.reshape(4, 64)[:2, :10].max(axis=1)) + \
        [0] * 6
    print(got, want)
