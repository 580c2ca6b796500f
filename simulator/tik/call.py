"""One TIK call being recorded: its operands as `.vasm` text, the scalar work that computes
them, the buffers it touches, and the diagnostics it gives at the caller's line."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from isa.types import DType
from simulator.tik.errors import TikError, caller
from simulator.tik.expr import Const, Expr, LowerError, Lowering, as_expr
from simulator.tik.nodes import Op
from simulator.tik.values import Scalar, Tensor

if TYPE_CHECKING:
    from simulator.tik.kernel import Kernel as Tik

TEMPS = tuple(range(24, 32))  # scratch registers of expressions; x1..x23 hold Scalars
ONES = (1 << 64) - 1


class Call:
    def __init__(self, tik: Tik, api: str):
        self.tik, self.api = tik, api
        self.loc = caller()
        self.lines: list[str] = []
        self.low = Lowering(self.lines, list(TEMPS))
        self.reads: set[str] = set()
        self.writes: set[str] = set()
        # a memoised method's full recording (simulator/tik/memo.py), claimed by its first Call
        self.rec, tik.recording = tik.recording, None
        self.emitted = 0  # statements emit() wrote (the rest of LINES: scalar work)

    def __enter__(self) -> Call:
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if isinstance(exc, LowerError):
            raise TikError.at(self.loc, f"{self.api}: {exc}") from None

    def error(self, message: str) -> TikError:
        return TikError.at(self.loc, f"{self.api}: {message}")

    # -- operands ----------------------------------------------------------------------------
    def tensor(self, v, role: str, *, write: bool = False, space: str | None = "ubuf") -> str:
        """A tensor operand's text (`name[I]`, `name[xN+I]`), recording the access."""
        if not isinstance(v, Tensor):
            raise self.error(f"{role} must be a Tensor, got {_what(v)}")
        if space is not None and v.root.scope != space:
            raise self.error(f"{role} '{v.name}' must be in {_scope_name(space)}, not "
                             f"{_scope_name(v.root.scope)}")
        self.tik.alive(v.root.alias_of or v.root, self.loc, self.api)
        (self.writes if write else self.reads).add(v.buffer)
        if self.rec is not None:
            self.rec.uses(v)
        if v.offset.__class__ is Const:  # an offset known when recording (a Python loop's)
            if self.rec is not None:
                return self.rec.operand(v)
            return f"{v.pname}[{v.offset.value}]"
        reg, k = self.low.affine(v.offset)
        if reg is None:
            return f"{v.pname}[{k}]"
        return f"{v.pname}[x{reg}{k:+d}]" if k else f"{v.pname}[x{reg}]"

    def same_type(self, dst: Tensor, **srcs: Tensor) -> DType:
        for role, s in srcs.items():
            if isinstance(s, Tensor) and s.dtype != dst.dtype:
                raise self.error(f"{role} '{s.name}' is {s.dtype} but dst '{dst.name}' is "
                                 f"{dst.dtype} (they must have the same dtype)")
        return dst.t

    def value(self, v, what: str, lo: int, hi: int) -> str:
        """A numeric field: an immediate in LO..HI, or a register the scalar unit computes."""
        if v.__class__ is int and lo <= v <= hi:  # a Python int in range (most calls' fields)
            return str(v)
        try:
            e = as_expr(v)
        except LowerError:
            raise self.error(f"{what} must be an int, a Scalar or an Expr, got {_what(v)}") \
                from None
        c = e.constant()
        if c is None:
            return str(self.low.value(e))
        if not lo <= c <= hi:
            raise self.error(f"{what} {c} is out of range [{lo}, {hi}]")
        return str(c)

    def repeat(self, v) -> str:
        if v.__class__ is int and 1 <= v <= 255:
            return str(v)
        if isinstance(v, int) and not isinstance(v, bool) and v == 0:
            raise self.error("repeat_times 0 as an immediate is not supported (TIK rejects it)")
        return self.value(v, "repeat_times", 1, 255)

    def stride(self, v, what: str, hi: int = 255) -> int:
        if v.__class__ is int and 0 <= v <= hi:  # a Python int in range (most calls' strides)
            return v
        try:
            c = as_expr(v).constant()
        except LowerError:
            raise self.error(f"{what} must be an int, got {_what(v)}") from None
        if c is None:
            raise self.error(f"{what} must be known when the kernel is built (pipev's strides "
                             "are immediates)")
        if not 0 <= c <= hi:
            raise self.error(f"{what} {c} is out of range [0, {hi}]")
        return c

    def mask_keys(self, mask, t: DType, n: int | None = None) -> str:
        """TIK's mask argument as an API statement's mask keys: an int (contiguous: the first
        MASK elements, `mask=`) or [mask_h, mask_l] (bitwise, `mask_hi=`, `mask_lo=`); the
        statement applies the mask rules (isa/api.py). N: the elements of a repeat (N(T)
        unless a conversion says otherwise)."""
        n = n or t.per_repeat
        if isinstance(mask, (list, tuple)):
            if len(mask) != 2:
                raise self.error(f"a bitwise mask is [mask_h, mask_l], got {len(mask)} values")
            hi = self.value(mask[0], "mask_h", 0, ONES)
            lo = self.value(mask[1], "mask_l", 0, ONES)
            if n <= 64 and hi != "0":
                raise self.error(f"mask_h must be 0 when a repeat has {n} elements, got {hi}")
            return f"mask_hi={hi}, mask_lo={lo}"
        if isinstance(mask, Expr) and as_expr(mask).constant() is None:
            return f"mask={self.low.value(mask)}"
        return f"mask={self.value(mask, 'mask', 1, n)}"

    def immediate(self, v, t: DType, role: str = "scalar") -> str:
        """A vector instruction's scalar: a number, or a Scalar or expression — an immediate
        when its value is known when the kernel is built, else a register the vector
        instruction reads when it issues (converted to T by the scalar unit if need be)."""
        if isinstance(v, Scalar):
            self.tik.alive(v, self.loc, self.api)
            # inside for_range / if_scope the register, always: a set_as later in the loop
            # body changes the value the next iteration sees
            if v.value is None or self.tik.nested:
                return self.register(v, t, role)
            v = v.value
        if isinstance(v, Expr):
            c = None if v.ftype is not None or not isinstance(v, (Expr,)) else \
                _constant(v)
            if c is None:
                return self.register(v, t, role)
            v = c
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.number)):
            raise self.error(f"{role} must be a number or a Scalar, got {_what(v)}")
        if t.is_float:
            return repr(float(v))
        if float(v) != int(v):
            raise self.error(f"{role} {v} is not an integer ({t.name} operand)")
        return str(int(v))

    def register(self, v: Expr, t: DType, role: str) -> str:
        """V in a register holding T's bits: a Scalar of T's kind (an integer Scalar for an
        integer T: its low bytes), else computed into a scratch register."""
        if isinstance(v, Scalar) and ((v.ftype is None) == t.is_int) and \
                (t.is_int or v.ftype.name == t.name):
            return f"x{v.reg}"
        if not (t.is_int or t.is_float):
            raise self.error(f"{role}: a {t.name} operand takes a number")
        reg = self.low.temp()
        if t.is_int:
            if v.ftype is not None:
                raise self.error(f"{role}: float Scalar '{getattr(v, 'name', '')}' for a "
                                 f"{t.name} operand (use scalar_conv)")
            self.low.into(reg, v)
        else:
            self.low.float_into(reg, v, t)
        return f"x{reg}"

    # -- the end ---------------------------------------------------------------------------
    def emit(self, text: str) -> None:
        self.lines.append(text)
        self.emitted += 1

    def record(self, pipe: str | None) -> None:
        reads, writes = frozenset(self.reads), frozenset(self.writes)
        lines = self.lines if self.rec is None else \
            self.rec.lines(self.lines, self.emitted, self.api, pipe, reads, writes)
        self.tik.record(Op(self.loc, self.api, lines, pipe, reads, writes))


def _scope_name(scope: str) -> str:
    return {"ubuf": "scope_ubuf", "gm": "scope_gm"}.get(scope, scope)


def _what(v) -> str:
    if isinstance(v, Tensor):
        return f"Tensor '{v.name}'"
    if isinstance(v, Scalar):
        return f"Scalar '{v.name}'"
    return f"{type(v).__name__} {v!r}"[:60]


def _constant(e: Expr) -> int | None:
    try:
        return e.constant()
    except LowerError:
        return None
