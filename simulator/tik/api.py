"""What `from tbe import tik` gives a script (TIK's public names)."""

from __future__ import annotations

from simulator.tik.errors import TikError
from simulator.tik.expr import Junction
from simulator.tik.tik import Tik
from simulator.tik.values import CmpMask, Scalar, Tensor

scope_gm = "global"
scope_ubuf = "local.UB"
scope_cbuf = "local.L1"  # accepted names; pipev models GM and UB only
scope_ca, scope_cb, scope_cc = "local.L0A", "local.L0B", "local.L0C"



class Dprofile:
    """`tik.Dprofile(ai_core_arch, ai_core_version, ddk_version)`: the chip's figures; the chip
    is pipev's (`--chip`), whatever the arguments name."""

    def __init__(self, ai_core_arch=None, ai_core_version=None, ddk_version=None):
        self.arch, self.version = ai_core_arch, ai_core_version

    def get_aicore_num(self) -> int:
        from simulator.tik.framework import CORE_NUM, get_soc_spec
        return get_soc_spec(CORE_NUM)

    def get_unified_buffer_size(self) -> int:
        from simulator.tik.framework import UB_SIZE, get_soc_spec
        return get_soc_spec(UB_SIZE)

    def get_product_name(self) -> str:
        from simulator.tik.framework import SHORT_SOC_VERSION, get_soc_spec
        return get_soc_spec(SHORT_SOC_VERSION).lower()


def all(*conds) -> Junction:  # noqa: A001 - TIK's name
    """tik.all(c1, c2, ...): every condition holds (an if_scope condition)."""
    return Junction("all", conds)


def any(*conds) -> Junction:  # noqa: A001 - TIK's name
    """tik.any(c1, c2, ...): some condition holds (an if_scope condition)."""
    return Junction("any", conds)


__all__ = ["Tik", "Tensor", "Scalar", "CmpMask", "TikError", "Dprofile", "all", "any",
           "scope_gm", "scope_ubuf", "scope_cbuf", "scope_ca", "scope_cb", "scope_cc"]
