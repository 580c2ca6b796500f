"""tik_break / tik_continue as structured code. A jump out of a loop body would skip the
synchronisation the rest of the body carries (a set_flag the next iteration, or the code after
the loop, waits for): the planner (simulator/tik/sync.py) balances flags over blocks and ifs,
not over arbitrary jumps. So a jump clears a hidden guard register instead (and `tik_break`
also moves the loop counter to its last value), and everything after it in the body runs
inside `if guard != 0` — the same statements the jump would have skipped, as ifs the planner
already handles."""

from __future__ import annotations

import attrs

from simulator.tik.errors import Loc
from simulator.tik.nodes import Block, If, Op


@attrs.define(eq=False)
class SerialLoop:
    """A serial for_range being recorded: its counter register and bound (an int or `xN`), and
    once a jump is recorded in it, the guard register and the jumps' Ops."""

    loc: Loc
    var: int
    bound: int | str
    start: int  # the recording's clock at the loop's top (a guard lives from there)
    guard: int | None = None
    jumps: set[int] = attrs.field(factory=set)


def jump_lines(loop: SerialLoop, kind: str) -> list[str]:
    """The jump's scalar code: the guard cleared; a break also puts the counter on its last
    value, so the loop's increment ends it."""
    lines = [f"li x{loop.guard}, 0"]
    if kind == "break":
        if isinstance(loop.bound, int):
            lines.append(f"li x{loop.var}, {loop.bound - 1}")
        else:
            lines.append(f"sub x{loop.var}, {loop.bound}, 1")
    return lines


def guard_body(loop: SerialLoop, body: Block, label) -> None:
    """Rewrite BODY (the loop's, recorded): the guard set at the top of every iteration, and
    what follows each jump inside `if guard != 0`. LABEL() gives a fresh label."""
    body.nodes.insert(0, Op(loop.loc, "for_range", [f"li x{loop.guard}, 1"]))
    _guard(loop, body, label)


def _has_jump(loop: SerialLoop, node) -> bool:
    if isinstance(node, Op):
        return id(node) in loop.jumps
    if isinstance(node, If):
        return any(_has_jump(loop, n) for b in (node.then, node.orelse) if b is not None
                   for n in b.nodes)
    return False  # a nested loop's jumps are its own


def _guard(loop: SerialLoop, block: Block, label) -> None:
    for k, node in enumerate(block.nodes):
        if not _has_jump(loop, node):
            continue
        if isinstance(node, If):
            for b in (node.then, node.orelse):
                if b is not None:
                    _guard(loop, b, label)
        rest = block.nodes[k + 1:]
        if rest:
            name = label()
            first = rest[0].loc
            inner = Block(rest)
            block.nodes[k + 1:] = [If(first, Op(first, "tik_continue",
                                                [f"beq x{loop.guard}, 0, {name}_else"]),
                                      inner, name)]
            _guard(loop, inner, label)
        return
