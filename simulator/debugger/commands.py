"""The debugger's commands (ISA.md §13): parse one line, act on the session, return text.

A bad command or argument raises CommandError, which the REPL prints as one line; the session
goes on. Nothing here prints: every command returns the lines to show.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from isa.types import DType, lookup

from .session import Session, Stop, statement_pcs

CONTEXT = 5  # source lines `list` shows either side


class CommandError(Exception):
    """A command the debugger cannot carry out: one line saying why."""


class Quit(Exception):
    """`quit`: end the session."""


HELP: dict[str, tuple[str, str]] = {
    "break": ("break LINE|FILE:LINE|LABEL|pc N|cycle N",
              "stop before the statement at LINE/LABEL/pc N (every time it runs), or once the "
              "cycle reaches N"),
    "delete": ("delete [N]", "delete breakpoint or watchpoint N (all of them without N)"),
    "info": ("info break|pipes|loops",
             "breakpoints and watchpoints; the pipes' queues, busy-until and pending flags; "
             "the iteration count of the loops around pc"),
    "step": ("step [N]", "run N hardware instructions (finishes one already begun)"),
    "stepr": ("stepr [N]", "run N micro-ops: one repeat of a vector instruction, or one whole "
              "other instruction"),
    "continue": ("continue", "run until a breakpoint, a watchpoint, an error or the end "
                 "(Ctrl-C interrupts)"),
    "run": ("run", "restart the program from the beginning and continue"),
    "until": ("until LINE", "continue until the statement at LINE is about to run"),
    "back": ("back [N]", "go back N hardware instructions (undoing them exactly)"),
    "rcontinue": ("rcontinue", "go back until a breakpoint, a watchpoint or the start"),
    "regs": ("regs", "MASK, CMPMASK, mask mode, flags, cycle, pc and the non-zero x registers"),
    "x": ("x[/COUNT] [TYPE] ADDR|NAME[I]",
          "dump COUNT elements of TYPE from a UB address (@0x800) or a tensor element, "
          "e.g. x/16 f32 z"),
    "print": ("print NAME[a:b]|xN", "a tensor slice as numpy prints it, or a scalar register"),
    "watch": ("watch NAME[a:b]|@ADDR LEN",
              "stop right after any micro-op writes those bytes (UB or a GM tensor)"),
    "list": ("list [LINE]", "the source around pc (or LINE)"),
    "help": ("help [CMD]", "this list, or one command's help"),
    "quit": ("quit", "end the session"),
}
ALIASES = {"b": "break", "d": "delete", "i": "info", "s": "step", "si": "stepr", "c": "continue",
           "r": "run", "u": "until", "rc": "rcontinue", "p": "print", "w": "watch", "l": "list",
           "h": "help", "q": "quit", "exit": "quit"}
COMMAND = re.compile(r"^\s*([A-Za-z]+)(/\S*)?\s*(.*?)\s*$")
ELEMENT = re.compile(r"^([A-Za-z_]\w*)\s*(?:\[\s*([^\]]*?)\s*\])?$")


def parse_int(text: str, what: str) -> int:
    try:
        return int(text.replace("_", ""), 0)
    except ValueError:
        raise CommandError(f"{what} must be an integer, not '{text}'") from None


def _count(arg: str) -> int:
    n = parse_int(arg, "the count") if arg else 1
    if n < 1:
        raise CommandError(f"the count must be at least 1, not {n}")
    return n


class Commands:
    def __init__(self, session: Session):
        self.s = session

    # -- dispatch ----------------------------------------------------------------------------
    def execute(self, line: str) -> list[str]:
        """Run one command line; raises CommandError (bad input) or Quit."""
        m = COMMAND.match(line)
        if m is None:
            raise CommandError(f"not a command: '{line.strip()}' (try `help`)")
        word, suffix, arg = m.group(1).lower(), m.group(2) or "", m.group(3)
        name = ALIASES.get(word, word)
        fn: Callable | None = getattr(self, f"cmd_{name}", None)
        if fn is None or name not in HELP:
            raise CommandError(f"unknown command '{word}' (try `help`)")
        if suffix and name != "x":
            raise CommandError(f"{name} takes no /FORMAT")
        return fn(arg, suffix) if name == "x" else fn(arg)

    # -- motion ------------------------------------------------------------------------------
    def cmd_step(self, arg: str) -> list[str]:
        return self._stopped(self.s.forward(self.s.steps_done(_count(arg), boundaries=True)))

    def cmd_stepr(self, arg: str) -> list[str]:
        return self._stopped(self.s.forward(self.s.steps_done(_count(arg), boundaries=False)))

    def cmd_continue(self, arg: str) -> list[str]:
        self._no_args("continue", arg)
        return self._stopped(self.s.forward(lambda rec: False))

    def cmd_run(self, arg: str) -> list[str]:
        self._no_args("run", arg)
        self.s.restart()
        hit = self.s._bp_at_boundary()
        if hit is not None:
            return ["restarted", *self._stopped(hit)]
        return ["restarted", *self._stopped(self.s.forward(lambda rec: False))]

    def cmd_until(self, arg: str) -> list[str]:
        if not arg:
            raise CommandError("until needs a LINE")
        line, pcs = statement_pcs(self.s.program, parse_int(arg, "LINE"))
        if not pcs:
            raise CommandError(f"no statement at or after line {arg}")
        tmp = self.s.add(kind="line", what=f"line {line}", pcs=pcs, temporary=True)
        try:
            return self._stopped(self.s.forward(lambda rec: False))
        finally:
            self.s.breaks.pop(tmp.num, None)

    def cmd_back(self, arg: str) -> list[str]:
        return self._stopped(self.s.backward(self.s.steps_done(_count(arg), boundaries=True)))

    def cmd_rcontinue(self, arg: str) -> list[str]:
        self._no_args("rcontinue", arg)
        return self._stopped(self.s.backward(lambda rec: False))

    def _stopped(self, stop: Stop) -> list[str]:
        out = [str(d) for d in self.s.new_diagnostics() if str(d) not in (stop.message or "")]
        if stop.message:
            out.extend(stop.message.split("\n"))
        for b, rec in stop.watched:
            old, new = self.s.watched_bytes(b, rec)
            out.append(f"  old {self._show(b, old)}")
            out.append(f"  new {self._show(b, new)}")
        return out + self.where()

    @staticmethod
    def _show(b, raw: bytes) -> str:
        """Watched bytes as values of the tensor's type (at most 8), else as hex bytes."""
        arr = np.frombuffer(raw, np.uint8)
        if b.dtype is not None:
            vals = [str(v) for v in _values(b.dtype, arr)]
        else:
            vals = [f"0x{v:02x}" for v in arr]
        more = f" ... ({len(vals) - 8} more)" if len(vals) > 8 else ""
        return "[" + " ".join(vals[:8]) + more + "]"

    @staticmethod
    def _no_args(name: str, arg: str) -> None:
        if arg:
            raise CommandError(f"{name} takes no argument")

    # -- where -------------------------------------------------------------------------------
    def where(self) -> list[str]:
        """`PATH:LINE: SOURCE` then pc, cycle and, inside an instruction, the repeat."""
        s = self.s
        program = s.program
        inside = s.inside()
        k = s.index()
        end = inside is None and k >= len(s.flat)
        if inside is not None:
            instr = inside.instr
        elif not end:
            instr = s.flat[k]
        elif s.record() is not None:
            instr = s.record().instr
        else:
            return [f"{program.path}: the program has no instructions"]
        source = program.lines[instr.line - 1].strip() if instr.line <= len(program.lines) else ""
        out = [f"{program.path}:{instr.line}: {source}"]
        pc = f"pc {len(program.statements)} (end)" if end else f"pc {instr.pc}"
        info = f"  {pc}  cycle {s.cycle()}"
        stmt = program.statements[instr.pc]
        if inside is not None:
            info += f"  repeat {inside.repeat} of {inside.repeats} done  in {instr.text}"
        elif not end and len(stmt.hw) > 1:
            n = k - s.source.pc_start[instr.pc] + 1
            info += f"  next {instr.text} ({n} of {len(stmt.hw)})"
        if end and s.ex.done:
            info += "  (program finished)"
        return out + [info]

    # -- breakpoints -------------------------------------------------------------------------
    def cmd_break(self, arg: str) -> list[str]:
        words = arg.split()
        s, program = self.s, self.s.program
        if not words:
            raise CommandError("break needs LINE, LABEL, `pc N` or `cycle N`")
        if words[0] in ("pc", "cycle") and len(words) == 2:
            n = parse_int(words[1], words[0])
            if words[0] == "cycle":
                if n < 0:
                    raise CommandError(f"cycle must be >= 0, not {n}")
                b = s.add(kind="cycle", what=f"cycle {n}", cycle=n)
                return [f"breakpoint {b.num} at cycle {n}"]
            if not 0 <= n < len(program.statements):
                raise CommandError(f"pc {n} is not a statement (0..{len(program.statements) - 1})")
            line = program.statements[n].line
            b = s.add(kind="pc", what=f"pc {n} (line {line})", pcs=frozenset([n]))
            return [f"breakpoint {b.num} at pc {n}, line {line}"]
        if len(words) != 1:
            raise CommandError(f"break takes LINE, LABEL, `pc N` or `cycle N`, not '{arg}'")
        word = words[0]
        file, colon, rest = word.rpartition(":")
        if colon and rest.isdigit():  # FILE:LINE (a C++ recording's program is kernel.cpp)
            if Path(file).name != Path(program.path).name:
                raise CommandError(f"no file '{file}' in this program ({program.path})")
            word = rest
        if word[0].isdigit():
            line, pcs = statement_pcs(program, parse_int(word, "LINE"))
            if not pcs:
                raise CommandError(f"no statement at or after line {word}")
            b = s.add(kind="line", what=f"line {line}", pcs=pcs)
            moved = "" if line == int(word, 0) else f" (line {word} has no statement)"
            return [f"breakpoint {b.num} at line {line}, pc {min(pcs)}{moved}"]
        if word not in program.labels:
            raise CommandError(f"no label '{word}' (labels: {', '.join(program.labels) or 'none'})")
        pc = program.labels[word]
        if pc >= len(program.statements):
            raise CommandError(f"label '{word}' is at the end of the program")
        line = program.statements[pc].line
        b = s.add(kind="label", what=f"label {word} (line {line})", pcs=frozenset([pc]))
        return [f"breakpoint {b.num} at label {word}: line {line}, pc {pc}"]

    def cmd_watch(self, arg: str) -> list[str]:
        space, lo, hi, what, dtype = self._watch_range(arg)
        b = self.s.add(kind="watch", what=what, space=space, lo=lo, hi=hi, dtype=dtype)
        where = "UB" if space is None else f"GM {space}"
        return [f"watchpoint {b.num}: {what} ({where} bytes {lo:#x}..{hi - 1:#x})"]

    def _watch_range(self, arg: str) -> tuple[str | None, int, int, str, DType | None]:
        if arg.startswith("@"):
            parts = arg[1:].split()
            if len(parts) != 2:
                raise CommandError("watch @ADDR takes a length: watch @ADDR LEN")
            addr, n = parse_int(parts[0], "ADDR"), parse_int(parts[1], "LEN")
            ub = self.s.machine.ub.size
            if n < 1 or addr < 0 or addr + n > ub:
                raise CommandError(f"@{addr:#x} + {n} bytes is not inside UB ({ub} bytes)")
            return None, addr, addr + n, f"@{addr:#x} {n}", None
        t, sl = self._tensor_slice(arg)
        if isinstance(sl, int):
            sl = slice(sl, sl + 1)
        start, stop, step = sl.indices(t.count)
        if step != 1 or stop <= start:
            raise CommandError(f"{arg}: watch needs a non-empty contiguous range")
        base = t.addr if t.space == "ub" else 0
        size = t.dtype.size
        space = None if t.space == "ub" else t.name
        return (space, base + start * size, base + stop * size, f"{t.name}[{start}:{stop}]",
                t.dtype)

    def cmd_delete(self, arg: str) -> list[str]:
        if not arg:
            n = len(self.s.breaks)
            self.s.breaks.clear()
            return [f"deleted {n} breakpoint(s) and watchpoint(s)"]
        num = parse_int(arg, "N")
        if self.s.breaks.pop(num, None) is None:
            raise CommandError(f"no breakpoint or watchpoint {num} (see `info break`)")
        return [f"deleted {num}"]

    # -- info --------------------------------------------------------------------------------
    def cmd_info(self, arg: str) -> list[str]:
        sub = {"break": self._info_break, "breakpoints": self._info_break, "b": self._info_break,
               "watch": self._info_break, "pipes": self._info_pipes,
               "loops": self._info_loops}.get(arg.strip())
        if sub is None:
            raise CommandError("info takes break, pipes or loops")
        return sub()

    def _info_break(self) -> list[str]:
        if not self.s.breaks:
            return ["no breakpoints or watchpoints"]
        out = [f"{'num':<4} {'type':<11} {'what':<36} hits"]
        for b in self.s.breaks.values():
            kind = "watchpoint" if b.kind == "watch" else "breakpoint"
            out.append(f"{b.num:<4} {kind:<11} {b.what:<36} {b.hits}")
        return out

    def _info_pipes(self) -> list[str]:
        from .pipes import pipes_view

        return pipes_view(self.s)

    def _info_loops(self) -> list[str]:
        s = self.s
        loops = s.loops()
        if not loops:
            return ["the program has no loops (no backward branches)"]
        k = s.index()
        pc = s.flat[k].pc if k < len(s.flat) else len(s.program.statements)
        around = sorted(((h, lo, n) for h, lo, n in loops if lo <= pc <= h.pc),
                        key=lambda x: x[0].pc - x[1])
        out = []
        if around:
            h, lo, n = around[0]
            first = s.program.statements[lo].line
            out.append(f"innermost loop: lines {first}-{h.line} ({h.name} at line {h.line}, "
                       f"pc {h.pc}): iteration {n + 1} ({n} backward branches taken)")
        else:
            out.append(f"pc {pc} is not inside a loop")
        for h, lo, n in loops:
            first = s.program.statements[lo].line
            out.append(f"  loop lines {first}-{h.line}  {h.name} at pc {h.pc}: "
                       f"{n} backward branches taken")
        if s.hist.first:
            out.append("  (counted from the oldest point still in the history)")
        return out

    # -- state -------------------------------------------------------------------------------
    def cmd_regs(self, arg: str) -> list[str]:
        self._no_args("regs", arg)
        s, m = self.s, self.s.machine
        s.sync()
        k = s.index()
        pc = s.flat[k].pc if k < len(s.flat) else len(s.program.statements)
        digits = m.cmpmask.size * 2
        out = [f"MASK      hi {m.mask_hi:#018x}  lo {m.mask_lo:#018x}",
               f"mode      {'count' if m.counter else 'norm'}",
               f"CMPMASK   {m.cmpmask_int():#0{digits + 2}x}",
               f"cycle     {s.cycle()}",
               f"pc        {pc}" + (f" (line {s.flat[k].line})" if k < len(s.flat) else " (end)")]
        if m.flags:
            out.append("flags     " + ", ".join(
                f"{src}->{dst} id {eid} (set at pc {where.pc})"
                for (src, dst, eid), where in m.flags.items()))
        else:
            out.append("flags     none set")
        regs = [f"x{i}={m.signed(i)}" + (f" ({m.x[i]:#x})" if m.x[i] > 9 else "")
                for i in range(32) if m.x[i]]
        out.append("x         " + ("  ".join(regs) if regs else "all zero"))
        return out

    def cmd_x(self, arg: str, suffix: str) -> list[str]:
        count, t = None, None
        spec = suffix[1:]
        m = re.match(r"^(\d*)([A-Za-z]\w*)?$", spec)
        if spec and m is None:
            raise CommandError(f"x/{spec}: expected x/COUNT [TYPE]")
        if spec and m.group(1):
            count = parse_int(m.group(1), "COUNT")
        if spec and m.group(2):
            t = self._type(m.group(2))
        words = arg.split(None, 1)
        if len(words) == 2 and lookup(words[0]) is not None and \
                words[0] not in self.s.program.tensors:
            t, arg = self._type(words[0]), words[1]
        if not arg:
            raise CommandError("x needs an address (@0x800) or a tensor element (z, z[8])")
        space, addr, tensor, index = self._location(arg)
        hexa = t is None and tensor is None
        t = t or (tensor.dtype if tensor is not None else lookup("u8"))
        if count is None:
            count = 16 if tensor is None else max(1, min(16, tensor.count - index))
        if count < 1:
            raise CommandError("COUNT must be at least 1")
        self.s.sync()
        mem = self.s.machine.space(space)
        n = count * t.size
        if addr < 0 or addr + n > mem.size:
            where = "UB" if space is None else f"GM tensor {space}"
            raise CommandError(f"{count} {t.name} from {addr:#x} run past {where} "
                               f"({mem.size} bytes)")
        values = _strings(t, mem[addr:addr + n], hexa)
        per = 16 if t.size == 1 else 8 if t.size < 8 else 4
        width = max(len(v) for v in values)
        out = []
        for i in range(0, count, per):
            if tensor is not None:
                label = f"{tensor.name}[{index + i}]"
            else:
                label = f"@{addr + i * t.size:#x}"
            at = addr + i * t.size
            prefix = f"{at:#07x} " if space is None else f"{space}+{at} "
            out.append(f"{prefix}{label + ':':<10} " + "  ".join(f"{v:>{width}}"
                                                               for v in values[i:i + per]))
        return out

    def cmd_print(self, arg: str) -> list[str]:
        if not arg:
            raise CommandError("print needs NAME[a:b] or a register xN")
        self.s.sync()
        if re.fullmatch(r"x([0-9]|[12][0-9]|3[01])", arg):
            r = int(arg[1:])
            m = self.s.machine
            return [f"{arg} = {m.signed(r)} ({m.x[r]:#x})"]
        t, sl = self._tensor_slice(arg)
        mem = self.s.machine.space(None if t.space == "ub" else t.name)
        base = t.addr if t.space == "ub" else 0
        arr = _values(t.dtype, mem[base:base + t.nbytes])[sl]
        label = arg.replace(" ", "")
        with np.printoptions(threshold=256, linewidth=100):
            text = np.array2string(arr, prefix=f"{label} = ") if arr.ndim else str(arr)
        return f"{label} = {text}".split("\n")

    def cmd_list(self, arg: str) -> list[str]:
        s, program = self.s, self.s.program
        inside = s.inside()
        k = s.index()
        last = s.record()
        cur = inside.instr.line if inside else s.flat[k].line if k < len(s.flat) else \
            last.instr.line if last is not None else None
        centre = parse_int(arg, "LINE") if arg else (cur or 1)
        lo = max(1, centre - CONTEXT)
        hi = min(len(program.lines), centre + CONTEXT)
        bp_lines = {program.statements[pc].line for b in s.breaks.values() for pc in b.pcs
                    if not b.temporary}
        if lo > hi:
            raise CommandError(f"line {centre} is outside the program (1..{len(program.lines)})")
        out = []
        for n in range(lo, hi + 1):
            mark = "=>" if n == cur else "  "
            b = "b" if n in bp_lines else " "
            out.append(f"{b}{mark}{n:>5}  {program.lines[n - 1]}")
        return out

    def cmd_help(self, arg: str) -> list[str]:
        if arg:
            name = ALIASES.get(arg.lower(), arg.lower())
            if name not in HELP:
                raise CommandError(f"no command '{arg}' (try `help`)")
            usage, text = HELP[name]
            return [usage, f"  {text}"]
        out = [f"{usage:<32} {text}" for usage, text in HELP.values()]
        return out + ["an empty line repeats the last command; aliases: " +
                      " ".join(f"{a}={n}" for a, n in ALIASES.items())]

    def cmd_quit(self, arg: str) -> list[str]:
        raise Quit()

    # -- operands ----------------------------------------------------------------------------
    def _type(self, name: str) -> DType:
        t = lookup(name)
        if t is None:
            raise CommandError(f"unknown type '{name}'")
        return t

    def _tensor(self, name: str):
        t = self.s.program.tensors.get(name)
        if t is None:
            raise CommandError(f"no tensor '{name}' (tensors: "
                               f"{', '.join(self.s.program.tensors) or 'none'})")
        return t

    def _location(self, text: str):
        """(space, byte address, tensor or None, element index) of @ADDR, ADDR or NAME[I]."""
        text = text.strip()
        if text.startswith("@") or text[:1].isdigit():
            return None, parse_int(text.lstrip("@"), "ADDR"), None, 0
        m = ELEMENT.match(text)
        if m is None:
            raise CommandError(f"'{text}' is not an address (@0x800) or NAME[I]")
        t = self._tensor(m.group(1))
        i = parse_int(m.group(2), "the index") if m.group(2) else 0
        if not 0 <= i < t.count:
            raise CommandError(f"{t.name}[{i}] is outside the tensor (0..{t.count - 1})")
        if t.space == "ub":
            return None, t.addr + i * t.dtype.size, t, i
        return t.name, i * t.dtype.size, t, i

    def _tensor_slice(self, text: str):
        m = ELEMENT.match(text.strip())
        if m is None:
            raise CommandError(f"'{text}' is not NAME, NAME[I] or NAME[a:b]")
        t = self._tensor(m.group(1))
        inner = m.group(2)
        if inner is None:
            return t, slice(None)
        if ":" not in inner:
            i = parse_int(inner, "the index")
            if not -t.count <= i < t.count:
                raise CommandError(f"{t.name}[{i}] is outside the tensor (0..{t.count - 1})")
            i %= t.count
            return t, i
        parts = inner.split(":")
        if len(parts) > 3:
            raise CommandError(f"'{inner}' is not a slice a:b")
        vals = [parse_int(p, "a slice bound") if p.strip() else None for p in parts]
        return t, slice(*vals)


def _values(t: DType, raw: np.ndarray) -> np.ndarray:
    """Raw bytes → the values numpy prints (c32 as complex64, bf16 as bfloat16)."""
    raw = np.ascontiguousarray(raw)
    if t.name == "c32":
        pairs = raw.view(np.float16).reshape(-1, 2).astype(np.float32)
        return pairs[:, 0] + 1j * pairs[:, 1]
    return raw.view(t.numeric)


def _strings(t: DType, raw: np.ndarray, hexa: bool) -> list[str]:
    if hexa:
        return [f"0x{int(v):02x}" for v in np.ascontiguousarray(raw)]
    return [str(v) for v in _values(t, raw)]
