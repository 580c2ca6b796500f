"""#29: the rest of the scalar unit (docs/semantics.md §7.1): signed division and remainder,
loads and stores between registers and UB, and float arithmetic on registers holding a float
type's bits. Register-only instructions are effects (semantics/scalar.py), so the fast loop runs
them too; a load or store is an access by S the init and race checks see (isa.decode.ScalarAccess).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from isa.decode import ScalarAccess
from isa.program import Instruction, RegExpr
from isa.table import ROUND_MODES
from isa.types import TYPES, DType
from simulator.machine import Machine
from simulator.problems import Fault, Problem, fault
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued
from simulator.semantics.scalar import M64, _writing, signed

S32 = TYPES["s32"]
F32 = TYPES["f32"]


# -- division ------------------------------------------------------------------------------
def _quotient(a: int, b: int) -> int:
    """a / b truncated toward zero (C's, the scalar unit's), a and b signed."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


DIVIDE: dict[str, Callable[[int, int], int]] = {
    "div": _quotient, "rem": lambda a, b: a - _quotient(a, b) * b}


def _div(instr: Instruction):
    o = instr.operands
    d, a, b, fn = o["d"].value, o["a"].value, o["b"].value, DIVIDE[instr.name]
    breg = b.reg if isinstance(b, RegExpr) else None
    bconst = signed(b & M64) if breg is None else 0

    def effect(x: list[int]) -> bool:
        vb = signed(x[breg]) if breg is not None else bconst
        if vb == 0:
            raise fault("divide", f"{instr.name} by zero", tail=" (the divisor register is 0)"
                        if breg is not None else "")
        x[d] = fn(signed(x[a]), vb) & M64
        return False
    return effect


# -- float registers -------------------------------------------------------------------------
def _float(bits: int, t: DType):
    """The low bytes of a register as a numpy scalar of float type T."""
    raw = np.array([bits & ((1 << (8 * t.size)) - 1)], dtype=t.raw)
    return raw.view(t.numeric)[0]


def _bits(v, t: DType) -> int:
    return int(np.array([v], dtype=t.numeric).view(t.raw)[0])


FLOAT_OPS = {"fadd": np.add, "fsub": np.subtract, "fmul": np.multiply, "fdiv": np.divide,
             "fmax": np.maximum, "fmin": np.minimum}


def _falu(instr: Instruction):
    o = instr.operands
    d, a, b, t, fn = o["d"].value, o["a"].value, o["b"].value, instr.dtype, \
        FLOAT_OPS[instr.name]

    def effect(x: list[int]) -> bool:
        with np.errstate(all="ignore"):  # IEEE results: inf, NaN, no exception
            x[d] = _bits(fn(_float(x[a], t), _float(x[b], t)), t)
        return False
    return effect


def _fconv(instr: Instruction):
    """itof / ftoi / ftof through vconv's exact conversion (semantics/convert.py)."""
    from simulator.semantics.convert import convert

    o = instr.operands
    d, a, t = o["d"].value, o["a"].value, instr.dtype
    given = instr.fields.get("round")
    if instr.name == "itof":
        src, dst, mode = S32, t, "rint"
    elif instr.name == "ftoi":
        src, dst, mode = t, S32, "trunc"
    else:  # ftof: f32 bits → f16/bf16, or f16/bf16 bits → f32
        src, dst, mode = (F32, t, "rint") if t.size == 2 else (TYPES["f16"], F32, "none")
    if given is not None:
        mode = ROUND_MODES[given]

    def effect(x: list[int]) -> bool:
        raw = np.array([x[a] & ((1 << (8 * src.size)) - 1)], dtype=src.raw)
        out = int(convert(raw, src, dst, mode)[0])
        if dst is S32:
            out = signed(out if out < 1 << 31 else out - (1 << 32))
        x[d] = out & M64
        return False
    return effect


