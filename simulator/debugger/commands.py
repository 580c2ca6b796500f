"""The debugger's commands (docs/format.md §13): parse one line, act on the session, return text.

A bad command or argument raises CommandError, which the REPL prints as one line; the session
goes on. Nothing here prints: every command returns the lines to show.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from isa.types import DType, lookup
from simulator.render import render_lines

from .expr import REGISTERS, WATCHABLE, X_REGS, Evaluator, ExprError, parse, register_bits, show
from .expr import values as _values
from .session import Break, Session, Stop, statement_pcs
from .valuefmt import format_value

CONTEXT = 5  # source lines `list` shows either side
SHOWN_UNDONE = 4  # `set var`s named when backward motion undoes them


class CommandError(Exception):
    """A command the debugger cannot carry out: one line saying why."""


class Quit(Exception):
    """`quit`: end the session."""


LOCATION = "LINE|LABEL|FILE:LINE|pc N"
HELP: dict[str, tuple[str, str]] = {
    "break": (f"break {LOCATION}|cycle N [core K] [if EXPR]",
              "stop before the statement at LINE/LABEL/pc N (every time it runs, while EXPR "
              "holds), or once the cycle reaches N; on every core, or on core K only"),
    "core": ("core [K]", "inspect core K of a multi-core launch (the cores before it run to "
             "their end first); without K, the core inspected now"),
    "tbreak": (f"tbreak {LOCATION} [if EXPR]", "a breakpoint deleted when it first stops"),
    "condition": ("condition N [EXPR]", "stop at breakpoint N only while EXPR holds (no EXPR: "
                  "always)"),
    "ignore": ("ignore N COUNT", "pass breakpoint N COUNT times before it stops again"),
    "disable": ("disable [N...]", "keep breakpoints N (all) but stop at none of them"),
    "enable": ("enable [N...]", "make breakpoints N (all) stop again"),
    "delete": ("delete [N...]", "delete breakpoints or watchpoints N (all of them without N)"),
    "info": ("info break|registers|display|pipes|loops|cores",
             "breakpoints and watchpoints with hit counts; every register; the displays; the "
             "pipes' queues, busy-until and pending flags; the loops around pc; where each core "
             "of a multi-core launch stopped"),
    "step": ("step [N]", "run N hardware instructions (finishes one already begun)"),
    "stepr": ("stepr [N]", "run N micro-ops: one repeat of a vector instruction, or one whole "
              "other instruction"),
    "continue": ("continue", "run until a breakpoint, a watchpoint, an error or the end "
                 "(Ctrl-C interrupts)"),
    "run": ("run", "restart the program from the beginning and continue"),
    "until": (f"until [{LOCATION}]", "continue until LOCATION is about to run; without one, "
              "until a statement past this one runs (out of a loop from its last line)"),
    "advance": (f"advance {LOCATION}", "continue until LOCATION is about to run"),
    "finish": ("finish", "run to the end of the current API statement's expansion"),
    "next": ("next [N]", "run to the start of the Nth source line after this one (a .vasm "
             "statement's line, a C++ or Python call's line)"),
    "reverse-next": ("reverse-next [N]", "go back to the start of this source line (or, at its "
                     "start, the line before), N times"),
    "reverse-step": ("reverse-step [N]", "the same as reverse-next: the debugged statements "
                     "are API calls, with no function of the kernel's own to step into"),
    "back": ("back [N]", "go back N hardware instructions (undoing them exactly)"),
    "backr": ("backr [N]", "go back N micro-ops (repeats), the mirror of stepr"),
    "rcontinue": ("rcontinue", "go back until a breakpoint, a watchpoint or the start"),
    "regs": ("regs", "MASK, CMPMASK, mask mode, flags, cycle, pc and the non-zero x registers"),
    "x": ("x[/COUNT] [TYPE] ADDR|NAME[I]",
          "dump COUNT elements of TYPE from a UB address (@0x800) or a tensor element, "
          "e.g. x/16 f32 z"),
    "print": ("print[/x|/t|/d|/f] EXPR",
              "an expression over tensors (z, z[3], z[0:8]) and registers ($x1, $mask, "
              "$cmpmask, $pc, $cycle, ...): hex, binary, decimal or float"),
    "display": ("display[/FMT] [EXPR]", "print EXPR after every stop (no EXPR: show them all)"),
    "undisplay": ("undisplay [N...]", "stop displaying N (all without N)"),
    "set": ("set var $xN|NAME[I]|NAME[a:b] = EXPR",
            "write a register or tensor elements (recorded: `back` undoes it)"),
    "watch": ("watch NAME[a:b]|@ADDR LEN|$REG [if EXPR]",
              "stop right after any micro-op writes those bytes (UB or a GM tensor) or changes "
              "the register"),
    "list": ("list [LINE|A,B|A,|,B]", "the source around pc (or LINE), or lines A to B"),
    "help": ("help [CMD]", "this list, or one command's help"),
    "quit": ("quit", "end the session"),
}
ALIASES = {"b": "break", "tb": "tbreak", "d": "delete", "i": "info", "s": "step",
           "si": "stepr", "c": "continue", "r": "run", "u": "until", "rc": "rcontinue",
           "p": "print", "w": "watch", "l": "list", "h": "help", "q": "quit", "exit": "quit",
           "fin": "finish", "bs": "backr", "disp": "display", "n": "next", "rn": "reverse-next",
           "rs": "reverse-step"}
FORMATS = ("x", "t", "d", "f")
COMMAND = re.compile(r"^\s*([A-Za-z]+(?:-[A-Za-z]+)?)(/\S*)?\s*(.*?)\s*$")
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


class Display:
    """`display[/FMT] EXPR`: shown after every stop."""

    def __init__(self, num: int, text: str, fmt: str | None, tree):
        self.num, self.text, self.fmt, self.tree = num, text, fmt, tree


class Commands:
    def __init__(self, session: Session, show_source: bool = True,
                 recordings: Callable[[int], Session] | None = None):
        self.s = session
        # a C++ launch's cores, each a recording of its own: core K -> a session of it (`core K`)
        self.recordings = recordings
        self.show_source = show_source  # diagnostics quote their source line (not --no-source)
        self.eval = Evaluator(session)
        self.displays: dict[int, Display] = {}
        self.next_display = 1

    # -- dispatch ----------------------------------------------------------------------------
    def execute(self, line: str) -> list[str]:
        """Run one command line; raises CommandError (bad input) or Quit."""
        m = COMMAND.match(line)
        if m is None:
            raise CommandError(f"not a command: '{line.strip()}' (try `help`)")
        word, suffix, arg = m.group(1).lower(), m.group(2) or "", m.group(3)
        name = ALIASES.get(word, word)
        fn: Callable | None = getattr(self, f"cmd_{name.replace('-', '_')}", None)
        if fn is None or name not in HELP:
            raise CommandError(f"unknown command '{word}' (try `help`)")
        if name in ("x", "print", "display"):
            return fn(arg, suffix)
        if suffix:
            raise CommandError(f"{name} takes no /FORMAT")
        return fn(arg)

    # -- motion ------------------------------------------------------------------------------
    def cmd_step(self, arg: str) -> list[str]:
        return self._stopped(self.s.forward(self.s.steps_done(_count(arg), boundaries=True)))

    def cmd_stepr(self, arg: str) -> list[str]:
        return self._stopped(self.s.forward(self.s.steps_done(_count(arg), boundaries=False),
                                            by_repeat=True))

    def cmd_continue(self, arg: str) -> list[str]:
        self._no_args("continue", arg)
        return self._stopped(self.s.go())

    def cmd_run(self, arg: str) -> list[str]:
        self._no_args("run", arg)
        self.s.restart()
        hit = self.s._bp_at_boundary()
        if hit is not None:
            return ["restarted", *self._stopped(hit)]
        return ["restarted", *self._stopped(self.s.go())]

    def cmd_until(self, arg: str) -> list[str]:
        if arg:
            return self._run_to(arg, "until")
        s = self.s
        here = self._pc()
        return self._stopped(s.forward(s.boundary_done(lambda: self._pc() > here)))

    def cmd_advance(self, arg: str) -> list[str]:
        if not arg:
            raise CommandError(f"advance needs a location: {LOCATION}")
        return self._run_to(arg, "advance")

    def _run_to(self, arg: str, name: str) -> list[str]:
        _, what, pcs, _ = self._location_pcs(arg, name)
        tmp = self.s.add(kind="motion", what=what, pcs=pcs, temporary=True)
        try:
            return self._stopped(self.s.go())
        finally:
            self.s.breaks.pop(tmp.num, None)
            if self.s.next_num == tmp.num + 1:  # its number is the user's again
                self.s.next_num = tmp.num

    def cmd_finish(self, arg: str) -> list[str]:
        self._no_args("finish", arg)
        s = self.s
        inside = s.inside()
        k = s.index()
        if inside is None and k >= len(s.flat):
            raise CommandError("the program has finished: nothing to finish")
        pc = inside.instr.pc if inside is not None else s.flat[k].pc

        def left() -> bool:  # the next instruction is another statement's (or this one anew)
            j = s.index()
            return j >= len(s.flat) or s.flat[j].pc != pc or s.source.start_of(pc) == j
        stop = s.forward(s.boundary_done(left))
        return [f"run till the end of line {s.program.statements[pc].line} (pc {pc})",
                *self._stopped(stop)]

    def cmd_next(self, arg: str) -> list[str]:
        return self._stopped(self.s.forward(self.s.lines_done(_count(arg))))

    def cmd_reverse_next(self, arg: str) -> list[str]:
        return self._back(self.s.lines_done(_count(arg)))

    cmd_reverse_step = cmd_reverse_next  # a recording has no calls to step into

    def cmd_back(self, arg: str) -> list[str]:
        return self._back(self.s.steps_done(_count(arg), boundaries=True))

    def cmd_backr(self, arg: str) -> list[str]:
        return self._back(self.s.steps_done(_count(arg), boundaries=False), by_repeat=True)

    def cmd_rcontinue(self, arg: str) -> list[str]:
        self._no_args("rcontinue", arg)
        return self._back(lambda rec: False)

    def _back(self, done, by_repeat: bool = False) -> list[str]:
        """Backward motion; the user's own writes it undid are named first."""
        stop = self.s.backward(done, by_repeat)
        undone = [f"undid {label}" for label in self.s.undone]
        more = len(undone) - SHOWN_UNDONE
        return undone[:SHOWN_UNDONE] + ([f"undid {more} more"] if more > 0 else []) + \
            self._stopped(stop)

    def _pc(self) -> int:
        return self.s.pc()

    def diagnostics(self, diags) -> list[str]:
        """DIAGS as the session shows them: each with its source line and caret."""
        return render_lines(diags, self.show_source)

    def _stopped(self, stop: Stop) -> list[str]:
        fault = [stop.fault] if stop.fault is not None else []
        out = self.diagnostics([d for d in self.s.new_diagnostics() if d not in fault] + fault)
        if stop.message:
            out.extend(stop.message.split("\n"))
        for b, rec in stop.watched:
            if b.kind == "regwatch":
                old, new = (self.s.reg_value(b.reg, r) for r in (rec.regs_before, rec.regs_after))
                bits = register_bits(b.reg, self.s)
                fmt = "x" if b.reg in ("$mask", "$cmpmask") else None
                out.append(f"  old {format_value(old, fmt, bits)}")
                out.append(f"  new {format_value(new, fmt, bits)}")
                continue
            old, new = self.s.watched_bytes(b, rec)
            out.append(f"  old {self._show(b, old)}")
            out.append(f"  new {self._show(b, new)}")
        return out + self.where() + self.show_displays()

    def show_displays(self) -> list[str]:
        out = []
        for d in self.displays.values():
            try:
                out.extend(self._format(d.tree, d.fmt, f"{d.num}: {d.text}"))
            except ExprError as e:
                out.append(f"{d.num}: {d.text}: error: {e}")
        return out

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
            n = k - s.source.start_of(instr.pc) + 1
            info += f"  next {instr.text} ({n} of {len(stmt.hw)})"
        if end and s.ex.done:
            info += "  (program finished)" if s.core + 1 >= s.n else "  (core finished)"
        if s.block()[1] > 1:
            info += "  core {} of {}".format(*s.block())
        return out + [info]

    def cmd_core(self, arg: str) -> list[str]:
        if not arg:
            return ["core {} of {}".format(*self.s.block())]
        core = parse_int(arg, "K")
        if self.recordings is not None:  # a C++ launch: each core its own recording
            self._load_core(core)
        else:
            why = self.s.switch(core)
            if why is not None:
                raise CommandError(why)
        s = self.s
        return ["core {} of {}".format(*s.block()), *self.diagnostics(s.new_diagnostics()),
                *self.where()]

    def _load_core(self, core: int) -> None:
        """Inspect core CORE of a recorded launch: its recording in a session of its own, at
        its start, with the breakpoints, watchpoints and displays set so far."""
        n = self.s.block()[1]
        if not 0 <= core < n:
            raise CommandError(f"core {core} does not exist (the launch runs cores 0..{n - 1})")
        if core == self.s.block()[0]:
            return
        try:
            new = self.recordings(core)
        except ValueError as e:
            raise CommandError(str(e)) from None
        new.breaks, new.next_num = self.s.breaks, self.s.next_num
        self.s = new
        self.eval = Evaluator(new)
        for b in new.breaks.values():
            if b.kind == "line":  # `line 66`, maybe `line 66 on core 3`
                b.pcs = statement_pcs(new.program, int(b.what.split()[1]))[1]
            elif b.kind in ("pc", "label"):
                b.pcs = frozenset(pc for pc in b.pcs if pc < len(new.program.statements))
            b.hits = 0
            b.test = self.eval.condition(b.condition) if b.condition else None

    # -- breakpoints -------------------------------------------------------------------------
    def cmd_break(self, arg: str, temporary: bool = False) -> list[str]:
        name = "tbreak" if temporary else "break"
        loc, cond = _split_condition(arg)
        loc, core = self._core_of(loc)
        out = self._break(name, loc, cond, temporary)
        if core is not None:
            b = self.s.breaks[self.s.next_num - 1]
            b.core, b.what = core, f"{b.what} on core {core}"
            out = [out[0].replace(f"breakpoint {b.num} ", f"breakpoint {b.num} on core {core} ",
                                  1)]
        return out

    def _core_of(self, loc: str) -> tuple[str, int | None]:
        """LOC without a trailing `core K`, and K (None when not given)."""
        words = loc.split()
        if len(words) < 3 or words[-2] != "core":
            return loc, None
        core = parse_int(words[-1], "K")
        n = self.s.block()[1]
        if not 0 <= core < n:
            raise CommandError(f"core {core} does not exist (the launch runs cores "
                               f"0..{n - 1})")
        return " ".join(words[:-2]), core

    def _break(self, name: str, loc: str, cond: str | None, temporary: bool) -> list[str]:
        words = loc.split()
        s = self.s
        if not words:
            raise CommandError(f"{name} needs {LOCATION}" + ("" if temporary else " or `cycle N`"))
        test = self.eval.condition(cond) if cond else None
        if words[0] == "cycle" and len(words) == 2 and not temporary:
            n = parse_int(words[1], "cycle")
            if n < 0:
                raise CommandError(f"cycle must be >= 0, not {n}")
            b = s.add(kind="cycle", what=f"cycle {n}", cycle=n, condition=cond, test=test)
            return [f"breakpoint {b.num} at cycle {n}"]
        kind, what, pcs, message = self._location_pcs(loc, name)
        b = s.add(kind=kind, what=what, pcs=pcs, temporary=temporary, condition=cond, test=test)
        word = "temporary breakpoint" if temporary else "breakpoint"
        return [f"{word} {b.num} {message}" + (f"; stops only if {cond}" if cond else "")]

    def cmd_tbreak(self, arg: str) -> list[str]:
        return self.cmd_break(arg, temporary=True)

    def _location_pcs(self, arg: str, name: str) -> tuple[str, str, frozenset[int], str]:
        """(kind, what, statement pcs, how `break` says it) of LINE|LABEL|FILE:LINE|pc N."""
        program = self.s.program
        words = arg.split()
        if words and words[0] == "pc" and len(words) == 2:
            n = parse_int(words[1], "pc")
            if not 0 <= n < len(program.statements):
                raise CommandError(f"pc {n} is not a statement (0..{len(program.statements) - 1})")
            line = program.statements[n].line
            return "pc", f"pc {n} (line {line})", frozenset([n]), f"at pc {n}, line {line}"
        if len(words) != 1:
            raise CommandError(f"{name} takes {LOCATION}, not '{arg}'")
        word = words[0]
        if ":" in word:
            file, _, rest = word.rpartition(":")
            if not _same_file(file, str(program.path)):
                raise CommandError(f"no file '{file}' in this program ({program.path})")
            if not rest.strip().isdigit():
                raise CommandError(f"FILE:LINE needs a line number, not '{rest}'")
            word = rest
        if word[0].isdigit():
            line, pcs = statement_pcs(program, parse_int(word, "LINE"))
            if not pcs:
                raise CommandError(f"no statement at or after line {word}")
            moved = "" if line == int(word, 0) else f" (line {word} has no statement)"
            return "line", f"line {line}", pcs, f"at line {line}, pc {min(pcs)}{moved}"
        if word not in program.labels:
            raise CommandError(f"no label '{word}' (labels: {', '.join(program.labels) or 'none'})")
        pc = program.labels[word]
        if pc >= len(program.statements):
            raise CommandError(f"label '{word}' is at the end of the program")
        line = program.statements[pc].line
        return ("label", f"label {word} (line {line})", frozenset([pc]),
                f"at label {word}: line {line}, pc {pc}")

    def _numbered(self, arg: str, name: str) -> Break:
        num = parse_int(arg, "N")
        b = self.s.breaks.get(num)
        if b is None:
            raise CommandError(f"no breakpoint or watchpoint {num} (see `info break`)")
        return b

    def _selected(self, arg: str, name: str) -> list[Break]:
        if not arg:
            return list(self.s.breaks.values())
        return [self._numbered(w, name) for w in arg.split()]

    def cmd_condition(self, arg: str) -> list[str]:
        words = arg.split(None, 1)
        if not words:
            raise CommandError("condition needs N [EXPR]")
        b = self._numbered(words[0], "condition")
        if len(words) == 1:
            b.condition, b.test = None, None
            return [f"breakpoint {b.num} now unconditional"]
        b.test, b.condition = self.eval.condition(words[1]), words[1].strip()
        return [f"breakpoint {b.num} stops only if {b.condition}"]

    def cmd_ignore(self, arg: str) -> list[str]:
        words = arg.split()
        if len(words) != 2:
            raise CommandError("ignore needs N COUNT")
        b = self._numbered(words[0], "ignore")
        n = parse_int(words[1], "COUNT")
        if n < 0:
            raise CommandError(f"COUNT must be >= 0, not {n}")
        b.ignore = n
        if n == 0:
            return [f"breakpoint {b.num} will stop next time it is reached"]
        return [f"breakpoint {b.num} will be passed {n} time(s)"]

    def cmd_disable(self, arg: str) -> list[str]:
        chosen = self._selected(arg, "disable")
        for b in chosen:
            b.enabled = False
        return [f"disabled {', '.join(str(b.num) for b in chosen) or 'nothing'}"]

    def cmd_enable(self, arg: str) -> list[str]:
        chosen = self._selected(arg, "enable")
        for b in chosen:
            b.enabled = True
        return [f"enabled {', '.join(str(b.num) for b in chosen) or 'nothing'}"]

    def cmd_watch(self, arg: str) -> list[str]:
        arg, cond = _split_condition(arg)
        test = self.eval.condition(cond) if cond else None
        suffix = f" if {cond}" if cond else ""
        if arg.startswith("$"):
            reg = arg.strip()
            if reg not in WATCHABLE:
                raise CommandError(f"cannot watch '{reg}' (watchable: $x0..$x31, "
                                   f"{', '.join(WATCHABLE[32:])})")
            b = self.s.add(kind="regwatch", what=reg, reg=reg, condition=cond, test=test)
            return [f"watchpoint {b.num}: {reg}{suffix}"]
        space, lo, hi, what, dtype = self._watch_range(arg)
        b = self.s.add(kind="watch", what=what, space=space, lo=lo, hi=hi, dtype=dtype,
                       condition=cond, test=test)
        where = "UB" if space is None else f"GM {space}"
        return [f"watchpoint {b.num}: {what} ({where} bytes {lo:#x}..{hi - 1:#x}){suffix}"]

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
        space, base = self.s.names.place(t)
        size = t.dtype.size
        return (space, base + start * size, base + stop * size, f"{t.name}[{start}:{stop}]",
                t.dtype)

    def cmd_delete(self, arg: str) -> list[str]:
        if not arg:
            n = len(self.s.breaks)
            self.s.breaks.clear()
            return [f"deleted {n} breakpoint(s) and watchpoint(s)"]
        chosen = self._selected(arg, "delete")
        for b in chosen:
            self.s.breaks.pop(b.num, None)
        return [f"deleted {' '.join(str(b.num) for b in chosen)}"]

    # -- info --------------------------------------------------------------------------------
    def cmd_info(self, arg: str) -> list[str]:
        sub = {"break": self._info_break, "breakpoints": self._info_break, "b": self._info_break,
               "watch": self._info_break, "watchpoints": self._info_break,
               "registers": self._info_registers, "reg": self._info_registers,
               "r": self._info_registers, "display": self._info_display,
               "pipes": self._info_pipes, "loops": self._info_loops,
               "cores": self._info_cores}.get(arg.strip())
        if sub is None:
            raise CommandError("info takes break, registers, display, pipes, loops or cores")
        return sub()

    def _core_name(self, core: int) -> str:
        """`core K`, or for the recording of one core of a C++ launch, that core's number in
        the launch (the run's summary lines name it so)."""
        rec = self.s.recorded_core
        if rec is not None and self.s.n == 1:
            alone = "" if self.recordings is not None else "; this recording holds it alone"
            return f"core {rec[0]} (of {rec[1]}{alone})"
        return f"core {core}"

    def _info_cores(self) -> list[str]:
        s = self.s
        if self.recordings is not None and s.recorded_core is not None:
            k, n = s.recorded_core
            return [self._info_core(0, s) if i == k else
                    f"  core {i}: recorded (`core {i}` inspects its recording)"
                    for i in range(n)]
        return [self._info_core(core, s) for core in range(s.n)]

    def _info_core(self, core: int, s: Session) -> str:
        """One line of `info cores`."""
        if core in s.ends:
            return f"  core {core}: finished at cycle {s.ends[core]}"
        if core != s.core:
            return f"  core {core}: not started"
        k = s.index()
        if k < len(s.flat):
            at = f"at line {s.flat[k].line}, pc {s.flat[k].pc}"
        else:
            at = "finished" if s.ex.done else "at the end"
        return f"* {self._core_name(core)}: {at}, cycle {s.cycle()} (inspected)"

    def _info_break(self) -> list[str]:
        if not self.s.breaks:
            return ["no breakpoints or watchpoints"]
        out = [f"{'num':<4} {'type':<11} {'enb':<4}{'what':<36} hits"]
        for b in self.s.breaks.values():
            kind = "watchpoint" if b.is_watch else "tbreak" if b.temporary else "breakpoint"
            enb = "y" if b.enabled else "n"
            out.append(f"{b.num:<4} {kind:<11} {enb:<4}{b.what:<36} {b.hits}")
            if b.condition:
                out.append(f"{'':<21}stop only if {b.condition}")
            if b.ignore:
                out.append(f"{'':<21}will be passed {b.ignore} more time(s)")
        return out

    def _info_registers(self) -> list[str]:
        out = []
        for name in REGISTERS:
            v = self.eval.register(name)
            if name == "$mode":
                out.append(f"{name:<10} {v}")
                continue
            text = f"{name:<10} {format_value(v, 'x', register_bits(name, self.s)):<20}"
            if name in X_REGS or name in ("$pc", "$cycle", "$block_idx", "$block_num"):
                text += f" {v}"
            out.append(text.rstrip())
        deq = self.s.machine.special.get("deqscale")
        if deq is not None:  # #27/#29: once a set_deqscale has run
            out.append(f"{'$deqscale':<10} {format_value(deq, 'x', 64)}")
        if self.s.machine.chip.reg_vector:  # issue 34: CTRL (set_ctrl; its saturation bits)
            out.append(f"{'$ctrl':<10} {format_value(self.eval.register('$ctrl'), 'x', 64)}")
        return out

    def _info_display(self) -> list[str]:
        if not self.displays:
            return ["no displays"]
        return [f"{d.num}: {'/' + d.fmt + ' ' if d.fmt else ''}{d.text}"
                for d in self.displays.values()]

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
                self.s.tensor(words[0]) is None:
            t, arg = self._type(words[0]), words[1]
        if not arg:
            raise CommandError("x needs an address (@0x800) or a tensor element (z, z[8])")
        space, addr, tensor, index = self._location(arg)
        hexa = t is None and tensor is None
        t = t or (tensor.dtype if tensor is not None else lookup("u8"))
        if t.nibble:  # s4: its bytes (two elements each), as x/Nu8 shows them
            t, hexa, tensor = lookup("u8"), True, None
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

    def cmd_print(self, arg: str, suffix: str = "") -> list[str]:
        fmt = _format(suffix, "print")
        if not arg:
            raise CommandError("print needs an expression: NAME[a:b], $x1, z[3] * 2, ...")
        if re.fullmatch(r"x([0-9]|[12][0-9]|3[01])", arg) and self.s.tensor(arg) is None:
            if fmt is None:  # `print x1`: the register, signed and in hex
                self.s.sync()
                r = int(arg[1:])
                m = self.s.machine
                return [f"{arg} = {m.signed(r)} ({m.x[r]:#x})"]
            arg = "$" + arg
        label = arg.replace(" ", "") if _plain_slice(arg) else " ".join(arg.split())
        return self._format(self._parse(arg), fmt, label)

    def cmd_display(self, arg: str, suffix: str = "") -> list[str]:
        fmt = _format(suffix, "display")
        if not arg:
            return self.show_displays() or ["no displays"]
        tree = self._parse(arg)
        d = Display(self.next_display, arg.strip(), fmt, tree)
        self.next_display += 1
        self.displays[d.num] = d
        try:
            return self._format(d.tree, d.fmt, f"{d.num}: {d.text}")
        except CommandError as e:
            return [f"{d.num}: {d.text}: error: {e}"]

    def cmd_undisplay(self, arg: str) -> list[str]:
        if not arg:
            self.displays.clear()
            return ["deleted every display"]
        nums = [parse_int(w, "N") for w in arg.split()]
        for n in nums:
            if n not in self.displays:
                raise CommandError(f"no display {n} (see `info display`)")
        for n in nums:
            del self.displays[n]
        return [f"deleted display {' '.join(map(str, nums))}"]

    def cmd_set(self, arg: str) -> list[str]:
        m = re.match(r"^(?:var(?:iable)?\s+)?(.+?)\s*(?<![=!<>])=(?!=)\s*(.+)$", arg)
        if m is None:
            raise CommandError("set var needs TARGET = EXPR ($x1 = 3, z[3] = 1.5)")
        target, text = m.group(1).strip(), m.group(2)
        s = self.s
        if not s.at_newest():
            raise CommandError("set var writes the machine, so only at the newest point: the "
                               "history after this point was run from the old values "
                               "(`continue`, `step` or `run` get there)")
        value = self._value(self._parse(text))
        label = f"set var {target} = {text.strip()}"
        if target.startswith("$"):
            if target not in X_REGS:
                raise CommandError(f"set var can write $x0..$x31, not '{target}'")
            if not isinstance(value, int | np.integer | bool | np.bool_):
                raise CommandError(f"{target} takes an integer, not {value!r}")
            s.assign(label, None, 0, None, reg=int(target[2:]), value=int(value))
            return [f"{target} = {self.eval.register(target)}"]
        t, sl = self._tensor_slice(target)
        start, stop, step = (sl, sl + 1, 1) if isinstance(sl, int) else sl.indices(t.count)
        if step != 1 or stop <= start:
            raise CommandError(f"{target}: set var needs an element or a contiguous slice")
        try:
            new = np.broadcast_to(np.asarray(value).astype(t.dtype.numeric), (stop - start,))
        except (ValueError, TypeError, OverflowError) as e:
            raise CommandError(f"{text.strip()} does not fit {target} ({t.dtype.name}): {e}") \
                from None
        if t.dtype.name == "c32" or t.dtype.nibble or new.dtype.itemsize != t.dtype.size:
            raise CommandError(f"set var cannot write {t.dtype.name} elements")
        space, base = s.names.place(t)
        s.assign(label, space, base + start * t.dtype.size, np.ascontiguousarray(new).tobytes())
        return self._format(self._parse(target), None, target.replace(" ", ""))

    def _parse(self, text: str):
        try:
            return parse(text)
        except ExprError as e:
            raise CommandError(str(e)) from None

    def _value(self, tree):
        try:
            return self.eval(tree)
        except ExprError as e:
            raise CommandError(str(e)) from None

    def _format(self, tree, fmt: str | None, label: str) -> list[str]:
        v = self._value(tree)
        bits = 64
        if isinstance(tree, ast.Name) and tree.id.startswith("__reg_"):
            bits = register_bits(show(tree), self.s)
        text = format_value(v, fmt, bits, prefix=f"{label} = ")
        return f"{label} = {text}".split("\n")

    def cmd_list(self, arg: str) -> list[str]:
        s, program = self.s, self.s.program
        inside = s.inside()
        k = s.index()
        last = s.record()
        cur = inside.instr.line if inside else s.flat[k].line if k < len(s.flat) else \
            last.instr.line if last is not None else None
        lo, hi = self._list_range(arg, cur or 1)
        hi = min(len(program.lines), hi)
        bp_lines = {program.statements[pc].line for b in s.breaks.values() for pc in b.pcs
                    if not b.temporary}
        if lo > hi:
            raise CommandError(f"line {lo} is outside the program (1..{len(program.lines)})")
        out = []
        for n in range(lo, hi + 1):
            mark = "=>" if n == cur else "  "
            b = "b" if n in bp_lines else " "
            out.append(f"{b}{mark}{n:>5}  {program.lines[n - 1]}")
        return out

    @staticmethod
    def _list_range(arg: str, cur: int) -> tuple[int, int]:
        """gdb's `list` arguments: LINE (centred on it), A,B (A to B), A, (from A) and ,B (up
        to B); nothing: around the current line."""
        if "," not in arg:
            centre = parse_int(arg, "LINE") if arg else cur
            return max(1, centre - CONTEXT), centre + CONTEXT
        a, b = (w.strip() for w in arg.split(",", 1))
        if not a and not b:
            raise CommandError("list A,B needs A or B")
        lo = parse_int(a, "A") if a else max(1, parse_int(b, "B") - 2 * CONTEXT)
        hi = parse_int(b, "B") if b else lo + 2 * CONTEXT
        if lo < 1 or hi < lo:
            raise CommandError(f"list {arg}: the lines run from A to B (1 <= A <= B)")
        return lo, hi

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
        t = self.s.tensor(name)
        if t is None:
            raise CommandError(f"no tensor '{name}' (tensors: "
                               f"{', '.join(self.s.names.names()) or 'none'})")
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
        i = self._index(m.group(2), "the index") if m.group(2) else 0
        if not 0 <= i < t.count:
            raise CommandError(f"{t.name}[{i}] is outside the tensor (0..{t.count - 1})")
        space, base = self.s.names.place(t)
        return space, base + (i // 2 if t.dtype.nibble else i * t.dtype.size), t, i

    def _index(self, text: str, what: str) -> int:
        """An index or slice bound: a number or an expression (`4096*3`, `$x2 // 4`)."""
        try:
            return int(text.replace("_", ""), 0)
        except ValueError:
            pass
        value = self._value(self._parse(text))
        if not isinstance(value, int | np.integer) or isinstance(value, bool):
            raise CommandError(f"{what} must be an integer, not '{text}' ({value!r})")
        return int(value)

    def _tensor_slice(self, text: str):
        m = ELEMENT.match(text.strip())
        if m is None:
            raise CommandError(f"'{text}' is not NAME, NAME[I] or NAME[a:b]")
        t = self._tensor(m.group(1))
        inner = m.group(2)
        if inner is None:
            return t, slice(None)
        if ":" not in inner:
            i = self._index(inner, "the index")
            if not -t.count <= i < t.count:
                raise CommandError(f"{t.name}[{i}] is outside the tensor (0..{t.count - 1})")
            i %= t.count
            return t, i
        parts = inner.split(":")
        if len(parts) > 3:
            raise CommandError(f"'{inner}' is not a slice a:b")
        vals = [self._index(p, "a slice bound") if p.strip() else None for p in parts]
        return t, slice(*vals)


def _split_condition(arg: str) -> tuple[str, str | None]:
    """`LOCATION if EXPR` → (LOCATION, EXPR)."""
    m = re.match(r"^(.*?)\s+if\s+(.+)$", arg)
    if m is None:
        return arg.strip(), None
    return m.group(1).strip(), m.group(2).strip()


def _same_file(given: str, path: str) -> bool:
    return given == path or Path(path).name == given or path.endswith("/" + given)


def _format(suffix: str, name: str) -> str | None:
    if not suffix:
        return None
    fmt = suffix[1:]
    if fmt not in FORMATS:
        raise CommandError(f"{name}/{fmt}: the formats are /x (hex), /t (binary), /d (decimal) "
                           "and /f (float)")
    return fmt


def _plain_slice(text: str) -> bool:
    """NAME or NAME[a:b]: printed with the label as typed (numpy's layout)."""
    return re.fullmatch(r"\s*[A-Za-z_]\w*\s*(\[[^\]]*\])?\s*", text) is not None


def _strings(t: DType, raw: np.ndarray, hexa: bool) -> list[str]:
    if hexa:
        return [f"0x{int(v):02x}" for v in np.ascontiguousarray(raw)]
    return [str(v) for v in _values(t, raw)]
