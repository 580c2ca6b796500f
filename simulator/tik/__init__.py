"""The TIK front end: TIK scripts (`from tbe import tik`) run on pipev unchanged.

`simulator/tik/shim/` holds the `tbe.tik`, `te.tik` and `tik` packages; pipev's own commands
(`pipev run|asm|check|debug SCRIPT.py`, `pipev python`) put that folder on sys.path, so nothing is
installed that could shadow a real CANN. The module itself is `simulator.tik.api`.
"""

from __future__ import annotations

from pathlib import Path

SHIM = str(Path(__file__).resolve().parent / "shim")
