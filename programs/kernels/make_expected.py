"""Expected outputs of the example kernels, computed with plain numpy from each kernel's meaning
(independent of the simulator). Writes programs/expected/kernels/<kernel>/<output>.npy.

    python programs/kernels/make_expected.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "expected" / "kernels"


def uniform(seed: int, lo: float, hi: float, n: int, dtype) -> np.ndarray:
    """The .vasm INIT random(SEED, LOW, HIGH) for floats (docs/format.md §4.1)."""
    return np.random.default_rng(seed).uniform(lo, hi, n).astype(dtype)


def integers(seed: int, lo: int, hi: int, n: int, dtype) -> np.ndarray:
    return np.random.default_rng(seed).integers(lo, hi, n, endpoint=True, dtype=dtype)


def bits(mask: np.ndarray) -> np.ndarray:
    return np.unpackbits(mask, bitorder="little").astype(bool)


def relu() -> dict[str, np.ndarray]:
    x = uniform(7, -10, 10, 1024, np.float32)
    return {"y_gm": np.where(x > 0, x, np.float32(0))}


def clamp() -> dict[str, np.ndarray]:
    x = uniform(11, -8, 8, 2048, np.float16)
    lo, hi = np.float16(-2.5), np.float16(2.5)
    t = np.where(x >= lo, x, lo)
    return {"y_gm": np.where(t <= hi, t, hi)}


def where_tiles() -> dict[str, np.ndarray]:
    a = uniform(1, -100, 100, 8192, np.float16)
    b = uniform(2, -100, 100, 8192, np.float16)
    c = bits(integers(3, 0, 255, 1024, np.uint8))
    return {"out_gm": np.where(c, a, b)}


def nan_scrub() -> dict[str, np.ndarray]:
    x = np.load(HERE / "nan_scrub_x.npy")
    return {"y_gm": np.where(np.isnan(x), np.float32(0), x)}


def masked_fill() -> dict[str, np.ndarray]:
    x = (0 + 0.5 * np.arange(1024)).astype(np.float16)
    keep = bits(integers(5, 0, 255, 128, np.uint8))
    lane = np.arange(1024) % 128
    enabled = (lane // 8) % 2 == 0  # mask_lo = mask_hi = 0x00ff00ff00ff00ff
    return {"y_gm": np.where(enabled, np.where(keep, x, np.float16(7.0)), x)}


def double_buffer() -> dict[str, np.ndarray]:
    x = uniform(21, -50, 50, 16384, np.float32)
    return {"y_gm": np.where(x > 0, x, np.float32(0))}


def multicore_relu() -> dict[str, np.ndarray]:
    x = uniform(11, -10, 10, 49152, np.float32)  # 48 slices, whichever core does each
    return {"y_gm": np.where(x > 0, x, np.float32(0))}


def bf16_max_tail() -> dict[str, np.ndarray]:
    import ml_dtypes

    a = uniform(1, -100, 100, 300, ml_dtypes.bfloat16).astype(np.float32)
    b = uniform(2, -100, 100, 300, ml_dtypes.bfloat16).astype(np.float32)
    return {"out": np.where(a > b, a, b).astype(ml_dtypes.bfloat16).view(np.uint16)}


def compact_kept() -> dict[str, np.ndarray]:
    x = uniform(21, -10, 10, 256, np.float32)
    kept = x[x > np.float32(2.5)]
    return {"y_gm": np.concatenate([kept, np.zeros(256 - kept.size, np.float32)])}


def brcb_row_scale() -> dict[str, np.ndarray]:
    x = uniform(31, -4, 4, 512, np.float32).reshape(8, 64)
    s = uniform(32, 0.5, 2, 8, np.float32)
    return {"y_gm": (x * s[:, None]).reshape(-1)}


def nchw_to_nc1hwc0() -> dict[str, np.ndarray]:
    x = uniform(41, -8, 8, 2048, np.float16).reshape(2, 16, 64)  # (C1, C0, H·W)
    return {"y_gm": x.transpose(0, 2, 1).reshape(-1)}  # (C1, H·W, C0)


def quant_int4() -> dict[str, np.ndarray]:
    """q = x / 2 rounded half to even, saturated to -8..7 (int4, one int8 value an element in
    the .npy file); y = 2 q (every step exact in half)."""
    x = uniform(13, -20, 20, 2048, np.float16)
    q = np.clip(np.round(x.astype(np.float64) / 2), -8, 7).astype(np.int8)  # an integer: no -0
    return {"q_gm": q, "y_gm": (2 * q).astype(np.float16)}


def dequant_accumulator() -> dict[str, np.ndarray]:
    acc = integers(51, -4000000, 4000000, 1024, np.int32)
    h = (acc.astype(np.float64) / 256).astype(np.float16)  # exact quotient, one rounding
    q = integers(52, -1200, 1200, 512, np.int16)
    r = np.clip(np.clip(np.rint(q.astype(np.float64) * 0.25), -256, 255) + 3, -128, 127)
    b = np.zeros((32, 32), np.int8)  # 16 results in the low half of each 32-byte block
    b[:, :16] = r.astype(np.int8).reshape(32, 16)
    return {"h_gm": h, "b_gm": b.reshape(-1)}


KERNELS = {"double_buffer": double_buffer, "relu": relu, "clamp": clamp,
           "where_tiles": where_tiles, "nan_scrub": nan_scrub, "masked_fill": masked_fill,
           "multicore_relu": multicore_relu, "bf16_max_tail": bf16_max_tail,
           "compact_kept": compact_kept, "brcb_row_scale": brcb_row_scale,
           "nchw_to_nc1hwc0": nchw_to_nc1hwc0, "quant_int4": quant_int4,
           "dequant_accumulator": dequant_accumulator}


def main() -> None:
    for name, fn in KERNELS.items():
        d = OUT / name
        d.mkdir(parents=True, exist_ok=True)
        for out, arr in fn().items():
            np.save(d / f"{out}.npy", arr, allow_pickle=False)


if __name__ == "__main__":
    main()
