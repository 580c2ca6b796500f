"""Consecutive lines run as one batch: the fast loop's plan for an unrolled kernel's tile loop
written out (#33 item 1; simulator/fused.py runs it).

An unrolled kernel repeats a *tile* of one or more statements — lines of one shape each
(`Body.shape`: the same statement but for tensor indices) — with every operand moving by one
step from tile to tile. From a line whose shape has a plan, `Batches.run` looks ahead for such
a run: the period P of the tile (the next line of the first line's shape, P distinct shapes
before it), then whole tiles of lines not run before, as long as each position's operands
keep their steps. The lines of one position are a *group*; a batch of T tiles runs each group
as one decoding of T repeats (`VectorOp.batched`) through the family's one body, group after
group. That is what the lines do one after another when
- no two lines of a group touch a byte one of them writes (`_independent`: a group's body
  reads everything before it writes), and
- no line of a group meets a line of a later group in an *earlier* tile (`_crossing`: running
  group by group puts that later group's line after it, where the program had it before);
lines of one tile keep their order, so a tile's statements may read what the tile wrote.
Each group's lines must be served by one stored decoding as one line would be
(`Decodings.run_origin`), be of one repeat with every element active, and of vector
operands. The timing stage books every line in program order and the observers take the
whole batch or decline it (`ObserverPlan.batch`; simulator/plans.py `Batch`). Anything else
(fewer than MIN_BATCH lines, a part declining) leaves the lines to the shape plans, one at a
time.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import cycle, islice
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.plans import Batch, Planned, per_execution
from simulator.problems import Fault
from simulator.semantics import vector

if TYPE_CHECKING:  # pragma: no cover
    from isa.program import Body, Instruction

# a batch holds at least MIN_BATCH lines (fewer cost more than they save) and at most
# MAX_BATCH; a tile has at most MAX_PERIOD statements
MIN_BATCH, MAX_BATCH, MAX_PERIOD = 8, 256, 8


class Shape:
    """What a batch needs of the lines of one shape: the line its plan was learnt from, its
    fields and definition (every line's must be these), its memory operands' roles, their
    addresses' getter, the family's body and the immediate scalar."""

    __slots__ = ("learnt", "fields", "defn", "roles", "addrs", "body", "arg")

    def __init__(self, learnt: Instruction, body: Callable, arg):
        self.learnt, self.fields, self.defn = learnt, learnt.fields, learnt.defn
        self.roles = tuple(role for role, o in learnt.operands.items() if o.kind == "mem")
        get, addr = itemgetter(*self.roles), attrgetter("addr")
        self.addrs = (lambda ops: tuple(map(addr, get(ops)))) if len(self.roles) > 1 else \
            (lambda ops: (get(ops).addr,))
        self.body, self.arg = body, arg


class Batches:
    """A fast loop's batches (see the module doc): the shapes whose lines may batch, and the
    plan parts of each tile's shapes (bound once per sequence of shapes)."""

    def __init__(self, loop: Any):  # a simulator/fused.py FastLoop (untyped: fused imports
        # this module, and a typed import back would close a circle)
        self.loop, self.ex, self.m = loop, loop.ex, loop.m
        self.flat, self.once = getattr(loop.source, "flat", ()), loop.once  # (a stream's: none)
        self.shapes: dict[Body, Shape] = {}
        # a tile's shapes -> its runner (`_runner`), None when a part declines
        self.runners: dict[tuple[Body, ...], Callable | None] = {}
        self.skip = 0  # lines before this flat index do not start a batch (one declined)

    def clear(self) -> None:
        self.shapes.clear()
        self.runners.clear()
        self.skip = 0

    def add(self, learnt: Instruction) -> None:
        """LEARNT's shape may batch (a static vector instruction a vector plan can run): when
        its scalar (if any) is an immediate, it has memory operands and writes no CMPMASK."""
        ex, fam = self.ex, learnt.defn.family
        if vector.fixed_scalar(learnt) and not fam.writes_cmpmask and \
                any(o.kind == "mem" for o in learnt.operands.values()):
            self.shapes[learnt.body.shape] = Shape(learnt, ex.isa.bodies[fam.name],
                                                   vector.scalar_bytes(ex, learnt))

    def run(self, i: int, room: int) -> int | None:
        """The lines from flat index I on as one batch (at most ROOM of them): the index after
        it, or None (the line at I runs by its shape plan)."""
        if i < self.skip:
            return None
        tile = self._tile(i)
        if tile is None:
            return None
        lines, bases = self._tiles(i, tile, min(room, MAX_BATCH))
        scanned = len(lines[0]) * len(tile)
        self.skip = i + scanned  # (declined: these run one at a time)
        groups = self._groups(tile, lines, bases) if scanned >= MIN_BATCH else None
        if groups is None:
            return None
        runner = self.runners.get(tile, False)
        if runner is False:
            runner = self.runners[tile] = self._runner(tile)
        if runner is None or not runner(groups):
            return None
        self.skip = 0
        return i + len(groups[0][0]) * len(tile)

    def _tile(self, i: int) -> tuple[Body, ...] | None:
        """The shapes of the tile from I on: the lines up to the next of I's shape, each of a
        shape that may batch, none twice; None when there is none."""
        flat, shapes = self.flat, self.shapes
        first = flat[i].body.shape
        tile = [first]
        for j in range(i + 1, min(len(flat), i + MAX_PERIOD + 1)):
            shape = flat[j].body.shape
            if shape is first:
                return tuple(tile)
            if shape not in shapes or shape in tile:
                return None
            tile.append(shape)
        return None

    def _tiles(self, i: int, tile: tuple, most: int) -> tuple[list[list], list[np.ndarray]]:
        """The whole tiles from I on (at most MOST lines) whose lines are of the tile's shapes
        and definitions, not run before, each position's operands moving by one step: per
        position, its lines and their operands' addresses (a row a line)."""
        flat, once, p = self.flat, self.once, len(tile)
        shapes = [self.shapes[s] for s in tile]
        lines: list[list] = [[] for _ in tile]
        bases: list[list] = [[] for _ in tile]
        wanted = [(shape, s.fields, s.defn, s.addrs, lines[r].append, bases[r].append)
                  for r, (shape, s) in enumerate(zip(tile, shapes, strict=True))]
        for instr, (shape, fields, defn, addrs, line, base) in zip(
                islice(flat, i, i + min(most, len(flat) - i) // p * p), cycle(wanted)):
            b = instr.body
            if b.shape is not shape or b.fields is not fields or b.defn is not defn or \
                    b.text in once:
                break
            line(instr)
            base(addrs(b.operands))
        whole = len(lines[-1])  # (a tile's lines all taken, or none)
        for r in range(p):
            del lines[r][whole:], bases[r][whole:]
        n = len(lines[0])
        at = [np.array(b, np.int64).reshape(n, len(s.roles)) for b, s in zip(bases, shapes,
                                                                            strict=True)]
        for a in at:  # (the first tile where a position's step differs from its first)
            if n > 2:
                moving = (a[2:] - a[1:-1] == a[1] - a[0]).all(axis=1)
                if not moving.all():
                    n = int(np.argmin(moving)) + 2
        return [x[:n] for x in lines], [a[:n] for a in at]

    def _groups(self, tile: tuple, lines: list[list], bases: list[np.ndarray]
                ) -> list[tuple] | None:
        """Per position, (its lines, its origin decoding, its operands' addresses (a row a
        line, in the origin's operand order), their spans), as many tiles as every rule
        allows (see the module doc); None when fewer than MIN_BATCH lines remain."""
        m, run_origin = self.m, self.ex.decodings.run_origin
        found = []
        n = len(lines[0])
        for shape, at in zip(tile, bases, strict=True):
            s = self.shapes[shape]
            hit = run_origin(s.learnt, s.roles, at[:n], s.fields, (m.mask_hi, m.mask_lo),
                             m.counter)
            if hit is None:
                return None
            origin, spans, cols = hit
            if origin.repeats != 1 or origin.last != origin.n or \
                    any(a.kind != "vector" or a.nibble for a in origin.operands):
                return None
            n = min(n, len(cols), _independent(cols, spans, [a.write for a in origin.operands]))
            found.append((origin, spans, cols))
        for r1 in range(len(found)):
            for r2 in range(r1 + 1, len(found)):
                n = min(n, _crossing(found[r1], found[r2], n))
        if n * len(tile) < MIN_BATCH or n < 2 or \
                any((cols[1] - cols[0] < 0).any() for _, _, cols in found):
            return None
        return [(ls[:n], origin, cols[:n], spans)
                for ls, (origin, spans, cols) in zip(lines, found, strict=True)]

    def _runner(self, tile: tuple) -> Callable[[list[tuple]], bool] | None:
        """runner(groups) -> whether it ran them: the batch of a tile of these shapes — the
        observers' parts (taking the batch or not), each group's body, each line booked in
        program order. None when a part declines batches of this tile."""
        loop, ex, m = self.loop, self.ex, self.m
        cell = Batch()

        def event(at: Instruction, taken: bool = False):
            return ex.event_at(at, "V", cell.op_of(at), 1, taken)
        takes: list[Callable[[], bool]] = []
        first = self.shapes[tile[0]].learnt
        parts = loop._parts(Planned(first, "V", cell, 1, loop.model is not None, event),
                            takes)
        if parts is None or parts[4] is not None or len(takes) > 1:
            return None  # (an owner taking lines one at a time, or two taking batches)
        book, sink, limit, elsewhere, _, _, settle_parts, _ = parts
        after = per_execution(sink, limit, elsewhere)  # (each line's busy cycles to its line)
        take = takes[0] if takes else None
        shapes = [self.shapes[s] for s in tile]
        timed, once = loop.model is not None, self.once
        executions = 0

        def runner(groups: list[tuple]) -> bool:
            nonlocal executions
            cell.set([(ls, origin, cols - np.array([a.base for a in origin.operands], np.int64))
                      for ls, origin, cols, _ in groups])
            if take is not None and not take():
                return False
            for s, (ls, origin, cols, _) in zip(shapes, groups, strict=True):
                try:
                    s.body(m, origin.batched(ls[0], tuple(cols[0].tolist()),
                                             tuple((cols[1] - cols[0]).tolist()), len(ls)),
                           s.arg, 0, len(ls))
                except Fault as f:  # (state every line reads alike: the first line's fault)
                    ex.fail(ls[0], f.problem)
            lines = cell.instrs
            if timed:
                for instr, busy in zip(lines, book(), strict=True):
                    after(instr, busy, False)
            executions += len(lines)
            once.update([instr.text for instr in lines])
            return True

        def settle() -> None:
            nonlocal executions
            count, executions = executions, 0
            settle_parts(count)
        loop.settles.append(settle)
        return runner


def _independent(bases: np.ndarray, spans: tuple, writes: list[bool]) -> int:
    """How many lines from the first on (operand k of line j at BASES[j, k], its bytes within
    SPANS[k]'s first and last from its base, or none when None; WRITES: which operands are
    written) touch no byte another of them writes. Each operand moves by one step from line
    to line."""
    n = len(bases)
    steps = (bases[1] - bases[0]).tolist() if n > 1 else [0] * len(spans)
    first = bases[0].tolist()
    for w, written in enumerate(writes):
        if not written or spans[w] is None:
            continue
        lo_w, hi_w = first[w] + spans[w][0], first[w] + spans[w][1]
        for q, span in enumerate(spans):
            if span is None:
                continue
            lo_q, hi_q = first[q] + span[0], first[q] + span[1]
            if steps[w] == steps[q]:  # line j's w meets line j + d's q for d in a range
                n = min(n, _nearest(lo_w - hi_q, hi_w - lo_q, steps[q]))
            else:
                n = min(n, _meeting(_bytes(bases[:n, w], spans[w]), _bytes(bases[:n, q], span),
                                    True))
    return n


def _crossing(early: tuple, late: tuple, n: int) -> int:
    """How many tiles from the first on keep every line of group EARLY (origin, spans, bases:
    `_groups`') from meeting a line of the LATER group in an earlier tile where either
    writes (running group by group would put that later group's line after it)."""
    for a, b in ((early, late), (late, early)):
        origin_a, spans_a, at_a = a
        origin_b, spans_b, at_b = b
        for w, acc in enumerate(origin_a.operands):
            if not acc.write or spans_a[w] is None:
                continue
            for q, span in enumerate(spans_b):
                if span is None:
                    continue
                mine, theirs = _bytes(at_a[:n, w], spans_a[w]), _bytes(at_b[:n, q], span)
                n = min(n, _meeting(mine, theirs, False) if a is early else
                        _meeting(theirs, mine, False))
    return n


def _bytes(bases: np.ndarray, span: tuple) -> np.ndarray:
    """(lines, 2): each line's first and last byte of an operand at BASES with SPAN."""
    return bases[:, None] + np.array(span[:2], np.int64)


def _nearest(lo: int, hi: int, step: int) -> int:
    """The least d > 0 with d·STEP or -d·STEP in [LO, HI] (two operands moving alike meet
    between lines d apart), or a number past any batch."""
    never = MAX_BATCH + 1
    if step == 0:
        return 1 if lo <= 0 <= hi else never
    step = abs(step)
    best = never
    for a, b in ((lo, hi), (-hi, -lo)):  # d·step in [a, b]
        d = max(1, -(-a // step))
        if d * step <= b:
            best = min(best, d)
    return best


def _meeting(a: np.ndarray, b: np.ndarray, both: bool) -> int:
    """The first line l at which A's interval of line l meets B's of an earlier line (BOTH:
    or B's of line l meets A's of an earlier one); A, B: (lines, 2) first and last bytes. The
    number of lines when none does."""
    n = len(a)
    if a[:, 0].min() > b[:, 1].max() or b[:, 0].min() > a[:, 1].max():
        return n  # (the boxes of every line's intervals lie apart)
    clash = (a[:, None, 0] <= b[None, :, 1]) & (b[None, :, 0] <= a[:, None, 1])  # [l, j]
    if both:
        clash |= clash.T
    later = np.tril(clash, -1).any(axis=1)  # line l meets an earlier line j < l
    return int(np.argmax(later)) if later.any() else n
