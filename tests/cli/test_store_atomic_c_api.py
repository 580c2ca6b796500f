"""#27 (h27e) the C API's other atomic form, asc_set_store_atomic_config_v1(type, op): on 4
blocks, type 1 (float) with op 0 (sum) accumulates every block's row into one shared GM row —
the row must equal the initial row plus the blocks' rows, and the cross-core race check must stay
quiet; the same kernel storing with type 0 (no atomic) must be flagged as a race at the store's
line; a type the page gives no meaning (7) is an error at the call."""

from __future__ import annotations

from pathlib import Path

import numpy as np

KERNEL = Path(__file__).resolve().parents[1] / "data" / "elementwise" / "store_atomic_c_api.cpp"


def _store_line() -> int:
    lines = KERNEL.read_text().splitlines()
    return next(i for i, t in enumerate(lines, 1) if "asc_copy_ub2gm_sync((__gm__ void*)acc" in t)


def test_float_sum_accumulates_on_four_blocks(pipev, tmp_path):
    proc = pipev("run", KERNEL, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "4 cores" in out and "warning" not in out

    def read(name: str) -> np.ndarray:
        return np.fromfile(tmp_path / f"store_atomic_c_api_{name}.bin", np.float32)
    x, acc0, acc = read("in_x").reshape(4, 64), read("in_acc"), read("out_acc")
    assert (x != 0).any(axis=0).all()
    expected = (acc0.astype(np.float64) + x.astype(np.float64).sum(axis=0)).astype(np.float32)
    assert acc.tobytes() == expected.tobytes()


def test_type_zero_stores_plainly_and_races(pipev):
    proc = pipev("run", KERNEL, "-DPLAIN_STORE", timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert f"store_atomic_c_api.cpp:{_store_line()}:" in out and "stomping" in out


def test_a_type_without_meaning_is_an_error_at_the_call(pipev):
    proc = pipev("run", KERNEL, "-DBAD_TYPE", timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    call = next(i for i, t in enumerate(KERNEL.read_text().splitlines(), 1)
                if "asc_set_store_atomic_config_v1(ATOMIC_TYPE" in t)
    assert f"store_atomic_c_api.cpp:{call}:" in out and "error: " in out and "type 7" in out
    assert "Traceback" not in out


def test_ascendc_set_store_atomic_config_int32_sum(pipev, tmp_path):
    """AscendC's SetStoreAtomicConfig<ATOMIC_S32, ATOMIC_SUM>() on 4 blocks: the shared row is
    the initial row plus every block's row, int32 wrap-around; no race."""
    kernel = KERNEL.with_name("store_atomic_ascendc.cpp")
    proc = pipev("run", kernel, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "4 cores" in out and "warning" not in out

    def read(name: str) -> np.ndarray:
        return np.fromfile(tmp_path / f"store_atomic_ascendc_{name}.bin", np.int32)
    x, acc0, acc = read("in_x").reshape(4, 64), read("in_acc"), read("out_acc")
    want = ((acc0.astype(np.int64) + x.astype(np.int64).sum(axis=0)) % (1 << 32)).astype(np.uint32)
    assert acc.view(np.uint32).tobytes() == want.tobytes()
