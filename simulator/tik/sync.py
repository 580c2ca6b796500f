"""TIK's automatic synchronisation: the set_flag / wait_flag pairs its compiler inserts.

An instruction C on pipe P that touches a buffer an instruction on another pipe Q accessed (read
after write, write after read, write after write) with no synchronisation between them gets a
pair Q→P, `wait_flag Q, P` just before C. Where the `set_flag` goes decides how much the pipes
overlap; by the position, in C's own block, of the conflicting Q instructions:

- one comes earlier in the block: **eager**, the set right after the latest of those, so P waits
  for that instruction, not for everything Q issued since;
- C's block is a loop body and the conflicts come from later in the body (the previous
  iteration): **carried**, the set after the latest of them, primed by a set before the loop
  and drained by a wait after it (double buffering's pattern);
- C's block is a loop body and the conflicts come from before the loop: **hoisted**, one pair
  before the loop;
- otherwise **adjacent**: the set just before the wait (it covers everything Q issued so far).

Loops are analysed to a fixed point (what iteration i leaves pending reaches iteration i+1); the
arms of an if merge. Buffers are whole tensors: conservative where offsets are computed at run
time, never missing a conflict; tensors whose UB bytes overlap (a freed new_stmt_scope's tensor
and the one placed there after it) conflict as one buffer. The pipes' flag ids are allocated in
program text order.

An access is an Op, or a Replays node: a run of one call site's replayed calls, which read and
write the same buffers on one pipe, so one access (only its first call can need a wait: the
pair covers what the others would clash with; a set after it follows its last call).
"""

from __future__ import annotations

from collections import defaultdict

import attrs

from simulator.tik.nodes import ACCESSES, Block, If, Loop, Op, ancestry, children

PIPES = ("V", "MTE2", "MTE3")
# the scalar unit's UB loads and stores (Op.pipe "S") wait for the queues like any pipe; what
# S does is complete before it issues the next instruction, so nothing ever waits for S
ORDER = PIPES + ("S",)
EAGER, CARRIED, HOISTED, ADJACENT = "eager", "carried", "hoisted", "adjacent"
EMPTY: frozenset = frozenset()

Entry = tuple[str, bool, Op]  # buffer, written, by whom
State = dict[tuple[str, str], frozenset[Entry]]
Where = tuple[int, int]  # (block id, node index)


@attrs.define(eq=False)
class Pair:
    src: str
    dst: str
    kind: str
    after: int | None = None  # eager / carried: the node index in C's block the set follows
    event: int | None = None  # the flag id, chosen when emitted; None: a barrier instead


@attrs.define
class Plan:
    waits: dict[Op, list[Pair]]  # the pairs whose wait goes before each Op
    sets_after: dict[Where, list[Pair]]  # eager and carried sets after a node
    before_loop: dict[Where, list[Pair]]  # hoisted pairs and carried primes, before a loop node
    after_loop: dict[Where, list[Pair]]  # carried drains after a loop node


def decide(local: frozenset, i: int, in_loop: bool) -> tuple[str, int | None]:
    """The placement for conflicts at these positions in C's block (None: outside it)."""
    earlier = [j for j in local if j is not None and j < i]
    if earlier:
        return EAGER, max(earlier)
    later = [j for j in local if j is not None and j > i]
    if in_loop and later:
        return CARRIED, max(later)
    return (HOISTED if in_loop else ADJACENT), None


def _kept(entries: frozenset, anc, block: int, kind: str, after: int | None, i: int):
    """The entries a pair placed so does not cover (they stay pending)."""
    def position(e):
        return anc[e[2]].get(block)
    if kind == EAGER:
        return frozenset(e for e in entries if (j := position(e)) is not None and after < j < i)
    if kind == CARRIED:
        return frozenset(e for e in entries if (j := position(e)) is not None
                         and (j > after or j < i))
    if kind == HOISTED:
        return frozenset(e for e in entries if position(e) is not None)
    return frozenset()


