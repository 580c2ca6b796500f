"""Issue 34 (h34a): the reg-based unit's unaligned stores, Scatter / Gather, ReduceDataBlock,
PairReduceElem, MaskGenWithRegTensor and Move with a mask, one element at a time from the
vendor's pages. Imports nothing from `isa` or `simulator`; values as numpy scalars of the
element type, so each sum is rounded in that type."""

from __future__ import annotations

import numpy as np


def store_unalign(ub: bytearray, stores: list[tuple[int, bytes]], post: bool) -> bytearray:
    """Contiguous StoreUnAlign calls (address, bytes) and, if POST, a StoreUnAlignPost: every
    byte lands in order; without the Post the bytes of the last partial 32-byte block the last
    store reached stay in the store register (the StoreUnAlign page's scene two)."""
    out = bytearray(ub)
    start = stores[0][0]
    end = stores[-1][0] + len(stores[-1][1])
    stream = b"".join(b for _, b in stores)
    last = end if post else max(start, end - end % 32)
    out[start:last] = stream[:last - start]
    return out


def scatter(ub: bytearray, base: int, src: list[bytes], idx: list[int],
            on: list[bool]) -> bytearray:
    out = bytearray(ub)
    for k, e in enumerate(src):
        if on[k]:
            a = base + idx[k] * len(e)
            out[a:a + len(e)] = e
    return out


def gather(ub: bytes, base: int, size: int, idx: list[int], on: list[bool]) -> bytes:
    return b"".join(ub[base + i * size:base + (i + 1) * size] if on[k] else bytes(size)
                    for k, i in enumerate(idx))


def register_gather(src: list[bytes], idx: list[int]) -> bytes:
    return b"".join(src[i % len(src)] for i in idx)


def _tree(values: list) -> object:
    while len(values) > 1:
        values = [type(values[i])(values[i] + values[i + 1]) for i in range(0, len(values), 2)]
    return values[0]


def _pick(values: list, op: str, lowest, highest):
    """The largest (smallest) value: the first NaN if any; +0 above -0; none: the limit."""
    if not values:
        return lowest if op == "max" else highest
    for v in values:
        if v != v:
            return v
    def key(v):  # -0 orders below +0
        return float(v), not np.signbit(v)

    return max(values, key=key) if op == "max" else min(values, key=key)


