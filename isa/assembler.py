"""Text → Program (docs/format.md §4): directives, tensors, labels, statements with exact positions.

Two passes: the first collects `.chip`, tensors and labels; the second resolves operands against
the instruction table and builds hardware instructions (API statements expand via isa.api).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Mapping
from itertools import chain, count, repeat
from operator import eq
from pathlib import Path
from typing import NamedTuple

import attrs

from isa import api
from isa.chip import Chip, ChipError, get_chip
from isa.diagnostics import AssemblyError, Diagnostic, did_you_mean
from isa.inits import evaluate
from isa.lexer import (
    KEY_RE,
    NAME_RE,
    REG_RE,
    LexError,
    parameters,
    parse_int,
    parse_number,
    parse_reg_expr,
    parse_register,
    split_top,
    strip_comment,
)
from isa.operands import Builder, StatementSyntax
from isa.program import (
    Init,
    Instruction,
    Operand,
    Program,
    Statement,
    StatementRun,
    Tensor,
    copies,
    one_statement,
)
from isa.rebase import TEMPLATES_LIMIT, Shape, Shapes, shape_of, template
from isa.table import TABLE, InstrDef, Table
from isa.types import ALIASES, CONVERT_ONLY, TYPES, VECTOR_TYPES, DType, lookup

MAX_ERRORS = 20
# a `.gm`/`.ub` line's text (and the parameters' values) -> its declaration parsed cleanly
# (`parse_declaration`), and an INIT's text, type and count -> its evaluation when read-only
# (`random`): a program run again, or a sweep's variants, assemble the same header each time
# (docs/decisions.md, "a header assembled once per text")
_DECLARED: dict[tuple, tuple] = {}
DECLARED_LIMIT = 4096
_EVALUATED: dict[tuple, Init] = {}
EVALUATED_BYTES = 16 << 20  # (an INIT above a quarter of it is not kept)
_EVALUATED_HELD = [0]  # the bytes `_EVALUATED` holds
# a one-line statement's build by its text and everything else it reads (`build_context`),
# without its tensor objects: a program assembled again builds its first lines once per
# process (docs/decisions.md, "a line's build kept across programs")
_BUILDS: dict[tuple, tuple] = {}
BUILDS_LIMIT = 4096
# an assembly looks for and keeps its first builds only (a program of distinct lines would pay
# the keeping, ~25k instructions, at every line); a program assembled again finds those and
# keeps the next ones
KEEP_BUILDS = 32
_CONTEXTS: dict[tuple, int] = {}  # a build context -> its number (`build_context`)
_CONTEXT_NUMBERS = count()
MAX_TENSOR_BYTES = 256 << 20  # a simulated GM tensor; UB is far smaller on every chip
MAX_BLOCK_DIM = 65535  # blockDim is a 16-bit count on every Ascend launch
MAX_LINES = 2_000_000  # .rept expansion limit: beyond it the program is surely a mistake
LONG_TOKEN = re.compile(r"\S{81,}")
CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f\x85\u2028\u2029]")
LABEL_RE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*:(?!=)")
DOT_HEAD = re.compile(r"\s*\.")  # a directive (.rept, .endr) may start here
HEAD_RE = re.compile(r"\s*(\.?[A-Za-z_][A-Za-z0-9_.]*)")
DECL_RE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\[([^\]]*)\]")
GM_ROLES = ("input", "output", "inout")
DIRECTIVES = (".chip", ".block_dim", ".gm", ".ub", ".param", ".loc", ".rept", ".endr",
              ".end")
# `.param NAME = VALUE`; group 1 is None when the directive is malformed
PARAM_SCAN = re.compile(r"^\s*\.param\b", re.I | re.M)  # is there any .param line at all?
PARAM_RE = re.compile(r"\s*\.param\b(?:\s+([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)\Z)?", re.I | re.S)


class Src:
    """One logical line: its text and where each character came from (for LINE:COL). SEGS,
    (offset, line, col0) from each offset on, is None for the common case of one physical
    line from column 1 (no list per line)."""

    __slots__ = ("text", "line", "rept", "segs", "off")

    def __init__(self, text: str, line: int, rept: int | None = None,
                 segs: list[tuple[int, int, int]] | None = None):
        self.text, self.line, self.rept, self.segs = text, line, rept, segs
        self.off = 0  # a statement's: where its mnemonic starts

    def pos(self, offset: int) -> tuple[int, int]:
        if self.segs is None:
            return self.line, offset + 1
        line, col0, start = self.line, 0, 0
        for off, ln, c0 in self.segs:
            if offset >= off:
                start, line, col0 = off, ln, c0
        return line, col0 + (offset - start) + 1


LOC_RE = re.compile(r'(?:"([^"]+)"|(\S+))\s+([0-9]{1,9})(?:\s+([1-9][0-9]{0,5}))?')


class _Stop(Exception):
    pass


class _Built(NamedTuple):
    """A statement's build, shared by every line of identical text."""

    defn: InstrDef
    hw: tuple[Instruction, ...]
    notes: tuple[str, ...]
    diags: list[tuple[str, int, str]]  # (severity, offset, message)
    source: str


