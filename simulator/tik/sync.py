"""TIK's automatic synchronisation: the set_flag / wait_flag pairs its compiler inserts.

From the buffers each TIK call reads and writes, an instruction on pipe P that touches a buffer
an instruction on another pipe Q accessed (read after write, write after read, write after
write), with no synchronisation between them, gets a pair Q→P: `wait_flag Q, P` just before it,
and `set_flag Q, P` right after the latest conflicting Q instruction when that one is earlier in
the same straight-line block (so P waits for that instruction only and the pipes overlap), or
just before the wait otherwise (the conflict comes from an outer block or the loop's previous
iteration: the flag then covers everything Q issued so far). Loops are analysed to a fixed point
(what iteration i leaves pending reaches iteration i+1); the two arms of an if merge. Buffers are
whole tensors: conservative where offsets are computed at run time, never missing a conflict.
"""

from __future__ import annotations

from collections import defaultdict

import attrs

from simulator.tik.nodes import Block, If, Loop, Op, ancestry, children

PIPES = ("V", "MTE2", "MTE3")
ADJACENT = -1  # the set_flag goes just before its wait_flag

Entry = tuple[str, bool, Op]  # buffer, written, by whom
State = dict[tuple[str, str], frozenset[Entry]]


@attrs.define(eq=False)
class Pair:
    src: str
    dst: str
    after: int  # index of the node in the consumer's block the set follows, or ADJACENT
    block: int
    event: int | None = None  # the flag id, chosen when emitted; None: a barrier instead


@attrs.define
class Plan:
    waits: dict[Op, list[Pair]]  # the pairs before each Op
    sets_after: dict[tuple[int, int], list[Pair]]  # (block id, node index) → eager sets


def plan(root: Block) -> Plan:
    anc = ancestry(root)
    decisions: dict[tuple[Op, str], int] = {}
    blocks: dict[Op, int] = {}

    def visit(c: Op, block: Block, i: int, state: State) -> State:
        p = c.pipe
        if p is None:
            return state
        state = dict(state)
        for q in PIPES:
            if q == p or (q, p) not in state:
                continue
            entries = state[(q, p)]
            clash = [e for e in entries if e[0] in c.writes or (e[1] and e[0] in c.reads)]
            if not clash:
                continue
            local = [anc[e[2]].get(block.id) for e in clash]
            after = (max(local) if all(j is not None and j < i for j in local) else ADJACENT)
            key = (c, q)
            old = decisions.get(key)
            decisions[key] = (ADJACENT if ADJACENT in (old, after)
                              else after if old is None else max(after, old))
            blocks[c] = block.id
            if after == ADJACENT:
                state[(q, p)] = frozenset()
            else:  # what Q did after the set's place stays pending
                state[(q, p)] = frozenset(e for e in entries
                                          if _between(anc[e[2]].get(block.id), after, i))
        mine = {(b, False, c) for b in c.reads} | {(b, True, c) for b in c.writes}
        for r in PIPES:
            if r != p:
                state[(p, r)] = state.get((p, r), frozenset()) | mine
        return state

    def walk(block: Block, state: State) -> State:
        for i, node in enumerate(block.nodes):
            if isinstance(node, Op):
                state = visit(node, block, i, state)
            elif isinstance(node, Loop):
                head = state
                while True:
                    out = _union(state, walk(node.body, head))
                    if out == head:
                        break
                    head = out
                state = head
            elif isinstance(node, If):
                arms = [walk(b, state) for b in children(node)]
                if node.orelse is None:
                    arms.append(state)
                state = _union(*arms)
        return state

    walk(root, {})
    waits: dict[Op, list[Pair]] = defaultdict(list)
    sets_after: dict[tuple[int, int], list[Pair]] = defaultdict(list)
    for (c, q), after in sorted(decisions.items(), key=lambda kv: PIPES.index(kv[0][1])):
        pair = Pair(q, c.pipe, after, blocks[c])
        waits[c].append(pair)
        if after != ADJACENT:
            sets_after[(blocks[c], after)].append(pair)
    return Plan(dict(waits), dict(sets_after))


def _between(j: int | None, lo: int, hi: int) -> bool:
    return j is not None and lo < j < hi


def _union(*states: State) -> State:
    out: dict = {}
    for s in states:
        for k, v in s.items():
            out[k] = out.get(k, frozenset()) | v
    return out


class Events:
    """Flag ids in program text order: a set takes the lowest id not held by another open pair
    of the same pipes; when every id is held the pair becomes a `pipe_barrier ALL`."""

    def __init__(self, count: int):
        self.count = count
        self.open: dict[tuple[str, str], set[int]] = defaultdict(set)

    def set_line(self, pair: Pair) -> list[str]:
        held = self.open[(pair.src, pair.dst)]
        free = next((k for k in range(self.count) if k not in held), None)
        pair.event = free
        if free is None:
            return []
        held.add(free)
        return [f"set_flag {pair.src}, {pair.dst}, {free}"]

    def wait_line(self, pair: Pair) -> list[str]:
        if pair.event is None:
            return ["pipe_barrier ALL"]
        self.open[(pair.src, pair.dst)].discard(pair.event)
        return [f"wait_flag {pair.src}, {pair.dst}, {pair.event}"]
