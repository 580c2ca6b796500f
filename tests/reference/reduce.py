"""An independent, element-by-element reference of the reductions (docs/semantics.md
"Reductions"): vcmax/vcmin/vcadd, vcgmax/vcgmin/vcgadd and vcpadd on a UB byte array.

Written from the vendor's documented behaviour, not from the simulator: it imports nothing from
`isa` or `simulator`, and works one element at a time with explicit loops over repeat, block and
element — the sums as the documented binary trees, max/min by a scan that keeps the first of
equal values and stops at the first NaN. Normal mask mode only (MASK as HI:LO bits).
"""

from __future__ import annotations

import numpy as np

TYPES = {"f16": (np.float16, np.uint16), "f32": (np.float32, np.uint32)}
ORDERS = ("value_index", "index_value", "only_value", "only_index")
QUIET = {np.float16: 0x0200, np.float32: 0x00400000}


def _read(ub: bytearray, t: str, addr: int):
    num, raw = TYPES[t]
    size = np.dtype(num).itemsize
    return np.frombuffer(bytes(ub[addr:addr + size]), num)[0]


def _write(ub: bytearray, addr: int, value) -> None:
    data = np.asarray(value).tobytes()
    ub[addr:addr + len(data)] = data


def _add(t: str, a, b):
    """a + b in T; two NaNs give a's NaN with its quiet bit set, one NaN that NaN quieted."""
    num, raw = TYPES[t]
    if np.isnan(a) and np.isnan(b):
        return (np.asarray(a).view(raw) | raw(QUIET[num])).view(num)
    with np.errstate(all="ignore"):
        return num(a + b)


def _tree(t: str, values: list):
    """(v0+v1), (v2+v3), ... then pairs of those, to one value."""
    while len(values) > 1:
        values = [_add(t, values[k], values[k + 1]) for k in range(0, len(values), 2)]
    return values[0]


def _pick(values: list, active: list[bool], largest: bool) -> int | None:
    """Index of the first active NaN, else of the first largest (smallest) active value."""
    best = None
    for k, (v, on) in enumerate(zip(values, active, strict=True)):
        if not on:
            continue
        if np.isnan(v):
            return k
        if best is None or (v > values[best] if largest else v < values[best]):
            best = k
    return best


def _active(mask: tuple[int, int], n: int) -> list[bool]:
    bits = (mask[0] << 64) | mask[1]
    return [bool(bits >> k & 1) for k in range(n)]