class Assembler:
    # (slots: its state is more than an instance's shared-key dict holds, 30 names, beyond
    # which every attribute is a plain dict's)
    __slots__ = ("path", "table", "memo", "overrides", "params", "_base_dir", "text",
                 "raw_lines", "runs", "distinct_text", "cli_chip", "checks", "diags",
                 "param_lines", "expanded", "errors", "shapes", "plain_text", "tensors",
                 "decls", "labels", "stmts", "runs_extra", "chip_from_text", "block_dim",
                 "block_dim_at", "loc", "locs", "chip_src", "known", "again", "chip",
                 "builder", "out", "cache", "hits", "templated", "flat", "flat_all", "context",
                 "kept", "deferred")

    def __init__(self, text: str, path: str, chip: Chip | str | None, checks: str,
                 overrides: Mapping[str, int] | None = None, memo: bool = True,
                 table: Table = TABLE):
        self.path = path
        self.table = table  # the instructions it knows
        # lines of identical text are read and built once (tests turn it off)
        self.memo = memo
        self.overrides = dict(overrides or {})
        self.params: dict[str, int] = {}
        self._base_dir: Path | None = None  # (`base_dir`)
        self.text = text
        # before anything refers to a line; `runs`: see `logical_lines`
        self.deferred = False  # whether pass 2's statements hold a StatementRun
        self.raw_lines, self.runs, self.distinct_text = _split_lines(text, memo)
        self.cli_chip = chip
        self.checks = checks
        self.diags: list[Diagnostic] = []
        self.param_lines: dict[str, Src] = {}
        self.expanded = 0  # lines made by .rept so far
        self.errors = 0
        # the shapes of lines alike but for tensor indices (isa/rebase.py); None: not looked for
        self.shapes: Shapes | None = Shapes()

    @property
    def base_dir(self) -> Path:
        """The directory a `file` INIT or a `.chip` profile path is relative to, made when
        first needed (a Path is ~1 µs, and most programs name no file)."""
        if self._base_dir is None:
            self._base_dir = Path(self.path).parent if self.path != "<string>" else Path(".")
        return self._base_dir

    # -- diagnostics ------------------------------------------------------------------------
    def diag(self, sev: str, src: Src | tuple[int, int], offset: int, msg: str,
             file: str | None = None) -> None:
        if isinstance(src, Src):
            line, col = src.pos(offset)
            if src.rept is not None:
                msg += f" (in .rept iteration {src.rept})"
        else:
            line, col = src
        self.diags.append(Diagnostic(sev, file or self.path, line, col, _shorten(msg)))
        if sev == "error":
            self.errors += 1
            if self.errors >= MAX_ERRORS:
                raise _Stop

    def error(self, src, offset: int, msg: str) -> None:
        self.diag("error", src, offset, msg)

    # -- driver -----------------------------------------------------------------------------
    def run(self) -> Program:
        try:
            self.declare_params()
            with parameters(self.params):
                srcs = self.logical_lines()
                self.pass1(srcs)
                self.place_ub()
                statements = self.pass2()
        except _Stop:
            statements = ()
        if self.errors:
            raise AssemblyError(self.diags)
        program = Program(self.path, self.chip, self.chip_from_text, self.tensors,
                          tuple(statements), self.labels, self.raw_lines,
                          tuple(d for d in self.diags if d.severity != "error"),
                          self.block_dim, self.block_dim_at, dict(self.params), self.table,
                          runs=self.deferred)
        if statements and self.flat is not None:  # (a second loop over the lines otherwise)
            program.preset_flat(self.flat)
        if statements and self.memo:  # (its runs' decodings kept for it: simulator/decodings)
            program.preset_context(self.build_context())
        return program

    # -- .param NAME = VALUE ----------------------------------------------------------------
    def declare_params(self) -> None:
        """Every `.param` first, in order (a value may use the parameters above it), so a
        parameter can size a tensor or count a .rept anywhere; -D overrides replace values."""
        declared: dict[str, int] = {}
        # the common case, no .param at all, needs no pass over the lines (and no scan of a
        # run's every line: `distinct_text` holds each distinct line once)
        scan = self.distinct_text
        lines = self.raw_lines if (".p" in scan or ".P" in scan) and PARAM_SCAN.search(scan) \
            else ()
        names = [m.group(1) for raw in lines
                 if (m := PARAM_RE.match(strip_comment(raw))) is not None and m.group(1)]
        for i, raw in enumerate(lines):
            text = strip_comment(raw.rstrip("\r"))
            m = PARAM_RE.match(text)
            if m is None:
                continue
            src = Src(text, i + 1)
            name, value = m.group(1), m.group(2)
            if name is None:
                self.error(src, m.start(), ".param takes NAME = VALUE (an integer expression)")
                continue
            if name in declared:
                self.error(src, m.start(1), f"parameter '{name}' is declared twice")
                continue
            if REG_RE.match(name):
                self.error(src, m.start(1), f"'{name}' is a register name, not a parameter")
                continue
            try:
                with parameters(declared):
                    v = parse_int(value.strip(), m.start(2) + len(value) - len(value.lstrip()))
            except LexError as e:
                later = [n for n in names if n not in declared and n != name and
                         re.search(rf"\b{n}\b", value)]
                self.error(src, e.offset, f"parameter '{later[0]}' is declared below this line "
                           "(a .param value uses the parameters above it)" if later
                           else e.message)
                continue
            declared[name] = self.overrides.get(name, v)
            self.param_lines[name] = src
        unknown = [n for n in self.overrides if n not in declared]
        for name in unknown:
            from difflib import get_close_matches  # here: start-up does without difflib
            near = get_close_matches(name, list(declared), 1)
            listed = ", ".join(declared) or "none"
            self.error((1, 1), 0, f"-D {name}: the program declares no parameter '{name}' "
                       f"(its parameters: {listed})" + (f"; did you mean '{near[0]}'?" if near
                                                        else ""))
        self.params = declared

    # -- lines, .rept and continued brackets --------------------------------------------------
    def logical_lines(self) -> list[Src | int | range | tuple]:
        """The logical lines, each a Src — but a line outside .rept whose raw text an earlier
        line had, and which is no directive, is its line number alone (its text:
        `plain_text[raw_lines[line - 1]]`): unrolled code repeats its lines, and the passes
        take such a line without an object (docs/decisions.md, "a repeated line as its
        number"); when the lines after it are the same text (`runs`), they and it are one
        `range` of their line numbers, which the passes take at once ("a run of identical
        lines")."""
        out: list[Src | int | range | tuple] = []
        stack: list[tuple[int, int, list[Src]]] = []  # (.rept count, line, body)
        # a raw line seen before that is no directive: its text without the comment (unrolled
        # code repeats its lines; a directive-free line is one physical line, nothing more)
        plain: dict[str, str] = {}
        self.plain_text = plain
        raw_lines = self.raw_lines
        # a line with bracketed indices outside .rept: its shape (isa/rebase.py), found once
        # here; a plain line of a shape whose first line was plain (no directive or comment)
        # is (its line number, its text, its shape, its indices' digits), no Src
        shapes = self.shapes
        find = shapes.find if self.memo and shapes is not None else None
        runs = self.runs
        i = 0
        n = len(raw_lines)
        while i < n:
            raw = raw_lines[i]
            i += 1
            text = plain.get(raw)
            if text is not None:
                if stack:
                    stack[-1][2].append(Src(text, i))
                    continue
                k = runs.get(i - 1)
                if k is None:
                    out.append(i)
                else:  # this line and the K - 1 after it, the same text: their line numbers
                    out.append(range(i, i + k))
                    i += k - 1
                continue
            # (a line starting with a dot is a directive: no statement shares its shape)
            found = find(raw) if find is not None and not stack and raw[:1] != "." else None
            if found is not None and found[0].line:
                plain[raw] = raw
                out.append((i, raw, *found))
                continue
            text = strip_comment(raw.rstrip("\r"))
            if not DOT_HEAD.match(text):  # (only a .gm/.ub line continues its brackets)
                if self.memo:
                    plain[raw] = text
                if found is not None and len(text) == len(raw):
                    found[0].line = True
                    out.append((i, raw, *found))
                    continue
                (stack[-1][2] if stack else out).append(Src(text, i))
                continue
            src = Src(text, i)
            i = self._continue_brackets(src, i)
            head = text.strip().lower()
            if head.startswith(".rept"):
                arg = text[text.lower().index(".rept") + 5:]
                arg_off = len(text) - len(arg.lstrip())  # the count's column
                try:
                    count = parse_int(arg.strip(), arg_off)
                except LexError as e:
                    self.error(src, e.offset, e.message)
                    count = 0
                if count < 0 or count > 100_000:
                    self.error(src, text.lower().index(".rept"), f".rept count {count} is out "
                               "of range (0..100000)")
                    count = 0
                stack.append((count, src.line, []))
                continue
            if head == ".endr":
                if not stack:
                    self.error(src, text.lower().index(".endr"), ".endr without .rept")
                    continue
                count, rept_line, body = stack.pop()
                self.expanded += count * len(body)
                if self.expanded > MAX_LINES:
                    self.error((rept_line, 1), 0, f".rept expands the program beyond "
                               f"{MAX_LINES} lines")
                    raise _Stop
                expanded = [_substitute(s, k) for k in range(count) for s in body]
                (stack[-1][2] if stack else out).extend(expanded)
                continue
            (stack[-1][2] if stack else out).append(src)
        for _, line, _ in stack:
            self.error((line, 1), 0, ".rept without .endr")
        return out

    def _continue_brackets(self, src: Src, i: int) -> int:
        """A `[` list may continue over lines while the bracket is open."""
        if "[" not in src.text or src.text.count("[") <= src.text.count("]"):
            return i
        if not src.text.lstrip().startswith((".gm", ".ub")) or "=" not in src.text:
            return i
        if src.segs is None:
            src.segs = [(0, src.line, 0)]
        while src.text.count("[") > src.text.count("]") and i < len(self.raw_lines):
            nxt = strip_comment(self.raw_lines[i].rstrip("\r"))
            src.segs.append((len(src.text) + 1, i + 1, 0))
            src.text += " " + nxt
            i += 1
        return i

    # -- pass 1: directives, tensors, labels -------------------------------------------------
    def pass1(self, srcs: list[Src | int | tuple]) -> None:
        self.tensors: dict[str, Tensor] = {}
        self.decls: list[tuple[Src, int, str, dict]] = []
        self.labels: dict[str, int] = {}
        # the statements' lines (`off`: the mnemonic's offset; a repeated line's number: its
        # text's first copy's offset, `known`; a line of a shape, `logical_lines`: its shape's;
        # a run of identical lines, `logical_lines`: its first copy's offset, `known`)
        self.stmts: list[Src | int | range | tuple] = []
        self.runs_extra = 0  # statements beyond one that the runs in `stmts` stand for
        self.chip_from_text = None
        self.block_dim, self.block_dim_at = 1, None
        self.loc: tuple[str, int, int] | None = None  # the last .loc: (file, line, col)
        self.locs: dict[int, tuple[str, int, int]] = {}  # statement index → its .loc
        self.chip_src = None
        # a label-free text seen before: its mnemonic's offset when it is a statement, -1 when
        # blank (unrolled code repeats its lines)
        self.known: dict[str, int] = {}
        # the texts of repeated lines not known when first repeated (a line of a shape's text
        # is not: pass 2 keeps the build of such a line for its copies)
        self.again: set[str] = set()
        self.classify(srcs)
        self.chip = self.resolve_chip(self.chip_src)
        for name in self.labels:
            if name in self.tensors:
                self.error((1, 1), 0, f"'{name}' is both a label and a tensor")

    def classify(self, srcs: list[Src | int | range | tuple]) -> None:
        """Pass 1 over SRCS (`logical_lines`' lines, or a run's taken one by one)."""
        stmts, raw_lines, plain = self.stmts, self.raw_lines, self.plain_text
        known, again = self.known, self.again
        for src in srcs:
            shape = None
            if type(src) is range:  # a run of identical lines (`logical_lines`)
                self.classify_run(src)
                continue
            if type(src) is int:  # a repeated line (`logical_lines`): as its first copy
                text = plain[raw_lines[src - 1]]  # (see logical_lines)
                wo = known.get(text)
                if wo is not None and self.loc is None:
                    if wo >= 0:
                        stmts.append(src)  # (its mnemonic's offset: known[its text])
                    continue
                again.add(text)
                src = Src(text, src)
            elif type(src) is tuple:  # a line of a shape (`logical_lines`): as its first line
                shape = src[2]
                if shape.wo is not None and self.loc is None:
                    stmts.append(src)  # (its mnemonic's offset: its shape's `wo`)
                    continue
                src = Src(src[1], src[0])
            wo = known.get(src.text)
            if wo is not None:
                if wo >= 0:
                    if shape is not None:
                        shape.wo = wo
                    self.statement(src, wo)
                continue
            off = 0
            m = LABEL_RE.match(src.text)
            if m and not src.text.lstrip().startswith("."):
                name = m.group(1)
                if name in self.labels:
                    self.error(src, m.start(1), f"label '{name}' is defined twice")
                self.labels[name] = len(self.stmts) + self.runs_extra
                off = m.end()
            rest = src.text[off:]
            if not rest or rest.isspace():
                if not off and self.memo:
                    known[src.text] = -1
                continue
            h = HEAD_RE.match(rest)
            if not h:
                self.error(src, off + len(rest) - len(rest.lstrip()),
                           f"expected a statement, got '{rest.strip()[:40]}'")
                continue
            word = h.group(1)
            wo = off + h.start(1)
            if word.startswith("."):
                d = word.lower()
                if d == ".chip":
                    self.chip_from_text = rest[h.end():].strip()
                    self.chip_src = (src, off + h.end() + len(rest[h.end():]) -
                                     len(rest[h.end():].lstrip()))
                elif d == ".block_dim":
                    self.block_dim_directive(src, off + h.end(), rest[h.end():])
                elif d in (".gm", ".ub"):
                    self.declare(src, wo, d[1:], off + h.end())
                elif d == ".end":
                    break
                elif d == ".param":
                    pass  # declared before the first pass (declare_params)
                elif d == ".loc":
                    self.set_loc(src, wo, rest[h.end():])
                else:
                    self.error(src, wo, f"unknown directive '{word}' (expected .chip, "
                               ".block_dim, .gm, .ub, .param, .loc, .rept, .endr or .end)" +
                               did_you_mean(d, DIRECTIVES, case_sensitive=False))
                continue
            if not off and self.memo:
                known[src.text] = wo
                if shape is not None:
                    shape.wo = wo
            self.statement(src, wo)

    def classify_run(self, run: range) -> None:
        """Pass 1 over RUN, the line numbers of identical lines: one entry of `stmts` when
        their text is a known statement and no `.loc` is active (as each line alone would
        be), else line by line (the first line alone when it is what makes the text known)."""
        text = self.plain_text[self.raw_lines[run.start - 1]]
        wo = self.known.get(text)
        if wo is None:  # its first copy classifies its text (as a repeated line's)
            self.classify([run.start])
            run = run[1:]
            wo = self.known.get(text)
        if wo is None or self.loc is not None:
            self.classify(list(run))
        elif wo >= 0 and run:
            self.stmts.append(run)
            self.runs_extra += len(run) - 1

    def statement(self, src: Src, off: int) -> None:
        """SRC is the next statement, its mnemonic at OFF."""
        if self.loc is not None:
            self.locs[len(self.stmts) + self.runs_extra] = self.loc
        src.off = off
        self.stmts.append(src)

    def block_dim_directive(self, src: Src, off: int, arg: str) -> None:
        """`.block_dim N`: the launch runs N cores (1..65535; --block-dim overrides it)."""
        at = off + len(arg) - len(arg.lstrip())
        if self.block_dim_at is not None:
            self.error(src, at, ".block_dim is given twice")
            return
        try:
            n = parse_int(arg.strip(), at)
        except LexError as e:
            self.error(src, e.offset, f".block_dim takes the number of cores: {e.message}")
            return
        if not 1 <= n <= MAX_BLOCK_DIM:
            self.error(src, at, f".block_dim {n} is out of range (1..{MAX_BLOCK_DIM} cores)")
            return
        self.block_dim, self.block_dim_at = n, src.pos(at)
    def set_loc(self, src: Src, off: int, rest: str) -> None:
        """`.loc FILE LINE [COL]`: the statements after it come from FILE:LINE (a recording's
        C++ call site): their diagnostics, traces and hot lines name it."""
        m = LOC_RE.fullmatch(rest.strip())
        if m is None:
            self.error(src, off, "expected '.loc FILE LINE [COL]' (FILE in double quotes if it "
                       "has spaces)")
            return
        file = m.group(1) if m.group(1) is not None else m.group(2)
        self.loc = (file, int(m.group(3)), int(m.group(4) or 1))

    def resolve_chip(self, chip_src) -> Chip:
        if self.cli_chip is not None:
            chip = get_chip(self.cli_chip)
            if self.chip_from_text and self.chip_from_text != chip.name and chip_src:
                self.diag("note", chip_src[0], chip_src[1],
                          f"--chip {chip.name} overrides .chip {self.chip_from_text}")
            return chip
        if self.chip_from_text:
            name = self.chip_from_text
            if name.endswith(".toml"):  # a profile path is relative to the program file
                name = str(self.base_dir / name)
            try:
                return get_chip(name)
            except ChipError as e:
                self.error(chip_src[0], chip_src[1], str(e))
        return get_chip(None)

    def declare(self, src: Src, off: int, space: str, pos: int) -> None:
        key = (src.text, pos, space, tuple(self.params.items()))
        parsed = _DECLARED.get(key) if self.memo else None
        if parsed is not None:  # (every check but the state's passed for this text before)
            name, t, count, at, end = parsed
            if name in self.tensors:
                self.error(src, at, f"tensor '{name}' is declared twice")
                return
        else:
            parsed = self.parse_declaration(src, off, space, pos)
            if parsed is None:
                return
            if self.memo:
                if len(_DECLARED) >= DECLARED_LIMIT:
                    _DECLARED.clear()
                _DECLARED[key] = parsed
            name, t, count, at, end = parsed
        self.decls.append((src, end, space, dict(name=name, t=t, count=count,
                                                 col=src.pos(at), tail=src.text[end:])))
        self.tensors[name] = Tensor(name, space, t, count, *src.pos(at))

    def parse_declaration(self, src: Src, off: int, space: str, pos: int
                          ) -> tuple[str, DType, int, int, int] | None:
        """`.SPACE NAME TYPE[COUNT]` from POS → (name, type, count, the name's offset, the
        offset after the count), or None after an error."""
        m = DECL_RE.match(src.text, pos)
        if not m:
            self.error(src, off, f"expected '.{space} NAME TYPE[COUNT] ...'")
            return None
        name, tname = m.group(1), m.group(2)
        if parse_register(name) is not None:
            self.error(src, m.start(1), f"'{name}' is a register name; choose another tensor name")
            return None
        if name in self.tensors:
            self.error(src, m.start(1), f"tensor '{name}' is declared twice")
            return None
        t = lookup(tname)
        if t is None:
            self.error(src, m.start(2), f"unknown type '{tname}'"
                       f"{did_you_mean(tname, [*TYPES, *ALIASES], case_sensitive=False)}")
            return None
        try:
            count = parse_int(m.group(3).strip(), m.start(3))
        except LexError as e:
            self.error(src, e.offset, e.message)
            return None
        if count < 1 or count * t.size > MAX_TENSOR_BYTES:
            self.error(src, m.start(3), f"element count {count} is out of range (1.."
                       f"{MAX_TENSOR_BYTES // t.size} {t.name} elements: a tensor holds at "
                       f"most {MAX_TENSOR_BYTES >> 20} MiB)")
            return None
        if t.nibble and count % 2:  # two int4b_t a byte: a tensor is whole bytes (the Cast page)
            self.error(src, m.start(3), f"an s4 tensor holds an even number of elements (two a "
                       f"byte), got {count}")
            return None
        return name, t, count, m.start(1), m.end()

    # -- UB placement and INIT ---------------------------------------------------------------
    def place_ub(self) -> None:
        chip = self.chip
        limit = chip.ub_bytes - chip.scratch_bytes
        placed: list[tuple[int, int]] = []
        auto: list[tuple[Src, int, dict, str, str]] = []
        for src, pos, space, d in self.decls:
            role, at, init_text, init_off = self.parse_tail(src, pos, space, d)
            if role is None:
                continue
            if space == "ub" and at is not None:
                addr = at[0]
                if addr % 32:
                    self.error(src, at[1], f"UB address {addr:#x} of '{d['name']}' is not "
                               "32-byte aligned")
                if addr < 0 or addr + d["count"] * d["t"].size > chip.ub_bytes:
                    self.error(src, at[1], f"'{d['name']}' at {addr:#x} ({d['count'] * d['t'].size}"
                               f" bytes) does not fit in UB ({chip.ub_bytes} bytes on {chip.name})")
                elif (why := chip.scratch_overlap(d["name"], addr, d["count"] * d["t"].size)):
                    self.diag("warning", src, at[1], why)
                placed.append((addr, addr + d["count"] * d["t"].size))
                self.finish_tensor(src, d, space, role, addr, True, init_text, init_off)
            else:
                auto.append((src, pos, d, role, (init_text, init_off)))
        for src, _pos, d, role, (init_text, init_off) in auto:
            addr = 0
            if self.tensors[d["name"]].space == "ub":
                size = d["count"] * d["t"].size
                addr = _lowest_fit(placed, size, limit)
                if addr is None:
                    self.error(d["col"], 0, f"'{d['name']}' ({size} bytes) does not fit in UB "
                               f"below the scratch area ({limit} bytes on {chip.name})")
                    continue
                placed.append((addr, addr + size))
            self.finish_tensor(src, d, self.tensors[d["name"]].space, role, addr, False,
                               init_text, init_off)

    def parse_tail(self, src: Src, pos: int, space: str, d: dict):
        """`[role] [@ADDR] [= INIT]` after the declaration → (role, (addr, off)|None, init)."""
        tail = src.text[pos:]
        init_text, init_off = None, 0
        if "=" in tail:
            eq = tail.index("=")
            init_text, init_off = tail[eq + 1:], pos + eq + 1
            tail = tail[:eq]
        words = tail.split()
        role, at = "", None
        for w in words:
            woff = pos + tail.index(w)
            if space == "gm" and w.lower() in GM_ROLES and not role:
                role = w.lower()
            elif space == "gm" and w.lower().startswith("data(") and w.endswith(")") \
                    and "data" not in d:
                # data(BYTES): the first BYTES are the program's data, the rest an
                # allocation's slack kernels may touch but no output holds (a C++ recording)
                try:
                    d["data"] = parse_int(w[5:-1], woff + 5)
                except LexError as e:
                    self.error(src, e.offset, e.message)
                    return None, None, None, 0
                if not 0 < d["data"] <= d["count"] * d["t"].size or d["data"] % d["t"].size:
                    self.error(src, woff, f"data({d['data']}) of '{d['name']}': whole "
                               f"{d['t'].name} elements, 1..{d['count'] * d['t'].size} bytes")
                    return None, None, None, 0
            elif space == "ub" and w.startswith("@") and at is None:
                try:
                    at = (parse_int(w[1:], woff + 1), woff)
                except LexError as e:
                    self.error(src, e.offset, e.message)
                    return None, None, None, 0
            else:
                self.error(src, woff, f"unexpected '{w}' in .{space} declaration")
                return None, None, None, 0
        if space == "gm":
            if not role:
                role = "const"
                if init_text is None:
                    self.error(src, pos, f"GM tensor '{d['name']}' needs input, output, inout "
                               "or = INIT")
                    return None, None, None, 0
            if role == "output" and init_text is not None:
                self.error(src, init_off, "an output tensor is zero-initialised; use inout = INIT")
                return None, None, None, 0
        return role, at, init_text, init_off

    def finish_tensor(self, src, d, space, role, addr, explicit, init_text, init_off) -> None:
        init = None
        if init_text is not None:
            key = (init_text, d["t"], d["count"], tuple(self.params.items()))
            init = _EVALUATED.get(key) if self.memo else None
            if init is None:
                init = self.evaluated(src, init_text, init_off, d["t"], d["count"], key)
        elif space == "gm" and role == "output":
            init = Init("zeros", None)
        self.tensors[d["name"]] = Tensor(d["name"], space, d["t"], d["count"], *d["col"],
                                         role=role, addr=addr, explicit=explicit, init=init,
                                         data_bytes=d.get("data", 0))

    def evaluated(self, src: Src, init_text: str, init_off: int, t: DType, count: int,
                  key: tuple) -> Init | None:
        """INIT_TEXT evaluated (None after an error); kept by KEY when its bytes are read-only
        (`random`'s draws, shared by every program: no file is read, nothing writes them)."""
        lead = len(init_text) - len(init_text.lstrip())
        try:
            kind, data = evaluate(init_text, init_off + lead, t, count, self.base_dir)
        except LexError as e:
            self.error(src, e.offset, e.message)
            return None
        init = Init(kind, data)
        if self.memo and kind == "random" and not data.flags.writeable and \
                data.nbytes <= EVALUATED_BYTES // 4:
            if _EVALUATED_HELD[0] + data.nbytes > EVALUATED_BYTES:
                _EVALUATED.clear()
                _EVALUATED_HELD[0] = 0
            _EVALUATED[key] = init
            _EVALUATED_HELD[0] += data.nbytes
        return init

    # -- pass 2: statements ------------------------------------------------------------------
    def pass2(self) -> list[Statement]:
        self.builder = Builder(self.chip, self.tensors, self.labels, self.checks, self.table)
        self.context: int | None = None  # (`build_context`)
        self.kept = 0  # builds kept for later assemblies (`keep_build`)
        self.out: list[Statement | StatementRun] = []
        # a build reads its line's text, the mnemonic's offset and column, nothing else (not
        # pc, line or .rept iteration): lines alike in those three build once, re-stamped.
        # A one-line statement's offset and column follow from its text: the text is its key
        self.cache: dict[str | tuple[str, int, int], _Built] = {}
        # the common hit, a one-line text built to one instruction without diagnostics and
        # no .loc anywhere: what its copies take (body, column, source, family record, notes)
        self.hits: dict[str, tuple] = {}
        # lines differing from a built one only in tensor indices: its build rebased
        # (isa/rebase.py), the template kept by their shape (these, at most TEMPLATES_LIMIT)
        self.templated: list[Shape] = []
        # the program's flat instructions (`Program.flat`), while every statement is one
        # instruction (None: worked out by `flatten` when a run asks)
        self.flat: list[Instruction] | None = []
        self.flat_all = self.flat  # (what is listed, also after a statement of several)
        self.build_lines(self.stmts, 0)
        return self.out

    def build_lines(self, stmts: list[Src | int | range | tuple], pc: int) -> int:
        """Pass 2 over STMTS (pass 1's, or a run's lines one by one), the first at PC; the pc
        after them."""
        builder, out, cache, plain = self.builder, self.out, self.cache, self.hits
        memo, locs, templated = self.memo, self.locs, self.templated
        find = self.shapes.find if memo and self.shapes is not None and not locs else None
        flat_add = self.flat_all.append
        known, raw_lines, texts, again = self.known, self.raw_lines, self.plain_text, self.again
        pc -= 1
        for src in stmts:
            pc += 1
            shape = None
            if type(src) is range:  # a run of identical lines (`pass1`): its copies at once
                hit = plain.get(texts[raw_lines[src.start - 1]])
                if hit is None:  # (its text's build has diagnostics or is several: each line)
                    pc = self.build_lines(list(src), pc) - 1
                    continue
                hw = copies(hit[0], range(pc, pc + len(src)), src)
                out.append(StatementRun(hw, *hit[1:]))
                self.deferred = True
                self.flat_all.extend(hw)
                pc += len(src) - 1
                continue
            if type(src) is tuple:  # a line of a shape (`logical_lines`): no Src when rebased
                line, text, shp, digits = src
                hit = plain.get(text)
                if hit is None and not locs:
                    tpl = shp.template
                    body = None
                    if tpl is not None:
                        source = text.strip()
                        body = tpl.body_for(digits, source if tpl.same else None)
                    if body is not None:
                        if source == body.text:  # one string for both
                            source = body.text
                        st = one_statement(body, pc, line, tpl.col, source, tpl.defn, None,
                                           tpl.notes)
                        out.append(st)
                        flat_add(st._hw)
                        if text in again:
                            plain[text] = (body, tpl.col, source, tpl.defn, tpl.notes)
                        continue
                    shape = (shp, digits)
                if hit is None:
                    src = Src(text, line)
                    src.off = shp.wo
                rept = None
            elif type(src) is int:  # a repeated line (`pass1`): no Src while its text is built
                text = texts[raw_lines[src - 1]]
                hit = plain.get(text)
                line, rept = src, None
                if hit is None:
                    src = Src(text, src)
                    src.off = known[text]
            else:
                hit = plain.get(src.text) if src.segs is None else None
                line, rept = src.line, src.rept
            if hit is not None:  # its first copy's build at this pc and line
                st = one_statement(hit[0], pc, line, hit[1], hit[2], hit[3], rept, hit[4])
                out.append(st)
                flat_add(st._hw)
                continue
            off = src.off
            if shape is None and find is not None and src.segs is None:
                shape = find(src.text)
                if shape is not None:  # a line of a built line's shape: its build, rebased
                    tpl = shape[0].template
                    got = tpl.rebased(shape[1], pc, src.line) if tpl is not None else None
                    if got is not None:
                        source = src.text.strip()
                        if source == got.text:  # one string for both
                            source = got.text
                        out.append(Statement(pc, src.line, tpl.col, source, tpl.defn, (got,),
                                             src.rept, tpl.notes))
                        flat_add(got)
                        plain[src.text] = (got.body, tpl.col, source, tpl.defn, tpl.notes)
                        continue
            if src.segs is None:
                col, key = off + 1, src.text
            else:
                col = src.pos(off)[1]
                key = (src.text, off, col)
            built = cache.get(key) if memo else None
            if built is None:
                keep = memo and src.segs is None and self.kept < KEEP_BUILDS
                built = self.kept_build(key, pc, src.line) if keep else None
                if built is None:
                    built = self.build(builder, src, off, pc)
                    if built is None:
                        continue
                    if keep:
                        self.keep_build(key, built)
                cache[key] = built
                hw = built.hw
                if memo and src.segs is None and len(hw) == 1 and not built.diags and not locs:
                    plain[key] = (hw[0].body, col, built.source, built.defn, built.notes)
                    if shape is not None and shape[0].template is None:
                        tpl = template(hw[0], src.text, self.table.keys, shape[1])
                        if tpl is not None:
                            if len(templated) >= TEMPLATES_LIMIT:
                                for shp in templated:
                                    shp.template = None
                                templated.clear()
                            tpl.col, tpl.defn, tpl.notes = col, built.defn, built.notes
                            shape[0].template = tpl
                            templated.append(shape[0])
            elif len(built.hw) == 1:
                hw = (built.hw[0].at(pc, src.line),)
            else:
                hw = tuple(h.at(pc, src.line) for h in built.hw)
            loc = locs.get(pc) if locs else None
            if loc is not None:
                hw = tuple(h.evolve(file=loc[0], line=loc[1], col=loc[2], col_fixed=True)
                           for h in hw)
            for sev, o, msg in built.diags:
                self.diag(sev, (loc[1], loc[2]) if loc else src, o, msg, loc[0] if loc else None)
            out.append(Statement(pc, src.line, col, built.source, built.defn, hw, src.rept,
                                 built.notes))
            if len(hw) == 1:
                flat_add(hw[0])
            else:
                self.flat = None
        return pc + 1

    def build_context(self) -> int:
        """What a statement's build reads besides its text (chip, checks, table, labels,
        parameters, every tensor's declaration but its INIT's bytes), as a number: one
        hash of it an assembly, not one a line."""
        if self.context is None:
            key = (id(self.chip), self.checks, id(self.table), tuple(self.labels.items()),
                   tuple(self.params.items()),
                   tuple([(t.name, t.space, t.dtype.name, t.count, t.line, t.col, t.role,
                           t.addr, t.explicit, t.init is None, t.dynamic, t.data_bytes,
                           t.alias_of) for t in self.tensors.values()]))
            got = _CONTEXTS.get(key)
            if got is None:
                if len(_CONTEXTS) >= BUILDS_LIMIT:
                    _CONTEXTS.clear()  # (numbers are never reused: a kept build stays its own)
                got = _CONTEXTS[key] = next(_CONTEXT_NUMBERS)
            self.context = got
        return self.context

    def kept_build(self, text: str, pc: int, line: int) -> _Built | None:
        """The build of a one-line statement of TEXT kept by an earlier assembly in the same
        context (`build_context`), its operands naming this program's tensors, at PC and
        LINE; or None."""
        got = _BUILDS.get((text, self.build_context()))
        if got is None:
            return None
        built, names = got[0], got[3]
        tensors = self.tensors
        hw = tuple(_with_tensors(h, [(role, tensors[name]) for role, name in roles], pc, line)
                   for h, roles in zip(built.hw, names, strict=True))
        return _Built(built.defn, hw, built.notes, built.diags, built.source)

    def keep_build(self, text: str, built: _Built) -> None:
        """Keep BUILT, the build of a one-line statement of TEXT, for later assemblies in the
        same context: without its tensor objects (the names say which), when each is this
        program's tensor of its name (an API statement's scratch is not)."""
        self.kept += 1
        tensors = self.tensors
        hw, names = [], []
        for h in built.hw:
            roles = []
            ops = h.operands
            for role, o in ops.items():
                t = o.tensor
                if t is not None:
                    if tensors.get(t.name) is not t:
                        return
                    roles.append((role, t.name))
            hw.append(_with_tensors(h, [(role, None) for role, _ in roles], h.pc, h.line))
            names.append(tuple(roles))
        if len(_BUILDS) >= BUILDS_LIMIT:
            _BUILDS.clear()
        # (the chip and table held: their ids in the key stay theirs while it lives)
        _BUILDS[(text, self.build_context())] = (
            _Built(built.defn, tuple(hw), built.notes, built.diags, built.source), self.chip,
            self.table, tuple(names))

    def build(self, builder: Builder, src: Src, off: int, pc: int) -> _Built | None:
        """The statement at SRC:OFF built (at PC), or None after an error."""
        syn = self.split_statement(src, off)
        if syn is None:
            return None
        try:
            hw, notes = builder.build(syn, pc, src.line)
        except LexError as e:
            loc = self.locs.get(pc)
            if loc is None:
                self.error(src, e.offset, e.message)
            else:
                self.diag("error", (loc[1], loc[2]), 0, e.message, loc[0])
            return None
        if src.segs is not None:  # a `{i}` line: run-time diagnostics name source columns
            hw = [_source_columns(h, src) for h in hw]
        return _Built(syn.defn, tuple(hw), tuple(notes), builder.take_diags(), src.text.strip())

    def _type_modifier(self, src: Src, off: int, head: re.Match, mods: list[str], need: str):
        """The type named by the next modifier (taken off MODS), or None after an error (NEED
        when there is no modifier left)."""
        if not mods:
            self.error(src, off, need)
            return None
        t = lookup(mods[0])
        if t is None:  # an instruction's type is a vector type (bool, f64: memory only)
            names = [*VECTOR_TYPES, *CONVERT_ONLY,
                     *(a for a, n in ALIASES.items() if n in VECTOR_TYPES + CONVERT_ONLY)]
            self.error(src, off + len(head.group(1)) - len(".".join(mods)),
                       f"unknown type '{mods[0]}'"
                       f"{did_you_mean(mods[0], names, case_sensitive=False)}")
            return None
        mods.pop(0)
        return t

    def split_statement(self, src: Src, off: int) -> StatementSyntax | None:
        text = src.text
        m = HEAD_RE.match(text, off)
        parts = m.group(1).split(".")
        defn = self.table.lookup_form(parts[0].lower(), len(parts) > 1)
        if defn is None:
            self.error(src, off, f"unknown mnemonic '{parts[0]}'"
                       f"{did_you_mean(parts[0], self.table.instructions, case_sensitive=False)}")
            return None
        mods = parts[1:]
        op = dtype = src_dtype = None
        if defn.has_op:
            if not mods or mods[0].lower() not in api.COMPARE_OPS:
                self.error(src, off, f"{defn.name} needs a compare operator "
                           f"({' '.join(api.COMPARE_OPS)}), e.g. {defn.name}.lt.f32")
                return None
            op = mods.pop(0).lower()
        if defn.typed:
            dtype = self._type_modifier(src, off, m, mods,
                                        f"{defn.name} needs a type, e.g. {defn.name}.f32")
            if dtype is None:
                return None
        if defn.src_typed or (defn.src_pairs and mods):  # #27: vaxpy.f32.f16's optional one
            src_dtype = self._type_modifier(src, off, m, mods, f"{defn.name} needs a "
                                            "destination and a source type, e.g. "
                                            f"{defn.name}.f16.f32")
            if src_dtype is None:
                return None
        if mods:
            self.error(src, off, f"unexpected modifier '.{mods[0]}' on {defn.name}")
            return None
        body_off = m.end()
        try:
            pieces = split_top(text[body_off:], body_off) if text[body_off:].strip() else []
        except LexError as e:
            self.error(src, e.offset, e.message)
            return None
        positional: list[tuple[str, int]] = []
        keys: dict[str, tuple[str, int]] = {}
        last_key = None
        for piece, poff in pieces:
            km = KEY_RE.match(piece)
            if km:
                key = km.group(1).lower()
                if key in keys:
                    self.error(src, poff, f"duplicate key '{key}'")
                    return None
                keys[key] = (km.group(2).strip(), poff + km.start(2))
                last_key = key
            elif last_key == "stride":
                v, o = keys["stride"]
                keys["stride"] = (v + "," + piece, o)
            elif keys:
                self.error(src, poff, f"positional operand '{piece}' after keyword fields")
                return None
            elif not piece:
                self.error(src, poff, "empty operand")
                return None
            else:
                positional.append((piece, poff))
        return StatementSyntax(defn, op, dtype, positional, keys, off, src.pos(off)[1], src_dtype)


