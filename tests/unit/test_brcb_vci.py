"""Brcb (vbrcb, brcb) and CreateVecIndex (vci, create_vec_index) (issue 28, 28b) against the
independent reference (tests/reference/layout.py), raw bytes compared: every type, strides,
masks, random programs; their checks and cost; the AscendC and C API kernel in tests/data."""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev
from isa.chip import get_chip
from simulator.ascendc.bridge import Session
from simulator.ascendc.build import compile_source
from tests.reference.layout import brcb, vci

DATA = Path(__file__).resolve().parents[1] / "data"
BRCB_TYPES = {"f16": 2, "bf16": 2, "u16": 2, "s16": 2, "f32": 4, "u32": 4, "s32": 4}
VCI_TYPES = {"f16": 2, "s16": 2, "f32": 4, "s32": 4}
SRC, DST, AREA = 0x0, 0x1000, 0x10000


def src_bytes(seed: int) -> bytes:
    return np.random.default_rng(seed).integers(0, 256, 0x1000, dtype=np.uint8).tobytes()


def run(t: str, seed: int, lines: list[str]) -> pipev.RunResult:
    text = "\n".join([".chip ascend910b",
                      f'.ub raw u8[4096] @{SRC:#x} = bits("{src_bytes(seed).hex()}")',
                      f".ub out u8[{AREA}] @{DST:#x} = zeros",
                      f".ub a {t}[{4096 // BRCB_TYPES.get(t, 2)}] @{SRC:#x}",
                      f".ub d {t}[{AREA // BRCB_TYPES.get(t, 2)}] @{DST:#x}",
                      *(f"    {x}" for x in lines), ""])
    return pipev.run(text)


def start(seed: int) -> bytearray:
    ub = bytearray(DST + AREA)
    ub[SRC:SRC + 0x1000] = src_bytes(seed)
    return ub


@pytest.mark.parametrize("t", list(BRCB_TYPES))
@pytest.mark.parametrize("blk,rep", [(1, 8), (0, 8), (2, 20), (1, 0), (3, 1)])
def test_brcb_every_type_and_stride(t, blk, rep):
    """Each of 3 repeats fills 8 blocks with 8 source elements; a block stride of 0 is 1; a
    partial MASK is not considered."""
    result = run(t, 7, ["set_vector_mask 0, 1", f"vbrcb.{t} d, a, repeat=3, stride={blk},{rep}"])
    ub = start(7)
    brcb(ub, BRCB_TYPES[t], DST, SRC, 3, blk, rep)
    assert result.ub[DST:DST + AREA].tobytes() == bytes(ub[DST:DST + AREA])


def test_the_brcb_statement_is_vbrcb_and_brcb_refuses_other_chips():
    result = run("f32", 1, ["brcb.f32 d, a, repeat=2, stride=1,8"])
    assert [h.text for s in result.program.statements for h in s.hw] == \
        ["vbrcb.f32 d, a, repeat=2"]  # the default strides are not written
    with pytest.raises(pipev.AssemblyError, match="vbrcb"):
        pipev.run(".chip ascend310p\n.ub a f32[64]\n.ub d f32[512]\n"
                  "    vbrcb.f32 d, a, repeat=1\n")


def test_brcb_checks_its_operands():
    """src reads 8 elements a repeat (its footprint), dst must not overlap src."""
    base = ".chip ascend910b\n.ub a f32[8] = arange(0)\n.ub d f32[128]\n"
    pipev.run(base + "    vbrcb.f32 d, a, repeat=1\n")
    with pytest.raises(pipev.SimulationError, match=r"vbrcb.f32 src a needs 64 bytes, tensor "
                       r"has 32"):
        pipev.run(base + "    vbrcb.f32 d, a, repeat=2\n")
    with pytest.raises(pipev.SimulationError, match="overlap"):
        pipev.run(base + "    vbrcb.f32 @0x0, a, repeat=1, stride=1,8\n")