def reduce_blocks(x: np.ndarray, on: list[bool], op: str) -> np.ndarray:
    """ReduceDataBlock: one result per 32-byte block in the lowest elements, the rest 0 (SUM:
    the pairwise tree of the block with disabled elements 0; MAX/MIN over the enabled ones)."""
    per = 32 // x.dtype.itemsize
    out = np.zeros(x.size, x.dtype)
    if x.dtype.kind == "f":
        lo, hi = x.dtype.type(-np.inf), x.dtype.type(np.inf)
    else:
        info = np.iinfo(x.dtype)
        lo, hi = x.dtype.type(info.min), x.dtype.type(info.max)
    for j in range(x.size // per):
        blk = [x[j * per + i] for i in range(per)]
        act = on[j * per:(j + 1) * per]
        if op == "sum":
            with np.errstate(all="ignore"):
                out[j] = _tree([v if a else x.dtype.type(0) for v, a in zip(blk, act, strict=True)])
        else:
            out[j] = _pick([v for v, a in zip(blk, act, strict=True) if a], op, lo, hi)
    return out


def pair_sum(x: np.ndarray, on: list[bool]) -> np.ndarray:
    out = np.zeros(x.size, x.dtype)
    for k in range(x.size // 2):
        a, b = x[2 * k], x[2 * k + 1]
        if on[2 * k] and on[2 * k + 1]:
            with np.errstate(all="ignore"):
                out[k] = x.dtype.type(a + b)
        elif on[2 * k] or on[2 * k + 1]:
            out[k] = a if on[2 * k] else b
    return out


def mask_from_register(reg: bytes, size: int, offset: int) -> bytes:
    """MaskGenWithRegTensor: bit i of block OFFSET (256/(8·size) bytes) → SIZE mask bits."""
    block = 256 // (8 * size)
    src = reg[offset * block:(offset + 1) * block]
    bits = [(src[i // 8] >> (i % 8)) & 1 for i in range(8 * block)]
    out = bytearray(32)
    for i, b in enumerate(bits):
        for r in range(size):
            n = i * size + r
            out[n // 8] |= b << (n % 8)
    return bytes(out)


def squeeze(src: list[bytes], on: list[bool]) -> bytes:
    """Squeeze: the enabled elements from element 0 on, the rest 0."""
    kept = [e for e, a in zip(src, on, strict=True) if a]
    return b"".join(kept) + bytes(len(src[0]) * (len(src) - len(kept)))


def gather_blocks(ub: bytes, base: int, offsets: list[int], live: list[bool],
                  old: bytes) -> bytes:
    """GatherB: block j = the 32 bytes at base + offsets[j] where block j is live (mask bit 4j),
    else OLD's block j (the page: a block whose bit is clear is not updated)."""
    return b"".join(ub[base + o:base + o + 32] if a else old[32 * j:32 * j + 32]
                    for j, (o, a) in enumerate(zip(offsets, live, strict=True)))


def squeeze_stores(ub: bytearray, base: int, rounds: list[bytes], post: bool) -> bytearray:
    """Squeeze STORE_REG then the AR-form StoreUnAlign, round after round: each round's kept
    bytes follow the last, from BASE (then, with POST, the tail of the last block too)."""
    at, stores = base, []
    for kept in rounds:
        stores.append((at, kept))
        at += len(kept)
    return store_unalign(ub, stores, post) if stores else bytearray(ub)


def histogram(old: list[int], values: bytes, on: list[bool], high: bool, cum: bool) -> bytes:
    """Histograms: old[n] + the count of enabled values equal to n (+128 for BIN1); ACCUMULATE:
    of those in the bin's range up to n; modulo 2^16."""
    lo = 128 if high else 0
    out = []
    for n in range(128):
        hits = sum(1 for v, a in zip(values, on, strict=True)
                   if a and (lo <= v <= lo + n if cum else v == lo + n))
        out.append((old[n] + hits) % (1 << 16))
    return b"".join(v.to_bytes(2, "little") for v in out)


def widening_block_sums(raw: bytes, pbits: bytes, signed: bool) -> bytes:
    """ReduceDataBlock SUM of 16-bit integers into 32 bits (the page's int32_t ← int16_t and
    uint32_t ← uint16_t rows): block j's enabled elements (bit 2k of the mask for element k)
    added exactly, one 32-bit result per block in the lowest 8 elements, the other 56 zero."""
    vals = [int.from_bytes(raw[2 * k:2 * k + 2], "little", signed=signed) for k in range(128)]
    on = [bool(pbits[(2 * k) // 8] >> ((2 * k) % 8) & 1) for k in range(128)]
    sums = [sum(v for v, a in zip(vals[16 * j:16 * j + 16], on[16 * j:16 * j + 16], strict=True)
                if a) for j in range(8)]
    return b"".join(s.to_bytes(4, "little", signed=signed) for s in sums) + bytes(224)


def scatter_bytes(ub: bytearray, base: int, src: bytes, idx: list[int], on: list[bool]
                  ) -> bytearray:
    """Scatter of 8-bit data (the page: 16-bit indices, only the even source elements): byte
    2k of SRC to BASE + idx[k] where element k is enabled (mask bit 2k)."""
    for k in range(128):
        if on[k]:
            ub[base + idx[k]] = src[2 * k]
    return ub


def gather_bytes_widened(ub: bytes, base: int, idx: list[int], on: list[bool]) -> bytes:
    """Gather of 8-bit UB data into 16-bit elements: the byte in the low half, the high half 0
    (the page: int8 -40 gives 216); disabled elements 0."""
    return b"".join((ub[base + idx[k]] if on[k] else 0).to_bytes(2, "little")
                    for k in range(128))
