"""The recorded kernel: a tree of statements (TIK calls), loops and branches.

TIK calls are recorded, not executed: `for_range` must become one scalar loop and the
synchronisation pass needs the whole tree (a loop's body reads what the previous iteration
wrote). Each Op is one TIK call: the `.vasm` statements it decodes into, the memory pipe it runs
on and the buffers it reads and writes.
"""

from __future__ import annotations

import itertools

import attrs

from simulator.tik.errors import Loc

_ids = itertools.count()


@attrs.define(eq=False)
class Op:
    loc: Loc
    api: str
    lines: list[str]
    pipe: str | None = None  # V, MTE2, MTE3; None for scalar-unit work
    reads: frozenset[str] = frozenset()
    writes: frozenset[str] = frozenset()


class Replays:
    """Consecutive replays of one call site's recording (simulator/tik/memo.py's Entry) in one
    block: one call each OFFSETS tuple, recorded from clock CLOCK on (one tick a call). The
    calls read and write the same buffers on the same pipe, so the synchronisation pass takes
    them as one access (a wait goes before the first, a set after the last); the build gives
    each its statement, as an Op of the Entry's lines at its offsets would be."""

    __slots__ = ("entry", "offsets")

    def __init__(self, entry, offsets: tuple[int, ...]):
        self.entry = entry
        self.offsets: list[tuple[int, ...]] = [offsets]

    @property
    def loc(self) -> Loc:
        return self.entry.loc

    @property
    def pipe(self) -> str | None:
        return self.entry.pipe

    @property
    def reads(self) -> frozenset[str]:
        return self.entry.reads

    @property
    def writes(self) -> frozenset[str]:
        return self.entry.writes

    def lines(self, k: int) -> list[str]:
        """The Kth call's lines."""
        return self.entry.text(self.offsets[k])


ACCESSES = (Op, Replays)  # the recorded nodes that touch buffers (the rest hold blocks)


@attrs.define(eq=False)
class Block:
    nodes: list = attrs.field(factory=list)
    id: int = attrs.field(factory=lambda: next(_ids))


@attrs.define(eq=False)
class Loop:
    """head: the counter's start and the zero-trip branch; tail: increment and branch back."""

    loc: Loc
    head: Op
    body: Block
    tail: Op
    label: str


@attrs.define(eq=False)
class If:
    loc: Loc
    head: Op  # the condition and the branch to the else part
    then: Block
    label: str
    orelse: Block | None = None
    else_loc: Loc | None = None
    chained: bool = False  # the else part is an elif_scope's if


@attrs.define(eq=False)
class Life:
    """A `with` scope of the script (for_range, if_scope, new_stmt_scope...): the Scalars and
    Tensors made in it, a for_range's variable too, may not be used once it ends (TIK: no
    access from outside a scope to what it defines; pipev reuses their registers and UB)."""

    what: str
    loc: Loc
    ended: bool = False

    def outside(self, name: str) -> str:
        return (f"'{name}' is used outside its {self.what} (line {self.loc.line}), which "
                "ended: a scope's names are not visible after it")


def children(node) -> list[Block]:
    if isinstance(node, Loop):
        return [node.body]
    if isinstance(node, If):
        return [node.then] + ([node.orelse] if node.orelse is not None else [])
    return []


def ancestry(root: Block) -> dict[Op, dict[int, int]]:
    """For every Op, the index of its ancestor node in each enclosing block (block id → index)."""
    out: dict[Op, dict[int, int]] = {}

    def walk(block: Block, path: dict[int, int]) -> None:
        for i, node in enumerate(block.nodes):
            here = {**path, block.id: i}
            if isinstance(node, ACCESSES):
                out[node] = here
            else:
                out[node.head] = here
                if isinstance(node, Loop):
                    out[node.tail] = here
                for b in children(node):
                    walk(b, here)

    walk(root, {})
    return out