def _substitute(s: Src, k: int) -> Src:
    """A .rept body line with `{i}` replaced by K; columns still point into the source."""
    rept = k if s.rept is None else s.rept
    if "{i}" not in s.text:
        return Src(s.text, s.line, rept, s.segs)
    pieces = s.text.split("{i}")
    starts, o = [], 0
    for piece in pieces:
        starts.append(o)
        o += len(piece) + 3
    grow = len(str(k)) - 3

    def to_new(old: int) -> int:
        return old + grow * sum(1 for st in starts[1:] if st <= old)

    segs = []
    for old in sorted({off for off, _, _ in s.segs or [(0, s.line, 0)]} | set(starts)):
        line, col = s.pos(old)
        segs.append((to_new(old), line, col - 1))
    return Src(str(k).join(pieces), s.line, rept, segs)


def _source_columns(h: Instruction, src: Src) -> Instruction:
    """H with its operand and field columns (offsets into SRC's text, which `{i}` changed)
    turned into offsets into the source line."""
    def at(off: int) -> int:
        return src.pos(off)[1] - 1

    ops = {role: attrs.evolve(o, col=at(o.col)) for role, o in h.operands.items()}
    return h.evolve(operands=ops, cols={k: at(v) for k, v in h.cols.items()})


def _with_tensors(h: Instruction, tensors: list[tuple[str, Tensor | None]], pc: int,
                  line: int) -> Instruction:
    """H at PC and LINE, each operand named in TENSORS (role, tensor) naming that tensor
    instead (a build kept across programs: detached from one program's tensors, attached to
    another's); its body itself when none is named."""
    if not tensors:
        return Instruction(h.body, pc, line)
    ops = h.operands.copy()
    for role, t in tensors:
        o = ops[role]
        ops[role] = Operand(o.kind, o.col, o.text, o.space, o.addr, t, o.value)
    return Instruction(h.body.with_operands(ops), pc, line)


