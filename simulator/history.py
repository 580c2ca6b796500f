"""History checks (ISA.md §9.4, always warnings): the init check and the race check.

Both are observers over the bytes each executed instruction reads and writes in UB, derived from
the event's decoded operation (VectorOp footprints, DmaOp bursts, CMPMASK moves). They never
change machine state and are independent of the timing model.

One int32 per UB byte holds its last writer: -1 never written, 0 written by INIT (ordered before
everything), else count*4 + pipe, where count numbers the pipe's accessing instructions from 1.
One int32 row per pipe holds the count of that pipe's last read of each byte. Happens-before is
tracked with a vector clock per pipe (program order within a pipe; S before everything it issues
later; set_flag before the wait_flag it releases; `pipe_barrier ALL` before everything after
it). The byte arrays are only compared when some other pipe has accesses this pipe does not know
about; a well-synchronised program pays for one comparison and one store per operand.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

import numpy as np

from isa.decode import Access, DmaOp, VectorOp
from isa.table import PIPES
from simulator.events import Event, Observer
from simulator.memo import IdentityMemo

if TYPE_CHECKING:  # pragma: no cover
    from isa.program import Instruction
    from simulator.executor import Executor

PIPE = {p: k for k, p in enumerate(PIPES)}
S = 0
ACCESS_PIPES = (1, 2, 3)  # S never touches UB

# One operand's bytes: (role, column offset, first byte, end byte, index array or None, write)
Range = tuple[str, "int | None", int, int, "np.ndarray | None", bool]


class History(Observer):
    """Init and race checks as one observer (they share the per-byte writer record)."""

    def __init__(self, init: bool = True, races: bool = True):
        self.init = init
        self.races = races

    def attach(self, executor: Executor) -> None:
        self.ex = executor
        ub = executor.m.ub.size
        self.writer = np.full(ub, -1, np.int32)
        for t in executor.program.ub.values():
            if t.init is not None and t.init.data is not None:
                self.writer[t.addr:t.addr + t.nbytes] = 0
        self.readers = np.zeros((4, ub), np.int32)
        self.clock = [[0, 0, 0, 0] for _ in PIPES]
        self.s_version = 0
        self.seen_s = [0, 0, 0, 0]
        self.last_write = [0, 0, 0, 0]
        self.last_read = [0, 0, 0, 0]
        self.where = [array("i") for _ in PIPES]  # pipe → flat index of its count-th access
        self.pending: dict[tuple[str, str, int], list[int]] = {}
        self.written: set[tuple[int, int]] = set()  # read ranges found fully written
        self._ranges = IdentityMemo(4096)

    def _vector_ranges(self, vop: VectorOp) -> list[Range]:
        """The operand ranges of a decoding, computed once: statements with identical text
        share the decoding's operands, row and column map (see VectorOp.at / Instruction.at)."""
        cols = vop.instr.cols
        key = (id(vop.operands), id(cols), id(vop.row), vop.repeats, vop.last)
        hit = self._ranges.get(key)
        if hit is not None:
            return hit
        return self._ranges.put(key, _vector_ranges(vop), (vop.operands, cols, vop.row))

    # -- happens-before -------------------------------------------------------------------------
    def _join(self, p: int, other: list[int]) -> None:
        c = self.clock[p]
        for k in range(4):
            if other[k] > c[k]:
                c[k] = other[k]

    def _sync(self, ev: Event, p: int) -> bool:
        """Flag and barrier edges; True when the event was one (it touches no UB byte)."""
        name = ev.instr.name
        if name == "set_flag":
            self.pending.setdefault(ev.flag, list(self.clock[p]))  # a set flag stays set
            return True
        if name == "wait_flag":
            clk = self.pending.pop(ev.flag, None)
            if clk is not None:
                self._join(p, clk)
                if p == S:
                    self.s_version += 1
            return True
        if name == "pipe_barrier":
            if ev.pipe == "S":  # ALL: S waits until every queue is empty
                for q in ACCESS_PIPES:
                    self._join(S, self.clock[q])
                self.s_version += 1
            return True
        return False

    # -- the observer ---------------------------------------------------------------------------
    def on_event(self, ev: Event) -> None:
        p = PIPE[ev.pipe]
        if p != S and self.seen_s[p] != self.s_version:
            self._join(p, self.clock[S])
            self.seen_s[p] = self.s_version
        if ev.vop is not None:
            ranges = self._vector_ranges(ev.vop)
        elif ev.dma is not None:
            ranges = _dma_ranges(ev.dma)
        elif ev.instr.defn.family in CMPMASK_MOVES:
            ranges = self._cmpmask_range(ev.instr)
        else:
            if ev.flag is not None or ev.instr.name == "pipe_barrier":
                self._sync(ev, p)
            return
        if not ranges:
            return
        clock = self.clock[p]
        count = clock[p] + 1
        clock[p] = count
        if self.races:
            lw, lr = self.last_write, self.last_read
            for q in ACCESS_PIPES:
                if q != p and (lw[q] > clock[q] or lr[q] > clock[q]):
                    self._race_check(ev, p, ranges)
                    break
        writer, row = self.writer, self.readers[p]
        wrote = read = False
        for role, col, lo, hi, idx, write in ranges:
            if write:
                wrote = True
                continue
            read = True
            if self.init and (idx is not None or (lo, hi) not in self.written):
                w = writer[lo:hi] if idx is None else writer[idx]
                if w.min() < 0:
                    self._uninit(ev, role, col, lo, idx, w)
                elif idx is None:  # bytes never become unwritten: no need to look again
                    self.written.add((lo, hi))
            if idx is None:
                row[lo:hi] = count
            else:
                row[idx] = count
        if wrote:
            mark = count * 4 + p
            for _, _, lo, hi, idx, write in ranges:
                if write:
                    if idx is None:
                        writer[lo:hi] = mark
                    else:
                        writer[idx] = mark
            self.last_write[p] = count
        if read:
            self.last_read[p] = count
        self.where[p].append(ev.index)

    def _cmpmask_range(self, instr: Instruction) -> list[Range]:
        addrs, _ = self.ex.resolve(instr)
        role = "src" if instr.name == "set_cmpmask" else "dst"
        lo = addrs[role]
        return [(role, instr.cols.get(role), lo, lo + self.ex.m.cmpmask.size, None,
                 role == "dst")]

    # -- init check ---------------------------------------------------------------------------
    def _uninit(self, ev: Event, role: str, col, lo: int, idx, w: np.ndarray) -> None:
        k = int(np.argmax(w < 0))
        byte = lo + k if idx is None else int(idx[k])
        self.ex.diag("warning", ev.instr, col,
                     f"{ev.instr.head} {_name(ev.instr, role)} reads byte {byte:#x}, which "
                     "was never written (uninitialised UB: no INIT, DMA or instruction wrote it "
                     "before this read)", once="init")

    # -- race check ---------------------------------------------------------------------------
    def _race_check(self, ev: Event, p: int, ranges: list[Range]) -> None:
        clock = np.array(self.clock[p], np.int64)
        for role, col, lo, hi, idx, write in ranges:
            w = self.writer[lo:hi] if idx is None else self.writer[idx]
            other = clock[w & 3]
            bad = (w >> 2) > other
            if bad.any():
                k = int(np.argmax(bad))
                q, c = int(w[k] & 3), int(w[k] >> 2)
                kind = "write-after-write" if write else "read-after-write"
                self._race(ev, p, role, col, lo, idx, k, q, c, "wrote", kind)
                return
            if not write:
                continue
            for q in ACCESS_PIPES:
                if q == p or self.last_read[q] <= clock[q]:
                    continue
                r = self.readers[q][lo:hi] if idx is None else self.readers[q][idx]
                bad = r > clock[q]
                if bad.any():
                    k = int(np.argmax(bad))
                    self._race(ev, p, role, col, lo, idx, k, q, int(r[k]), "read",
                               "write-after-read")
                    return

    def _race(self, ev: Event, p: int, role: str, col, lo: int, idx, k: int, q: int, c: int,
              verb: str, kind: str) -> None:
        byte = lo + k if idx is None else int(idx[k])
        other = self.ex.flat[self.where[q][c - 1]]
        mine = "writes" if kind != "read-after-write" else "reads"
        self.ex.diag("warning", ev.instr, col,
                     f"race: {ev.instr.head} on {PIPES[p]} {mine} {_name(ev.instr, role)} byte "
                     f"{byte:#x}, which {other.head} on {PIPES[q]} at line {other.line} {verb}, "
                     f"with no set_flag/wait_flag or pipe_barrier ordering them ({kind})",
                     once="race")


