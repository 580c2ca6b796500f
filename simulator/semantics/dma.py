"""DMA (docs/semantics.md §6.5): copy_gm_to_ub / copy_ub_to_gm on the MTE pipes, copy_ub_to_ub on V.
Bursts of `burst` 32-byte blocks; gaps skip blocks after each burst.

The padded copies (AscendC DataCopyPad) are byte-granular: copy_gm_to_ub_pad reads `len`
bytes a burst from GM (bursts len + src_gap bytes apart) and writes left_pad elements of
pad_value, the data and right_pad elements to UB, the next burst on the next 32-byte block plus
dst_gap blocks; copy_ub_to_gm_pad is the reverse without padding (UB gaps in blocks, GM gaps in
bytes). The bytes between a burst's last padding byte and the next block ("dummy" data) get the
pad value, or without one the burst's first element, repeated (the vendor's
copy_gm_to_ubuf_align; issue #27); without a pad value the padding itself is not written."""

from __future__ import annotations

import numpy as np

from isa.decode import DmaOp
from isa.program import Instruction
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.atomic import accumulate, atomic_of
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued


def issue(ex: Context, instr: Instruction) -> Issued:
    addrs, f = ex.resolve(instr)
    o = instr.operands
    spaces = {r: (o[r].tensor.name if o[r].space == "gm" else None) for r in ("dst", "src")}
    op = DmaOp(instr, spaces["dst"], addrs["dst"], spaces["src"], addrs["src"],
               f["nburst"], f["burst"], f.get("src_gap", 0), f.get("dst_gap", 0),
               atomic=atomic_of(ex, instr, spaces["dst"], f["burst"] * 32))
    for role in ("src", "dst"):
        _check_side(ex, instr, op, role, spaces[role])
    return Issued(instr.defn.family.pipe, op, copy)


