"""The recorded tree → an `isa.Program`: labels and branches for loops and ifs, the
synchronisation pass's flags, and every statement assembled at the script's FILE:LINE:COL."""

from __future__ import annotations

import linecache
from collections import Counter
from typing import TYPE_CHECKING

import attrs
import numpy as np

from isa.assembler import assemble_statement
from isa.diagnostics import AssemblyError
from isa.families import NOP
from isa.program import Init, Instruction, Program, Statement, one_statement
from isa.program import Tensor as ProgramTensor
from isa.table import InstrDef
from simulator.tik import regalloc
from simulator.tik.errors import Loc, TikError
from simulator.tik.nodes import Block, If, Loop, Op, Replays
from simulator.tik.sync import Events, Plan, plan

# what backs a dynamic GM tensor at most: 8 GiB of the OS's lazily zeroed pages (a 2^31-1-
# element float32 tensor's); a larger declared shape (2^63-1) keeps its indices, not its bytes
DYNAMIC_BACKING_BYTES = 1 << 33

if TYPE_CHECKING:
    from simulator.tik.kernel import Kernel as Tik

# a TIK call in the listing: its hardware instructions are shown under it, as for an API line
TIK_CALL = InstrDef("tik", (), NOP, level="api", doc="a TIK call")
MAX_ERRORS = 20


@attrs.define
class Unit:
    """One statement of the program: a TIK call (or loop/branch control) at its line; or, with
    REPLAYS (a Replays node, its calls [first, end)), one statement each of those calls."""

    loc: Loc
    api: str
    source: str
    lines: list[str]
    replays: tuple[Replays, int, int] | None = None

    @property
    def size(self) -> int:
        """The statements it is."""
        return 1 if self.replays is None else self.replays[2] - self.replays[1]


class Emitter:
    def __init__(self, sync: Plan, events: Events, stamps: dict[int, int] | None):
        self.sync, self.events = sync, events
        self.units: list[Unit] = []
        self.pc = 0  # the statements the units are so far
        self.labels: dict[str, int] = {}  # label → the pc it marks
        self.pending: list[str] = []  # labels of the next statement
        # id(node) → its recording clock (simulator/tik/regalloc.py); None: the kernel has no
        # Scalar, and nothing needs the marks
        self.stamps = stamps
        self.marks: list[tuple[int, int]] = []  # (clock, first pc) of each recorded node
        self.sources: dict[int, tuple[Loc, str]] = {}  # id(call site) -> it, its line's text
        self.last: tuple[Loc | None, str] = (None, "")  # the last one asked for

    def label(self, name: str) -> None:
        self.pending.append(name)

    def unit(self, loc: Loc, api: str, source: str, lines: list[str],
             replays: tuple[Replays, int, int] | None = None) -> None:
        if lines or replays:
            unit = Unit(loc, api, source, lines, replays)
            self.units.append(unit)
            if self.pending:  # (most: none)
                self.labels.update(dict.fromkeys(self.pending, self.pc))
                self.pending = []
            self.pc += unit.size

    def source(self, loc: Loc) -> str:
        """LOC's line, read once a call site (a Python loop's calls share one Loc, hashed by
        identity here: attrs' hash of a Loc cost a tenth of a call's build)."""
        got = self.last
        if got[0] is not loc:
            got = self.sources.get(id(loc))
            if got is None or got[0] is not loc:
                got = self.sources[id(loc)] = (loc, loc.source)
            self.last = got
        return got[1]

    def block(self, block: Block) -> None:
        sync, events, stamps = self.sync, self.events, self.stamps
        waits_of, sets_of = sync.waits.get, sync.sets_after.get
        for i, node in enumerate(block.nodes):
            where = (block.id, i)
            if stamps is not None:
                clock = stamps.get(id(node))
                if clock is not None:
                    self.marks.append((clock, self.pc))
            if node.__class__ is Replays:
                self.replays(node, where)
                continue
            if node.__class__ is Op:
                loc = node.loc
                waits, sets = waits_of(node), sets_of(where)
                if not waits and not sets:  # most calls: no flags around them
                    self.unit(loc, node.api, self.source(loc), node.lines)
                    continue
                before = self._waits_before(waits)
                after = self._sets_after(where)
                self.unit(loc, node.api, self.source(loc), before + node.lines + after)
                continue
            self.node(node, [line for pair in sync.before_loop.get(where, ())
                             for line in events.before_loop(pair)])
            after = [line for pair in sync.after_loop.get(where, ())
                     for line in events.after_loop(pair)] + self._sets_after(where)
            self.unit(node.loc, "synchronisation", f"{node.loc.source}  # after the block",
                      after)

    def replays(self, node: Replays, where) -> None:
        """NODE's calls, a statement each: the waits before the first, the sets after the
        last (the synchronisation pass took the node as one access), as an Op of each call's
        lines would have them; the calls between, one unit."""
        loc, api, count = node.loc, node.entry.api, len(node.offsets)
        source = self.source(loc)
        if self.stamps is not None:  # each call's clock: the node's stamp + its place
            clock = self.stamps[id(node)]
            self.marks += [(clock + k, self.pc + k) for k in range(1, count)]
        first, end = 0, count
        waits = self.sync.waits.get(node)
        if waits:
            before = self._waits_before(waits)
            lines = before + node.lines(0)
            if count == 1:
                lines += self._sets_after(where)
            self.unit(loc, api, source, lines)
            first = 1
        last = None
        if end > first and self.sync.sets_after.get(where):
            end -= 1
            last = node.lines(end)  # its sets are taken after the calls before it
        if end > first:
            self.unit(loc, api, source, [], (node, first, end))
        if last is not None:
            self.unit(loc, api, source, last + self._sets_after(where))

    def _waits_before(self, waits) -> list[str]:
        return [line for pair in waits or () for line in self.events.wait_before(pair)]

    def _sets_after(self, where) -> list[str]:
        return [line for pair in self.sync.sets_after.get(where, ())
                for line in self.events.set_after(pair)]

    def node(self, node, before: list[str]) -> None:
        if isinstance(node, Loop):
            self.unit(node.loc, "for_range", node.loc.source, before + node.head.lines)
            self.label(f"{node.label}_body")
            self.block(node.body)
            self.unit(node.loc, "for_range", f"{node.loc.source}  # next iteration",
                      node.tail.lines)
            self.label(f"{node.label}_end")
        elif isinstance(node, If):
            self.unit(node.loc, "if_scope", node.loc.source, node.head.lines)
            self.label(f"{node.label}_then")  # tik.any: a condition that holds jumps here
            self.block(node.then)
            if node.orelse is not None:
                self.unit(node.else_loc, "else_scope", node.else_loc.source,
                          [f"jmp {node.label}_end"])
                self.label(f"{node.label}_else")
                self.block(node.orelse)
            else:
                self.label(f"{node.label}_else")
            self.label(f"{node.label}_end")