def plan(root: Block, overlaps: dict[str, frozenset[str]] | None = None) -> Plan:
    """OVERLAPS: for a UB buffer, every buffer sharing a byte with it (itself included)."""
    overlaps = overlaps or {}
    anc = _Lazy(lambda: ancestry(root))  # only a clash needs positions (most kernels' V runs
    # never clash: walking the tree for them was a fifth of a Python-unrolled kernel's pass)
    loops: dict[int, Where] = {}  # loop body id → where the loop node is

    def index_loops(block: Block) -> None:
        for i, node in enumerate(block.nodes):
            if node.__class__ is Op:  # most nodes: nothing inside
                continue
            if isinstance(node, Loop):
                loops[node.body.id] = (block.id, i)
            for b in children(node):
                index_loops(b)

    index_loops(root)
    known: dict[tuple[Op, str], frozenset] = {}  # (C, Q) → positions of its conflicts so far
    where: dict[Op, tuple[Block, int]] = {}

    def visit(c: Op, block: Block, i: int, state: State, seen: dict) -> State:
        p = c.pipe
        if p is None:
            return state
        state = dict(state)
        writes = reads = None  # the storage C touches, worked out when something may clash
        for q in PIPES:
            entries = state.get((q, p))
            if q == p or not entries:
                continue
            if writes is None:
                writes, reads = _storage(c.writes, overlaps), _storage(c.reads, overlaps)
            clash = [e for e in entries if e[0] in writes or (e[1] and e[0] in reads)]
            if not clash:
                continue
            local = frozenset(anc[e[2]].get(block.id) for e in clash)
            key = (c, q)
            seen[key] = seen.get(key, frozenset()) | local
            kind, after = decide(known.get(key, frozenset()) | seen[key], i,
                                 block.id in loops)
            where[c] = (block, i)
            state[(q, p)] = _kept(entries, anc, block.id, kind, after, i)
        if p == "S":
            return state
        mine = {(b, False, c) for b in c.reads - c.writes} | {(b, True, c) for b in c.writes}
        # P's entries towards each other pipe are usually one set (every access of P adds to
        # all of them alike): worked out once per distinct set
        found = made = None  # the last set found and what it became
        for r in ORDER:
            if r != p:
                old = state.get((p, r), EMPTY)
                if old is not found:
                    found, made = old, _superseded(old, c) | mine
                state[(p, r)] = made
        return state

    def loop_head(node: Loop, state: State, seen: dict) -> State:
        """The state at LOOP's head: the entry's, joined with every iteration's exit. An
        access drops the entries it supersedes, so iterating can cycle through states (a
        random kernel with if/else and continue did); once a state repeats, the heads are
        accumulated instead, which ends (the entries are finite) on the safe side: an entry
        kept pending can only add a wait."""
        head, history, grow = state, [], False
        while True:
            out = _union(state, walk(node.body, head, seen))
            if not grow and any(out == h for h in history):
                grow = True
            if grow:
                out = _union(out, head)
            if out == head:
                return head
            history.append(head)
            head = out

    def walk(block: Block, state: State, seen: dict) -> State:
        nodes, i = block.nodes, 0
        while i < len(nodes):
            node = nodes[i]
            if isinstance(node, ACCESSES):
                end = _quiet_run(nodes, i, state)
                if end > i + 1:  # a run no access can clash in: its entries at once
                    state = _after_run(nodes[i:end], node.pipe, state)
                    i = end
                    continue
                state = visit(node, block, i, state, seen)
            elif isinstance(node, Loop):
                state = loop_head(node, state, seen)
            elif isinstance(node, If):
                arms = [walk(b, state, seen) for b in children(node)]
                if node.orelse is None:
                    arms.append(state)
                state = _union(*arms)
            i += 1
        return state

    while True:  # until the placements (which decide what stays pending) are stable
        seen: dict = {}
        walk(root, {}, seen)
        merged = {k: known.get(k, frozenset()) | v for k, v in seen.items()}
        if merged == known:
            break
        known = merged
    return _placed(known, where, loops)


def _placed(known, where, loops) -> Plan:
    plan = Plan(defaultdict(list), defaultdict(list), defaultdict(list), defaultdict(list))
    order = sorted(known.items(), key=lambda kv: ORDER.index(kv[0][1]))
    for (c, q), local in order:
        block, i = where[c]
        kind, after = decide(local, i, block.id in loops)
        pair = Pair(q, c.pipe, kind, after)
        if kind != HOISTED:  # a hoisted pair is whole before the loop
            plan.waits[c].append(pair)
        if kind in (EAGER, CARRIED):
            plan.sets_after[(block.id, after)].append(pair)
        if kind in (CARRIED, HOISTED):
            plan.before_loop[loops[block.id]].append(pair)
        if kind == CARRIED:
            plan.after_loop[loops[block.id]].append(pair)
    return Plan(*(dict(d) for d in attrs.astuple(plan, recurse=False)))


class _Lazy:
    """A mapping worked out by MAKE when first read."""

    def __init__(self, make):
        self.make, self.got = make, None

    def __getitem__(self, key):
        if self.got is None:
            self.got = self.make()
        return self.got[key]


def _quiet_run(nodes: list, i: int, state: State) -> int:
    """The end of the run of Ops from I on that nothing pending can clash with: Ops of NODES[I]'s
    pipe P (and scalar-unit work, which the pass passes over) while no other pipe has an entry
    towards P. Nothing in such a run waits, and it adds no entry towards P itself."""
    p = nodes[i].pipe
    if p is None or any(state.get((q, p)) for q in PIPES if q != p):
        return i
    end = i
    while end < len(nodes) and nodes[end].__class__ in ACCESSES and \
            nodes[end].pipe in (p, None):
        end += 1
    return end