MISC: dict[str, Callable] = {
    "smax": lambda a, b: max(signed(a), signed(b)),
    "smin": lambda a, b: min(signed(a), signed(b)),
    "sabs": lambda a, _: abs(signed(a)),
    "clz": lambda a, _: 64 - a.bit_length(),
    "popcnt": lambda a, _: a.bit_count()}


def _smisc(instr: Instruction):
    o = instr.operands
    d, a, fn = o["d"].value, o["a"].value, MISC[instr.name]
    b = o["b"].value if "b" in o else 0
    breg = b.reg if isinstance(b, RegExpr) else None

    def effect(x: list[int]) -> bool:
        x[d] = fn(x[a], x[breg] if breg is not None else b & M64) & M64
        return False
    return effect


def _funary(instr: Instruction):
    o = instr.operands
    d, a, t = o["d"].value, o["a"].value, instr.dtype
    if instr.name == "fabs":
        keep = (1 << (8 * t.size - 1)) - 1

        def effect(x: list[int]) -> bool:
            x[d] = x[a] & keep
            return False
        return effect

    def effect(x: list[int]) -> bool:  # fsqrt: numpy's, correctly rounded in T
        with np.errstate(all="ignore"):
            x[d] = _bits(np.sqrt(_float(x[a], t)), t)
        return False
    return effect


div, falu, fconv, smisc, funary = (_writing(f) for f in (_div, _falu, _fconv, _smisc, _funary))


# -- loads and stores -------------------------------------------------------------------------
def _access(ex: Context, instr: Instruction, write: bool) -> ScalarAccess:
    addrs, _ = ex.resolve(instr)
    addr, t = addrs["elem"], instr.dtype
    o = instr.operands["elem"]
    gm = o.tensor.name if o.space == "gm" else None
    space = ex.m.space(gm)
    where = f"GM tensor {gm}" if gm else "UB"
    if addr % t.size:
        ex.check(instr, Problem("align", f"{instr.name}.{t.name} address {addr:#x}",
                                f" is not {t.size}-byte aligned", role="elem", at_value=True))
    if not 0 <= addr <= space.size - t.size:
        raise Fault(Problem("bounds", f"{instr.name} address {addr:#x}",
                            f" is outside {where} ({space.size} bytes)", role="elem",
                            at_value=True))
    tensor = o.tensor
    if gm is not None:
        return ScalarAccess(instr, addr, t.size, write, gm)
    if tensor is not None and not tensor.addr <= addr <= tensor.addr + tensor.nbytes - t.size:
        ex.check(instr, Problem("footprint", f"{instr.name} element at {addr:#x} is outside "
                                f"tensor {tensor.name} ({tensor.nbytes} bytes at "
                                f"{tensor.addr:#x})", role="elem"))
    return ScalarAccess(instr, addr, t.size, write)


def load(ex: Context, instr: Instruction) -> Issued:
    return Issued("S", _access(ex, instr, False), _load, instr.operands["d"].value)


def store(ex: Context, instr: Instruction) -> Issued:
    return Issued("S", _access(ex, instr, True), _store, ex.m.x[instr.operands["s"].value])


def _load(m: Machine, op: ScalarAccess, d: int, _lo, _hi) -> None:
    t = op.instr.dtype
    raw = m.space(op.gm)[op.addr:op.addr + op.size].copy()
    v = int(raw.view(t.numeric)[0]) if t.is_int else int(raw.view(t.raw)[0])
    m.x[d] = v & M64


def _store(m: Machine, op: ScalarAccess, value: int, _lo, _hi) -> None:
    m.space(op.gm)[op.addr:op.addr + op.size] = np.frombuffer(
        (value & ((1 << (8 * op.size)) - 1)).to_bytes(op.size, "little"), np.uint8)


ISSUE = {"div": div, "falu": falu, "fconv": fconv, "smisc": smisc, "funary": funary,
         "scalar_load": load, "scalar_store": store}