def _shared(lines: list[str]) -> tuple[str, ...]:
    """LINES with one string object for each distinct text: unrolled code repeats its lines."""
    seen: dict[str, str] = {}
    return tuple([seen.setdefault(line, line) for line in lines])


def _split_lines(text: str, runs: bool) -> tuple[tuple[str, ...], dict[int, int], str]:
    """(TEXT's lines, one string object for each distinct text; when RUNS, its runs of
    identical consecutive lines: the index of a run's second line -> the number of lines from
    there to the run's end, and so for its first line; a text holding each distinct line,
    for scans). Runs are looked
    for where a sample of neighbouring lines says they are most of the text, each found by
    C-level comparisons of growing slices (docs/decisions.md, "a run of identical lines")."""
    lines = text.split("\n")
    n = len(lines)
    if not runs or n < 3 or not _mostly_runs(lines):
        return _shared(lines), {}, text
    seen: dict[str, str] = {}
    firsts: list[str] = []
    lens: list[int] = []
    found: dict[int, int] = {}
    i = 0
    while i < n:
        line = lines[i]
        firsts.append(seen.setdefault(line, line))
        k = _run_at(lines, i) if i + 1 < n and lines[i + 1] == line else 1
        lens.append(k)
        if k > 1:
            found[i] = k
            found[i + 1] = k - 1
        i += k
    shared = tuple(chain.from_iterable(map(repeat, firsts, lens)))
    return shared, found, "\n".join(seen)


