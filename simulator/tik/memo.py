"""A call site's TIK call recorded once and replayed (docs/decisions.md, "TIK call memo").

A Python loop calls one TIK method from one line again and again, with the same tensors,
dtypes and numbers, only the tensors' offsets moving (`t.vec_cmpv_lt(m[i * 16], a[i * 128],
...)`). The first such call is recorded in full (every check, the statement's text); its text
is kept as a template whose only holes are those offsets. A later call from the same site whose
arguments match it field for field (the key, below) is recorded as that Entry and the new
offsets (nodes.Replays: a Python loop's run of them is one node), which the build turns into
the statement the full recording would give: the same lines, the same diagnostics (none: a
call that fails is never kept), at the same FILE:LINE:COL.

The key is the method (one line may call several: `getattr(t, name)(...)`, or a helper of
pipev's whose calls are all at the user's line) and what its recording reads besides the
offsets: each argument's class and value (a Python int, float, str, bool, None; a list or tuple
of them), a tensor view's root buffer, dtype and shape (its offset a number known when
recording), a CMPMASK handle's class; and whether the call is inside a for_range / if_scope.
Anything else (a Scalar, whose value a set_as changes; an Expr; a numpy number; a keyword
argument) is recorded in full every time. Once an Entry is replayed, the next call at the
same place of the same frame's code is checked against it first (`checker`: what the key holds,
read argument by argument, without making the key).
Only methods whose recording reads their tensors' offsets through `Call.tensor` alone, makes one
Call and records one Op are wrapped (`memoised_api`); a recording that did anything else (scalar
work, a tensor that is not an argument) is not kept.
"""

from __future__ import annotations

import functools
import inspect
import re
import sys

from simulator.tik.errors import api, caller, positional, user_site
from simulator.tik.expr import Const
from simulator.tik.nodes import Replays
from simulator.tik.regalloc import REG
from simulator.tik.values import CmpMask, Tensor

PLAIN = frozenset({int, float, str, bool, type(None)})
HOLE = "\x00"  # brackets an offset's slot number in a recording's text (no statement has it)
_HOLES = re.compile(HOLE + r"(\d+)" + HOLE)
LINES = "\x1f"  # joins an Op's lines into one template (no statement has it)
MAX_KEYS = 8  # recordings a call site may try to keep; then its other keys: in full, plain
MAX_ENTRIES = 4096  # kept per kernel; then all forgotten (scripts that generate call sites)


class Entry:
    """One site's recording for one key: the Op's fields; its lines joined by LINES into one
    %-template whose fields, in text order, are the offsets of the tensor arguments ORDER
    names (the Kth tensor of the arguments: None, each in turn); the scopes its tensors live
    in."""

    __slots__ = ("api", "pipe", "template", "lines", "order", "reads", "writes", "lives",
                 "loc", "code", "method", "nested", "check")

    def __init__(self, api, pipe, template, lines, order, reads, writes, lives):
        self.api, self.pipe, self.template, self.lines = api, pipe, template, lines
        self.order, self.reads, self.writes, self.lives = order, reads, writes, lives
        self.loc = None  # the call site (its Loc: the key holds its id)
        # the call site's code object, the method and nested (the key's), once replayed from
        # a user's frame (Memo.last); the arguments' check there (`checker`; False: none)
        self.code = self.method = self.nested = None
        self.check = None

    def text(self, offsets: tuple[int, ...]) -> list[str]:
        """The Op's lines at OFFSETS (the tensor arguments' offsets, in argument order)."""
        order = self.order
        text = self.template % (offsets if order is None else
                                tuple([offsets[k] for k in order]))
        return [text] if self.lines == 1 else text.split(LINES)


class Recording:
    """What one full recording of a memoised method notes for its Entry (Call reads it)."""

    def __init__(self, args: tuple):
        self.args = args
        self.slots: list[int] = []  # argument index of each hole, in hole order
        self.lives: list = []
        self.kept = True  # False: something the key does not cover was read
        self.entry: Entry | None = None

    def operand(self, v: Tensor) -> str:
        """V's text (its offset a number known now) with a hole for the offset when V is an
        argument, else as it is (and nothing is kept). An object given twice (`x, x`) is read
        from its first place: the key says which arguments are one object, so a replay has the
        same one in both."""
        at = next((k for k, a in enumerate(self.args) if a is v), None)
        if at is None:
            self.kept = False
            return f"{v.pname}[{v.offset.value}]"
        self.slots.append(at)
        return f"{v.pname}[{HOLE}{len(self.slots) - 1}{HOLE}]"

    def uses(self, v: Tensor) -> None:
        """V is an operand: the scope its buffer lives in is checked at every replay."""
        if not isinstance(v, Tensor) or v.offset.__class__ is not Const:
            self.kept = False
            return
        life = (v.root.alias_of or v.root).life
        if life is not None:
            self.lives.append(life)

    def lines(self, lines: list[str], emitted: int, api: str, pipe, reads, writes) -> list[str]:
        """The recorded LINES with their holes filled; an Entry kept when nothing but EMITTED
        statements were written (no scalar work) and every operand was an argument."""
        joined = LINES.join(lines)
        holes = [int(m.group(1)) for m in _HOLES.finditer(joined)]  # slots in text order
        template = _HOLES.sub("%s", joined.replace("%", "%%"))
        tensors = []  # each tensor object's first place, in argument order (as key() lists
        # their offsets)
        for k, a in enumerate(self.args):
            if isinstance(a, Tensor) and not any(a is self.args[j] for j in tensors):
                tensors.append(k)
        order = tuple(tensors.index(self.slots[h]) for h in holes)
        entry = Entry(api, pipe, template, len(lines),
                      None if order == tuple(range(len(tensors))) else order, reads, writes,
                      tuple(self.lives))
        if self.kept and len(lines) == emitted and not REG.search(joined):
            self.entry = entry  # (a replay's lines name no virtual register: regalloc.py
            # rewrites recorded Ops only)
        return entry.text(tuple([self.args[k].offset.value for k in tensors]))


