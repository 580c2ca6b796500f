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
An assembly finds a line's shape with `Shapes` (its digit class cut once: one dict lookup and
one C-level slicing a line); a front end's statement with `shape_of`.
tests/differential/test_rebased_lines.py assembles random programs both ways and requires
identical statements, instructions, texts, listings, diagnostics, outputs and cycles.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from math import lcm
from operator import itemgetter

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


# a line's class: its ASCII digits all 0 (the same for lines alike but for their numbers)
_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_SPAN_RE = re.compile(rb"\[(0+)\]")  # in a class: a bracketed index, any digits
_DIGITS_RE = re.compile(rb"0+")
_NONE: tuple = ()  # a class without bracketed indices


class Shape:
    """The lines alike but for the digits of their bracketed indices (each index keeping its
    width, so every column stays where it was): how the assembler's first pass classified the
    first of them (`line`: a plain line, no directive or comment; `wo`: a label-free statement's
    mnemonic offset), and the template its second pass built (isa/rebase.py)."""

    __slots__ = ("line", "wo", "template")

    def __init__(self) -> None:
        self.line = False
        self.wo: int | None = None
        self.template: Template | None = None


class Shapes:
    """The shapes of one assembly's lines, found with C-level work a line: the line's class
    (its digits zeroed, one byte translation) says where its indices and its other digits
    stand; one cut of the line there gives the indices' digits and the other digits, which
    with the class name its shape (the class fixes every other character)."""

    def __init__(self) -> None:
        # class -> (its cut: the indices' digits, then the other digits and '', the number of
        # indices, the shapes of the class by their other digits), or _NONE
        self.classes: dict[bytes, tuple] = {}

    def find(self, text: str) -> tuple[Shape, tuple[str, ...]] | None:
        """(TEXT's shape, its indices' digits), None when it has no bracketed index (or is
        not ASCII: the class's byte positions are its characters')."""
        if "[" not in text or not text.isascii():
            return None
        key = text.encode().translate(_ZEROS)
        got = self.classes.get(key)
        if got is None:
            cut = _CUTS.get(key)
            if cut is None:
                if len(_CUTS) >= CUTS_LIMIT:
                    _CUTS.clear()
                cut = _CUTS[key] = _class(key)
            got = self.classes[key] = cut if cut is _NONE else (*cut, {})
        if got is _NONE:
            return None
        cut, n, shapes = got
        parts = cut(text)
        shape = shapes.get(parts[n:])
        if shape is None:
            shape = shapes[parts[n:]] = Shape()
        return shape, parts[:n]


# a class's cut and its number of indices (or _NONE), by the class: it depends on the class
# alone, and the lines of a program assembled again have the classes they had
_CUTS: dict[bytes, tuple] = {}
CUTS_LIMIT = 4096


def _class(key: bytes) -> tuple:
    """Class KEY's cut and its number of indices (`Shapes.classes`' entry without its
    shapes), or _NONE."""
    indices = [slice(*m.span(1)) for m in _SPAN_RE.finditer(key)]
    if not indices:
        return _NONE
    starts = {s.start for s in indices}
    others = [slice(*m.span()) for m in _DIGITS_RE.finditer(key) if m.start() not in starts]
    return itemgetter(*indices, *others, slice(0, 0)), len(indices)


class Template:
    """The build of one line, to be rebased for lines of its shape."""

    __slots__ = ("body", "slots", "pieces", "seen", "col", "defn", "notes", "roles", "between",
                 "fmt", "same")

    def __init__(self, body: Body, slots: tuple, pieces: list[str]):
        self.body = body
        # per bracketed index, in order: (role, operand, tensor name, element size, tensor
        # base, element count, template index, step)
        self.slots = slots
        self.pieces = pieces  # the canonical text split where each slot's operand text goes
        # per slot, its operand at each index seen (digits -> Operand): lines repeat operands
        self.seen: tuple[dict[str, Operand], ...] = tuple({} for _ in slots)
        self.roles = tuple(s[0] for s in slots)
        # the canonical text between the indices' digits; with `%s` for each index's digits
        self.between = [p + s[2] for p, s in zip(pieces, slots, strict=False)] + [pieces[-1]]
        self.fmt = "[%s]".join(p.replace("%", "%%") for p in self.between)
        # whether a line of the shape, stripped, is its canonical text (set by `template`)
        self.same = False
        self.col, self.defn, self.notes = body.col + 1, body.defn, body.notes  # the statement's

    def names(self, tensors: dict) -> bool:
        """Whether each operand's tensor is still the one TENSORS names (a stream may declare
        a name again)."""
        return all(tensors.get(s[2]) is s[1].tensor for s in self.slots)

    def rebased(self, digits: Sequence[str], pc: int, line: int) -> Instruction | None:
        """The instruction of a line of this shape with DIGITS as its indices, at PC and LINE;
        None when an index is beyond its tensor or moves its operand off the alignment the
        template had (the full build then words what it finds)."""
        body = self.body_for(tuple(digits))
        return None if body is None else Instruction(body, pc, line)

    def body_for(self, digits: tuple[str, ...], text: str | None = None) -> Body | None:
        """`rebased`'s body (DIGITS a tuple), shared by no other line; TEXT: its canonical
        text when known (the line stripped, when `same`)."""
        ops = self.body.operands.copy()
        roles, seens = self.roles, self.seen
        for k, d in enumerate(digits):  # (no zip: its keyword alone cost a fifth of a line)
            new = seens[k].get(d)
            if new is None:
                new = self._operand(k, d)
                if new is None:
                    return None
            ops[roles[k]] = new
        return self.body.moved(ops, self.fmt % digits if text is None else text)

    def _operand(self, k: int, d: str) -> Operand | None:
        """Slot K's operand at index D (kept for the lines after), None when D is no plain
        index inside its tensor at the template's alignment."""
        role, o, name, size, base, count, idx0, step = self.slots[k]
        if d[0] == "0" and len(d) > 1:  # a leading zero: no plain index (INDEX_RE)
            return None
        idx = int(d)
        if idx >= count or ((idx - idx0) * size) % step:
            return None
        new = self.seen[k][d] = Operand(o.kind, o.col, f"{name}[{d}]", o.space,
                                        base + idx * size, o.tensor, o.value)
        return new


def template(instr: Instruction, text: str, keys, digits: Sequence[str] | None = None
             ) -> Template | None:
    """INSTR (built in full from TEXT, hardware level, without diagnostics) as a template for
    TEXT's shape; None when some bracketed index of TEXT is not a tensor operand's whole index
    (KEYS: the table's keyword fields, for the canonical text), or when DIGITS, TEXT's indices'
    digits as its `Shapes` shape found them, are not its plain indices' (a leading zero)."""
    if instr.defn.level != "hw" or not instr.is_static:
        return None
    if digits is not None and [m.group(1) for m in INDEX_RE.finditer(text)] != list(digits):
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
    for seen in tpl.seen:
        seen.clear()
    tpl.same = INDEX_RE.split(text.strip())[0::2] == tpl.between
    return tpl
