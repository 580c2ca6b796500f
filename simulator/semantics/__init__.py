"""Instruction semantics: one small function per family over shared helpers (common.py).

`SEMANTICS[family name](executor, instr)` decodes and checks one hardware instruction and
returns an `Issued` (the body that takes effect and what the event reports). Vector families
share one issuing path and differ only in their body, fn(machine, vop, scalar, lo, hi), which
executes repeats [lo, hi). Bodies compute results and nothing else. `register` /
`register_vector` add a family (a new instruction shape: isa/families.py plus its semantics).
"""

from collections.abc import Callable

from simulator.semantics import cmpmask, dma, registers, scalar, sync, vector
from simulator.semantics.arith import PREPARE as ARITH_PREPARED
from simulator.semantics.arith import binary, unary, unary_scalar
from simulator.semantics.compare import vcmp, vcmpv, vcmpvs
from simulator.semantics.issued import HALT, Issued
from simulator.semantics.move import dup, vcopy
from simulator.semantics.select import prepare_vsel, vsel

SEMANTICS: dict[str, Callable] = {
    "set_cmpmask": cmpmask.issue, "get_cmpmask": cmpmask.issue, "dma": dma.issue,
    "dma_pad": dma.issue_pad,
    "set_mask": registers.issue, "api_set_mask": registers.issue, "mask_mode": registers.issue,
    "set_flag": sync.set_flag, "wait_flag": sync.wait_flag, "barrier": sync.barrier,
    "li": scalar.li, "mov": scalar.mov, "alu": scalar.alu, "addr": scalar.addr,
    "nop": scalar.nop, "branch": scalar.branch, "jmp": scalar.jmp, "halt": scalar.halt,
}


def vconv(machine, vop, scalar, lo: int, hi: int) -> None:
    """vconv's body (semantics/convert.py), imported at the first conversion: a run without
    one does without its tables."""
    from simulator.semantics.convert import vconv as body

    body(machine, vop, scalar, lo, hi)


def register(family: str, issue: Callable) -> None:
    """Add the semantics of a family: issue(executor, instr) -> Issued."""
    SEMANTICS[family] = issue


def register_vector(family: str, body: Callable) -> None:
    """Add a repeat-driven vector family: body(machine, vop, scalar, lo, hi)."""
    vector.BODIES[family] = body
    vector.PREPARE.pop(family, None)  # a prepared body would bypass the new one
    SEMANTICS[family] = vector.issue


for _name, _body in {"vsel": vsel, "vcmp": vcmp, "vcmpv": vcmpv, "vcmpvs": vcmpvs, "dup": dup,
                     "binary": binary, "unary_scalar": unary_scalar, "vcopy": vcopy,
                     "unary": unary, "vconv": vconv}.items():
    register_vector(_name, _body)
vector.PREPARE.update(ARITH_PREPARED, vsel=prepare_vsel)

__all__ = ["SEMANTICS", "Issued", "HALT", "register", "register_vector"]