def key(args: tuple, offsets: list[int]) -> tuple | None:
    """ARGS' key (module docstring), or None when a recording could read more than it: their
    classes, then each one's value (a tensor's root, dtype and shape; a float by its repr:
    -0.0 == 0.0, but they are different immediates). The tensors' offsets go to OFFSETS."""
    out = [tuple(map(type, args))]  # the classes say which fields follow: flat is unambiguous
    add = out.append
    tensors: list[Tensor] = []
    for a in args:
        cls = a.__class__
        if cls is int:
            add(a)
        elif isinstance(a, Tensor):
            tensors.append(a)
            kind = a.kind  # an int-indexed view's root, dtype and shape, as one object
            if kind is not None:
                offsets.append(a.at)
                add(kind)
                continue
            offset = a.offset
            if offset.__class__ is not Const:
                return None
            offsets.append(offset.value)
            add(a.root)
            add(a.dtype)
            add(a.shape)
        elif cls is str or cls is bool or a is None:
            add(a)
        elif cls is float:
            add(repr(a))
        elif cls is list or cls is tuple:  # a bitwise mask [mask_h, mask_l]
            if not all(x.__class__ in PLAIN for x in a):
                return None
            add(tuple((x.__class__, repr(x)) for x in a))
        elif cls is not CmpMask:  # any CMPMASK handle: the class says it
            return None
    if len(tensors) > 1 and len(set(tensors)) < len(tensors):  # (hashed by identity)
        return _aliased(args, offsets)  # one view given twice (`x, x`): which are one object
    return tuple(out)


def _aliased(args: tuple, offsets: list[int]) -> tuple | None:
    """The key of ARGS where one tensor object is given more than once: the arguments with
    each repeat in place of the tensor, then, for each, where it was first given."""
    first = {}
    unique, marks = [], []
    for k, a in enumerate(args):
        if isinstance(a, Tensor) and id(a) in first:
            unique.append(None)
            marks.append((k, first[id(a)]))
        else:
            if isinstance(a, Tensor):
                first[id(a)] = k
            unique.append(a)
    offsets.clear()
    inner = key(tuple(unique), offsets)
    return None if inner is None else (inner, tuple(marks))


class Memo:
    """A kernel's kept recordings (Kernel.memo): (id(Loc), the method, nested, the arguments'
    key) → Entry; id(Loc) → the recordings the site tried to keep. A replay records into the
    kernel's block stack and clock (the Kernel's own objects, read here without the Kernel:
    its attribute lookups go through `Instructions.__getattr__`'s hook, a tenth of a call)."""

    __slots__ = ("kernel", "entries", "tries", "last", "stack", "registers")

    def __init__(self, kernel):
        self.kernel = kernel
        self.entries: dict[tuple, Entry] = {}
        self.tries: dict[int, int] = {}
        # a user frame's bytecode offset → the Entry last replayed there (its code object
        # says which frame's): the next call there is checked against it first (`checker`),
        # without the key
        self.last: dict[int, Entry] = {}
        self.stack, self.registers = kernel.stack, kernel.registers

    def replay(self, entry: Entry, offsets: tuple[int, ...]) -> None:
        """A call replaying ENTRY at OFFSETS: one more call of the block's last node when that
        replays ENTRY too (a Python loop's), else a new node."""
        nodes = self.stack[-1].nodes
        last = nodes[-1] if nodes else None
        if last.__class__ is not Replays or last.entry is not entry:
            self.kernel.record(Replays(entry, offsets))
            return
        last.offsets.append(offsets)
        self.registers.clock += 1  # its clock: the node's stamp + its place in the node

    def close(self) -> None:
        """The kernel is built: nothing is replayed (a call recorded after it is an error at
        its line, Kernel.record's)."""
        self.forget()

    def forget(self) -> None:
        self.entries.clear()
        self.tries.clear()
        self.last.clear()


