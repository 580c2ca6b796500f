"""An independent reference for issue 28's layout shapes (28b): Brcb and CreateVecIndex, from
the vendor's pages, element by element over raw UB bytes (imports nothing from `isa` or
`simulator`).

Brcb (vbrcb): repeat i reads src elements 8i .. 8i+7 (back to back) and writes element 8i+j
into every element of dst block j of the repeat, at dst + i·dst_rep·32 + j·max(dst_blk, 1)·32;
MASK is not considered.

CreateVecIndex (vci): active element k of repeat i (at dst + i·rep·32 + (k // E)·blk·32 +
(k % E)·size) is first + i·N + k, rounded once to the type (integers wrap)."""

from __future__ import annotations

import ml_dtypes
import numpy as np

BLOCK = 32
NUMERIC = {"f16": np.float16, "f32": np.float32, "s16": np.int16, "s32": np.int32,
           "u16": np.uint16, "u32": np.uint32, "bf16": ml_dtypes.bfloat16}


def brcb(ub: bytearray, size: int, dst: int, src: int, repeat: int, dst_blk: int,
         dst_rep: int) -> None:
    blk = dst_blk or 1
    for i in range(repeat):
        for j in range(8):
            e = bytes(ub[src + (8 * i + j) * size:src + (8 * i + j + 1) * size])
            block = dst + i * dst_rep * BLOCK + j * blk * BLOCK
            ub[block:block + BLOCK] = e * (BLOCK // size)


def vci(ub: bytearray, t: str, dst: int, first: float, repeat: int, dst_blk: int,
        dst_rep: int, active: list[bool] | None = None, count: int | None = None) -> None:
    """ACTIVE: a repeat's active elements (None: all); COUNT: counter mode's element count."""
    dt = np.dtype(NUMERIC[t])
    size = dt.itemsize
    n, per_block = 256 // size, BLOCK // size
    if count is not None:
        repeat = -(-count // n)
    for i in range(repeat):
        for k in range(n):
            if count is not None and i * n + k >= count:
                continue
            if active is not None and not active[k]:
                continue
            j = i * n + k
            if dt.kind == "f":
                value = np.array(float(first) + j).astype(dt)
            else:
                value = np.array(int(first) + j, np.int64).astype(dt)
            a = dst + i * dst_rep * BLOCK + (k // per_block) * dst_blk * BLOCK \
                + (k % per_block) * size
            ub[a:a + size] = value.tobytes()


def transpose16(ub: bytearray, dst: int, src: int) -> None:
    """Transpose (vtranspose): the 16 x 16 matrix of 2-byte elements at src, transposed into
    dst (element [r][c] of dst is element [c][r] of src; src read whole first)."""
    m = [bytes(ub[src + 2 * k:src + 2 * k + 2]) for k in range(256)]
    for r in range(16):
        for c in range(16):
            ub[dst + 2 * (16 * r + c):dst + 2 * (16 * r + c) + 2] = m[16 * c + r]


def trans_data_5hd(ub: bytearray, size: int, dst_list: list[int], src_list: list[int],
                   repeat: int, dst_rep: int, src_rep: int, dst_high: int = 0,
                   src_high: int = 0) -> None:
    """TransDataTo5HD (vnchwconv), from the page's three rules: 16-bit — loop k over a block's
    16 elements, element k of the 16 source blocks makes destination block k; 32-bit — loop k
    over 8, element k of the 16 source blocks makes destination blocks 2k (sources 0-7) and
    2k+1 (8-15); 8-bit — loop k over 16, byte k of the chosen half of the 16 source blocks makes
    the chosen half of destination block k. Repeat i is i·stride blocks on (one repeat: one
    stride on). Every element is read before any is written."""
    for i in range(repeat):
        step = i if repeat > 1 else 1
        srcs = [a + step * src_rep * BLOCK for a in src_list]
        dsts = [a + step * dst_rep * BLOCK for a in dst_list]
        moves = []
        if size == 2:
            for k in range(16):
                for r in range(16):
                    moves.append((dsts[k] + 2 * r, srcs[r] + 2 * k))
        elif size == 4:
            for k in range(8):
                for r in range(16):
                    moves.append((dsts[2 * k + r // 8] + 4 * (r % 8), srcs[r] + 4 * k))
        else:
            for k in range(16):
                for r in range(16):
                    moves.append((dsts[k] + 16 * dst_high + r, srcs[r] + 16 * src_high + k))
        data = [bytes(ub[s:s + size]) for _, s in moves]
        for (d, _), v in zip(moves, data, strict=True):
            ub[d:d + size] = v


def transpose_4d(x: np.ndarray, n: int, c: int, h: int, w: int, to_nhwc: bool) -> np.ndarray:
    """AscendC Transpose's enhanced forms (issue 28 item 5), as the page defines them: the
    [N,C,H,W] <-> [N,H,W,C] layout change of a flat array, element for element."""
    if to_nhwc:
        return x.reshape(n, c, h, w).transpose(0, 2, 3, 1).reshape(-1)
    return x.reshape(n, h, w, c).transpose(0, 3, 1, 2).reshape(-1)
