"""The machine's state: UB and GM bytes (§1.1) and the registers (§1.2, §7)."""

from __future__ import annotations

import numpy as np

from isa.chip import Chip
from isa.program import Program

ONES = (1 << 64) - 1
RAW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class Machine:
    """Everything a program can change. Nothing but semantics and the executor writes here."""

    def __init__(self, chip: Chip, gm: dict[str, np.ndarray], program: Program | None = None):
        self.chip = chip
        self.ub = np.zeros(chip.ub_bytes, np.uint8)
        self.views = {size: self.ub.view(dt) for size, dt in RAW.items()}
        self.gm = gm
        self.mask_hi = ONES
        self.mask_lo = ONES
        self.counter = False
        self.cmpmask = np.zeros(chip.cmpmask_bytes, np.uint8)
        self.flags: dict[tuple[str, str, int], object] = {}  # set flag → its set_flag
        self.x = [0] * 32
        for t in (program.ub.values() if program is not None else ()):
            if t.init is not None and t.init.data is not None:
                self.ub[t.addr:t.addr + t.nbytes] = t.init.data

    @property
    def mask(self) -> tuple[int, int]:
        return self.mask_hi, self.mask_lo

    def space(self, name: str | None) -> np.ndarray:
        """The byte array of UB (None) or of the GM tensor NAME."""
        return self.ub if name is None else self.gm[name]

    def cmpmask_int(self) -> int:
        return int.from_bytes(self.cmpmask.tobytes(), "little")

    def signed(self, reg: int) -> int:
        v = self.x[reg]
        return v - (1 << 64) if v >> 63 else v