CMPMASK_MOVES = ("set_cmpmask", "get_cmpmask")


def _vector_ranges(vop: VectorOp) -> list[Range]:
    if vop.repeats == 0:
        return []
    out: list[Range] = []
    cols = vop.instr.cols
    for acc in vop.operands:
        role = acc.role
        col = cols.get(role) if role != "sel" else (
            cols.get("src1") if vop.instr.fields.get("mode") == 1 else None)
        if acc.kind == "vector" and acc.blk == 1 and vop.all_active and (
                vop.repeats == 1 or acc.rep == 8):  # the common case, inline
            out.append((role, col, acc.base, acc.base + (vop.repeats - 1) * acc.rep * 32 + 256,
                        None, acc.write))
            continue
        span = _contiguous_span(vop, acc)
        if span is not None:
            out.append((role, col, span[0], span[1], None, acc.write))
            continue
        fp = vop.footprint(acc)
        if fp.size:
            out.append((acc.role, col, int(fp[0]), int(fp[-1]) + 1, fp, acc.write))
    scalar = vop.instr.operands.get("scalar")
    if scalar is not None and scalar.tensor is not None and isinstance(scalar.addr, int):
        out.append(("scalar", scalar.col, scalar.addr, scalar.addr + vop.t.size, None, False))
    return out


def _contiguous_span(vop: VectorOp, acc: Access) -> tuple[int, int] | None:
    """[lo, hi) when the operand's bytes are exactly one contiguous run, else None."""
    r = vop.repeats
    if acc.kind == "bits":
        return acc.base, acc.base + r * (vop.n // 8)
    if acc.blk != 1 or (r > 1 and acc.rep != 8):
        return None
    if vop.all_active or acc.role in vop.full_roles:
        return acc.base, acc.base + (r - 1) * acc.rep * 32 + 256
    if vop.row.all():  # counter mode: the last repeat is cut short
        return acc.base, acc.base + (r - 1) * acc.rep * 32 + vop.last * acc.size
    return None


def _dma_ranges(op: DmaOp) -> list[Range]:
    out: list[Range] = []
    cols = op.instr.cols
    for role, space, base, gap, write in (("src", op.src_space, op.src, op.src_gap, False),
                                          ("dst", op.dst_space, op.dst, op.dst_gap, True)):
        if space is not None:
            continue
        if op.nburst == 1 or gap == 0:
            out.append((role, cols.get(role), base, base + op.blocks * 32, None, write))
        else:
            idx = op.indices(base, gap)
            out.append((role, cols.get(role), base, int(idx[-1]) + 1, idx, write))
    return out



def _name(instr: Instruction, role: str) -> str:
    o = instr.operands.get(role if role != "sel" or instr.fields.get("mode") != 1 else "src1")
    if o is not None and o.tensor is not None:
        return f"{role} {o.tensor.name}"
    return "select mask" if role == "sel" else role