@pytest.mark.parametrize("t", list(VCI_TYPES))
def test_vci_counts_on_across_repeats(t):
    size = VCI_TYPES[t]
    n = 256 // size
    first = {"f16": -3.5, "f32": 1e7, "s16": 32000, "s32": -5}[t]
    count = 3 * n - 5
    result = run(t, 0, [f"create_vec_index.{t} d, {first}, count={count}"])
    ub = start(0)
    vci(ub, t, DST, first, 0, 1, 8, count=count)
    assert result.ub[DST:DST + AREA].tobytes() == bytes(ub[DST:DST + AREA])


@pytest.mark.parametrize("t", list(VCI_TYPES))
def test_vci_high_dimensional_form_with_a_mask_and_strides(t):
    n = 256 // VCI_TYPES[t]
    result = run(t, 0, [f"create_vec_index.{t} d, 10, repeat=4, stride=2,1,20,8, mask=11"])
    ub = start(0)
    vci(ub, t, DST, 10, 4, 2, 20, active=[k < 11 for k in range(n)])
    assert result.ub[DST:DST + AREA].tobytes() == bytes(ub[DST:DST + AREA])


@settings(max_examples=40, deadline=None)
@given(t=st.sampled_from(list(VCI_TYPES)), seed=st.integers(0, 100),
       calls=st.lists(st.tuples(st.sampled_from(["brcb", "vci"]), st.integers(1, 5),
                                st.integers(0, 3), st.integers(0, 24), st.integers(-50, 50)),
                      min_size=1, max_size=4))
def test_random_programs_match_the_reference(t, seed, calls):
    ub = start(seed)
    lines = []
    for kind, repeat, blk, rep, first in calls:
        if kind == "brcb":
            lines.append(f"vbrcb.{t} d, a, repeat={repeat}, stride={blk},{rep}")
            brcb(ub, VCI_TYPES[t], DST, SRC, repeat, blk, rep)
        else:
            blk = blk or 1  # (a vector dst block stride of 0 is an error)
            lines.append(f"vci.{t} d, {first}, repeat={repeat}, stride={blk},1,{rep},8")
            vci(ub, t, DST, first, repeat, blk, rep)
    result = run(t, seed, lines)
    assert result.ub[DST:DST + AREA].tobytes() == bytes(ub[DST:DST + AREA])


def test_costs_come_from_the_profile():
    """brcb: 1 cycle a repeat (Brcb 128 16-bit / 64 32-bit elements a cycle); vci Duplicate's
    class (CreateVecIndex: the same figures); 3 at least."""
    chip = get_chip("ascend910b")
    assert chip.timing["classes"]["brcb"]["slope"] == 1
    assert run("f32", 0, ["vbrcb.f32 d, a, repeat=1"]).pipes["V"] == 3  # min_cycles
    # 5 repeats: a beat each, and one more where src's row and a dst row share a bank group
    assert run("f32", 0, ["vbrcb.f32 d, a, repeat=5"]).pipes["V"] == 6
    assert run("f32", 0, ["vci.f32 d, 0.0, repeat=5"]).pipes["V"] == 5  # dup: no source


def test_ascendc_and_the_c_api(tmp_path):
    chip = get_chip("ascend910b")
    src = DATA / "ascendc/kernels/brcb_vci.cpp"
    build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp_path)})
    lib = ctypes.CDLL(str(build.shared_object))
    session = Session(chip, source=str(src))
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    (ascendc,), (c_api,) = ([c.result for c in launch.cores] for launch in session.launches)
    assert not ascendc.diagnostics
    f = ascendc.ub.view(np.float32)
    idx = f[:64]  # CreateVecIndex(x, 1.0, 64): 1 .. 64
    assert idx.tolist() == list(range(1, 65))
    rows = f[64:64 + 512].reshape(64, 8)  # Brcb of the 64 values over 64 blocks
    assert (rows == idx[:, None]).all()
    h = ascendc.ub[4096:4096 + 512].view(np.float16)  # the mask form: first 10 of each repeat
    assert h[:10].tolist() == list(range(100, 110)) and h[10] == 0
    assert h[128:138].tolist() == list(range(228, 238))
    words = c_api.ub.view(np.uint32)
    at = int(np.flatnonzero(words == 0xABCD0000)[0])  # the C API's source: 0xABCD0000 + j
    blocks = words[at + 16:at + 16 + 128].reshape(16, 8)
    assert (blocks == (0xABCD0000 + np.arange(16))[:, None]).all()
