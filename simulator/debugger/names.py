"""The kernel's own names in a C++ recording (docs/debugger.md, "C++ kernels"): the debugger
answers to `xLocal` as well as to `que0_0`, and prints a GM buffer in its GlobalTensor's type.

Both facts come from the recording and the source it names, not from debug information (the
kernel is compiled without it, and the headers cannot see a variable's name):

- a LocalTensor's name is the argument text at the API call sites: the recording's statement
  at `kernel.cpp:63:9` names its tensors in the API's order (`add.f32 que2_0, que0_0, que1_0`),
  the call `AscendC::Add(zLocal, xLocal, yLocal, n)` names them in the same order, so `zLocal`
  is que2_0 there. A name means, at a point, the tensor the latest call before it (in the
  recording's straight-line order) gave it — the first call after it before any. Only plain
  identifiers are names (`xLocal[64]`, `a + b` name nothing);
- a GM buffer's element type is that of the first `GlobalTensor<T>` the kernel set over it
  (its SetGlobalBuffer, from the views file beside the recording: simulator/ascendc/views.py);
  for a buffer no GlobalTensor views (C-API pointers, a recording written by hand), that of the
  UB tensor its first DMA copies to or from (DataCopy takes a GlobalTensor<T> and a
  LocalTensor<T> of one T). The buffer itself stays bytes in the recording (its DMA offsets are
  byte offsets), the debugger shows its elements;
- a GlobalTensor's name is its variable's (`xGm.SetGlobalBuffer(...)`, views.py): `xGm` means,
  at a point, the view the latest SetGlobalBuffer before it set — its type, its first element,
  its size — as a LocalTensor's name does.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

import attrs

from isa.program import Program, Tensor
from isa.types import lookup
from simulator.front_ends import front_end_for

OPERAND = re.compile(r"\b([A-Za-z_]\w*)(\[\(?(-?\d+)\)?\])?")
IDENT = re.compile(r"[A-Za-z_]\w*")
REGISTER = re.compile(r"^([vp])([0-9]|[1-5][0-9]|6[0-3])$")  # the reg unit's v0..v63, p0..p63
ASSIGNED = re.compile(r"\b([A-Za-z_]\w*)\s*=\s*$")  # `mask = ` before a call


class KernelNames:
    """The names a C++ recording's kernel gave its tensors; empty for other programs."""

    def __init__(self, program: Program, views: Sequence = ()):
        """VIEWS: the recording's GlobalTensor views (simulator.ascendc.views.GmView)."""
        self.program = program
        self.bound: dict[str, tuple[list[int], list[Tensor]]] = {}
        self.typed: dict[str, Tensor] = {}
        self.gm_buffer: dict[Tensor, str] = {}  # a GlobalTensor name's view -> its GM buffer
        self.registers: dict[str, tuple[list[int], list[str]]] = {}  # RegTensor / MaskReg
        if front_end_for(program.path) != "cpp":
            return
        bindings: dict[str, list[tuple[int, Tensor]]] = {}
        registers: dict[str, list[tuple[int, str]]] = {}
        for v in views:
            self._view_of(v, bindings)
        statements = program.statements
        for k, st in enumerate(statements):
            operands = self._operands(st.source)
            self._type_gm(operands)
            args = call_arguments(program.lines, st.line, st.col)
            for arg, (t, offset) in zip(args, operands, strict=False):
                if t.space == "ub" and IDENT.fullmatch(arg) and arg not in program.tensors:
                    bindings.setdefault(arg, []).append((st.pc, _view(t, offset, arg)))
            after = statements[k + 1] if k + 1 < len(statements) else None
            if after is None or (after.line, after.col) != (st.line, st.col):
                self._registers_of(st, args, registers)  # a call's last statement
        for pairs in bindings.values():
            pairs.sort(key=lambda pair: pair[0])  # views and calls in the recording's order
        self.bound = {name: ([pc for pc, _ in pairs], [t for _, t in pairs])
                      for name, pairs in bindings.items()}
        self.registers = {name: ([pc for pc, _ in pairs], [r for _, r in pairs])
                          for name, pairs in registers.items()}

    def _registers_of(self, st, args: list[str], out: dict[str, list[tuple[int, str]]]) -> None:
        """The RegTensor / MaskReg variables an ascend950 register statement names: its
        register operands in the call's argument order (`Add(zReg, xReg, yReg, mask)` is
        `vradd.f32 v2, v0, v1, p0`) when the call has exactly one argument an operand, and
        `mask = UpdateMask<T>(n)`'s variable for the register it writes first."""
        head, _, rest = st.source.partition(" ")
        ops = [o.strip() for o in rest.split(",") if o.strip() and "=" not in o]
        parts = head.split(".")
        typed = f"_{parts[1]}" if len(parts) == 2 and lookup(parts[1]) is not None else ""
        pairs = list(zip(args, ops, strict=False)) if len(args) == len(ops) else []
        line = self.program.lines[st.line - 1] if 0 < st.line <= len(self.program.lines) else ""
        lhs = ASSIGNED.search(line[:max(st.col - 1, 0)])
        if lhs is not None and ops and len(ops) == len(args) + 1:
            pairs.append((lhs.group(1), ops[0]))
        for arg, op in pairs:
            reg = REGISTER.match(op)
            if reg is None or not IDENT.fullmatch(arg) or arg in self.program.tensors:
                continue
            out.setdefault(arg, []).append(
                (st.pc, f"${op}{typed if reg.group(1) == 'v' else ''}"))

    def register(self, name: str, pc: int) -> str | None:
        """The register (`$v2_f32`, `$p1`) the kernel's RegTensor / MaskReg variable NAME is
        at statement PC (the latest call before it that named it, else the first), or None."""
        if name not in self.registers:
            return None
        pcs, regs = self.registers[name]
        return regs[max(bisect.bisect_right(pcs, pc) - 1, 0)]

    def _view_of(self, v, bindings: dict[str, list[tuple[int, Tensor]]]) -> None:
        """GlobalTensor view V: its buffer's element type (the first typed view over it on an
        element boundary) and, when V names a variable, that name's binding from V.pc on."""
        buf = self.program.tensors.get(v.buffer)
        dtype = lookup(v.type) if v.type else None
        if buf is None or buf.space != "gm" or dtype is None or v.offset % dtype.size:
            return
        if v.buffer not in self.typed and buf.nbytes % dtype.size == 0:
            self.typed[v.buffer] = attrs.evolve(buf, dtype=dtype,
                                                count=buf.nbytes // dtype.size)
        if v.name is None or v.name in self.program.tensors:
            return
        room = (buf.nbytes - v.offset) // dtype.size
        count = min(v.count, room) if v.count else room
        view = Tensor(v.name, "gm", dtype, max(count, 0), v.line, 1, role=buf.role,
                      addr=v.offset)
        self.gm_buffer[view] = v.buffer
        bindings.setdefault(v.name, []).append((v.pc, view))

    def place(self, t: Tensor) -> tuple[str | None, int]:
        """Where tensor T's element 0 is: (None, UB byte address) or (GM buffer, byte
        offset in it)."""
        if t.space == "ub":
            return None, t.addr
        buffer = self.gm_buffer.get(t)
        return (t.name, 0) if buffer is None else (buffer, t.addr)

    def _operands(self, source: str) -> list[tuple[Tensor, int]]:
        """The statement's tensor operands in order, each with its literal element index."""
        mnemonic_end = source.find(" ")
        out = []
        for m in OPERAND.finditer(source, max(mnemonic_end, 0)):
            t = self.program.tensors.get(m.group(1))
            if t is not None:
                out.append((self.typed.get(t.name, t), int(m.group(3) or 0)))
        return out

    def _type_gm(self, operands: list[tuple[Tensor, int]]) -> None:
        gm = [t for t, _ in operands if t.space == "gm" and t.dtype.name == "u8"]
        ub = [t for t, _ in operands if t.space == "ub"]
        if len(gm) == 1 and ub and gm[0].name not in self.typed and ub[0].dtype.size > 1:
            t, dtype = gm[0], ub[0].dtype
            self.typed[t.name] = attrs.evolve(t, dtype=dtype, count=t.nbytes // dtype.size)

    def tensor(self, name: str, pc: int) -> Tensor | None:
        """What NAME means at statement PC: a program tensor (GM ones in their kernel type),
        the tensor the kernel's variable NAME is there, or None."""
        t = self.program.tensors.get(name)
        if t is not None:
            return self.typed.get(name, t)
        if name not in self.bound:
            return None
        pcs, tensors = self.bound[name]
        i = bisect.bisect_right(pcs, pc) - 1
        return tensors[max(i, 0)]

    def names(self) -> list[str]:
        """Every name a tensor answers to: the program's, then the kernel's variables."""
        return [*self.program.tensors, *sorted(self.bound), *sorted(self.registers)]


def _view(t: Tensor, offset: int, name: str) -> Tensor:
    """UB tensor T from element OFFSET on, under the kernel's NAME (shown as `xLocal`)."""
    if not offset:
        return attrs.evolve(t, name=name)
    return attrs.evolve(t, name=name, addr=t.addr + t.dtype.nbytes(offset),
                        count=max(t.count - offset, 0))


def call_arguments(lines: tuple[str, ...], line: int, col: int) -> list[str]:
    """The top-level argument texts of the call that starts at LINE:COL (1-based) in LINES,
    read across lines up to its closing parenthesis; [] when there is no call there."""
    if not 1 <= line <= len(lines):
        return []
    text = lines[line - 1][max(col - 1, 0):]
    follow = line
    open_at = text.find("(")
    if open_at < 0 or "=" in text[:open_at] or ";" in text[:open_at]:
        return []
    args, depth, cur = [], 0, []
    i = open_at
    while True:
        if i >= len(text):
            if follow >= len(lines) or follow - line > 20:
                return []
            text, i, follow = lines[follow], 0, follow + 1
            cur.append(" ")
            continue
        c = text[i]
        i += 1
        if c in "([{":
            depth += 1
            if depth == 1:
                continue
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append("".join(cur).strip())
                return args if any(args) else []
        elif c == "," and depth == 1:
            args.append("".join(cur).strip())
            cur = []
            continue
        cur.append(c)