def issue_pad(ex: Context, instr: Instruction) -> Issued:
    """copy_gm_to_ub_pad / copy_ub_to_gm_pad: the byte-granular DmaOp."""
    addrs, f = ex.resolve(instr)
    o = instr.operands
    spaces = {r: (o[r].tensor.name if o[r].space == "gm" else None) for r in ("dst", "src")}
    size = instr.dtype.size
    length, nburst = f["len"], f["nburst"]
    to_ub = spaces["dst"] is None
    left, right = f.get("left_pad", 0) * size, f.get("right_pad", 0) * size
    for key, nbytes in (("left_pad", left), ("right_pad", right)):
        if nbytes > 32:
            raise Fault(Problem("range", f"{instr.name} {key} of {nbytes} bytes is beyond a "
                                "32-byte block", col=instr.cols.get(key)))
    ub_run = left + length + right if to_ub else length
    blocks = -(-ub_run // 32)
    gm_gap, ub_gap = (f.get("src_gap", 0), f.get("dst_gap", 0)) if to_ub else \
        (f.get("dst_gap", 0), f.get("src_gap", 0))
    gm_pitch, ub_pitch = length + gm_gap, (blocks + ub_gap) * 32
    # no pad_value: the padding bytes are skipped (DataCopyPad with isPad false leaves them
    # unspecified; reading them is then an uninitialised read, docs/decisions.md)
    pad = int(f["pad_value"]).to_bytes(size, "little") if "pad_value" in f else b""
    fill = blocks * 32 - ub_run if to_ub else 0  # the "dummy" bytes up to the block boundary
    tail = 0
    if f.get("compact", 0):  # the page: dstStride, leftPadding, rightPadding not in effect
        if not getattr(ex.chip, "reg_vector", False):
            raise Fault(Problem("chip", f"{instr.name} compact=1 is ascend950's "
                                f"(PaddingMode::Compact); {ex.chip.name} has no such mode",
                                col=instr.cols.get("compact")))
        left = right = fill = 0
        ub_pitch, tail = length, -(nburst * length) % 32
    op = DmaOp(instr, spaces["dst"], addrs["dst"], spaces["src"], addrs["src"], nburst, blocks,
               0, 0, length, gm_pitch if to_ub else ub_pitch, ub_pitch if to_ub else gm_pitch,
               left, right, pad, fill, size, tail,
               atomic=atomic_of(ex, instr, spaces["dst"], length))
    for role in ("src", "dst"):
        _check_side(ex, instr, op, role, spaces[role])
    return Issued(instr.defn.family.pipe, op, copy)


def copy(m: Machine, op: DmaOp, _arg, _lo, _hi) -> None:
    src, dst = m.space(op.src_space), m.space(op.dst_space)
    n = op.data_bytes
    if op.atomic:
        accumulate(dst, op.indices("dst", op.left, n), src[op.indices("src")], op.atomic)
        return
    if op.pad and (op.left or op.right or op.fill):
        _pad(dst, op)
    if op.nburst == 1:
        dst[op.dst + op.left:op.dst + op.left + n] = src[op.src:op.src + n]
    elif src is dst:  # UB → UB: burst by burst, in order
        s0, sp, _ = op.side("src")
        d0, dp, _ = op.side("dst")
        for k in range(op.nburst):
            dst[d0 + k * dp:d0 + k * dp + n] = src[s0 + k * sp:s0 + k * sp + n]
    else:
        dst[op.indices("dst", op.left, n)] = src[op.indices("src")]
    if not op.pad and (op.right or op.fill):
        _first_element(src, dst, op)
    if op.tail and op.pad:  # compact: the pad value after the last burst only
        end = op.extent("dst")[1] + 1
        dst[end - op.tail:end] = np.tile(np.frombuffer(op.pad, np.uint8),
                                         -(-op.tail // len(op.pad)))[:op.tail]


def _pad(dst, op: DmaOp) -> None:
    """The padding elements of every burst and the dummy bytes after them (the data goes
    between them)."""
    size = len(op.pad)
    unit = np.frombuffer(op.pad, np.uint8)
    for skip, nbytes in ((0, op.left), (op.left + op.data_bytes, op.right + op.fill)):
        if nbytes:  # the dummy bytes may end inside an element (len= need not be whole ones)
            idx = op.indices("dst", skip, nbytes).reshape(op.nburst, nbytes)
            dst[idx] = np.tile(unit, -(-nbytes // size))[:nbytes]


def _first_element(src, dst, op: DmaOp) -> None:
    """Without a pad value, each burst's bytes after its data up to the block boundary repeat
    the burst's first element (the vendor's "dummy" data of copy_gm_to_ubuf_align)."""
    size, tail = op.esize, op.right + op.fill
    first = src[op.indices("src", 0, size)].reshape(op.nburst, size)
    idx = op.indices("dst", op.left + op.data_bytes, tail).reshape(op.nburst, tail)
    dst[idx] = np.tile(first, (1, -(-tail // size)))[:, :tail]


def _where(op: DmaOp, role: str, byte: int) -> str:
    """`(burst k, block j)` of the first block at or after BYTE that one side touches."""
    base, pitch, run = op.side(role)
    burst, off = divmod(max(byte - base, 0), pitch)
    blk = off // 32
    if off >= run:  # BYTE falls in a gap: the next burst's first block
        burst, blk = burst + 1, 0
    if burst >= op.nburst:
        burst, blk = op.nburst - 1, (run - 1) // 32
    return f"(burst {burst}, block {blk})"


def _check_side(ex: Context, instr: Instruction, op: DmaOp, role: str, gm: str | None) -> None:
    base = op.side(role)[0]
    lo, hi = op.extent(role)
    size = ex.m.space(gm).size
    if lo < 0 or hi >= size:
        where = f"GM tensor {gm} ({size} bytes)" if gm else f"UB ({size} bytes)"
        first = lo if lo < 0 else max(lo, size)
        raise Fault(Problem("bounds", f"{instr.name} {role} touches byte {first:#x} outside "
                            f"{where}", where=_where(op, role, first), role=role))
    if gm is not None:
        return
    if base % 32 and not instr.is_static:
        ex.check(instr, Problem("align", f"{instr.name} {role} address {base:#x}",
                                " is not 32-byte aligned (UB operands of DMA must be 32-byte "
                                "aligned)", role=role, at_value=True))
    t = instr.operands[role].tensor
    if t is not None and (lo < t.addr or hi >= t.addr + t.nbytes):
        end = t.addr + t.nbytes
        tail = _where(op, role, end if hi >= end else lo)
        ex.check(instr, Problem("footprint", f"{instr.name} {role} {t.name} needs "
                                f"{hi - t.addr + 1} bytes, tensor has {t.nbytes}", where=tail,
                                role=role))