def _mostly_runs(lines: list[str]) -> bool:
    """Whether most of LINES repeat the line before them, judged on up to 64 pairs spread
    evenly over them (all pairs of a short text)."""
    step = max(1, (len(lines) - 1) // 64)
    firsts = lines[0:-1:step]
    return 2 * sum(map(eq, lines[1::step], firsts)) > len(firsts)


def _run_at(lines: list[str], i: int) -> int:
    """The number of lines from I on equal to LINES[I] (at least 2: the next one is): the
    run's length doubled while each line of it equals the one before, then halved down."""
    n = len(lines)
    line = lines[i]
    k, m = 2, 4  # lines i .. i+k-1 are equal; m: the next length tried
    while i + m <= n and lines[i + k:i + m].count(line) == m - k:
        k, m = m, 2 * m
    hi = min(m, n - i + 1)  # (lines i .. i+hi-1 are not all equal, or run past the end)
    while hi - k > 1:
        mid = (k + hi) // 2
        if lines[i + k:i + mid].count(line) == mid - k:
            k = mid
        else:
            hi = mid
    return k


def _shorten(msg: str) -> str:
    """Keep a diagnostic one readable line when it quotes an enormous token or control
    characters (a lone CR, form feed or U+2028 would break the line)."""
    msg = CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256
                      else f"\\u{ord(m.group()):04x}", msg)
    # both ends of a long token: a long path's file name is at its end
    return LONG_TOKEN.sub(lambda m: f"{m.group()[:24]}...{m.group()[-40:]} "
                          f"({len(m.group())} characters)", msg)


