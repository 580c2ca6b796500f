"""What `from tbe import tik` gives a script (TIK's public names)."""

from __future__ import annotations

from simulator.tik.errors import TikError
from simulator.tik.tik import Tik
from simulator.tik.values import CmpMask, Scalar, Tensor

scope_gm = "global"
scope_ubuf = "local.UB"
scope_cbuf = "local.L1"  # accepted names; pipev models GM and UB only
scope_ca, scope_cb, scope_cc = "local.L0A", "local.L0B", "local.L0C"

__all__ = ["Tik", "Tensor", "Scalar", "CmpMask", "TikError", "scope_gm", "scope_ubuf",
           "scope_cbuf", "scope_ca", "scope_cb", "scope_cc"]
