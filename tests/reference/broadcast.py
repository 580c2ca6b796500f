"""Broadcast as its page defines it (numpy's broadcasting of the source's shape to dst's), one
array at a time, as raw bits — not from the simulator (nothing from `isa` or `simulator`).

A broadcast moves values without arithmetic, so the reference works on the elements' bit
patterns (unsigned integers of the element's width): NaN payloads, -0 and denormals are
whatever the source held.
"""

from __future__ import annotations

import numpy as np

BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32}


def shapes(mode: int, m: int, k: int, same: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(srcShape, dstShape) of the test kernel's MODE: 0 dim 1, 1 dim 2 along axis 1, 2 dim 2
    along axis 0; SAME gives the source dst's shape."""
    if mode == 0:
        return ((k,) if same else (1,)), (k,)
    if mode == 1:
        return (m, k if same else 1), (m, k)
    return (m if same else 1, k), (m, k)


def broadcast(src: np.ndarray, src_shape: tuple[int, ...], dst_shape: tuple[int, ...]) -> bytes:
    """The bytes of dst: SRC (its first prod(src_shape) elements) broadcast to DST_SHAPE."""
    bits = src.view(BITS[src.itemsize])[:int(np.prod(src_shape))]
    return np.ascontiguousarray(np.broadcast_to(bits.reshape(src_shape), dst_shape)).tobytes()
