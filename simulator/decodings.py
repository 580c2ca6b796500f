"""Decoded vector instructions, reused across executions (the executor's hot path).

A decoding and its check verdict depend only on the instruction's text, the resolved addresses
and fields, MASK/CTRL and (vsel mode 2) the mask address. Two reuse paths:
- a static instruction: its canonical text fixes every address, so identical statements share
  one decoding per (text, MASK, CTRL, mode-2 address);
- a register-addressed instruction in a loop sees new addresses at every execution; its decoding
  and overlap verdict depend only on the addresses relative to each other, and alignment, bounds
  and footprint become interval tests on the shifted extents.
Only decodings whose checks passed cleanly are stored, so anything else takes the executor's full
path, which words the diagnostics.
"""

from __future__ import annotations

from collections.abc import Callable

from isa.decode import VectorOp
from isa.program import Instruction, Tensor
from simulator import checks

STATIC_MASKS = 256  # a static text's decodings (one per MASK/CTRL) before it starts afresh
SHAPE_CACHE = 65536  # remembered register-addressed decodings before the cache starts afresh


class Decodings:
    def __init__(self, ub_bytes: int):
        self.ub_bytes = ub_bytes
        # text -> (MASK_HI, MASK_LO, CTRL, mode-2 address) -> decoding; a text keeps at most
        # STATIC_MASKS values (a loop setting a new MASK each iteration would keep one each)
        self._static: dict[str, dict[tuple, VectorOp]] = {}
        self._shapes: dict[tuple, tuple] = {}

    def release(self) -> None:
        """Empty every stored decoding's memo (a finished run's: its bodies and plans are
        closures that refer back to the decoding, a cycle only the collector would free)."""
        for by_mask in self._static.values():
            for vop in by_mask.values():
                vop.memo.clear()
        for vop, *_, seen in self._shapes.values():
            vop.memo.clear()
            for other in seen.values():
                other.memo.clear()

    def get(self, instr: Instruction, addrs: dict, fields: dict, mask: tuple[int, int],
            counter: bool, sel: int | None) -> VectorOp | None:
        """A stored decoding valid for this execution, else None. It may be another
        statement's with the same text (its `instr` is that statement): a decoding depends on
        the text alone, and copying it for each statement would cost more than the rest of a
        small instruction's issue."""
        if instr.is_static:
            by_mask = self._static.get(instr.text)
            vop = by_mask.get((*mask, counter, sel)) if by_mask is not None else None
            if vop is None and addrs:
                vop = self._static_rebased(instr, addrs, fields, mask, counter, sel)
            return vop
        return self._rebased(instr, addrs, fields, mask, counter)

    def put(self, instr: Instruction, addrs: dict, fields: dict, sel: int | None,
            vop: VectorOp, tensor_of: Callable[[Instruction, str], Tensor | None]) -> None:
        """Remember a decoding whose checks passed cleanly."""
        if instr.is_static:
            self._put_static(instr, vop, sel)
            if "guard" in instr.operands:  # its scalar-overlap check reads the guard's address
                return
        if len(self._shapes) > SHAPE_CACHE:
            self._shapes.clear()
        first = vop.operands[0].base if vop.operands else 0
        lo_b, hi_b, aligned = -(1 << 62), 1 << 62, True
        for acc in vop.operands:  # the range of first-operand bases that passes every check
            d = acc.base - first
            aligned = aligned and d % 32 == 0
            lo, hi = checks.extent(vop, acc)
            if hi < lo:
                continue
            tensor = tensor_of(instr, acc.role)
            floor, ceil = 0, self.ub_bytes
            if tensor is not None:
                floor, ceil = max(floor, tensor.addr), min(ceil, tensor.addr + tensor.nbytes)
            lo_b = max(lo_b, floor - (lo - first))
            hi_b = min(hi_b, ceil - 1 - (hi - first))
        if instr.is_static:  # rebased by the shift of its first address: only when that
            # is where the first operand lies (then it is for every line laid out alike)
            if aligned and first == next(iter(addrs.values()), None):
                key = _static_key(instr, addrs, fields, vop.mask, vop.counter)
                self._shapes[key] = (vop, first, lo_b, hi_b, {})
        elif aligned:
            key = _shape_key(instr, addrs, fields, vop.mask, vop.counter)
            self._shapes[key] = (vop, first, lo_b, hi_b, {})

    def _put_static(self, instr: Instruction, vop: VectorOp, sel: int | None) -> None:
        by_mask = self._static.setdefault(instr.text, {})
        if len(by_mask) >= STATIC_MASKS:
            by_mask.clear()
        by_mask[(*vop.mask, vop.counter, sel)] = vop

    def _static_rebased(self, instr: Instruction, addrs: dict, fields: dict,
                        mask: tuple[int, int], counter: bool, sel: int | None
                        ) -> VectorOp | None:
        """A static line not seen before, of the shape of one whose decoding passed cleanly
        (#33 item 1: an unrolled kernel's lines differ in their addresses alone): that
        decoding with every address moved by one shift, when the addresses lie as they lay
        relative to each other and the shift keeps every check passing (as `_rebased`). Kept
        for its text too, as `put` keeps a decoding (the fast loop's `prepared` looks it up
        by text alone)."""
        hit = self._shapes.get(_static_key(instr, addrs, fields, mask, counter))
        if hit is None:
            return None
        vop, first, lo_b, hi_b, _ = hit
        base = next(iter(addrs.values()))
        if base % 32 or not lo_b <= base <= hi_b:
            return None
        out = vop.moved(instr, base - first)
        self._put_static(instr, out, sel)
        return out

    def _rebased(self, instr: Instruction, addrs: dict, fields: dict, mask: tuple[int, int],
                 counter: bool) -> VectorOp | None:
        hit = self._shapes.get(_shape_key(instr, addrs, fields, mask, counter))
        if hit is None:
            return None
        vop, first, lo_b, hi_b, seen = hit
        base = next(iter(addrs.values()), 0)
        if base % 32 or not lo_b <= base <= hi_b:
            return None
        out = seen.get(base)
        if out is None:
            out = vop.moved(instr, base - first)
            if len(seen) < SHAPE_CACHE // 64:
                seen[base] = out
        return out


def _shape_key(instr: Instruction, addrs: dict, fields: dict, mask: tuple[int, int],
               counter: bool) -> tuple:
    vals = tuple(addrs.values())
    rel = tuple(map((vals[0] if vals else 0).__rsub__, vals))  # a - vals[0] for each a
    return (instr.text, *mask, counter, tuple(fields.values()), rel)


def _static_key(instr: Instruction, addrs: dict, fields: dict, mask: tuple[int, int],
                counter: bool) -> tuple:
    """`_shape_key` of a static instruction, by what its decoding and checks read instead of
    its text (which names its addresses): the row, types, operands' kinds and tensors (the
    footprint rule's bounds) and fields."""
    vals = tuple(addrs.values())
    rel = tuple(map(vals[0].__rsub__, vals))
    src = instr.src_dtype
    # FIELDS by identity: a static line's are its body's, one dict shared by the lines of one
    # shape (isa.operands.shared); the entry's decoding keeps it (and so its id) alive
    return (id(instr.defn), instr.op, instr.dtype.name, src.name if src is not None else None,
            tuple([(o.kind, o.tensor) for o in instr.operands.values()]), id(fields), *mask,
            counter, rel)
