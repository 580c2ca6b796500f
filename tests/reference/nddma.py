"""An independent reference for ascend950's multi-dimensional DMA (NDDMA: AscendC DataCopy with
NdDmaParams, the C API's asc_ndim_copy_gm2ub), from the vendor's pages, position by position
over raw bytes (imports nothing from `isa` or `simulator`).

Loop d (0 innermost, at most 5) visits lp[d] + size[d] + rp[d] positions. Position (i_0..i_4)
writes the destination element at sum(i_d * dst_stride[d]). With j_d = i_d - lp[d]: when every
j_d is inside [0, size[d]) the value is the source element at sum(j_d * src_stride[d]);
otherwise it is padding: the constant, or (nearest-value mode) the source element with every j_d
clamped into [0, size[d] - 1]. Positions are visited loop 0 fastest."""

from __future__ import annotations

import itertools


def nddma(dst: bytearray, src: bytes, esize: int, dst_base: int, src_base: int,
          sizes: list[int], src_strides: list[int], dst_strides: list[int], lps: list[int],
          rps: list[int], pad: bytes | None) -> None:
    """PAD: the constant element's bytes, or None for nearest-value padding."""
    dims = len(sizes)
    ranges = [range(lps[d] + sizes[d] + rps[d]) for d in reversed(range(dims))]
    for outer_first in itertools.product(*ranges):
        i = list(reversed(outer_first))  # i[0]: loop 0
        j = [i[d] - lps[d] for d in range(dims)]
        inside = all(0 <= j[d] < sizes[d] for d in range(dims))
        d_at = dst_base + esize * sum(i[d] * dst_strides[d] for d in range(dims))
        if inside or pad is None:
            k = [min(max(j[d], 0), sizes[d] - 1) for d in range(dims)]
            s_at = src_base + esize * sum(k[d] * src_strides[d] for d in range(dims))
            value = bytes(src[s_at:s_at + esize])
        else:
            value = pad
        dst[d_at:d_at + esize] = value
