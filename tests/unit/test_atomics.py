"""GM atomics (issue #27): `set_atomic.T atomic=add|max|min|none` and the UB → GM copies that
follow (copy_ub_to_gm, copy_ub_to_gm_pad), element by element against numpy in T; several cores
accumulating into the same GM bytes are not a race, a plain store among them still is; the
AscendC face (SetAtomicAdd<T> ... on 8 blocks, tests/data/ascendc/kernels/atomic_add.cpp) and
the 8-core histogram example (programs/kernels/atomic_histogram.vasm)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import simulator
from isa.diagnostics import AssemblyError
from simulator.errors import SimulationError

ROOT = Path(__file__).resolve().parents[2]
NP = {"f32": np.float32, "f16": np.float16, "s32": np.int32, "s16": np.int16, "s8": np.int8}


def _one_core(t: str, op: str, gm: np.ndarray, ub: np.ndarray, pad: bool = False):
    n = gm.size
    nbytes = gm.nbytes
    copy = (f"copy_ub_to_gm_pad.{t} out, x, nburst=1, len={nbytes}" if pad else
            f"copy_ub_to_gm out, x, nburst=1, burst={nbytes // 32}")
    text = (f".chip ascend910b\n.gm out {t}[{n}] inout = "
            f'bits("{gm.tobytes().hex()}")\n'
            f'.ub x {t}[{n}] = bits("{ub.tobytes().hex()}")\n'
            f"set_atomic.{t} atomic={op}\n{copy}\n{copy}\nset_atomic.{t} atomic=none\n{copy}\n")
    return simulator.run(text)


@pytest.mark.parametrize("t", ["f32", "f16", "s32", "s16", "s8"])
@pytest.mark.parametrize("op", ["add", "max", "min"])
def test_each_operation_combines_element_by_element(t, op):
    rng = np.random.default_rng(1)
    n = 64
    if t in ("f32", "f16"):
        gm = rng.uniform(-100, 100, n).astype(NP[t])
        ub = rng.uniform(-100, 100, n).astype(NP[t])
        big = 65504 if t == "f16" else 3e38
        gm[:4] = [np.inf, -0.0 if op == "add" else 1.0, np.nan, big]  # overflow to inf
        ub[:4] = [-np.inf, 0.0, 1.0, big]
    else:  # integers wrap
        info = np.iinfo(NP[t])
        gm = rng.integers(info.min, info.max, n, endpoint=True).astype(NP[t])
        ub = rng.integers(info.min, info.max, n, endpoint=True).astype(NP[t])
    want = [NP[t](v) for v in gm]
    with np.errstate(all="ignore"):
        for _ in range(2):  # two atomic copies, element by element
            for k in range(n):
                a, b = want[k], ub[k]
                if t in ("f32", "f16") and (np.isnan(a) or np.isnan(b)):
                    want[k] = a if np.isnan(a) else b  # a NaN operand wins (as vmax / vmin)
                elif op == "add":
                    want[k] = NP[t](a + b)
                else:
                    want[k] = (a if a >= b else b) if op == "max" else (a if a <= b else b)
    got = _atomic_only(t, op, gm, ub)
    assert got.tobytes() == np.array(want, NP[t]).tobytes()
    # after atomic=none the same copy is a plain store
    assert _one_core(t, op, gm, ub).outputs["out"].tobytes() == ub.tobytes()


def _atomic_only(t: str, op: str, gm: np.ndarray, ub: np.ndarray) -> np.ndarray:
    n = gm.size
    text = (f".chip ascend910b\n.gm out {t}[{n}] inout = bits(\"{gm.tobytes().hex()}\")\n"
            f'.ub x {t}[{n}] = bits("{ub.tobytes().hex()}")\n'
            f"set_atomic.{t} atomic={op}\n"
            f"copy_ub_to_gm out, x, nburst=1, burst={gm.nbytes // 32}\n"
            f"copy_ub_to_gm_pad.{t} out, x, nburst=1, len={gm.nbytes}\n")
    return simulator.run(text).outputs["out"]


def test_set_atomic_without_an_operation_changes_only_the_type():
    """AscendC SetAtomicType: the add in force now adds f16 elements."""
    text = (".chip ascend910b\n.gm out f16[16] inout = fill(1.0)\n.ub x f16[16] = fill(0.5)\n"
            "set_atomic.f32 atomic=add\nset_atomic.f16\n"
            "copy_ub_to_gm out, x, nburst=1, burst=1\n")
    assert (simulator.run(text).outputs["out"] == 1.5).all()


def test_copies_into_ub_ignore_the_atomic_state():
    text = (".chip ascend910b\n.gm a f32[8] input = fill(2.0)\n.ub x f32[8] = fill(5.0)\n"
            ".gm out f32[8] output\nset_atomic.f32 atomic=add\n"
            "copy_gm_to_ub x, a, nburst=1, burst=1\nset_flag MTE2, MTE3, 0\n"
            "wait_flag MTE2, MTE3, 0\nset_atomic.f32 atomic=none\n"
            "copy_ub_to_gm out, x, nburst=1, burst=1\n")
    assert (simulator.run(text).outputs["out"] == 2.0).all()


def test_split_elements_and_unsupported_types_are_errors():
    with pytest.raises(SimulationError, match="not whole f32 elements"):
        simulator.run(".chip ascend910b\n.gm out f32[8] inout = fill(0.0)\n.ub x f32[8]\n"
                      "set_atomic.f32 atomic=add\n"
                      "copy_ub_to_gm_pad.u8 out, x, nburst=1, len=6\n")
    with pytest.raises(AssemblyError, match=r"set_atomic.u32 is not supported on ascend910b"):
        simulator.run(".chip ascend910b\nset_atomic.u32 atomic=add\n")
    with pytest.raises(AssemblyError, match="set_atomic.f32 is not supported on ascend910"):
        simulator.run(".chip ascend910\nset_atomic.f32 atomic=add\n")


# -- several cores ------------------------------------------------------------------------------
HIST = ROOT / "programs" / "kernels" / "atomic_histogram.vasm"


def _races(r) -> list[str]:
    return [d.message for d in r.warnings if "multi-core stomping" in d.message]


def test_eight_cores_accumulate_the_histogram_without_a_race():
    counts = np.random.default_rng(3).integers(0, 4, 8192).astype(np.int32)
    r = simulator.run(HIST.read_text(), inputs={"counts": counts})
    assert r.outputs["hist"].tolist() == counts.reshape(128, 64).sum(axis=0).tolist()
    assert _races(r) == []


def test_plain_stores_among_them_still_race():
    text = HIST.read_text().replace("set_atomic.s32  atomic=add", "nop")
    assert _races(simulator.run(text)), "8 plain stores to the same bytes must race"
    # one core storing plainly where the others accumulate races with them too
    mixed = HIST.read_text().replace(
        "    set_atomic.s32  atomic=add", "    beq block_idx, 3, plain\n"
        "    set_atomic.s32  atomic=add\nplain:")
    races = _races(simulator.run(mixed))
    assert races and "core 3" in " ".join(races)


def test_ascendc_set_atomic_add_on_eight_blocks():
    kernel = ROOT / "tests" / "data" / "ascendc" / "kernels" / "atomic_add.cpp"
    pipev = Path(sys.executable).parent / "pipev"
    r = subprocess.run([str(pipev), "run", str(kernel)], capture_output=True, text=True)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "8 cores" in out and "stomping" not in out and "warning" not in out


def test_listing_traces_and_debugger_take_set_atomic(tmp_path):
    """set_atomic is an S-pipe state write: the listing, the traces and the debugger step over
    it like any scalar instruction."""
    import pipev
    from isa import assemble
    from isa.listing import listing

    text = HIST.read_text()
    rows = listing(assemble(text))
    assert any(row["source"].startswith("set_atomic.s32  atomic=add") for row in rows)
    for ext in ("vcd", "json", "jsonl", "txt"):
        simulator.run(text, trace=tmp_path / f"t.{ext}")
    d = pipev.debug(text.replace(".block_dim 8", ".block_dim 1"))
    for _ in range(12):
        d.execute("step")


def test_stepping_back_over_set_atomic_restores_the_plain_store():
    import pipev

    text = (".chip ascend910b\n.gm out f32[8] inout = fill(1.0)\n.ub x f32[8] = fill(2.0)\n"
            "set_atomic.f32 atomic=add\ncopy_ub_to_gm out, x, nburst=1, burst=1\n")
    d = pipev.debug(text)
    d.execute("step")
    d.session.sync()
    assert d.session.machine.atomic is not None
    d.execute("back")
    d.session.sync()
    assert d.session.machine.atomic is None
