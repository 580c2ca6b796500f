"""Issue 34: the CTRL special register (control register) of an AI Core, as the SetCtrlSpr page
and the C API's asc_set_ctrl page describe it (docs/semantics.md §15.4, docs/decisions.md).

64 bits, per core, machine state. `set_ctrl LO, HI, VALUE` writes CTRL[HI:LO] (SetCtrlSpr,
asc_set_ctrl), `reset_ctrl LO, HI` gives those bits their default (ResetCtrlSpr); GetCtrlSpr /
asc_get_ctrl read it. The bits pipev's semantics read are the saturation ones below.
"""

from __future__ import annotations

BITS = 64
# the bits whose meaning the pages give (Ascend 950's table 3; CTRL[49], CTRL[56]: the C API's)
ATOMIC_TYPE = (6, 8)  # DMA atomic operation enable and type
ATOMIC_OP = (9, 10)  # its ADD / MAX / MIN
MMAD_HIF8 = 45  # e4m3 operands of Mmad read as hifloat8
SAT_FLOAT = 48  # float compute and float-to-float conversions: 0 saturate, 1 keep inf / NaN
DATACACHE = 49  # scalar UB reads through the data cache
SAT_NAN_FP8 = 50  # saturating conversions to the fp8 types: 0 NaN gives 0.0, 1 NaN kept
SAT_INT_COMPUTE = 53  # integer compute: 0 wrap (truncate), 1 saturate
MASK_MODE = 56  # the memory-based unit's mask mode (counter)
SAT_TO_INT = 59  # float-to-int and int-to-int conversions: 0 saturate, 1 truncate
SAT_GLOBAL = 60  # 1: CTRL[48] / CTRL[59] decide every instruction; 0: each instruction's own
# the page's table 3 defaults (ResetCtrlSpr's values): CTRL[60] = 1, every other bit 0
DEFAULT = 1 << SAT_GLOBAL
# CTRL when a kernel starts: the defaults (InitSocState restores them), except CTRL[48], which
# InitSocState leaves as the runtime set it: 1, the INF/NaN mode pipev's float arithmetic
# computes in (docs/decisions.md)
LAUNCH = DEFAULT | 1 << SAT_FLOAT


def field(value: int, lo: int, hi: int) -> int:
    """VALUE's bits [HI:LO], shifted down."""
    return value >> lo & ((1 << (hi - lo + 1)) - 1)


def with_field(value: int, lo: int, hi: int, bits: int) -> int:
    """VALUE with bits [HI:LO] replaced by BITS (BITS must fit)."""
    mask = ((1 << (hi - lo + 1)) - 1) << lo
    return (value & ~mask) | (bits << lo & mask)


def saturates(ctrl: int, to_integer: bool, own: bool) -> bool:
    """Whether a conversion that takes a SatMode saturates: with CTRL[60] = 1 the global bit
    (CTRL[59] for an integer destination, CTRL[48] for a float one: 0 saturates) decides,
    with CTRL[60] = 0 the instruction's own mode OWN (the Cast page's table 5)."""
    if not ctrl >> SAT_GLOBAL & 1:
        return own
    return not ctrl >> (SAT_TO_INT if to_integer else SAT_FLOAT) & 1
