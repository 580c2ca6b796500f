"""Expected outputs of the where_* kernels, computed with plain numpy (no simulator):
out = where(a < b, a, b) over the programs' default inputs, `random(SEED)` being
`numpy.random.default_rng(SEED).uniform(-100, 100, COUNT).astype(float32)` (docs/format.md §4.1).

    python programs/kernels/where_expected.py      # (re)write programs/expected/kernels/where_*
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
EXPECTED = HERE.parent / "expected" / "kernels"
KERNELS = ("where_tiled_loop", "where_tiled_rept", "where_tiled_db_loop", "where_tuned")
COUNT = 65536


def random_f32(seed: int, count: int = COUNT) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-100, 100, count).astype(np.float32)


def expected() -> dict[str, np.ndarray]:
    """Output name -> array, the same for every where_* kernel."""
    a, b = random_f32(1), random_f32(2)
    return {"out": np.where(a < b, a, b)}


def main() -> None:
    for kernel in KERNELS:
        folder = EXPECTED / kernel
        folder.mkdir(parents=True, exist_ok=True)
        for name, arr in expected().items():
            np.save(folder / f"{name}.npy", arr)


if __name__ == "__main__":
    main()
