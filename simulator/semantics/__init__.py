"""Instruction semantics: one small function per family over the shared helpers in common.

Each vector function has the signature fn(machine, vop, scalar, lo, hi) and executes repeats
[lo, hi) of the decoded instruction. They compute results and nothing else."""

from simulator.semantics.arith import binary, unary_scalar
from simulator.semantics.compare import vcmp, vcmpv, vcmpvs
from simulator.semantics.move import dup, vcopy
from simulator.semantics.select import vsel

VECTOR = {"vsel": vsel, "vcmp": vcmp, "vcmpv": vcmpv, "vcmpvs": vcmpvs, "dup": dup,
          "binary": binary, "unary_scalar": unary_scalar, "vcopy": vcopy}

__all__ = ["VECTOR"]