class Assembly:
    """The units' statements, assembled at their FILE:LINE:COL, each text once: a text →
    its instructions (re-stamped: identical text, identical instructions); (a text, id(call
    site)) → the site and the bodies of its instructions there; a replayed call's site's
    Entry → its offsets → the bodies of its instructions."""

    def __init__(self, tik: Tik, tensors: dict[str, ProgramTensor], labels: dict[str, int],
                 diags: list):
        self.tik, self.tensors, self.labels, self.diags = tik, tensors, labels, diags
        self.statements: list[Statement] = []
        self.built: dict = {}
        self.replayed: dict = {}

    def unit(self, u: Unit, pc: int) -> None:
        loc = u.loc
        if len(u.lines) == 1:  # most statements: one line, assembled before at this site
            placed = self.built.get((u.lines[0], id(loc)))
            if placed is not None and placed[0] is loc:
                self.statements.append(_stamped(pc, loc, u.source, placed[1]))
                return
        hw = []
        for text in u.lines:
            hw.extend(self.line(u, text, pc))
        self.statements.append(Statement(pc, loc.line, loc.col, u.source, TIK_CALL, tuple(hw)))

    def line(self, u: Unit, text: str, pc: int) -> list[Instruction]:
        """TEXT's instructions at U's site and PC (none when it does not assemble)."""
        loc, built = u.loc, self.built
        template = built.get(text)
        if template is not None:  # the same body when at the same file and column (a
            # Python loop's calls from one line): a body is everything but pc and line
            at = [h.at(pc, loc.line) if h.col == loc.col and h.file == loc.file
                  else h.evolve(pc=pc, line=loc.line, col=loc.col, file=loc.file)
                  for h in template]
            built[(text, id(loc))] = (loc, [h.body for h in at])
            return at
        tik = self.tik
        try:
            stmt, warnings = assemble_statement(text, loc.file, loc.line, loc.col, pc,
                                                tik.chip, self.tensors, tik.checks,
                                                self.labels, tik.table)
        except AssemblyError as e:
            self._note(u, e.diagnostics)
            if len(self.diags) >= MAX_ERRORS:
                raise TikError(self.diags) from None
            return []
        if warnings:  # every statement gets its own warnings: never shared
            self._note(u, warnings)
        else:
            built[text] = stmt.hw
        return list(stmt.hw)

    def replays(self, u: Unit, pc: int) -> int:
        """The statements of U's replayed calls from PC on; the next pc. A call at offsets
        seen before is its bodies re-stamped; else its lines, as a unit of its own."""
        node, first, end = u.replays
        known = self.replayed.get(node.entry)
        if known is None:
            known = self.replayed[node.entry] = {}
        loc, source, statements = u.loc, u.source, self.statements
        line, col = loc.line, loc.col
        for k in range(first, end):
            offsets = node.offsets[k]
            bodies = known.get(offsets)
            if bodies is not None:
                statements.append(one_statement(bodies[0], pc, line, col, source, TIK_CALL)
                                  if len(bodies) == 1 else _stamped(pc, loc, source, bodies))
            else:
                lines = node.lines(k)
                self.unit(Unit(loc, u.api, source, lines), pc)
                if all(text in self.built for text in lines):  # no warning, no error
                    known[offsets] = [h.body for h in statements[-1].hw]
            pc += 1
        return pc

    def _note(self, u: Unit, found) -> None:
        self.diags += [attrs.evolve(d, message=f"{u.api}: {d.message}") for d in found]