def reduce(ub: bytearray, name: str, t: str, dst: int, src: int, repeat: int,
           mask: tuple[int, int], dst_rep: int = 1, src_blk: int = 1, src_rep: int = 8,
           order: int = 0, identity_chip: bool = False) -> None:
    """Apply one reduction instruction to UB in place."""
    num, raw = TYPES[t]
    size = np.dtype(num).itemsize
    n, per_block = 256 // size, 32 // size
    on = _active(mask, n)
    for i in range(repeat):
        addr = [src + i * src_rep * 32 + (k // per_block) * src_blk * 32 + (k % per_block) * size
                for k in range(n)]
        vals = [_read(ub, t, a) for a in addr]
        if name in ("vcmax", "vcmin"):
            k = _pick(vals, on, name == "vcmax")
            if k is None:
                continue
            index = np.uint32(k) if ORDERS[order] == "only_index" else raw(k)
            parts = {"value_index": (vals[k], index), "index_value": (index, vals[k]),
                     "only_value": (vals[k],), "only_index": (index,)}[ORDERS[order]]
            unit = sum(np.asarray(p).nbytes for p in parts)
            at = dst + i * dst_rep * unit
            for p in parts:
                _write(ub, at, p)
                at += np.asarray(p).nbytes
        elif name == "vcadd":
            if any(on):
                _write(ub, dst + i * dst_rep * size,
                       _tree(t, [v if a else num(0) for v, a in zip(vals, on, strict=True)]))
        else:
            group = 2 if name == "vcpadd" else per_block
            groups = n // group
            for g in range(groups):
                vs, act = vals[g * group:(g + 1) * group], on[g * group:(g + 1) * group]
                at = dst + (i * dst_rep * groups + g) * size
                if not any(act):
                    if identity_chip:
                        _write(ub, at, num({"vcgmax": -np.inf, "vcgmin": np.inf}.get(name, 0)))
                    continue
                if name in ("vcgadd", "vcpadd"):
                    _write(ub, at, _tree(t, [v if a else num(0)
                                             for v, a in zip(vs, act, strict=True)]))
                else:
                    _write(ub, at, vs[_pick(vs, act, name == "vcgmax")])


def reduce_all(values: list, active: list[list[bool]], name: str, t: str,
               sequential: bool = False, runs: bool = False):
    """ReduceMax / ReduceMin / ReduceSum (the value) over REPEATS of VALUES (one list a repeat)
    with their ACTIVE flags: max/min the first NaN, else the first extreme, over all of them;
    the sum a tree in each repeat, then the repeat sums added one after another (SEQUENTIAL) or
    reduced again, N at a time, by the same trees (zeros past the last); RUNS (TIK's
    vec_reduce_add on A2: "每255个范围内的repeat结果按照顺序相加,最后将多个255个repeat结果之和两两
    相加"): one after another within each run of 255, then the runs' sums by a tree."""
    num, _ = TYPES[t]
    n = 256 // np.dtype(num).itemsize
    if name in ("reduce_max", "reduce_min"):
        flat = [v for r in values for v in r]
        on = [a for r in active for a in r]
        return flat[_pick(flat, on, name == "reduce_max")]
    sums = [_tree(t, [v if a else num(0) for v, a in zip(r, act, strict=True)])
            for r, act in zip(values, active, strict=True)]
    if runs and len(sums) > 255:
        parts = [reduce_all([[v] for v in sums[k:k + 255]], [[True]] * len(sums[k:k + 255]),
                            name, t, sequential=True) for k in range(0, len(sums), 255)]
        return _tree(t, (parts + [num(0)] * n)[:n])
    if sequential or runs:
        total = sums[0]
        for s in sums[1:]:
            total = _add(t, total, s)
        return total
    while len(sums) > 1:
        sums = [_tree(t, (sums[k:k + n] + [num(0)] * n)[:n]) for k in range(0, len(sums), n)]
    return sums[0]


def registers(ub: bytearray, name: str, t: str, src: int, repeat: int, mask: tuple[int, int],
              src_blk: int = 1, src_rep: int = 8) -> tuple[int, ...]:
    """The registers one vcmax/vcmin (raw bits of the extreme over every active element of all
    repeats, its position i·N + k) or vcadd (raw bits of the repeat sums added one after
    another) leaves: a scan over repeats, then elements, in order; the first NaN wins, else the
    first of the extremes."""
    num, raw = TYPES[t]
    size = np.dtype(num).itemsize
    n, per_block = 256 // size, 32 // size
    on = _active(mask, n)
    best = None  # (value, position)
    running = None
    for i in range(repeat):
        vals = [_read(ub, t, src + i * src_rep * 32 + (k // per_block) * src_blk * 32 +
                      (k % per_block) * size) for k in range(n)]
        if name == "vcadd":
            s = _tree(t, [v if a else num(0) for v, a in zip(vals, on, strict=True)])
            running = s if running is None else _add(t, running, s)
            continue
        for k, (v, a) in enumerate(zip(vals, on, strict=True)):
            if not a or (best is not None and np.isnan(best[0])):
                continue
            if best is None or np.isnan(v) or (v > best[0] if name == "vcmax" else v < best[0]):
                best = (v, i * n + k)
    if name == "vcadd":
        return (int(np.asarray(running, num).view(raw)),)
    return int(np.asarray(best[0], num).view(raw)), best[1]
