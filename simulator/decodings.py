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

A launch's runs of one program (its cores, then its next launches: `kept`) share one store: a
clean decoding is clean in every run of the program under the same checks, instruction set and
UB. Between runs the store keeps its decodings and what is derived from a decoding alone
(`pure`: its ranges, bank spans and timing costs), and lets go of what a run bound to it
(bodies, steps, the checks' accesses).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from operator import attrgetter
from weakref import WeakKeyDictionary, ref

import attrs
import numpy as np

from isa.decode import BlockBytes, VectorOp
from isa.program import Instruction, Program, Tensor
from simulator import checks

STATIC_MASKS = 256  # a static text's decodings (one per MASK/CTRL) before it starts afresh
SHAPE_CACHE = 65536  # remembered register-addressed decodings before the cache starts afresh
APART_PER_STRUCTURE = 8  # decodings kept for lines of one structure moving apart (`_put_apart`)
UNSHAPED = 64  # static decodings whose shape entries may wait (`Decodings.put`)
KEPT_LIMIT = 256  # decodings a store may hold to be kept for the program's next run (`kept`)
# memo entries derived from a decoding alone, with no closure and no run's object, kept between
# runs: its UB byte ranges (while they hold no byte array: `_keepable`) and bank spans
PURE = ("ranges", "bank spans")


class PureKey(tuple):
    """A memo key of another stage's entry derived from the decoding alone (and the stage's
    fixed data, named in the key), holding no closure and no run's object: kept between runs
    as PURE's names are (the timing stage's vector cost: `TimingModel._vector_cost`)."""

    __slots__ = ()


def pure(key) -> bool:
    """Whether a memo entry under KEY is kept between runs (PURE's names, a PureKey)."""
    return type(key) is PureKey or key in PURE


# a program -> (checks, instruction set, UB bytes) -> the store its runs share (`kept`)
_KEPT: WeakKeyDictionary[Program, dict[tuple, Decodings]] = WeakKeyDictionary()
CONTENTS_KEPT = 4  # program contents whose decodings outlive their programs (`_CONTENTS`)
# (a program's content number (`Program.context`), checks, instruction set, UB bytes) ->
# (chip, table, the decodings its last run released: text -> `_static`'s key -> a decoding
# without its statement, `_exported`), the most recent last: what a program assembled again
# from the same content starts from (`Decodings._adopt`)
_CONTENTS: OrderedDict[tuple, tuple] = OrderedDict()
# a decoding's init fields between its statement and its memo, in order: what an export keeps
# of it (with its memo's pure entries) and `_adopt` hands VectorOp back with the running
# statement (a new field is kept with them)
_EXPORTED = attrgetter(*[f.name for f in attrs.fields(VectorOp)
                         if f.init and f.name not in ("instr", "memo")])


def kept(program: Program, checks_mode: str, isa, ub_bytes: int) -> Decodings:
    """The store of PROGRAM's runs under CHECKS_MODE and ISA on a UB of UB_BYTES bytes (its
    last run's decodings; new when none), taken until the run releases it. A run of the same
    program still running (a debugger's, another thread's) gets one of its own, as does every
    run under --checks=warn: a warning is reported once per statement, so a decoding found
    clean after its statement warned once is clean for that run only."""
    if checks_mode == "warn":
        return Decodings(ub_bytes)
    by_key = _KEPT.get(program)
    if by_key is None:
        by_key = _KEPT[program] = {}
    key = (checks_mode, isa, ub_bytes)
    store = by_key.get(key)
    if store is None:
        store = by_key[key] = Decodings(ub_bytes, keep=True)
        # where `release` drops a store grown too large: the program by a weak reference (its
        # dict of stores would hold the store in a cycle, left to the collector when the
        # program goes)
        store._entry = (ref(program), key)
        if program.context is not None:
            store._from_content(program, (program.context, *key))
    elif store.busy:
        return Decodings(ub_bytes)
    store.busy = True
    return store


def forget(program: Program) -> None:
    """Drop PROGRAM's kept stores and those of its content (a launch that failed: its next
    run, and the next program assembled alike, start afresh)."""
    _KEPT.pop(program, None)
    if program.context is not None:
        for key in [k for k in _CONTENTS if k[0] == program.context]:
            del _CONTENTS[key]


class Decodings:
    def __init__(self, ub_bytes: int, keep: bool = False):
        """KEEP: a program's store shared by its runs (`kept`), which `release` prepares for
        the next run (BUSY while a run has it)."""
        self.ub_bytes = ub_bytes
        self.keep, self.busy = keep, False
        self._entry: tuple[ref, tuple] | None = None  # (`kept`)
        # text -> (MASK_HI, MASK_LO, CTRL, mode-2 address) -> decoding; a text keeps at most
        # STATIC_MASKS values (a loop setting a new MASK each iteration would keep one each)
        self._static: dict[str, dict[tuple, VectorOp]] = {}
        self._shapes: dict[tuple, tuple] = {}
        # a static line's structure (`_static_key` but the relative addresses) -> decodings
        # for lines whose operands move apart (`_put_apart`)
        self._apart: dict[tuple, list[tuple]] = {}
        # static decodings stored by text whose shape entries (`_shaped`) wait until a lookup
        # reads `_shapes` or `_apart`: made then, in the order they were put, they are what
        # making them at once would have left (a run whose static lines all repeat a text
        # seen before never reads them)
        self._unshaped: list[tuple] = []
        # a kept store of a program with a content number (`_from_content`): that key in
        # `_CONTENTS`, the program's chip, table and tensors, the decodings exported by the
        # last run of its content (taken by `_adopt`), the static decodings put so far and
        # at the last export
        self._content: tuple | None = None
        self._made: tuple = ()
        self._tensors: dict[str, Tensor] = {}
        self._foreign: dict[str, dict[tuple, tuple]] | None = None
        self._puts = self._exported = 0

    def _from_content(self, program: Program, content: tuple) -> None:
        """Make this store (PROGRAM's first, kept) take the decodings the last run of a
        program of its CONTENT (`_CONTENTS`' key) released, and export its own when
        released."""
        self._content, self._made = content, (program.chip, program.table)
        self._tensors = program.tensors
        got = _CONTENTS.get(content)
        if got is not None and got[0] is program.chip and got[1] is program.table:
            self._foreign = got[2]  # (the chip and table compared: the number holds ids)

    def _adopt(self, instr: Instruction, key: tuple) -> VectorOp | None:
        """The decoding a run of a program of this one's content kept for INSTR's text and
        KEY (`_static`'s), made INSTR's and stored as `put` would have stored it (its
        shape entries from the addresses the executor resolves a static line to, the extents
        worked out again). The same text in the same content is the same build, so the same
        decoding and check verdicts (its tensors, when all are declared ones: an API
        statement's scratch is not in the content)."""
        by_mask = self._foreign.get(instr.text)
        got = by_mask.get(key) if by_mask is not None else None
        if got is None or not self._declared(instr):
            return None
        vop = VectorOp(instr, *got[:-1])
        vop.memo.update(got[-1])
        sel = key[-1]
        self._put_static(instr, vop, sel)
        if sel is None:  # (a mode-2 mask or table address: its role is the to say)
            addrs = {r: o.addr for r, o in instr.operands.items() if o.kind == "mem"}
            self._shape_later(instr, addrs, instr.fields, None, vop, None)
        return vop

    def _declared(self, instr: Instruction) -> bool:
        """Whether every tensor INSTR names is one of its program's declared tensors."""
        tensors = self._tensors
        for o in instr.operands.values():
            t = o.tensor
            if t is not None and tensors.get(t.name) is not t:
                return False
        return True

    def _export(self) -> None:
        """Keep this store's static decodings, without their statements, and those it took
        from its content's last export and did not use, as its content's (`_CONTENTS`): for
        the next program assembled alike. Called by `release` once their pure entries are
        all their memos hold."""
        if self._puts == self._exported and self._foreign is None:
            return
        self._exported = self._puts
        out = dict(self._foreign) if self._foreign is not None else {}
        self._foreign = None
        for text, by_mask in self._static.items():
            out[text] = {k: (*_EXPORTED(v), dict(v.memo))
                         for k, v in by_mask.items() if self._declared(v.instr)}
        if len(out) > KEPT_LIMIT:
            return
        _CONTENTS[self._content] = (*self._made, out)
        _CONTENTS.move_to_end(self._content)
        while len(_CONTENTS) > CONTENTS_KEPT:
            _CONTENTS.popitem(last=False)

    def release(self) -> None:
        """Empty every stored decoding's memo (a finished run's: its bodies and plans are
        closures that refer back to the decoding, a cycle only the collector would free). A
        kept store (`kept`) keeps its decodings and their pure entries (`pure`) for the next run,
        unless it grew past KEPT_LIMIT decodings (then the program's next run starts a new
        one)."""
        self.busy = False
        if self.keep and self._within(KEPT_LIMIT):
            for vop in self._stored():
                memo = vop.memo
                if memo:
                    kept_entries = [(k, v) for k, v in memo.items() if pure(k)]
                    memo.clear()
                    for k, v in kept_entries:
                        if k != "ranges" or _keepable(v):
                            memo[k] = v
            if self._content is not None:
                self._export()
            return
        self._foreign = None
        self._unshaped.clear()
        for by_mask in self._static.values():
            for vop in by_mask.values():
                vop.memo.clear()
        for vop, *_, seen in self._shapes.values():
            vop.memo.clear()
            for other in seen.values():
                other.memo.clear()
        if self.keep:  # too large to keep: the program's next run starts a store afresh
            self.keep = False
            program_ref, key = self._entry
            program = program_ref()
            by_key = _KEPT.get(program) if program is not None else None
            if by_key is not None and by_key.get(key) is self:
                del by_key[key]

    def _stored(self) -> Iterator[VectorOp]:
        """Every decoding the store holds (a static text's, a shape's and its moved ones)."""
        for by_mask in self._static.values():
            yield from by_mask.values()
        for vop, *_, seen in self._shapes.values():
            yield vop
            yield from seen.values()

    def _within(self, limit: int) -> bool:
        """Whether the store holds at most LIMIT decodings (counted until past it)."""
        n = len(self._static) + len(self._shapes)
        for by_mask in self._static.values():
            if n > limit:
                return False
            n += len(by_mask) - 1
        for entry in self._shapes.values():
            if n > limit:
                return False
            n += len(entry[-1])
        return n <= limit

    def get(self, instr: Instruction, addrs: dict, fields: dict, mask: tuple[int, int],
            counter: bool, sel: int | None) -> VectorOp | None:
        """A stored decoding valid for this execution, else None. It may be another
        statement's with the same text (its `instr` is that statement): a decoding depends on
        the text alone, and copying it for each statement would cost more than the rest of a
        small instruction's issue."""
        if instr.is_static:
            by_mask = self._static.get(instr.text)
            vop = by_mask.get((*mask, counter, sel)) if by_mask is not None else None
            if vop is None:
                if self._foreign is not None:
                    vop = self._adopt(instr, (*mask, counter, sel))
                if vop is None and addrs:
                    vop = self._static_rebased(instr, addrs, fields, mask, counter, sel)
            return vop
        return self._rebased(instr, addrs, fields, mask, counter)

    def put(self, instr: Instruction, addrs: dict, fields: dict, sel: int | None,
            vop: VectorOp, extents: dict | None = None) -> None:
        """Remember a decoding whose checks passed cleanly (EXTENTS: each operand's byte
        extent by role, as the checks found it, when they did). A static one is kept by its
        text now and for lines of its shape when `_shapes` or `_apart` is next read."""
        if instr.is_static:
            self._put_static(instr, vop, sel)
            self._shape_later(instr, addrs, fields, sel, vop, extents)
            return
        self._shape_all()
        self._shaped(instr, addrs, fields, sel, vop, extents)

    def _shape_later(self, instr: Instruction, addrs: dict, fields: dict, sel: int | None,
                     vop: VectorOp, extents: dict | None) -> None:
        """A static decoding's shape entries, made when `_shapes` or `_apart` is next read."""
        if "guard" in instr.operands:  # its scalar-overlap check reads the guard's address
            return
        if len(self._unshaped) >= UNSHAPED:
            self._shape_all()
        self._unshaped.append((instr, addrs, fields, sel, vop, extents))

    def _shape_all(self) -> None:
        """The shape entries of the static decodings put since the last call, in order."""
        if self._unshaped:
            waiting, self._unshaped = self._unshaped, []
            for entry in waiting:
                self._shaped(*entry)

    def _shaped(self, instr: Instruction, addrs: dict, fields: dict, sel: int | None,
                vop: VectorOp, extents: dict | None) -> None:
        """`put`'s entries for lines of VOP's shape (`_shapes`, `_put_apart`)."""
        if len(self._shapes) > SHAPE_CACHE:
            self._shapes.clear()
            self._apart.clear()
        first = vop.operands[0].base if vop.operands else 0
        aligned = all((acc.base - first) % 32 == 0 for acc in vop.operands)
        spans = []  # each operand's (first byte, last byte, lowest base, highest base)
        for acc in vop.operands:  # from its base: the bases that pass every check
            lo, hi = extents[acc.role] if extents is not None else checks.extent(vop, acc)
            if hi < lo:
                spans.append(None)
                continue
            tensor = checks.tensor_of(instr, acc.role)
            floor, ceil = 0, self.ub_bytes
            if tensor is not None:
                floor, ceil = max(floor, tensor.addr), min(ceil, tensor.addr + tensor.nbytes)
            b = acc.base
            spans.append((lo - b, hi - b, floor - (lo - b), ceil - 1 - (hi - b)))
        if instr.is_static:  # rebased by the shift of its first address: only when that
            # is where the first operand lies (then it is for every line laid out alike)
            if not aligned or first != next(iter(addrs.values()), None):
                return
            key = _static_key(instr, addrs, fields, vop.mask, vop.counter)
        elif aligned:
            key = _shape_key(instr, addrs, fields, vop.mask, vop.counter)
        else:
            return
        bases = [a.base for a in vop.operands]
        self._shapes[key] = (vop, first, *_first_bases(first, bases, spans), {})
        if sel is None and first % 32 == 0 and \
                all(addrs.get(a.role) == a.base for a in vop.operands):
            self._put_apart(key[:-1], vop, tuple(spans))

    def _put_static(self, instr: Instruction, vop: VectorOp, sel: int | None) -> None:
        by_mask = self._static.setdefault(instr.text, {})
        if len(by_mask) >= STATIC_MASKS:
            by_mask.clear()
        by_mask[(*vop.mask, vop.counter, sel)] = vop
        self._puts += 1

    def _put_apart(self, structure: tuple, vop: VectorOp, spans: tuple) -> None:
        """Remember VOP (of a static line whose operands lie where its addresses say, each on a
        row) for lines of its STRUCTURE whose operands move apart: each operand's SPANS (its
        bytes from its base, the bases its bounds and footprint allow) and which operands
        overlap, and how (`_overlaps`)."""
        entries = self._apart.setdefault(structure, [])
        if len(entries) >= APART_PER_STRUCTURE:
            entries.clear()
        bases = tuple(a.base for a in vop.operands)
        entries.append((vop, spans, _overlaps(bases, spans)))

    def _moved_apart(self, instr: Instruction, key: tuple, addrs: dict,
                     sel: int | None) -> VectorOp | None:
        """A line (KEY: its `_static_key` or `_shape_key`) of a structure stored by
        `_put_apart`, its operands each moved by its own shift (an unrolled kernel's tile, or a
        loop's, walking past a fixed operand): that decoding moved, when every operand stays on
        a row within what its bounds and footprint allow and the operands overlap as they did
        (the overlap, accumulation and alignment rules then find what they found: nothing).
        Kept for the lines laid out as this one is (moved alike from it) and a static line's
        for its text, as a decoding made afresh is."""
        entries = self._apart.get(key[:-1])
        if not entries:
            return None
        for vop, spans, overlaps in entries:
            bases = [addrs.get(a.role) for a in vop.operands]
            if None not in bases and _fits(bases, spans, overlaps):
                out = vop.moved(instr, tuple(b - a.base for a, b
                                             in zip(vop.operands, bases, strict=True)))
                if instr.is_static:
                    self._put_static(instr, out, sel)
                first = bases[0]
                self._shapes[key] = (out, first, *_first_bases(first, bases, spans), {})
                return out
        return None

    def run_origin(self, instr: Instruction, roles: tuple[str, ...], bases: np.ndarray,
                   fields: dict, mask: tuple[int, int], counter: bool
                   ) -> tuple[VectorOp, tuple, np.ndarray] | None:
        """For consecutive static lines of INSTR's structure run once each (the fast loop's
        batch), their operands at BASES ((lines, ROLES) bytes): a decoding stored for lines
        whose operands move apart (`_put_apart`), its operands' spans, and the bases of the
        lines from the first on that it serves as `_moved_apart` would serve each (columns
        in its operands' order); None when it serves not even the first."""
        self._shape_all()
        addrs = dict(zip(roles, bases[0].tolist(), strict=True))
        entries = self._apart.get(_static_key(instr, addrs, fields, mask, counter)[:-1])
        for vop, spans, overlaps in entries or ():
            if any(a.role not in roles for a in vop.operands):
                continue
            cols = bases[:, [roles.index(a.role) for a in vop.operands]]
            ok = _fits(cols.T, spans, overlaps)
            n = len(ok) if ok.all() else int(np.argmin(ok))
            if n:
                return vop, spans, cols[:n]
        return None

    def _static_rebased(self, instr: Instruction, addrs: dict, fields: dict,
                        mask: tuple[int, int], counter: bool, sel: int | None
                        ) -> VectorOp | None:
        """A static line not seen before, of the shape of one whose decoding passed cleanly
        (#33 item 1: an unrolled kernel's lines differ in their addresses alone): that
        decoding with every address moved by one shift, when the addresses lie as they lay
        relative to each other and the shift keeps every check passing (as `_rebased`). Kept
        for its text too, as `put` keeps a decoding (the fast loop's `prepared` looks it up
        by text alone)."""
        if self._unshaped:
            self._shape_all()
        key = _static_key(instr, addrs, fields, mask, counter)
        hit = self._shapes.get(key)
        if hit is None:
            return self._moved_apart(instr, key, addrs, sel) if sel is None else None
        vop, first, lo_b, hi_b, _ = hit
        base = next(iter(addrs.values()))
        if base % 32 or not lo_b <= base <= hi_b:
            return None
        out = vop.moved(instr, base - first)
        self._put_static(instr, out, sel)
        return out

    def _rebased(self, instr: Instruction, addrs: dict, fields: dict, mask: tuple[int, int],
                 counter: bool) -> VectorOp | None:
        if self._unshaped:
            self._shape_all()
        key = _shape_key(instr, addrs, fields, mask, counter)
        hit = self._shapes.get(key)
        if hit is None:
            return self._moved_apart(instr, key, addrs, None)
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


def _first_bases(first: int, bases, spans) -> tuple[int, int]:
    """The lowest and highest first-operand base (FIRST now) at which every operand, at BASES
    and moved alike, stays within what its SPANS (`put`'s) allow."""
    lo_b, hi_b = -(1 << 62), 1 << 62
    for b, span in zip(bases, spans, strict=True):
        if span is not None:
            lo_b = max(lo_b, first + span[2] - b)
            hi_b = min(hi_b, first + span[3] - b)
    return lo_b, hi_b


def _fits(bases, spans: tuple, overlaps: tuple):
    """Whether operands at BASES (one an operand: ints, or arrays of one per line) stay on a
    row within what their SPANS (`put`'s) allow and overlap as OVERLAPS (`_overlaps`) says: a
    bool, or a bool array of one per line."""
    ok = True
    for b, span in zip(bases, spans, strict=True):
        ok = ok & (b % 32 == 0)
        if span is not None:
            ok = ok & (span[2] <= b) & (b <= span[3])
    pairs = iter(overlaps)
    k = len(spans)
    for i in range(k):
        si = spans[i]
        for j in range(i + 1, k):
            sj, ov = spans[j], next(pairs)
            if si is None or sj is None:
                continue
            if ov is None:
                ok = ok & ((bases[i] + si[1] < bases[j] + sj[0])
                           | (bases[j] + sj[1] < bases[i] + si[0]))
            else:
                ok = ok & (bases[j] - bases[i] == ov)
    return ok


def _overlaps(bases, spans: tuple) -> tuple:
    """For each pair of operands at BASES (SPANS: `put`'s), None when their bytes lie apart,
    else how far apart their bases are."""
    out = []
    k = len(spans)
    for i in range(k):
        si = spans[i]
        for j in range(i + 1, k):
            sj = spans[j]
            if si is None or sj is None or bases[i] + si[1] < bases[j] + sj[0] \
                    or bases[j] + sj[1] < bases[i] + si[0]:
                out.append(None)
            else:
                out.append(bases[j] - bases[i])
    return tuple(out)


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


def _keepable(ranges: list) -> bool:
    """Whether a decoding's UB byte ranges may be kept between runs: no byte array in them.
    An operand of whole blocks keeps its blocks: its bytes are let go of here."""
    for _, _, _, idx, _ in ranges:
        if type(idx) is BlockBytes:
            idx.forget_bytes()
        elif idx is not None:
            return False
    return True
