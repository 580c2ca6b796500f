"""The timing model (docs/timing.md): the stage that times each executed hardware instruction.

S issues in program order; V, MTE2 and MTE3 are in-order queues of at most `queue_depth`
unfinished instructions, ordered across pipes only by flags and barriers. The executor hands it
each event first (`time`); its InstrTiming is published in the event to every observer after
it. It reads events and never touches machine state, so functional results cannot depend on it.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable

import numpy as np

from isa import families
from isa.decode import VectorOp
from isa.regvec import REGVEC, spill_traffic
from isa.table import PIPES
from simulator.decodings import PureKey
from simulator.events import Event, RunInfo
from simulator.instr_timing import InstrTiming
from simulator.plans import Batch, Booked, Planned, Varying
from simulator.timing.banks import bank_model
from simulator.timing.config import BLOCK, CostClass, config_of
from simulator.timing.records import QueueState, TimingSnapshot
from simulator.timing.regbanks import RegBanks
from simulator.timing.regvec import reg_classes

QUEUES = ("V", "MTE2", "MTE3")
STALLS = ("flag_wait", "queue_full", "bank_conflict", "barrier")
CACHE_LIMIT = 1 << 16
# a plan's booking: book() -> busy cycles (a scalar's: book(taken)), settle(executions) -> the
# sums (`plan`)
TimingPlan = tuple[Callable[..., int], Callable[[int], Booked]]


# (model class, profile) -> (the profile, its cost cache, its memo keys): `_costs_of`
_COSTS: dict[tuple[type, int], tuple[object, dict, dict[str, PureKey]]] = {}


def _costs_of(model: type, cfg) -> tuple[dict, dict[str, PureKey]]:
    """(cache, keys): the vector cost cache of timing models of class MODEL with timing
    profile CFG (one object per chip object: config_of), and a cost class's name -> the memo
    key under which a decoding keeps its cost for that class (`_vector_cost`). A cost depends
    on the kind, the relative layout and the profile alone (`_vector_cost_by_layout`'s key),
    so runs of one chip share it, and a decoding keeps it between runs (the key a PureKey
    naming an object made with the cache: another cache's keys are never equal to them)."""
    hit = _COSTS.get((model, id(cfg)))
    if hit is None or hit[0] is not cfg:
        if len(_COSTS) > 64:
            _COSTS.clear()
        token = object()
        hit = _COSTS[(model, id(cfg))] = (cfg, {}, KeysOf(token))
    return hit[1], hit[2]


# a timing profile -> (the profile, `_parts_of`'s answer)
_PARTS: dict[int, tuple] = {}


def _parts_of(cfg) -> tuple:
    """(CFG, its scalar figures, the barrier drain of each queue, its bank model, its
    reg-based unit's bank model): what a model reads of timing profile CFG (one object per
    chip object: config_of), worked out once per profile instead of at every run. The bank
    models hold nothing of a run (their caches are pure: `_Model._shapes`, RegBanks'), so
    every model of the profile shares them; the drains are only read."""
    hit = _PARTS.get(id(cfg))
    if hit is None or hit[0] is not cfg:
        if len(_PARTS) > 64:
            _PARTS.clear()
        t = cfg.t
        scalars = (t["scalar_issue"], t["scalar_op"], t["branch_taken"], t["queue_depth"],
                   t["set_flag"], t["wait_flag"], t["barrier_all"])
        hit = _PARTS[id(cfg)] = (cfg, scalars, {q: t[f"barrier_drain_{q}"] for q in QUEUES},
                                 bank_model(cfg.bank), RegBanks(cfg.bank))
    return hit


class KeysOf(dict):
    """A cost class's name -> the PureKey (TOKEN, name), made on first use."""

    def __init__(self, token: object):
        super().__init__()
        self.token = token

    def __missing__(self, name: str) -> PureKey:
        key = self[name] = PureKey((self.token, name))
        return key


class Queue:
    """One in-order pipe queue."""

    __slots__ = ("name", "inflight", "last_end", "drain_end", "compute_end", "tail")

    def __init__(self, name: str):
        self.name = name
        self.inflight: deque[int] = deque()  # end cycles of instructions not yet completed
        self.last_end = 0  # end of the latest instruction
        self.drain_end = -1  # end + tail of the latest instruction with nonzero occupancy
        self.compute_end = -1  # end of the latest one if it was vector compute, else -1
        self.tail = 0


# an instruction kind -> the name of the TimingModel method that times it (`_handlers`)
_KINDS = {families.SET_FLAG: "_set_flag", families.WAIT_FLAG: "_wait_flag",
          families.BARRIER: "_barrier", families.DMA: "_dma",
          families.CMPMASK_MOVE: "_one_class", families.VECTOR: "_vector",
          families.LOCK: "_lock", families.UNLOCK: "_unlock",
          REGVEC: "_regvec"}  # issue 34: the reg-based unit (docs/timing.md §T9)


@functools.cache
def _handlers(cls: type) -> dict[str, Callable]:
    """An instruction kind -> CLS's function that times it (a subclass's own included)."""
    return {kind: getattr(cls, name) for kind, name in _KINDS.items()}


class TimingModel:
    def __init__(self, chip, origin: int = 0, gm=None):
        """ORIGIN: the cycle this core starts (a later wave of a launch starts when a core
        frees); GM: the launch's shared GM bandwidth ledger (timing/bandwidth.py), if any."""
        self.chip = chip
        self.origin, self.gm = origin, gm
        self.gm_wait = 0  # cycles the shared GM bandwidth added to this core's transfers
        cfg = self.cfg = config_of(chip)
        # the profile's figures and bank models, worked out once per profile (`_parts_of`)
        _, scalars, self.drain, self.banks, self._reg_banks = _parts_of(cfg)
        (self.scalar_issue, self.scalar_op, self.branch_taken, self.depth, self.set_cost,
         self.wait_cost, self.barrier_all) = scalars
        self.classes = cfg.classes
        self.s_time = origin
        self.queues = {q: Queue(q) for q in QUEUES}
        self.flags: dict[tuple[str, str, int], int] = {}
        self.mutex_fire: dict[int, tuple[str, int]] = {}  # #34: id -> (pipe, its last unlock)
        self.busy = dict.fromkeys(PIPES, 0)
        self.stalls = dict.fromkeys(STALLS, 0)
        self.total_cycles = origin
        # instruction kind + relative layout -> vector cost: every model of this class and
        # profile shares it (`_costs_of`), so a run's first sighting of a layout another
        # run timed costs a lookup
        self._cache, self._cost_keys = _costs_of(type(self), cfg)
        self._v_books: dict[tuple[int, int, int], Callable[[], int]] = {}  # (`_v_book`)
        self._book_s = self._s_booking()[0]  # the reference path's S booking
        self._class_of: dict[str, CostClass] = {}  # instruction text -> its cost class
        # an instruction kind -> its handler, a function of this class (`_handlers`: bound
        # methods kept here would hold the model in a cycle, and cost a run nine to make)
        self._by_kind = _handlers(type(self))
        self._reg_classes = reg_classes(chip)

    # -- the stage -----------------------------------------------------------------------------
    def on_start(self, run: RunInfo) -> None:
        """Nothing to learn: every figure comes from the chip profile."""

    def time(self, event: Event) -> InstrTiming:
        """Time EVENT: the record the executor publishes in it."""
        family = event.instr.defn.family
        handler = self._by_kind.get(family.kind)
        if handler is None:  # any other kind: S executes it, but a state write issued to V
            # with a class of its own (set_va, set_deqscale: the C API pages' PIPE_V) takes
            # that class's cycles there
            rec = self._one_class(event) if family.pipe == "V" and family.cost in self.classes \
                else self._scalar(event)
        else:
            rec = handler(self, event)
        self.busy[rec.pipe] += rec.busy
        return rec

    def release(self) -> None:
        """The run is over (`Run.release`): the S and V bookings, closures that refer back to
        the model, are dropped (its figures stay readable; it times nothing after)."""
        self._v_books.clear()
        self._book_s = None

    def snapshot(self) -> TimingSnapshot:
        return TimingSnapshot(
            self.s_time, self.total_cycles, dict(self.busy), dict(self.stalls),
            {name: QueueState(tuple(q.inflight), q.last_end, q.drain_end)
             for name, q in self.queues.items()}, dict(self.flags))

    # -- S and issue ---------------------------------------------------------------------------
    def _scalar(self, ev: Event) -> InstrTiming:
        """An instruction S executes itself; a taken branch costs branch_taken more."""
        start = self.s_time
        cost = self._book_s(ev.taken)
        return InstrTiming("S", start, start, start + cost, cost)

    def _s_booking(self, run: int = 1) -> tuple[Callable[[bool], int], Callable[[], int]]:
        """(book, sums): book(taken) books an instruction S executes itself (a taken branch
        costs branch_taken more; RUN of them, never taken, at once) and returns its cost —
        the one S booking of both loops (the reference path's `_book_s`, a plan's own); sums()
        -> the busy cycles booked since the last call (a plan's settle)."""
        plain, taken_cost, busy_sum = self.scalar_op * run, self.scalar_op + self.branch_taken, 0

        def book(taken: bool) -> int:
            nonlocal busy_sum
            cost = taken_cost if taken else plain
            end = self.s_time = self.s_time + cost
            if end > self.total_cycles:
                self.total_cycles = end
            busy_sum += cost
            return cost

        def sums() -> int:
            nonlocal busy_sum
            out, busy_sum = busy_sum, 0
            return out
        return book, sums

    def _on_s(self, start: int, busy: int, wait: int, fire: int | None = None,
              stalled: int = 0) -> InstrTiming:
        end = start + wait + busy
        self.s_time = end
        self._done(end)
        return InstrTiming("S", start - stalled, start, end, busy, wait_flag=wait, fire=fire,
                           wait_issue=stalled)

    def hold_until(self, cycle: int, cause: str) -> int:
        """S issues nothing before CYCLE (a wait outside the core: the launch's other cores at
        a SyncAll); the cycles it waited count as stall CAUSE. Returns them."""
        wait = max(0, cycle - self.s_time)
        self.s_time += wait
        self.stalls[cause] = self.stalls.get(cause, 0) + wait
        self._done(self.s_time)
        return wait

    def _issue(self, q: Queue) -> tuple[int, int]:
        """S issues into queue q: (issue cycle, cycles S stalled because q was full)."""
        c = self.s_time
        inflight = q.inflight
        while inflight and inflight[0] <= c:
            inflight.popleft()
        stalled = 0
        if len(inflight) >= self.depth:
            stalled = inflight[0] - c
            c = inflight.popleft()
            while inflight and inflight[0] <= c:
                inflight.popleft()
            self.stalls["queue_full"] += stalled
        self.s_time = c + self.scalar_issue
        self.busy["S"] += self.scalar_issue  # reported in each queued record's issue_cost
        return c, stalled

    def _finish(self, q: Queue, start: int, occ: int, compute: bool, tail: int = 0) -> int:
        """Book an instruction of occupancy occ starting at start in q; return its end.
        Zero-occupancy instructions leave the head/tail/drain state as it was."""
        end = start + occ
        q.inflight.append(end)
        q.last_end = end
        if occ:
            q.drain_end = end + tail
            q.tail = tail
            q.compute_end = end if compute else -1
        self._done(end + (tail if occ else 0))
        return end

    def _done(self, cycle: int) -> None:
        if cycle > self.total_cycles:
            self.total_cycles = cycle
        if self.s_time > self.total_cycles:
            self.total_cycles = self.s_time

    # -- vector --------------------------------------------------------------------------------
    def _class(self, ev: Event) -> CostClass:
        return self.class_of(ev.instr)

    def _vector(self, ev: Event) -> InstrTiming:
        cls = self._class(ev)
        beats, body, pad, extra = self._vector_cost(ev.vop, cls)
        issue, start, end, head, stalled = self._book_v(cls, body)
        if extra:
            self.stalls["bank_conflict"] += extra
        return InstrTiming("V", issue, start, end, head + body, wait_pipe=start - issue,
                           head=head, wait_issue=stalled, beats=beats, pad=pad,
                           bank_extra=extra, issue_cost=self.scalar_issue)

    def _book_v(self, cls: CostClass, body: int) -> tuple[int, int, int, int, int]:
        """S issues a compute instruction of class CLS and BODY cycles into V's queue and V runs
        it (`_v_booking`): (issue, start, end, head, cycles S stalled on a full queue), its
        sums booked."""
        before = self.s_time
        busy = self._v_book(cls.head, body, cls.tail)()
        issue = self.s_time - self.scalar_issue
        self.stalls["queue_full"] += issue - before
        self.busy["S"] += self.scalar_issue  # reported in each queued record's issue_cost
        end = self.queues["V"].last_end
        return issue, end - busy, end, busy - body, issue - before

    def _v_book(self, head: int, body: int, tail: int) -> Callable[[], int]:
        """`_v_booking`'s book() for these figures, made once (the reference path's: it books
        its sums itself, from the records)."""
        key = (head, body, tail)
        book = self._v_books.get(key)
        if book is None:
            if len(self._v_books) >= CACHE_LIMIT:
                self._v_books.clear()
            book = self._v_books[key] = self._v_booking(head, body, tail)[0]
        return book

    def _v_booking(self, head: int, body: int, tail: int
                   ) -> tuple[Callable[[], int], Callable[[], tuple[int, int]]]:
        """(book, sums) for a compute instruction of BODY cycles on V. book() -> busy cycles:
        S issues it into V's queue (waiting while the queue is full) and V runs it for BODY
        cycles, plus HEAD unless V just finished compute, then TAIL cycles of drain (`_issue`
        and `_finish`, bound once for these figures). The one V booking of both loops: the
        reference path's record reads what it leaves (s_time, the queue's last end); a plan's
        settle takes sums() -> (busy cycles, cycles S stalled on a full queue) since the
        last call."""
        q = self.queues["V"]
        inflight, depth, issue_cost = q.inflight, self.depth, self.scalar_issue
        popleft, append = inflight.popleft, inflight.append
        busy_sum = stalled_sum = 0

        def book() -> int:
            nonlocal busy_sum, stalled_sum
            c = self.s_time
            while inflight and inflight[0] <= c:
                popleft()
            if len(inflight) >= depth:
                stalled_sum += inflight[0] - c
                c = popleft()
                while inflight and inflight[0] <= c:
                    popleft()
            s_time = self.s_time = c + issue_cost
            start = q.last_end
            if c > start:
                start = c
            if body:  # occupancy: the head unless V just finished compute
                occ = body if q.compute_end == start else head + body
                end = start + occ
                q.drain_end = done = end + tail
                q.tail, q.compute_end = tail, end
            else:
                occ, end = 0, start
                done = end
            append(end)
            q.last_end = end
            if s_time > done:
                done = s_time
            if done > self.total_cycles:
                self.total_cycles = done
            busy_sum += occ
            return occ

        def sums() -> tuple[int, int]:
            nonlocal busy_sum, stalled_sum
            out, busy_sum, stalled_sum = (busy_sum, stalled_sum), 0, 0
            return out
        return book, sums

    # -- the fast loop's plans (simulator/plans.py) ---------------------------------------------
    def plan(self, planned: Planned) -> TimingPlan | None:
        """(book, settle) for PLANNED's executions, or None: book() (for what S executes
        itself, book(taken)) books one as `time` would (through the same `_v_booking` /
        `_book_s`) and returns its busy cycles;
        settle(executions) adds the sums `time` adds per record and returns them. A subclass
        that times differently declines."""
        if type(self).time is not TimingModel.time:
            return None
        kind = planned.kind
        if kind == families.VECTOR and type(planned.op) is Varying:  # lines of one shape
            return self._moved_plan(planned)
        if kind == families.VECTOR and type(planned.op) is Batch:  # lines run as one batch
            return self._batch_plan(planned)
        if kind == families.VECTOR and planned.op is not None:
            return self._vector_plan(planned)
        if kind not in self._by_kind and planned.pipe == "S":
            return self._scalar_plan(planned.run)
        if planned.run != 1:
            return None
        if kind == REGVEC and planned.op is None:  # issue 34: as `_regvec` books it
            return self._reg_plan(planned)
        if kind == REGVEC and type(planned.op) is Varying:  # a load or store: its bank beats
            return self._reg_access_plan(planned)
        return None

    def _reg_plan(self, planned: Planned) -> TimingPlan:
        """A reg-based register instruction: its class's fixed cycles on V (`_regvec`)."""
        cls = self._reg_classes[planned.instr.defn.family.cost]
        book_v, sums = self._v_booking(cls.head, cls.min_cycles + self._spill_cycles(
            planned.instr), cls.tail)

        def settle(n: int) -> Booked:
            return self._settled(n, *sums(), 0)
        return book_v, settle

    def _reg_access_plan(self, planned: Planned) -> TimingPlan:
        """A reg-based load or store (`planned.op` a Varying: each execution's RegAccess): as
        `_regvec` books it, its class's cycles or, when more, its UB bank beats, the extra
        a bank conflict's; a booking per body length (a loop's accesses have a few)."""
        cls = self._reg_classes[planned.instr.defn.family.cost]
        cell, reg_body = planned.op, self._reg_body
        spill = self._spill_cycles(planned.instr)
        return self._varying_plan(cls, lambda: reg_body(cls, spill, cell.op))

    def _moved_plan(self, planned: Planned) -> TimingPlan:
        """Lines of one shape at their own addresses (`planned.op` a Varying: each execution's
        VectorOp, a decoding moved): as `_vector` books each, its cost kept per decoding
        (`_vector_cost`)."""
        cls, cell, cost = self.class_of(planned.instr), planned.op, self._vector_cost

        def body() -> tuple[int, int]:
            _, busy, _, extra = cost(cell.op, cls)
            return busy, extra
        return self._varying_plan(cls, body)

    def _batch_plan(self, planned: Planned) -> TimingPlan:
        """Lines run as one batch (`planned.op` a Batch): book() books each line of the batch
        in program order, as `_moved_plan` books it, and returns their busy cycles; a cost
        worked out per group of lines laid out alike (`layout_groups`; a line each when the
        bank model keys layouts otherwise)."""
        cell, cost = planned.op, self._vector_cost
        by_class: dict[str, tuple[Callable, Callable]] = {}  # cost class -> `_bookings`'
        extra_sum = 0

        def book() -> list[int]:
            nonlocal extra_sum
            per_group = []
            for lines, origin, shifts in cell.groups:
                cls = self.class_of(lines[0])
                if cls.name not in by_class:
                    by_class[cls.name] = self._bookings(cls)
                booking_of = by_class[cls.name][0]
                groups = self.banks.layout_groups(origin, shifts)
                group, first = groups if groups is not None else \
                    (np.arange(len(lines)), np.arange(len(lines)))  # (each line its own)
                books, extras = [], []
                for j in first.tolist():
                    _, busy, _, extra = cost(origin.moved(lines[j], tuple(shifts[j].tolist())),
                                             cls)
                    books.append(booking_of(busy))
                    extras.append(extra)
                extra_sum += int(np.bincount(group, minlength=len(extras)) @ np.array(extras))
                per_group.append([books[g] for g in group.tolist()])
            if len(per_group) == 1:
                return [b() for b in per_group[0]]
            return [b() for tile in zip(*per_group, strict=True) for b in tile]

        def settle(n: int) -> Booked:
            nonlocal extra_sum
            busy = stalled = 0
            for _, sums in by_class.values():
                b, st = sums()
                busy, stalled = busy + b, stalled + st
            extra, extra_sum = extra_sum, 0
            return self._settled(n, busy, stalled, extra)
        return book, settle

    def _varying_plan(self, cls, cost: Callable[[], tuple[int, int]]) -> TimingPlan:
        """(book, settle) of executions on V of class CLS whose body cycles and bank-conflict
        cycles each execution's COST() gives: a booking per body length."""
        booking_of, sums = self._bookings(cls)
        extra_sum = 0

        def book() -> int:
            nonlocal extra_sum
            body, extra = cost()
            extra_sum += extra
            return booking_of(body)()

        def settle(n: int) -> Booked:
            nonlocal extra_sum
            extra, extra_sum = extra_sum, 0
            return self._settled(n, *sums(), extra)
        return book, settle

    def _bookings(self, cls) -> tuple[Callable[[int], Callable[[], int]],
                                      Callable[[], tuple[int, int]]]:
        """(booking_of(body) -> book, sums() -> (busy, stalled)) of executions on V of class
        CLS whose body cycles vary: a booking per body length (`_v_booking`), their sums
        since the last call added together."""
        bookings: dict[int, tuple[Callable[[], int], Callable[[], tuple[int, int]]]] = {}

        def booking_of(body: int) -> Callable[[], int]:
            booking = bookings.get(body)
            if booking is None:
                booking = bookings[body] = self._v_booking(cls.head, body, cls.tail)
            return booking[0]

        def sums() -> tuple[int, int]:
            busy = stalled = 0
            for _, of in bookings.values():
                b, st = of()
                busy, stalled = busy + b, stalled + st
            return busy, stalled
        return booking_of, sums

    def _vector_plan(self, planned: Planned) -> TimingPlan:
        cls = self.class_of(planned.instr)  # the class follows the text's fields
        _, body, _, extra = self._vector_cost(planned.op, cls)
        book_v, sums = self._v_booking(cls.head, body, cls.tail)

        def settle(n: int) -> Booked:
            return self._settled(n, *sums(), n * extra)
        return book_v, settle

    def _settled(self, n: int, busy: int, stalled: int, extra: int) -> Booked:
        """N executions of a V plan booked as `time` books each record's: BUSY cycles on V, an
        issue each on S, STALLED cycles of S waiting on a full queue, EXTRA bank-conflict
        cycles; the same figures returned."""
        issue = n * self.scalar_issue
        if n:
            self.busy["V"] += busy
            self.busy["S"] += issue
            self.stalls["queue_full"] += stalled
            self.stalls["bank_conflict"] += extra
        return Booked(n, busy, issue, stalled, extra)

    def _scalar_plan(self, run: int = 1) -> TimingPlan:
        """What S executes itself: RUN instructions an execution (`Planned.run`), booked at
        once (S's time moves by each one's cost in turn: the same sum)."""
        book, sums = self._s_booking(run)

        def settle(n: int) -> Booked:
            busy = sums()
            self.busy["S"] += busy
            return Booked(n, busy)
        return book, settle

    def plan_records(self, planned: Planned) -> Callable[..., InstrTiming] | None:
        """record(*figures) -> the InstrTiming `time` would have published for one of
        PLANNED's executions, from what its booking (`plan`'s book) read and left: for the
        debugger's undo log, which keeps every executed instruction's record, and builds it
        only when somebody reads it. A vector instruction's figures are S's time and V's last
        end before and after its booking, (s_before, v_end_before, s_after, v_end_after); a
        scalar's, S's time before and after. None where `plan` declines."""
        if type(self).time is not TimingModel.time or planned.run != 1:
            return None
        kind = planned.kind
        issue_cost = self.scalar_issue
        if kind == families.VECTOR and planned.op is not None:
            cls = self.class_of(planned.instr)
            beats, body, pad, extra = self._vector_cost(planned.op, cls)

            def vector(before: int, v_end: int, s_after: int, end: int) -> InstrTiming:
                issue = s_after - issue_cost
                start = issue if issue > v_end else v_end  # as `_v_booking`'s book starts it
                busy = end - start
                return InstrTiming("V", issue, start, end, busy, 0, start - issue, busy - body,
                                   (), None, issue - before, beats, pad, extra, issue_cost)
            return vector
        if kind not in self._by_kind and planned.pipe == "S":
            def scalar(before: int, s_after: int) -> InstrTiming:
                return InstrTiming("S", before, before, s_after, s_after - before)
            return scalar
        return None

    def class_of(self, instr) -> CostClass:
        """INSTR's cost class, cached per text: the class follows the fields, which the canonical
        text spells out (one entry per distinct statement, not per executed line)."""
        cls = self._class_of.get(instr.text)
        if cls is None:
            cls = self._class_of[instr.text] = self.classes[
                instr.defn.family.cost_class(instr.fields, instr.dtype)]
        return cls

    def _vector_cost(self, vop: VectorOp, cls: CostClass) -> tuple[np.ndarray, int, int, int]:
        """(beats per repeat, busy cycles, padding after the last repeat, cycles added by bank
        conflicts), cached on the instruction's kind and its layout relative to its first
        operand: a statement re-run, or moving its operands together through UB, costs a dict
        lookup."""
        # statements with identical text share their decoding (simulator/decodings.py) and memo,
        # which keeps it between runs and programs of the same content
        key = self._cost_keys[cls.name]  # (every model sharing the cost cache: the same key)
        hit = vop.memo.get(key)
        if hit is None:
            origin = vop.origin  # a decoding moved through UB: kept with its origin's, by
            moved = self.banks.moved_key(*origin) if origin is not None else None  # the
            if moved is None:  # parts of the layout a move can change
                hit = vop.memo[key] = self._vector_cost_by_layout(vop, cls)
            else:
                src = origin[0].memo
                hit = src.get((key, moved))
                if hit is None:
                    hit = src[(key, moved)] = self._vector_cost_by_layout(vop, cls)
                vop.memo[key] = hit
        return hit

    def _vector_cost_by_layout(self, vop: VectorOp, cls: CostClass
                               ) -> tuple[np.ndarray, int, int, int]:
        r = vop.repeats
        key = (vop.family.name, cls.name, vop.t.name, r,
               None if vop.all_active else (vop.mask, vop.last),
               self.banks.layout_key(vop) if r else None)
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) >= CACHE_LIMIT:
                self._cache.clear()
            hit = self._cache[key] = self._vector_compute(vop, cls)
        return hit

    def _vector_compute(self, vop: VectorOp, cls: CostClass) -> tuple[np.ndarray, int, int, int]:
        r = vop.repeats
        if r == 0:
            out = (np.zeros(0, np.int64), 0, 0, 0)
        else:
            beats = self.banks.beats(vop, cls.slope)
            beats.setflags(write=False)
            penalty = cls.penalty if (vop.family.bit_output and (r * vop.n // 8) % BLOCK) \
                else 0
            floor = cls.min_for(vop.t.name)
            total = int(beats.sum())
            busy = max(floor, total + penalty)
            plain = max(floor, r * max(cls.slope, 1) + penalty)
            out = (beats, busy, busy - total, busy - plain)
        return out

    def _one_class(self, ev: Event) -> InstrTiming:
        """set_cmpmask / get_cmpmask (class cmpmask_move), set_va (class set_va), set_deqscale
        (class set_deqscale): the class's min_cycles on V."""
        cls = self.classes[ev.instr.defn.family.cost]
        return self._plain_vector(cls, cls.min_cycles)

    def _regvec(self, ev: Event) -> InstrTiming:
        """An instruction of the reg-based unit: its class's cycles on V (timing.md §T9); a load
        or store at least its UB bank beats (950: `RegBanks`), the extra cycles a bank
        conflict's; plus a reload per spill slot it reads and a spill per one it writes."""
        cls = self._reg_classes[ev.instr.defn.family.cost]
        body, extra = self._reg_body(cls, self._spill_cycles(ev.instr), ev.op)
        if not extra:
            return self._plain_vector(cls, body)
        self.stalls["bank_conflict"] += extra
        issue, start, end, head, stalled = self._book_v(cls, body)
        return InstrTiming("V", issue, start, end, head + body, wait_pipe=start - issue,
                           head=head, wait_issue=stalled, bank_extra=extra,
                           issue_cost=self.scalar_issue)

    def _reg_body(self, cls: CostClass, spill: int, op) -> tuple[int, int]:
        """(V cycles, bank-conflict extra) of a reg-based instruction of class CLS with SPILL
        cycles of spill traffic: its class's cycles or, for a load or store (OP a RegAccess),
        its UB bank beats when more, the difference a bank conflict's."""
        runs = getattr(op, "runs", None)
        beats = self._reg_banks.beats(runs, op.write) if runs else 0
        if beats <= cls.min_cycles:
            return cls.min_cycles + spill, 0
        return beats + spill, beats - cls.min_cycles

    def _spill_cycles(self, instr) -> int:
        """The cycles INSTR's spill slots cost (timing.md §T9): a reload (a LoadAlign of VL, the
        profile's `load`) per slot it reads, a spill (`store`) per slot it writes."""
        reads, writes = spill_traffic(instr)
        if not reads and not writes:
            return 0
        classes = self._reg_classes
        return reads * classes["load"].min_cycles + writes * classes["store"].min_cycles

    def _plain_vector(self, cls: CostClass, body: int) -> InstrTiming:
        issue, start, end, head, stalled = self._book_v(cls, body)
        return InstrTiming("V", issue, start, end, head + body, wait_pipe=start - issue,
                           head=head, wait_issue=stalled, issue_cost=self.scalar_issue)

    # -- DMA -----------------------------------------------------------------------------------
    def _dma(self, ev: Event) -> InstrTiming:
        op = ev.op
        engine = ev.instr.defn.family.cost
        if ev.pipe == "V":  # copy_ub_to_ub: one micro-op of class copy, no bank model
            cls = self.classes[engine]
            eighths = -(-op.blocks // 8)
            return self._plain_vector(cls, max(cls.min_cycles, eighths * cls.slope))
        q = self.queues[ev.pipe]
        issue, stalled = self._issue(q)
        start = max(issue, q.last_end)
        alone = occ = self.cfg.dma_cycles(engine, op.nburst, op.burst)
        if self.gm is not None:  # other cores' transfers leave this one less bandwidth
            occ = self.gm.book(start, alone, op.nburst * op.data_bytes) - start
            self.gm_wait += occ - alone
        end = self._finish(q, start, occ, False)
        return InstrTiming(q.name, issue, start, end, occ, wait_pipe=start - issue,
                           wait_issue=stalled, issue_cost=self.scalar_issue,
                           gm_wait=occ - alone)

    # -- synchronisation -----------------------------------------------------------------------
    def _set_flag(self, ev: Event) -> InstrTiming:
        key = ev.flag
        rec = self._set_flag_on(key[0])
        self.flags.setdefault(key, rec.fire)  # already set: it stays set from the first firing
        return rec

    def _set_flag_on(self, pipe: str) -> InstrTiming:
        """A signal from PIPE: it fires when PIPE's earlier instructions have completed."""
        if pipe == "S":  # S as source fires at the end of its own cycle
            return self._on_s(self.s_time, self.set_cost, 0, fire=self.s_time + self.set_cost)
        q = self.queues[pipe]
        issue, stalled = self._issue(q)
        start = max(issue, q.last_end, q.drain_end)
        end = self._finish(q, start, self.set_cost, False)
        return InstrTiming(q.name, issue, start, end, self.set_cost,
                           wait_pipe=start - issue, fire=end, wait_issue=stalled,
                           issue_cost=self.scalar_issue)

    def _wait_flag(self, ev: Event) -> InstrTiming:
        key = ev.flag
        return self._wait_on(key[1], self.flags.pop(key, None))

    def _wait_on(self, pipe: str, fire: int | None) -> InstrTiming:
        """PIPE waits for a signal firing at FIRE (None: one that already fired)."""
        if pipe == "S":  # S as destination stops issuing until the flag fires
            start = self.s_time
            wait = max(0, (start if fire is None else fire) - start)
            self.stalls["flag_wait"] += wait
            return self._on_s(start, self.wait_cost, wait)
        q = self.queues[pipe]
        issue, stalled = self._issue(q)
        start = max(issue, q.last_end)
        fire = start if fire is None else fire
        wait = max(0, fire - start)
        self.stalls["flag_wait"] += wait
        end = self._finish(q, start, wait + self.wait_cost, False)
        return InstrTiming(q.name, issue, start, end, self.wait_cost, wait_flag=wait,
                           wait_pipe=start - issue, wait_issue=stalled,
                           issue_cost=self.scalar_issue)

    # -- ascend950's Mutex (#34): an unlock fires as a set_flag does; a lock by another pipe waits
    # for the id's last unlock as a wait_flag does, and leaves it (no wait when PIPE freed it last)
    def _unlock(self, ev: Event) -> InstrTiming:
        rec = self._set_flag_on(ev.pipe)
        self.mutex_fire[ev.flag] = (ev.pipe, rec.fire)
        return rec

    def _lock(self, ev: Event) -> InstrTiming:
        last = self.mutex_fire.get(ev.flag)
        return self._wait_on(ev.pipe, last[1] if last and last[0] != ev.pipe else None)

    def _barrier(self, ev: Event) -> InstrTiming:
        pipe = ev.pipe
        if pipe == "S":  # ALL: S waits until every queue is empty, then spends barrier_all
            c = self.s_time
            start = max([c] + [max(q.last_end, q.drain_end) for q in self.queues.values()])
            self.stalls["barrier"] += start - c
            for q in self.queues.values():
                q.inflight.clear()
            return self._on_s(start, self.barrier_all, 0, stalled=start - c)
        q = self.queues[pipe]
        issue, stalled = self._issue(q)
        start = max(issue, q.last_end, q.drain_end)
        occ = self.drain[pipe] if q.drain_end == start else 0
        end = self._finish(q, start, occ, False)
        return InstrTiming(q.name, issue, start, end, occ, wait_pipe=start - issue,
                           wait_issue=stalled, issue_cost=self.scalar_issue)