def _stamped(pc: int, loc: Loc, source: str, bodies: list) -> Statement:
    """A statement at LOC and PC of instructions of BODIES (made there before)."""
    line = loc.line
    if len(bodies) == 1:
        return one_statement(bodies[0], pc, line, loc.col, source, TIK_CALL)
    hw = tuple([Instruction(b, pc, line) for b in bodies])
    return Statement(pc, line, loc.col, source, TIK_CALL, hw)


def build(tik: Tik) -> Program:
    emitter = Emitter(plan(tik.root, tik.overlaps()), Events(tik.chip.event_ids),
                      tik.registers.stamps if tik.registers.spans else None)
    emitter.block(tik.root)
    units = emitter.units
    labels = emitter.labels
    labels.update(dict.fromkeys(emitter.pending, emitter.pc))
    tensors = program_tensors(tik)
    assembly = Assembly(tik, tensors, labels, list(tik.notes))
    pc = 0
    for u in units:
        if u.replays is None:
            assembly.unit(u, pc)
            pc += 1
        else:
            pc = assembly.replays(u, pc)
    diags = assembly.diags
    if any(d.severity == "error" for d in diags):
        raise TikError(diags)
    path = _main_file(tik, units)
    lines = tuple(line.rstrip("\n") for line in linecache.getlines(path))
    spill = tik.tensors.get(regalloc.SPILL)
    scalars = regalloc.homes(tik, emitter.marks, emitter.pc, spill.addr if spill else 0)
    return Program(path, tik.chip, None, tensors, tuple(assembly.statements), labels, lines,
                   tuple(diags), tik.block_dim, table=tik.table, scalars=scalars)


def program_tensors(tik: Tik) -> dict[str, ProgramTensor]:
    """The containers' tensors as the assembler knows them: GM roles from BuildCCE, UB
    tensors at the addresses TIK placed them."""
    inputs = {t.pname for t in tik.inputs}
    outputs = {t.pname for t in tik.outputs}
    out = {}
    for name, t in tik.tensors.items():
        line, col = t.loc.line, t.loc.col
        if t.scope == "ubuf":
            # the spill slots start at 0, as x1..x23 do: where a Scalar lives must not change
            # what a read before its first write gives, nor what the init check says
            init = Init("zeros", np.zeros(t.size * t.t.size, np.uint8)) \
                if name == regalloc.SPILL else None
            out[name] = ProgramTensor(name, "ub", t.t, t.size, line, col, addr=t.addr,
                                      explicit=True, init=init)
            continue
        if t.alias_of is not None:  # reinterpret_cast_to of a GM tensor: its bytes
            size = min(t.size, DYNAMIC_BACKING_BYTES // t.t.size) if t.dynamic else t.size
            out[name] = ProgramTensor(name, "gm", t.t, size, line, col, role="const",
                                      dynamic=t.dynamic, alias_of=t.alias_of.pname)
            continue
        role = ("inout" if name in inputs and name in outputs else "input" if name in inputs
                else "output" if name in outputs else "const")
        init = (Init("zeros", np.zeros(t.size * t.t.size, np.uint8)) if role == "const"
                else Init("zeros", None) if role == "output" else None)
        # a dynamic tensor is backed by at most DYNAMIC_BACKING_BYTES (its declared 2^63-1
        # elements would not fit an address space); an input is bound to what is given
        size = min(t.size, DYNAMIC_BACKING_BYTES // t.t.size) if t.dynamic else t.size
        out[name] = ProgramTensor(name, "gm", t.t, size, line, col, role=role, init=init,
                                  dynamic=t.dynamic)
    return out


def _main_file(tik: Tik, units: list[Unit]) -> str:
    counts: Counter = Counter()
    for u in units:
        counts[u.loc.file] += u.size
    return counts.most_common(1)[0][0] if counts else tik.loc.file
