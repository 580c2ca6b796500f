"""Sum as docs/ascendc.md ("Advanced math") documents pipev's sequence, from the instructions'
documented results (nothing from `isa` or `simulator`): each row's first n values (a half source
widened exactly) folded into 64 float lanes — lane j adds columns j + 64, j + 128, ... in order
(vadd in f32) —, then vcadd's tree over the lanes (inactive lanes 0: tests/reference/reduce.py);
a half sum rounded to nearest even."""

from __future__ import annotations

import numpy as np

from tests.reference import elementwise, reduce

F32 = np.float32
LANES = 64


def _add(a, b) -> np.float32:
    raw = elementwise.add("f32", np.asarray(a, F32).tobytes(), np.asarray(b, F32).tobytes())
    return np.frombuffer(raw, F32)[0]


def _row(row: np.ndarray, n: int) -> np.float32:
    lanes = list(row[:min(n, LANES)].astype(F32)) + [F32(0)] * max(0, LANES - n)
    for c in range(LANES, n):
        lanes[c % LANES] = _add(lanes[c % LANES], row[c])
    return F32(reduce._tree("f32", lanes))


def sum_rows(x: np.ndarray, n: int) -> np.ndarray:
    """The sums of X's rows (outter, inner) over their first N columns, in X's type."""
    return np.array([_row(r.astype(F32), n) for r in x], F32).astype(x.dtype)
