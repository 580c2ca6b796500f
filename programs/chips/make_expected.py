"""Expected outputs of the programs in this folder, computed with plain numpy from the INIT rules
of docs/format.md §4.1 (no simulator code): `python programs/chips/make_expected.py` writes
programs/expected/chips/<program>/<output>.npy."""

from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "expected" / "chips"


def uniform(seed: int, count: int, dtype) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-100, 100, count).astype(dtype)


def integers(seed: int, lo: int, hi: int, count: int, dtype) -> np.ndarray:
    return np.random.default_rng(seed).integers(lo, hi, count, endpoint=True, dtype=dtype)


def bits(mask: np.ndarray) -> np.ndarray:
    return np.unpackbits(mask, bitorder="little").astype(bool)


def flexible_scalar() -> dict[str, np.ndarray]:
    x, y = uniform(1, 256, np.float16), uniform(2, 256, np.float16)
    s = bits(integers(3, 0, 255, 32, np.uint8))[:200]
    out1, out0 = np.zeros(256, np.float16), np.zeros(256, np.float16)
    out1[:200] = np.where(s, x[:200], y[0])  # scalar as src1: bit 0 selects the scalar
    out0[:200] = np.where(s, x[0], y[:200])  # scalar as src0: bit 1 selects the scalar
    return {"out_src1": out1, "out_src0": out0}


def select_s64() -> dict[str, np.ndarray]:
    lo, hi = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    x, y = integers(4, lo, hi, 128, np.int64), integers(5, lo, hi, 128, np.int64)
    s = bits(integers(6, 0, 255, 32, np.uint8))
    out0, out2 = np.zeros(128, np.int64), np.zeros(128, np.int64)
    out0[:100] = np.where(np.tile(s[:32], 4)[:100], x[:100], y[:100])  # first 32 bits only
    out2[:100] = np.where(s[:100], x[:100], y[:100])  # consumed contiguously
    return {"out_mode0": out0, "out_mode2": out2}


PROGRAMS = {"flexible_scalar": flexible_scalar, "select_s64": select_s64}


def main() -> None:
    for name, fn in PROGRAMS.items():
        (OUT / name).mkdir(parents=True, exist_ok=True)
        for output, arr in fn().items():
            np.save(OUT / name / f"{output}.npy", arr)


if __name__ == "__main__":
    main()