def _lowest_fit(placed: list[tuple[int, int]], size: int, limit: int) -> int | None:
    addr = 0
    for a, b in sorted(placed):
        if addr + size <= a:
            break
        addr = max(addr, (b + 31) // 32 * 32)
    return addr if addr + size <= limit else None


def assemble_statement(text: str, path: str, line: int, col: int, pc: int, chip: Chip,
                       tensors: dict[str, Tensor], checks: str = "error",
                       labels: dict[str, int] | None = None, table: Table = TABLE
                       ) -> tuple[Statement, list[Diagnostic]]:
    """One statement against tensors (and branch LABELS → statement pc) declared elsewhere (the
    streaming entry, the TIK front end): its hardware instructions carry PATH, LINE and COL, the
    caller's position, which every diagnostic names; TABLE: the instructions it knows. Raises
    AssemblyError."""
    shape = shape_of(text)
    if shape is not None:  # a statement of a shape built before here: its build, rebased
        key = (shape[0], path, max(col, 1), checks)
        tpl = _statement_templates(chip, tensors, table).get(key)
        got = tpl.rebased(shape[1], pc, line) if tpl is not None and tpl.names(tensors) \
            else None
        if got is not None:
            return Statement(pc, line, max(col, 1), text.strip(), tpl.defn, (got,), None,
                             tpl.notes), []
    labels = labels or {}
    a = Assembler(text, path, chip, checks, table=table)
    a.chip, a.tensors, a.labels = chip, tensors, labels
    at = (line, max(col, 1))
    src = Src(text, line)
    off = len(text) - len(text.lstrip())
    syn = a.split_statement(src, off) if text.strip() else None
    if syn is None:
        if not a.diags:
            a.error(at, 0, "an empty statement")
        raise AssemblyError([attrs.evolve(d, line=line, column=at[1]) for d in a.diags])
    builder = Builder(chip, tensors, labels, checks, table)
    try:
        hw, notes = builder.build(syn, pc, line)
    except LexError as e:
        raise AssemblyError([Diagnostic("error", path, line, at[1], _shorten(e.message))]) \
            from None
    hw = [h.evolve(file=path, col=at[1], col_fixed=True) for h in hw]
    warnings = [Diagnostic(sev, path, line, at[1], _shorten(msg))
                for sev, _, msg in builder.take_diags()]
    if shape is not None and len(hw) == 1 and not warnings and \
            all(o.kind != "label" for o in hw[0].operands.values()):
        tpl = template(hw[0], text, table.keys)
        if tpl is not None:
            templates = _statement_templates(chip, tensors, table)
            if len(templates) >= TEMPLATES_LIMIT:
                templates.clear()
            tpl.defn, tpl.notes = syn.defn, tuple(notes)
            templates[(shape[0], path, at[1], checks)] = tpl
    return Statement(pc, line, at[1], text.strip(), syn.defn, tuple(hw), None,
                     tuple(notes)), warnings


# the templates of `assemble_statement` (a front end's statements repeat with new indices: a
# TIK loop unrolled by Python), for one set of tensors, chip and table at a time: the
# identities they were built against (a new set starts afresh, so a template never outlives
# the tensors whose addresses it holds by more than one program, and never serves another's)
_TEMPLATES_FOR: list = [None, None, None, {}]


def _statement_templates(chip: Chip, tensors: dict[str, Tensor], table: Table) -> dict:
    now = _TEMPLATES_FOR
    if now[0] is not chip or now[1] is not tensors or now[2] is not table:
        now[:] = [chip, tensors, table, {}]
    return now[3]


def assemble(text: str, path: str | None = None, chip: Chip | str | None = None,
             checks: str = "error", params: Mapping[str, int] | None = None,
             table: Table = TABLE) -> Program:
    """Assemble .vasm TEXT; raise AssemblyError with every static error (at most 20). PARAMS
    overrides `.param` values by name (an undeclared name is an error); TABLE: the instructions
    it knows (pipev's own unless given: isa.table.Table.extended), kept by the Program."""
    # assembly builds many small objects and no reference cycles: the collector's passes over
    # them were a third of assembly time
    paused = gc.isenabled()
    gc.disable()
    try:
        return Assembler(text, path or "<string>", chip, checks, params, table=table).run()
    finally:
        if paused:
            gc.enable()


__all__ = ["assemble", "assemble_statement", "parse_number", "parse_reg_expr", "NAME_RE"]
