"""The one loop: issue, check, execute, notify (ISA.md §5–§7, §9).

Instructions take effect in program order; all repeats of a vector instruction run as one numpy
operation unless the overlap rule forbids it (then repeat by repeat, the sequential model).
Observers (timing, traces, history checks, debugger) are notified after each instruction; with
none attached no event is even built.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from isa.api import contiguous_mask
from isa.decode import BIT_OUTPUT, DmaOp, VectorOp, decode_vector
from isa.diagnostics import Diagnostic
from isa.program import Instruction, Program, RegExpr
from isa.table import KEYS
from simulator import checks
from simulator.decodings import Decodings
from simulator.errors import Fault
from simulator.events import Event, Observer
from simulator.machine import RAW, Machine
from simulator.semantics import VECTOR
from simulator.semantics.move import get_cmpmask, set_cmpmask

M64 = (1 << 64) - 1
ALU = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
       "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
       "shl": lambda a, b: a << (b & 63), "shr": lambda a, b: a >> (b & 63)}
BRANCH = {"beq": lambda a, b: a == b, "bne": lambda a, b: a != b, "blt": lambda a, b: a < b,
          "bge": lambda a, b: a >= b, "ble": lambda a, b: a <= b, "bgt": lambda a, b: a > b}


def _signed(v: int) -> int:
    return v - (1 << 64) if v >> 63 else v


class Executor:
    def __init__(self, program: Program, machine: Machine, checks: str = "error",
                 observers: Sequence[Observer] = (), max_steps: int = 10_000_000):
        self.program = program
        self.m = machine
        self.checks = checks
        self.observers = list(observers)
        self.max_steps = max_steps
        self.flat: list[Instruction] = [h for s in program.statements for h in s.hw]
        # label target (statement pc) -> flat index; a statement that expands to nothing (e.g.
        # `select count=0`) maps to the next instruction, a label at the end to len(flat)
        self.pc_start: dict[int, int] = {}
        k = 0
        for s in program.statements:
            self.pc_start[s.pc] = k
            k += len(s.hw)
        # .rept iteration of each statement pc, for run-time diagnostics (ISA.md §7)
        self._rept: dict[int, int] = {s.pc: s.rept for s in program.statements
                                      if s.rept is not None}
        self.index = 0
        self.steps = 0
        self.done = False
        self.split_repeats = False
        self.diagnostics: list[Diagnostic] = list(program.warnings)
        self._warned: set[tuple[int, int, str]] = set()
        self._static: dict[str, tuple[dict, dict]] = {}
        self.decodings = Decodings(machine.ub.size)
        self._plans: dict[int, tuple] = {}  # resolve(): what each instruction reads
        self._handlers: dict[str, Callable[[Instruction], int | None]] = {
            **{f: self._vector for f in VECTOR},
            "dma": self._dma, "set_mask": self._set_mask, "mask_mode": self._mask_mode,
            "set_cmpmask": self._cmpmask, "get_cmpmask": self._cmpmask, "nop": self._nop,
            "set_flag": self._set_flag, "wait_flag": self._wait_flag, "barrier": self._nop,
            "li": self._scalar, "mov": self._scalar, "alu": self._scalar, "addr": self._scalar,
            "branch": self._branch, "jmp": self._branch, "halt": self._halt,
            "api_set_mask": self._api_set_mask,
        }
        self.event: Event | None = None
        # Pre-write hook for the debugger's undo log: before(instr, op, repeat) runs just before
        # a write, op being the VectorOp (repeat i, or None for all), the DmaOp, or the UB
        # address of a CMPMASK move. None (the default) costs one test per instruction.
        self.before: Callable[[Instruction, object, int | None], None] | None = None
        for ob in self.observers:
            ob.attach(self)

    # -- driving -----------------------------------------------------------------------------
    def run(self) -> None:
        while not self.done:
            self.step()

    def step(self) -> Event | None:
        """Execute one hardware instruction; return its event (None when nobody listens)."""
        if self.index >= len(self.flat):
            self.finish()
            return None
        instr = self.flat[self.index]
        self.steps += 1
        if self.steps > self.max_steps:
            self.fail(instr, f"--max-steps {self.max_steps} reached: stopped a runaway loop at "
                      f"this instruction", None)
        self.event = None
        try:
            nxt = self._handlers[instr.defn.family](instr)
        except Fault as f:
            self.fail(instr, f.message, f.col)
        self.index = self.index + 1 if nxt is None else nxt
        ev = self.event
        if ev is not None:
            for ob in self.observers:
                ob.on_event(ev)
        if self.index >= len(self.flat):
            self.finish()
        return ev

    def finish(self) -> None:
        if self.done:
            return
        self.done = True
        for (src, dst, eid), pc in self.m.flags.items():
            instr = self.flat[self.pc_start[pc]]
            self.diag("warning", instr, None,
                      f"flag {src}->{dst} id {eid} is still set when the program ends")
        for ob in self.observers:
            ob.on_finish(self)

    def fail(self, instr: Instruction, message: str, col: int | None) -> None:
        d = self.diag("error", instr, col, message)
        for ob in self.observers:
            ob.on_error(self, d)
        raise Fault(message, col)

    # -- diagnostics -------------------------------------------------------------------------
    def diag(self, severity: str, instr: Instruction, col: int | None, message: str,
             once: str | None = None) -> Diagnostic:
        if once is not None:
            key = (instr.pc, instr.line, once)
            if key in self._warned:
                return None
            self._warned.add(key)
        column = col + 1 if col is not None else instr.col
        if not instr.is_static:
            message = _with_registers(message, self._registers(instr, col))
        rept = self._rept.get(instr.pc)
        if rept is not None:
            message += f" (in .rept iteration {rept})"
        d = Diagnostic(severity, self.program.path, instr.line, column, message)
        self.diagnostics.append(d)
        return d

    def rule(self, instr: Instruction, message: str, col: int | None, rule: str) -> bool:
        """A --checks rule: error (raises), warning (once per statement) or nothing."""
        if self.checks == "error":
            raise Fault(message, col)
        if self.checks == "warn":
            self.diag("warning", instr, col, message, once=rule)
        return True

    def _notify(self, instr: Instruction, pipe: str, **kw) -> None:
        if self.observers:
            self.event = Event(self.index, instr, pipe, mask=self.m.mask,
                               counter=self.m.counter, **kw)

    # -- operand resolution ------------------------------------------------------------------
    def resolve(self, instr: Instruction) -> tuple[dict[str, int], dict[str, int]]:
        """Addresses and numeric fields, register expressions read now (at issue)."""
        # a static instruction's text determines its operands (tensor names, indices, raw
        # addresses, fields), so identical statements share one resolution
        cached = self._static.get(instr.text) if instr.is_static else None
        if cached is not None:
            return cached
        plan = self._plans.get(id(instr))
        if plan is None:  # what to read, sorted out once per instruction
            plan = self._plans[id(instr)] = (
                tuple((r, o.addr) for r, o in instr.operands.items() if o.kind == "mem"),
                {k: v for k, v in instr.fields.items() if not isinstance(v, RegExpr)},
                tuple((k, v, KEYS.get(k)) for k, v in instr.fields.items()
                      if isinstance(v, RegExpr)))
        mem, fixed, regs = plan
        x = self.m.x
        addrs = {}
        for r, a in mem:
            if a.__class__ is RegExpr:
                v = x[a.reg]
                addrs[r] = (v - (1 << 64) if v >> 63 else v) * a.scale + a.offset
            else:
                addrs[r] = a
        fields = fixed
        if regs:
            fields = dict(instr.fields)  # keeps the key order of the instruction
            for k, rx, spec in regs:
                v = self._value(rx)
                if spec is not None and not spec.lo <= v <= spec.hi:
                    raise Fault(f"{k}={v} is out of range ({spec.lo}..{spec.hi})",
                                instr.cols.get(k))
                fields[k] = v
        if instr.is_static:
            self._static[instr.text] = (addrs, fields)
        return addrs, fields

    def _registers(self, instr: Instruction, col: int | None) -> str:
        """`x3 = 0x1010, x5 = 2`: the registers behind the operand or field at COL (all of the
        instruction's when none is there), with their values now, i.e. at issue."""
        items = [(o.col, v, o.kind == "mem" and v.scale == 1) for o in instr.operands.values()
                 for v in (o.addr, o.value) if isinstance(v, RegExpr)]
        items += [(instr.cols.get(k), v, False) for k, v in instr.fields.items()
                  if isinstance(v, RegExpr)]
        seen: dict[int, str] = {}
        for _, rx, as_hex in [it for it in items if it[0] == col] or items:
            v = _signed(self.m.x[rx.reg])
            seen.setdefault(rx.reg, f"x{rx.reg} = {_fmt(v, as_hex)}")
        return ", ".join(seen.values())

    def _value(self, v) -> int:
        if isinstance(v, RegExpr):
            return _signed(self.m.x[v.reg]) * v.scale + v.offset
        return v

    def _int(self, instr: Instruction, role: str) -> int:
        v = instr.operands[role].value
        return self.m.x[v.reg] if isinstance(v, RegExpr) else v

    def _scalar_bytes(self, instr: Instruction) -> np.ndarray | None:
        o = instr.operands.get("scalar")
        if o is None:
            return None
        t = instr.dtype
        if isinstance(o.value, np.ndarray):
            return o.value.view(RAW[t.size])
        if isinstance(o.value, RegExpr):  # e.g. LOAD(2): the select-mask address
            v = self.m.x[o.value.reg] * o.value.scale + o.value.offset
            return np.array([v & ((1 << (8 * t.size)) - 1)], dtype=RAW[t.size])
        addr = self._value(o.addr)  # scalar(NAME[I]): read the element now
        if not 0 <= addr <= self.m.ub.size - t.size:
            raise Fault(f"scalar address {addr:#x} is outside UB", o.col)
        return self.m.ub[addr:addr + t.size].copy().view(RAW[t.size])

    # -- vector instructions ------------------------------------------------------------------
    def _vector(self, instr: Instruction) -> None:
        m = self.m
        addrs, fields = self.resolve(instr)
        sel = None
        if instr.defn.family == "vsel" and fields.get("mode", 0) == 2:
            sel = int(m.cmpmask[:4].view(np.uint32)[0])
            addrs = dict(addrs, sel=sel)
        vop = self.decodings.get(instr, addrs, fields, m.mask, m.counter, sel)
        sequential = False
        if vop is None:
            vop = decode_vector(instr, addrs, fields, m.mask, m.counter)
            if self._vector_noop(instr, vop, fields):
                self._notify(instr, "V", vop=vop)
                return
            seen = len(self.diagnostics)
            sequential = self._check_vector(instr, vop, addrs)
            if not sequential and len(self.diagnostics) == seen:  # a clean pass: reusable
                self.decodings.put(instr, addrs, fields, sel, vop, self._tensor)
        scalar = self._scalar_bytes(instr)
        fn = VECTOR[instr.defn.family]
        if sequential or self.split_repeats:
            self._run_repeats(instr, vop, fn, scalar)
            return
        if self.before is not None:
            self.before(instr, vop, None)
        fn(m, vop, scalar, 0, vop.repeats)
        self._notify(instr, "V", vop=vop)

    def _run_repeats(self, instr, vop, fn, scalar) -> None:
        self._notify(instr, "V", vop=vop)
        before = self.before
        for i in range(vop.repeats):
            if before is not None:
                before(instr, vop, i)
            fn(self.m, vop, scalar, i, i + 1)
            if self.event is not None:
                for ob in self.observers:
                    ob.on_repeat(self.event, i)

    def _vector_noop(self, instr: Instruction, vop: VectorOp, fields: dict) -> bool:
        m = self.m
        family = instr.defn.family
        if m.counter:
            if vop.repeats > 255:
                raise Fault(f"counter mode count {m.mask_lo & 0xFFFFFFFF} needs {vop.repeats} "
                            f"repeats of {vop.n} elements (at most 255)", None)
            if vop.repeats == 0:
                self.diag("warning", instr, None, f"{instr.head} in counter mode with count 0 "
                          "does nothing", once="count0")
                return True
            return False
        if family not in BIT_OUTPUT and vop.t.size == 1 and m.mask != (M64, M64):
            raise Fault(f"{instr.head}: an 8-bit instruction in normal mode needs MASK all ones "
                        f"(MASK is {m.mask_hi:#x}, {m.mask_lo:#x}); use counter mode", None)
        if fields.get("repeat", 1) == 0 and family != "vcmp":
            self.diag("warning", instr, instr.cols.get("repeat"), f"{instr.head} with "
                      "repeat=0 does nothing", once="repeat0")
            return True
        if family not in BIT_OUTPUT and not vop.row.any():
            msg = f"{instr.head} with MASK = 0 does nothing"
            if self.program.chip.zero_mask == "error":
                raise Fault(msg + f" (an error on {self.program.chip.name})", None)
            self.diag("warning", instr, None, msg, once="mask0")
            return True
        return False

    def _check_vector(self, instr: Instruction, vop: VectorOp, addrs: dict) -> bool:
        """Run the §9.2–9.3 checks; True when the repeats must run one by one."""
        ub = self.m.ub.size
        dynamic = not instr.is_static
        extents = {}
        for acc in vop.operands:
            col = instr.cols.get(acc.role) if acc.role != "sel" else _sel_col(instr)
            if (dynamic or acc.role == "sel") and acc.base % 32:
                problem = checks.alignment(acc, vop=vop)
                self.rule(instr, f"{instr.head} {problem[0]}", col, "align")
            ext = extents[acc.role] = checks.extent(vop, acc)
            problem = checks.bounds(vop, acc, ub, ext)
            if problem:
                raise Fault(f"{instr.head} {problem[0]}", col)
            tensor = self._tensor(instr, acc.role)
            problem = checks.footprint(vop, acc, tensor, ext)
            if problem:
                self.rule(instr, f"{instr.head} {problem[0]}", col, "footprint")
        problem = checks.overlap(vop, extents)
        if problem:
            col = instr.cols.get(problem[1]) if problem[1] != "sel" else _sel_col(instr)
            return self.rule(instr, f"{instr.head} {problem[0]}", col, "overlap")
        return False

    def _tensor(self, instr: Instruction, role: str):
        o = instr.operands.get(role if role != "sel" else "src1")
        if role == "sel" and instr.fields.get("mode", 0) == 2:
            return None
        return o.tensor if o is not None else None

    # -- registers, CMPMASK ------------------------------------------------------------------
    def _set_mask(self, instr: Instruction) -> None:
        m = self.m
        m.mask_hi, m.mask_lo = self._int(instr, "hi") & M64, self._int(instr, "lo") & M64
        self._notify(instr, "S")

    def _api_set_mask(self, instr: Instruction) -> None:
        m, t = self.m, instr.dtype
        n = self._int(instr, "len")
        if m.counter:
            m.mask_hi, m.mask_lo = 0, n & M64
        else:
            if t.size == 1 and n != 256:
                raise Fault(f"set_mask.{t.name} {n}: 8-bit types take LEN=256 only in normal "
                            "mode", instr.cols.get("len"))
            if n < 1:
                raise Fault(f"set_mask.{t.name} LEN={n} is out of range (1..{t.per_repeat})",
                            instr.cols.get("len"))
            m.mask_hi, m.mask_lo = contiguous_mask(n, t)
        self._notify(instr, "S")

    def _mask_mode(self, instr: Instruction) -> None:
        self.m.counter = instr.name == "set_mask_count"
        self._notify(instr, "S")

    def _cmpmask(self, instr: Instruction) -> None:
        addrs, _ = self.resolve(instr)
        role = "src" if instr.name == "set_cmpmask" else "dst"
        addr = addrs[role]
        col = instr.cols.get(role)
        size = self.m.cmpmask.size
        if addr % 16 and not instr.is_static:  # static ones: the assembler checked
            self.rule(instr, f"{instr.name} {role} address {addr:#x} is not 16-byte aligned "
                      "(CMPMASK moves must be 16-byte aligned)", col, "align")
        if not 0 <= addr <= self.m.ub.size - size:
            raise Fault(f"{instr.name} touches bytes {addr:#x}..{addr + size - 1:#x} outside UB "
                        f"({self.m.ub.size} bytes)", col)
        t = instr.operands[role].tensor
        if t is not None and addr + size > t.addr + t.nbytes:
            self.rule(instr, f"{instr.name} {role} {t.name} needs {addr + size - t.addr} bytes, "
                      f"tensor has {t.nbytes}", col, "footprint")
        if self.before is not None:
            self.before(instr, addr, None)
        (set_cmpmask if role == "src" else get_cmpmask)(self.m, addr)
        self._notify(instr, "V")

    def _nop(self, instr: Instruction) -> None:
        pipe = instr.defn.pipe
        if instr.name == "pipe_barrier":
            p = instr.operands["pipe"].value
            pipe = "S" if p == "ALL" else p
        self._notify(instr, pipe if pipe != "flag" else "S")

    # -- synchronisation (functionally: program order) -----------------------------------------
    def _flag_key(self, instr: Instruction) -> tuple[str, str, int]:
        o = instr.operands
        return o["src"].value, o["dst"].value, o["id"].value

    def _set_flag(self, instr: Instruction) -> None:
        key = self._flag_key(instr)
        if key in self.m.flags:
            self.diag("warning", instr, None, f"flag {key[0]}->{key[1]} id {key[2]} is already "
                      "set", once="flagset")
        self.m.flags[key] = instr.pc
        self._notify(instr, key[0], flag=key)

    def _wait_flag(self, instr: Instruction) -> None:
        key = self._flag_key(instr)
        if key not in self.m.flags:
            nxt = next((h for h in self.flat[self.index + 1:] if h.name == "set_flag"
                        and self._flag_key(h) == key), None)
            where = f"; the next set_flag of it is at line {nxt.line}" if nxt else \
                "; no set_flag of it follows"
            raise Fault(f"deadlock: wait_flag {key[0]}, {key[1]}, {key[2]} has no earlier "
                        f"unconsumed set_flag{where}", None)
        del self.m.flags[key]
        self._notify(instr, key[1], flag=key)

    # -- scalar unit ---------------------------------------------------------------------------
    def _scalar(self, instr: Instruction) -> None:
        m, o, name = self.m, instr.operands, instr.name
        d = o["d"].value
        if name == "li":
            m.x[d] = o["imm"].value & M64
        elif name == "mov":
            m.x[d] = m.x[o["a"].value]
        elif name == "addr":
            m.x[d] = self._value(o["elem"].addr) & M64
        else:
            m.x[d] = ALU[name](m.x[o["a"].value], self._int(instr, "b")) & M64
        self._notify(instr, "S")

    def _branch(self, instr: Instruction) -> int | None:
        taken = True
        if instr.name != "jmp":
            a = _signed(self.m.x[instr.operands["a"].value])
            b = _signed(self._int(instr, "b") & M64)
            taken = BRANCH[instr.name](a, b)
        self._notify(instr, "S", taken=taken)
        if taken:
            return self.pc_start.get(instr.operands["target"].value, len(self.flat))
        return None

    def _halt(self, instr: Instruction) -> int:
        self._notify(instr, "S")
        return len(self.flat)

    # -- DMA -----------------------------------------------------------------------------------
    def _dma(self, instr: Instruction) -> None:
        addrs, f = self.resolve(instr)
        o = instr.operands
        spaces = {r: (o[r].tensor.name if o[r].space == "gm" else None) for r in ("dst", "src")}
        op = DmaOp(instr, spaces["dst"], addrs["dst"], spaces["src"], addrs["src"],
                   f["nburst"], f["burst"], f.get("src_gap", 0), f.get("dst_gap", 0))
        for role, base, gap in (("src", op.src, op.src_gap), ("dst", op.dst, op.dst_gap)):
            self._check_dma_side(instr, op, role, base, gap, spaces[role])
        if self.before is not None:
            self.before(instr, op, None)
        m = self.m
        src, dst = m.space(op.src_space), m.space(op.dst_space)
        if op.nburst == 1:
            n = op.burst * 32
            dst[op.dst:op.dst + n] = src[op.src:op.src + n]
        elif src is dst:  # UB → UB: burst by burst, in order
            n = op.burst * 32
            for k in range(op.nburst):
                s = op.src + k * (op.burst + op.src_gap) * 32
                d = op.dst + k * (op.burst + op.dst_gap) * 32
                dst[d:d + n] = src[s:s + n]
        else:
            dst[op.indices(op.dst, op.dst_gap)] = src[op.indices(op.src, op.src_gap)]
        self._notify(instr, instr.defn.pipe, dma=op)

    def _check_dma_side(self, instr, op: DmaOp, role: str, base: int, gap: int, gm) -> None:
        col = instr.cols.get(role)
        lo, hi = op.extent(base, gap)
        size = self.m.space(gm).size
        if lo < 0 or hi >= size:
            where = f"GM tensor {gm} ({size} bytes)" if gm else f"UB ({size} bytes)"
            first = lo if lo < 0 else max(lo, size)
            burst, blk = divmod(max(first - base, 0) // 32, op.burst + gap)
            raise Fault(f"{instr.name} {role} touches byte {first:#x} outside {where} "
                        f"(burst {burst}, block {min(blk, op.burst - 1)})", col)
        if gm is None:
            if base % 32 and not instr.is_static:
                self.rule(instr, f"{instr.name} {role} address {base:#x} is not 32-byte aligned "
                          "(UB operands of DMA must be 32-byte aligned)", col, "align")
            t = instr.operands[role].tensor
            if t is not None and (lo < t.addr or hi >= t.addr + t.nbytes):
                self.rule(instr, f"{instr.name} {role} {t.name} needs {hi - t.addr + 1} bytes, "
                          f"tensor has {t.nbytes}", col, "footprint")


def _fmt(v: int, as_hex: bool) -> str:
    if not as_hex:
        return str(v)
    return f"-{-v:#x}" if v < 0 else f"{v:#x}"


_ADDR_AT = re.compile(r" address -?0x[0-9a-f]+")
_WHERE_TAIL = re.compile(r" \((?:repeat|burst) \d+, block \d+\)$")


def _with_registers(message: str, regs: str) -> str:
    """Put `(x3 = 0x1010)` after the bad address, else before the trailing `(repeat i, block
    j)`, else at the end (ISA.md §7: run-time checks name the registers behind a value)."""
    if not regs or regs in message:
        return message
    note = f" ({regs})"
    m = _ADDR_AT.search(message) or None
    if m is not None:
        return message[:m.end()] + note + message[m.end():]
    m = _WHERE_TAIL.search(message)
    if m is not None:
        return message[:m.start()] + note + message[m.start():]
    return message + note


def _sel_col(instr: Instruction) -> int | None:
    """The select mask's column: src1 in vsel mode 1; in mode 2 its address comes from CMPMASK
    (no operand), so the mnemonic."""
    return instr.cols.get("src1") if instr.fields.get("mode", 0) == 1 else None