def memoised_api(method):
    """`api(METHOD)` (errors.py) for a TIK call recording one Op, its tensors read through
    Call.tensor, with its recordings kept per call site and replayed (module docstring)."""
    checked = api(method)
    least, most = positional(inspect.signature(method))

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        memo = self.memo
        frame = _getframe(1)
        entry = memo.last.get(frame.f_lasti)
        if entry is not None and entry.code is frame.f_code and entry.method is method and \
                entry.nested is (len(memo.stack) > 1) and not kwargs:
            # the site's last Entry: the same key when its check passes (a Python loop's)
            offsets = entry.check(args)
            if offsets is not None and \
                    not (entry.lives and any(life.ended for life in entry.lives)):
                memo.replay(entry, offsets)
                return None
        offsets: list[int] = []
        k = key(args, offsets) if not kwargs and least <= len(args) <= most else None
        if k is None:
            return checked(self, *args, **kwargs)
        loc = caller()
        # the site, the method (one line may call several: `getattr(t, name)(...)`, a
        # helper's calls at its caller's line), nested, the arguments
        nested = len(memo.stack) > 1
        k = (id(loc), method, nested, k)
        entry = memo.entries.get(k)
        if entry is not None and entry.loc is loc and \
                not (entry.lives and any(life.ended for life in entry.lives)):
            memo.replay(entry, tuple(offsets))
            if user_site(frame):  # (a helper of pipev's frame is not the call site)
                _remember(memo, entry, frame, method, nested, args)
            return None
        return _record(self, loc, k, method, args)

    return wrapper


_getframe = sys._getframe


def _remember(memo: Memo, entry: Entry, frame, method, nested: bool, args: tuple) -> None:
    """ENTRY, just replayed with ARGS from FRAME (a user's) calling METHOD, NESTED or not, is
    checked first at the frame's next call there (when its key can be checked without making
    it: `checker`)."""
    if entry.check is None:
        entry.check = checker(args) or False
        entry.code, entry.method, entry.nested = frame.f_code, method, nested
    if entry.check is not False and entry.code is frame.f_code:
        memo.last[frame.f_lasti] = entry


def checker(args: tuple):
    """A function of a call's arguments that gives their tensors' offsets (as `key` lists
    them) when their key is ARGS' key, else None; None when ARGS' key cannot be checked so
    (a list, one tensor given twice). Made once an Entry (Python source: a call's arguments
    read one by one, no loop over them), it checks what the key holds: each argument's
    class and value (the same object passes at once); an int-indexed view's class (its
    kind's: one class a kind, `Tensor._view_class`; its offset the int `at`), any other
    tensor by identity (its root, dtype, shape and offset are its own); and that no tensor
    is given twice (only two views of one class can be one object)."""
    names = [f"a{k}" for k in range(len(args))]
    env: dict = {"CmpMask": CmpMask}
    tests, tensors, views = [], [], {}
    for k, (n, a) in enumerate(zip(names, args, strict=True)):
        cls = a.__class__
        v = env[f"V{k}"] = a
        if isinstance(a, Tensor):
            if a.offset.__class__ is not Const or any(a is t for t in tensors):
                return None
            tensors.append(a)
            if a.kind is None:
                tests.append(f"{n} is V{k}")
                continue
            env[f"C{k}"] = cls
            tests += [f"{n}.__class__ is C{k}"] + \
                [f"{n} is not {m}" for m in views.setdefault(cls, [])]
            views[cls].append(n)
        elif cls is int or cls is str:
            tests.append(f"({n} is V{k} or {n}.__class__ is {cls.__name__} and {n} == V{k})")
        elif cls is bool or v is None:
            tests.append(f"{n} is V{k}")
        elif cls is float:
            env[f"R{k}"] = repr(a)
            tests.append(f"({n} is V{k} or {n}.__class__ is float and repr({n}) == R{k})")
        elif cls is CmpMask:
            tests.append(f"{n}.__class__ is CmpMask")
        else:
            return None
    offsets = "".join((f"{names[k]}.at, " if a.kind is not None else
                       f"{a.offset.value}, ") for k, a in enumerate(args)
                      if isinstance(a, Tensor))
    source = (f"def check(args):\n"
              f"    try:\n        {''.join(n + ', ' for n in names)}= args\n"
              f"    except ValueError:\n        return None\n"
              f"    if {' and '.join(tests) or 'True'}:\n        return ({offsets})\n"
              f"    return None\n")
    exec(source, env)  # noqa: S102 - text made here from names and the argument numbers
    return env["check"]


def _record(tik, loc, k: tuple, method, args: tuple):
    """METHOD's full recording, its Entry kept under K when it recorded one Op and returned
    None. A site records at most MAX_KEYS with a Recording (kept or not: a recording that
    cannot be kept pays for its template); then its other keys are recorded in full, plain."""
    memo = tik.memo
    tries = memo.tries.get(id(loc), 0)
    if tries >= MAX_KEYS:
        return method(tik, *args)
    memo.tries[id(loc)] = tries + 1
    rec = tik.recording = Recording(args)
    clock = tik.registers.clock
    try:
        result = method(tik, *args)
    finally:
        tik.recording = None
    if result is None and rec.entry is not None and tik.registers.clock == clock + 1:
        if len(memo.entries) >= MAX_ENTRIES:
            memo.forget()
        rec.entry.loc = loc
        memo.entries[k] = rec.entry
    return result
