"""TIK Scalars → scalar registers, as TIK's compiler does it: a kernel declares as many Scalars
as it likes, not at most the register file's (#29: SignBitsUnpack keeps 30 alive at once).

While a kernel is recorded, every Scalar (and every hidden register: a loop's bound, a
tik_break guard, a run-time tensor's end) is a *virtual* register `xN`, N >= VIRTUAL, alive
from its declaration to the end of the `with` scope that made it (the kernel's: to the end).
At BuildCCE:

- each virtual register gets a weight, its uses in the recorded statements, each counted
  8^depth for the serial loops around it, and the heaviest are given x1..x23 first: a register
  goes to a virtual one whose lifetime overlaps no other holder's (what a scope made is free
  again after it, as before);
- the rest are *spilled* to a per-core int64 area in UB (pipev's own, `__tik_spill`, placed
  above every fixed-size tensor: docs/decisions.md), one slot each, slots shared as registers
  are by lifetimes that do not overlap. A statement reading a spilled Scalar loads it into a
  free expression scratch register (x24..x31) first (`ld.s64`), one writing it stores it after
  (`st.s64`): scalar loads and stores by S, costed from the chip profile as any.

The lifetimes are spans of the recording's order (Kernel.record's clock); a for_range's
counter and bound live over the whole loop, a tik_break guard from the loop's top.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from isa.program import ScalarHome
from simulator.tik.errors import TikError
from simulator.tik.nodes import Block, If, Loop, Op

if TYPE_CHECKING:
    from isa.types import DType

# KERNEL: the simulator/tik/kernel.py Kernel being built, untyped here (kernel.py imports this
# module for its Registers)
KERNEL = Any

PHYSICAL = tuple(range(1, 24))  # x24..x31: the expressions' scratch (call.py TEMPS)
SCRATCH = tuple(range(24, 32))
VIRTUAL = 1000  # virtual register numbers start here (no statement names x1000)
SPILL = "__tik_spill"  # the spill area's tensor (user names never start with __tik)
FOREVER = 1 << 62
REG = re.compile(r"\bx(\d{4,})\b")


class Registers:
    """The virtual registers handed out while recording, with their lifetimes."""

    def __init__(self) -> None:
        self.clock = 0  # statements recorded so far (Kernel.record advances it)
        self.spans: list[list] = []  # per virtual register: [start, end, name, type or None]
        self.alive: set[int] = set()
        self.stamps: dict[int, int] = {}  # id(recorded node) → the clock when it was recorded
        self.home: dict[int, str] = {}  # at BuildCCE: virtual → "xN", or "@K" (spill slot K)

    def take(self, loc, name: str, since: int | None = None, t: DType | None = None) -> int:
        """A fresh virtual register, alive from now (or from SINCE, a loop's top); T: a
        Scalar's type (the debugger prints it by NAME), None for a hidden register."""
        reg = VIRTUAL + len(self.spans)
        self.spans.append([self.clock if since is None else since, FOREVER, name, t])
        self.alive.add(reg)
        return reg

    def give_back(self, reg: int) -> None:
        if reg in self.alive:
            self.alive.discard(reg)
            self.spans[reg - VIRTUAL][1] = self.clock

    def spare(self) -> int:
        """Physical registers not needed by the virtual ones alive now."""
        return max(0, len(PHYSICAL) - len(self.alive))


class _Track:
    """Holders of one register or slot: disjoint spans sorted by start."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def fits(self, start: int, end: int) -> bool:
        k = bisect.bisect_right(self.starts, start)
        if k and self.ends[k - 1] > start:
            return False
        return not (k < len(self.starts) and self.starts[k] < max(end, start + 1))

    def add(self, start: int, end: int) -> None:
        k = bisect.bisect_right(self.starts, start)
        self.starts.insert(k, start)
        self.ends.insert(k, max(end, start + 1))


def allocate(tik: KERNEL) -> int:
    """Rewrite every recorded statement onto x1..x23 and the spill area; returns the number of
    spill slots (0: nothing spilled, no area)."""
    spans = tik.registers.spans
    if not spans:
        return 0
    weight = [0] * len(spans)
    found = []  # (op, its lines joined, the virtual registers they name)
    for op, depth in _ops(tik.root, 0):
        text = "\x1f".join(op.lines)  # one regex pass an op (no line holds \x1f)
        names = REG.findall(text)
        if names:
            found.append((op, text, names))
            w = 8 ** min(depth, 6)
            for n in names:
                weight[int(n) - VIRTUAL] += w
    order = sorted(range(len(spans)), key=lambda v: (-weight[v], spans[v][0]))
    regs = {r: _Track() for r in PHYSICAL}
    slots: list[_Track] = []
    home: dict[int, str] = {}  # virtual → "xN" or a slot index as "@K"
    for v in order:
        start, end = spans[v][:2]
        reg = next((r for r in PHYSICAL if regs[r].fits(start, end)), None)
        if reg is not None:
            regs[reg].add(start, end)
            home[v + VIRTUAL] = f"x{reg}"
            continue
        k = next((k for k, s in enumerate(slots) if s.fits(start, end)), None)
        if k is None:
            k = len(slots)
            slots.append(_Track())
        slots[k].add(start, end)
        home[v + VIRTUAL] = f"@{k}"
    table = tik.table
    plain = {str(v): h for v, h in home.items()}
    for op, text, names in found:
        if all(plain[n][0] == "x" for n in names):  # no spilled one: renamed in one pass
            op.lines = REG.sub(lambda m: plain[m.group(1)], text).split("\x1f")
        else:
            op.lines = _rewrite(op, home, table)
    tik.registers.home = home
    return len(slots)


def homes(tik: KERNEL, marks: list[tuple[int, int]], end: int, spill_addr: int
          ) -> tuple[ScalarHome, ...]:
    """Each Scalar's home and the statements it is alive in (MARKS: (clock, pc) of every
    recorded node, in order; END: the statements' count), for the debugger."""
    clocks = [c for c, _ in marks]

    def pc(clock: int) -> int:
        k = bisect.bisect_left(clocks, clock)
        return marks[k][1] if k < len(marks) else end

    out = []
    registers = tik.registers
    for v, (start, stop, name, t) in enumerate(registers.spans):
        where = registers.home.get(v + VIRTUAL)
        if t is None or where is None:
            continue
        reg = int(where[1:]) if where[0] == "x" else -1
        addr = spill_addr + 8 * int(where[1:]) if reg < 0 else 0
        out.append(ScalarHome(name, t, pc(start), pc(stop) if stop < FOREVER else end, reg,
                              addr))
    return tuple(out)


def _ops(block: Block, depth: int) -> Iterator[tuple[Op, int]]:
    for node in block.nodes:
        if isinstance(node, Op):
            yield node, depth
        elif isinstance(node, Loop):
            yield node.head, depth
            yield from _ops(node.body, depth + 1)
            yield node.tail, depth + 1
        elif isinstance(node, If):
            yield node.head, depth
            yield from _ops(node.then, depth)
            if node.orelse is not None:
                yield from _ops(node.orelse, depth)


def _rewrite(op: Op, home: dict[int, str], table) -> list[str]:
    """OP's lines on physical registers; a spilled one through a scratch register, loaded
    before the first line reading it and stored after each line writing it."""
    used = {int(m) for line in op.lines for m in re.findall(r"\bx(\d+)\b", line)}
    free = [r for r in SCRATCH if r not in used]
    held: dict[str, int] = {}  # a spill slot → the scratch register holding it now
    out: list[str] = []
    for line in op.lines:
        written = _written(line, table)
        after: list[str] = []

        def place(m: re.Match, line=line, written=written, after=after) -> str:
            where = home[int(m.group(1))]
            if where[0] == "x":
                return where
            slot = int(where[1:])
            reg = held.get(where)
            if reg is None:
                if not free:
                    raise TikError.at(op.loc, f"{op.api}: the statement uses every expression "
                                      "scratch register (x24..x31), none is left to load a "
                                      "spilled Scalar: split it over Scalars")
                reg = held[where] = free.pop(0)
                if not (m.start() == written and _only_write(line, m)):
                    out.append(f"ld.s64 x{reg}, {SPILL}[{slot}]")
            if m.start() == written:
                after.append(f"st.s64 x{reg}, {SPILL}[{slot}]")
            return f"x{reg}"

        out.append(REG.sub(place, line))
        out.extend(after)
    return out


def _written(line: str, table) -> int:
    """The offset of the register LINE writes (its first operand, when its instruction's first
    operand is a destination register), else -1."""
    head, _, rest = line.partition(" ")
    name, dot, _ = head.partition(".")
    d = table.lookup_form(name, bool(dot)) or table.instructions.get(name)
    if d is None or not d.operands or d.operands[0] != ("d", "xreg"):
        return -1
    return len(head) + 1 + (len(rest) - len(rest.lstrip()))


def _only_write(line: str, m: re.Match) -> bool:
    """The register at M (the destination) is not also read by the line."""
    return sum(1 for x in REG.finditer(line) if x.group(1) == m.group(1)) == 1
