"""The recorded tree → an `isa.Program`: labels and branches for loops and ifs, the
synchronisation pass's flags, and every statement assembled at the script's FILE:LINE:COL."""

from __future__ import annotations

import linecache
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs
import numpy as np

from isa.assembler import assemble_statement
from isa.diagnostics import AssemblyError
from isa.families import NOP
from isa.program import Init, Instruction, Program, Statement
from isa.program import Tensor as ProgramTensor
from isa.table import InstrDef
from simulator.tik import regalloc
from simulator.tik.errors import Loc, TikError
from simulator.tik.nodes import Block, If, Loop, Op
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
    """One statement of the program: a TIK call (or loop/branch control) at its line."""

    loc: Loc
    api: str
    source: str
    lines: list[str]
    labels: Sequence[str]


class Emitter:
    def __init__(self, sync: Plan, events: Events, stamps: dict[int, int] | None):
        self.sync, self.events = sync, events
        self.units: list[Unit] = []
        self.pending: list[str] = []
        # id(node) → its recording clock (simulator/tik/regalloc.py); None: the kernel has no
        # Scalar, and nothing needs the marks
        self.stamps = stamps
        self.marks: list[tuple[int, int]] = []  # (clock, first pc) of each recorded node
        self.sources: dict[int, tuple[Loc, str]] = {}  # id(call site) -> it, its line's text
        self.last: tuple[Loc | None, str] = (None, "")  # the last one asked for

    def label(self, name: str) -> None:
        self.pending.append(name)

    def unit(self, loc: Loc, api: str, source: str, lines: list[str]) -> None:
        if lines:
            pending = self.pending
            self.units.append(Unit(loc, api, source, lines, pending or ()))  # (most: none)
            if pending:
                self.pending = []

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
                    self.marks.append((clock, len(self.units)))
            if node.__class__ is Op:
                loc = node.loc
                waits, sets = waits_of(node), sets_of(where)
                if not waits and not sets:  # most calls: no flags around them
                    self.unit(loc, node.api, self.source(loc), node.lines)
                    continue
                before = [line for pair in waits or () for line in events.wait_before(pair)]
                after = self._sets_after(where)
                self.unit(loc, node.api, self.source(loc), before + node.lines + after)
                continue
            self.node(node, [line for pair in sync.before_loop.get(where, ())
                             for line in events.before_loop(pair)])
            after = [line for pair in sync.after_loop.get(where, ())
                     for line in events.after_loop(pair)] + self._sets_after(where)
            self.unit(node.loc, "synchronisation", f"{node.loc.source}  # after the block",
                      after)

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


def build(tik: Tik) -> Program:
    emitter = Emitter(plan(tik.root, tik.overlaps()), Events(tik.chip.event_ids),
                      tik.registers.stamps if tik.registers.spans else None)
    emitter.block(tik.root)
    units = emitter.units
    labels = {name: pc for pc, u in enumerate(units) if u.labels for name in u.labels}
    labels.update({name: len(units) for name in emitter.pending})
    tensors = program_tensors(tik)
    statements, diags = [], list(tik.notes)
    # a text → its instructions (re-stamped: identical text, identical instructions); (a text,
    # id(call site)) → the site and the bodies of its instructions there
    built: dict = {}
    for pc, u in enumerate(units):
        loc = u.loc
        if len(u.lines) == 1:  # most statements: one line, assembled before at this site
            placed = built.get((u.lines[0], id(loc)))
            if placed is not None and placed[0] is loc:
                line, bodies = loc.line, placed[1]
                hw = (Instruction(bodies[0], pc, line),) if len(bodies) == 1 else \
                    tuple([Instruction(b, pc, line) for b in bodies])
                statements.append(Statement(pc, line, loc.col, u.source, TIK_CALL, hw))
                continue
        hw = []
        for text in u.lines:
            template = built.get(text)
            if template is not None:  # the same body when at the same file and column (a
                # Python loop's calls from one line): a body is everything but pc and line
                at = [h.at(pc, loc.line) if h.col == loc.col and h.file == loc.file
                      else h.evolve(pc=pc, line=loc.line, col=loc.col, file=loc.file)
                      for h in template]
                hw.extend(at)
                built[(text, id(loc))] = (loc, [h.body for h in at])
                continue
            try:
                stmt, warnings = assemble_statement(text, loc.file, loc.line, loc.col, pc,
                                                    tik.chip, tensors, tik.checks, labels,
                                                    tik.table)
            except AssemblyError as e:
                diags += [attrs.evolve(d, message=f"{u.api}: {d.message}")
                          for d in e.diagnostics]
                if len(diags) >= MAX_ERRORS:
                    raise TikError(diags) from None
                continue
            if warnings:  # every statement gets its own warnings: never shared
                diags += [attrs.evolve(d, message=f"{u.api}: {d.message}") for d in warnings]
            else:
                built[text] = stmt.hw
            hw.extend(stmt.hw)
        statements.append(Statement(pc, loc.line, loc.col, u.source, TIK_CALL, tuple(hw)))
    if any(d.severity == "error" for d in diags):
        raise TikError(diags)
    path = _main_file(tik, units)
    lines = tuple(line.rstrip("\n") for line in linecache.getlines(path))
    spill = tik.tensors.get(regalloc.SPILL)
    scalars = regalloc.homes(tik, emitter.marks, len(units), spill.addr if spill else 0)
    return Program(path, tik.chip, None, tensors, tuple(statements), labels, lines,
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
    counts = Counter(u.loc.file for u in units)
    return counts.most_common(1)[0][0] if counts else tik.loc.file
