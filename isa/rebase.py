"""A statement's build shared by the lines that differ from it only in tensor indices (#33 item 1).

A long unrolled kernel, or a front end re-issuing one statement at new addresses, writes lines
such as `vsel.f32 x[64], x[64], y[0]` and `vsel.f32 x[128], x[128], y[64]`: the same statement
but for the integers inside `NAME[...]`. Everything a hardware-level build works out — the
mnemonic and its modifiers, keyword fields, operand kinds, type and chip checks, the family's
rules — depends on the text with those integers left out, except each operand's address, its
bounds check and its alignment. So the first such line is built in full and becomes a
`Template`; a later line of the same *shape* (its text with the bracketed integers masked, each
keeping its width so every column stays where it was) is the template's body with those
operands' addresses rebased and their texts replaced, and its canonical text re-joined.

A line takes the template only when nothing could differ: an index inside its tensor, and an
address moved by a multiple of the operand's alignment step (32 bytes and the family's own for
that operand), so every check the full build makes passes as it passed for the template. Any
other line is built in full, which words its diagnostics. An index with a leading zero, a
register index, an expression, an API statement (its expansion reads addresses) or a
statement with diagnostics never makes or takes a template.
tests/differential/test_rebased_lines.py assembles random programs both ways and requires
identical statements, instructions, texts, listings, diagnostics, outputs and cycles.
"""

from __future__ import annotations

import re
from math import lcm

from isa.operands import render
from isa.program import Body, Instruction, Operand

INDEX_RE = re.compile(r"\[([1-9][0-9]*|0)\]")  # a plain decimal index (no leading zero)
_MARK = "\x00"
TEMPLATES_LIMIT = 4096  # shapes remembered by one assembly before it starts afresh


def shape_of(text: str) -> tuple[tuple, list[str]] | None:
    """(the shape of TEXT: its pieces between plain bracketed indices and each index's width,
    the indices' digits), None when it has no such index."""
    parts = INDEX_RE.split(text)
    if len(parts) == 1:
        return None
    digits = parts[1::2]
    return (*parts[0::2], *map(len, digits)), digits


class Template:
    """The build of one line, to be rebased for lines of its shape."""

    __slots__ = ("body", "slots", "pieces", "seen", "col", "defn", "notes")

    def __init__(self, body: Body, slots: tuple, pieces: list[str]):
        self.body = body
        # per bracketed index, in order: (role, operand, tensor name, element size, tensor
        # base, element count, template index, step)
        self.slots = slots
        self.pieces = pieces  # the canonical text split where each slot's operand text goes
        # (slot, digits) -> that slot's operand at that index: lines repeat operands
        self.seen: dict[tuple[int, str], Operand] = {}
        self.col, self.defn, self.notes = body.col + 1, body.defn, body.notes  # the statement's

    def names(self, tensors: dict) -> bool:
        """Whether each operand's tensor is still the one TENSORS names (a stream may declare
        a name again)."""
        return all(tensors.get(s[2]) is s[1].tensor for s in self.slots)

    def rebased(self, digits: list[str], pc: int, line: int) -> Instruction | None:
        """The instruction of a line of this shape with DIGITS as its indices, at PC and LINE;
        None when an index is beyond its tensor or moves its operand off the alignment the
        template had (the full build then words what it finds)."""
        body, seen = self.body, self.seen
        ops = dict(body.operands)
        texts = []
        for k, d in enumerate(digits):
            role, o, name, size, base, count, idx0, step = self.slots[k]
            new = seen.get((k, d))
            if new is None:
                idx = int(d)
                if idx >= count or ((idx - idx0) * size) % step:
                    return None
                new = seen[(k, d)] = Operand(o.kind, o.col, f"{name}[{d}]", o.space,
                                             base + idx * size, o.tensor, o.value)
            ops[role] = new
            texts.append(new.text)
        pieces = self.pieces
        text = pieces[0]
        for t, p in zip(texts, pieces[1:], strict=True):
            text += t + p
        out = Body(body.defn, body.op, body.dtype, ops, body.fields, body.cols, body.col, text,
                   body.notes, body.is_static, body.file, body.col_fixed, body.src_dtype)
        object.__setattr__(out, "shape", body)  # (frozen; not an init argument)
        return Instruction(out, pc, line)


def template(instr: Instruction, text: str, keys) -> Template | None:
    """INSTR (built in full from TEXT, hardware level, without diagnostics) as a template for
    TEXT's shape; None when some bracketed index of TEXT is not a tensor operand's whole index
    (KEYS: the table's keyword fields, for the canonical text)."""
    if instr.defn.level != "hw" or not instr.is_static:
        return None
    by_start = {}
    for role, o in instr.operands.items():
        if o.kind == "mem" and o.tensor is not None and isinstance(o.addr, int):
            m = INDEX_RE.fullmatch(o.text, len(o.tensor.name))
            if m is not None and o.text.startswith(o.tensor.name):
                by_start[o.col + m.start()] = (role, o)
    slots, marked = [], dict(instr.operands)
    for k, m in enumerate(INDEX_RE.finditer(text)):
        hit = by_start.get(m.start())
        if hit is None:
            return None
        role, o = hit
        t = o.tensor
        size = t.dtype.size
        base = o.addr - int(m.group(1)) * size
        step = lcm(32, instr.defn.family.operand_align(role, instr.fields, instr.dtype))
        slots.append((role, o, t.name, size, base, t.count, int(m.group(1)), step))
        marked[role] = Operand(o.kind, o.col, f"{_MARK}{k}{_MARK}", o.space, o.addr, t, o.value)
    if len(slots) != len(by_start):
        return None
    out = render(instr.defn, instr.op, instr.dtype, marked, instr.fields, instr.src_dtype, keys)
    parts = re.split(f"{_MARK}([0-9]+){_MARK}", out)
    pieces = parts[0::2]
    if parts[1::2] != [str(k) for k in range(len(slots))]:  # each once, in the text's order
        return None
    tpl = Template(instr.body, tuple(slots), pieces)
    # the template must give back the line it was made from
    again = tpl.rebased([m.group(1) for m in INDEX_RE.finditer(text)], instr.pc, instr.line)
    if again is None or again.text != instr.text or again.operands != instr.operands:
        return None
    tpl.seen.clear()
    return tpl