def _after_run(run: list, p: str, state: State) -> State:
    """STATE after a quiet run of P's Ops (_quiet_run), what visiting each in turn leaves: an
    entry survives unless a later access supersedes it (_superseded), whether it was pending
    before the run or made in it. Worked out from the run's end backwards, an Op every one
    of whose entries a later one supersedes (a Python loop's calls over the same buffers) is
    two subset tests."""
    if p == "S":  # the scalar unit's accesses add no entries
        return state
    wrote, read = set(), set()  # what the Ops after the one looked at write and read
    made = set()
    for c in reversed(run):
        if c.pipe is None:
            continue
        if not (c.writes <= wrote and c.reads <= wrote | read):
            made.update((b, True, c) for b in c.writes if b not in wrote)
            made.update((b, False, c) for b in c.reads - c.writes
                        if b not in wrote and b not in read)
        wrote |= c.writes
        read |= c.reads
    state = dict(state)
    found = kept = None  # P's entries towards each other pipe are usually one set
    for r in ORDER:
        if r != p:
            old = state.get((p, r), EMPTY)
            if old is not found:
                found = old
                kept = frozenset(e for e in old if e[0] not in wrote and
                                 (e[1] or e[0] not in read)) | made
            state[(p, r)] = kept
    return state


def _storage(buffers: frozenset[str], overlaps: dict[str, frozenset[str]]) -> set[str]:
    """The buffers an access to BUFFERS touches: each, and the ones sharing its bytes."""
    out: set[str] = set()
    for b in buffers:
        out |= overlaps.get(b, {b})
    return out


def _superseded(entries: frozenset, c: Op) -> frozenset:
    """Entries of C's own pipe that C's accesses make redundant: its pipe runs in order, so
    whatever is ordered after C is ordered after them (a write covers reads of the buffer)."""
    if not entries:
        return entries
    return frozenset(e for e in entries if not (e[0] in c.writes or
                                                (not e[1] and e[0] in c.reads)))


def _union(*states: State) -> State:
    out: dict = {}
    for s in states:
        for k, v in s.items():
            out[k] = out.get(k, frozenset()) | v
    return out


class Events:
    """Flag ids in program text order: a set takes the lowest id not held by another open pair
    of the same pipes (a carried pair holds its id from the prime before its loop to the drain
    after it); when every id is held the pair becomes a `pipe_barrier ALL`."""

    def __init__(self, count: int):
        self.count = count
        self.open: dict[tuple[str, str], set[int]] = defaultdict(set)

    def _take(self, pair: Pair) -> int | None:
        held = self.open[(pair.src, pair.dst)]
        free = next((k for k in range(self.count) if k not in held), None)
        if free is not None:
            held.add(free)
        return free

    def _set(self, pair: Pair) -> str:
        return f"set_flag {pair.src}, {pair.dst}, {pair.event}"

    def _wait(self, pair: Pair) -> str:
        return f"wait_flag {pair.src}, {pair.dst}, {pair.event}"

    def before_loop(self, pair: Pair) -> list[str]:
        """A hoisted pair, or a carried pair's prime."""
        pair.event = self._take(pair)
        if pair.event is None:
            pair.kind = ADJACENT if pair.kind == CARRIED else pair.kind
            return ["pipe_barrier ALL"] if pair.kind == HOISTED else []
        if pair.kind == HOISTED:
            self.open[(pair.src, pair.dst)].discard(pair.event)
            return [self._set(pair), self._wait(pair)]
        return [self._set(pair)]

    def after_loop(self, pair: Pair) -> list[str]:
        if pair.kind != CARRIED:  # it fell back to adjacent for want of an id
            return []
        self.open[(pair.src, pair.dst)].discard(pair.event)
        return [self._wait(pair)]

    def set_after(self, pair: Pair) -> list[str]:
        if pair.kind == CARRIED:
            return [self._set(pair)]
        if pair.kind != EAGER:
            return []
        pair.event = self._take(pair)
        return [self._set(pair)] if pair.event is not None else []

    def wait_before(self, pair: Pair) -> list[str]:
        if pair.kind == CARRIED:
            return [self._wait(pair)]
        if pair.kind == ADJACENT:
            pair.event = self._take(pair)
            if pair.event is None:
                return ["pipe_barrier ALL"]
            self.open[(pair.src, pair.dst)].discard(pair.event)
            return [self._set(pair), self._wait(pair)]
        if pair.event is None:  # eager without an id
            return ["pipe_barrier ALL"]
        self.open[(pair.src, pair.dst)].discard(pair.event)
        return [self._wait(pair)]
