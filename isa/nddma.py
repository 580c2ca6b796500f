"""Decode of ascend950's multi-dimensional DMA (NDDMA, `copy_gm_to_ub_nd`): the address
arithmetic of up to five nested loops (docs/semantics.md §6.5; the vendor's DataCopy (GM → UB
NDDMA) and asc_ndim_copy_gm2ub pages). Pure functions of the decoded fields: no machine.

Loop k (0 innermost) runs lp_k + size_k + rp_k times; position i_k writes the element at
sum(i_k · dst_stride_k) of the destination. Its source is element j_k = i_k - lp_k of the
loop, at sum(j_k · src_stride_k), when every j_k lies in [0, size_k); otherwise the position is
padding: the pad value (constant mode) or the nearest element of each padded loop, j_k clamped
to [0, size_k - 1] (nearest-value mode). Strides count elements.
"""

from __future__ import annotations

from functools import cached_property

import attrs
import numpy as np

from isa.program import Instruction

DIMS = 5
BLOCK = 32


def _grid(counts: tuple[int, ...], terms) -> np.ndarray:
    """sum over loops of terms[k] (an array of counts[k] values), loop 0 fastest, flattened."""
    total = np.zeros((1,) * DIMS, np.int64)
    for k in range(DIMS):
        shape = [1] * DIMS
        shape[DIMS - 1 - k] = counts[k]
        total = total + np.asarray(terms[k], np.int64).reshape(shape)
    return total.reshape(-1)


def _sorted_unique(a: np.ndarray) -> np.ndarray:
    """A's distinct values, ascending (a sort: numpy's hashing unique is slower here)."""
    a = np.sort(a)
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if a.size else a


def _runs(byte_addrs: np.ndarray) -> list[tuple[int, int]]:
    """(start, bytes) of each contiguous run of a sorted unique address array."""
    if not byte_addrs.size:
        return []
    cut = np.flatnonzero(np.diff(byte_addrs) != 1) + 1
    starts = np.concatenate(([0], cut))
    ends = np.concatenate((cut, [byte_addrs.size]))
    return [(int(byte_addrs[a]), int(b - a)) for a, b in zip(starts, ends, strict=True)]


@attrs.frozen(eq=False)
class NdDmaOp:
    """One NDDMA copy, GM → UB: element size `esize`, each loop's size, strides and padding."""

    instr: Instruction
    dst_space: str | None  # None: UB
    dst: int  # byte address in UB
    src_space: str | None  # the GM tensor's name
    src: int  # byte offset in the GM tensor
    esize: int
    sizes: tuple[int, ...]
    src_strides: tuple[int, ...]
    dst_strides: tuple[int, ...]
    lps: tuple[int, ...]
    rps: tuple[int, ...]
    pad: bytes = b""  # constant mode: one element's bytes
    nearest: bool = False
    atomic: tuple[str, str] = ()  # GM → UB: never an atomic

    # -- the loops ------------------------------------------------------------------------------
    @property
    def counts(self) -> tuple[int, ...]:
        """Positions of each loop, padding included."""
        return tuple(lp + n + rp for lp, n, rp in zip(self.lps, self.sizes, self.rps, strict=True))

    @property
    def positions(self) -> int:
        return int(np.prod(self.counts, dtype=np.int64))

    @cached_property
    def dst_elements(self) -> np.ndarray:
        """Destination element offsets of every position, loop 0 fastest."""
        return _grid(self.counts, [np.arange(c) * s for c, s in
                                   zip(self.counts, self.dst_strides, strict=True)])

    @cached_property
    def src_elements(self) -> np.ndarray:
        """Source element offsets of every position, each loop's index clamped into its data
        (the nearest element; constant mode replaces the padding positions' values)."""
        loops = zip(self.counts, self.lps, self.sizes, self.src_strides, strict=True)
        return _grid(self.counts, [np.clip(np.arange(c) - lp, 0, n - 1) * s
                                   for c, lp, n, s in loops])

    @cached_property
    def padding(self) -> np.ndarray:
        """True at the positions outside the data of some loop."""
        outside = _grid(self.counts, [((np.arange(c) < lp) | (np.arange(c) >= lp + n)).astype(
            np.int64) for c, lp, n in zip(self.counts, self.lps, self.sizes, strict=True)])
        return outside > 0

    # -- bytes ----------------------------------------------------------------------------------
    def element_bytes(self, base: int, elements: np.ndarray) -> np.ndarray:
        """(positions, esize) byte addresses of ELEMENTS (element offsets from byte BASE)."""
        return base + elements[:, None] * self.esize + np.arange(self.esize, dtype=np.int64)

    @cached_property
    def _touched(self) -> dict[str, np.ndarray]:
        """Sorted unique bytes each side touches: the data positions of the source (padding
        reads nothing new), every position of the destination."""
        data = _grid(self.sizes, [np.arange(n) * s
                                  for n, s in zip(self.sizes, self.src_strides, strict=True)])
        return {"src": self.element_bytes(self.src, _sorted_unique(data)).reshape(-1),
                "dst": self.element_bytes(self.dst, _sorted_unique(self.dst_elements)).reshape(-1)}

    def side(self, role: str) -> tuple[int, int, int]:
        """(base, 0, bytes) of a side, for diagnostics shared with the burst copies."""
        return (self.src if role == "src" else self.dst), 0, self.esize

    def space_of(self, role: str) -> str | None:
        return self.src_space if role == "src" else self.dst_space

    def indices(self, role: str, skip: int = 0, count: int | None = None) -> np.ndarray:
        """The sorted bytes one side touches (SKIP and COUNT: the burst copies' interface,
        whole here)."""
        return self._touched[role]

    def touched(self, role: str) -> tuple[int, None]:
        return 0, None

    def extent(self, role: str) -> tuple[int, int]:
        """[first, last] byte of one side."""
        idx = self._touched[role]
        return int(idx[0]), int(idx[-1])

    def runs(self, role: str) -> list[tuple[int, int]]:
        """(start, bytes) of each contiguous run one side touches."""
        return _runs(self._touched[role])

    def ub_ranges(self) -> list[tuple]:
        """The UB destination's bytes (see VectorOp.ub_ranges)."""
        idx = self._touched["dst"]
        lo, hi = int(idx[0]), int(idx[-1]) + 1
        return [("dst", lo, hi, None if hi - lo == idx.size else idx, True)]

    def overlap(self) -> int | None:
        """A destination element two positions write (the pages forbid loops whose address
        spaces overlap), else None."""
        d = np.sort(self.dst_elements)
        same = np.flatnonzero(d[1:] == d[:-1])  # sorted: a repeat sits next to its twin
        return int(d[same[0]]) if same.size else None

    # -- what the timing counts: one burst a row of loop 0 --------------------------------------
    @property
    def nburst(self) -> int:
        return self.positions // self.counts[0]

    @property
    def data_bytes(self) -> int:
        return self.counts[0] * self.esize

    @property
    def burst(self) -> int:
        return -(-self.data_bytes // BLOCK)

    @property
    def blocks(self) -> int:
        return self.nburst * self.burst
