"""The machine's state: UB and GM bytes (§1.1) and the registers (§1.2, §7)."""

from __future__ import annotations

import numpy as np

from isa.chip import Chip
from isa.ctrl import LAUNCH as CTRL_LAUNCH
from isa.lexer import BLOCK_IDX, BLOCK_NUM, REGISTERS
from isa.program import Program
from isa.types import DType
from simulator.regfile import RegFile

ONES = (1 << 64) - 1
RAW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class Machine:
    """Everything a program can change. Nothing but semantics and the executor writes here."""

    def __init__(self, chip: Chip, gm: dict[str, np.ndarray], program: Program | None = None,
                 block: tuple[int, int] = (0, 1)):
        self.chip = chip
        self.ub = np.zeros(chip.ub_bytes, np.uint8)
        self.views = {size: self.ub.view(dt) for size, dt in RAW.items()}
        self.gm = gm
        self.mask_hi = ONES
        self.mask_lo = ONES
        self.counter = False
        self.atomic: tuple[str, DType] | None = None  # set_atomic: (add/max/min, T) or off
        self.mask_source = None  # (set_vector_mask, its lo operand) when a register set MASK_LO
        self.cmpmask = np.zeros(chip.cmpmask_bytes, np.uint8)
        self.flags: dict[tuple[str, str, int], object] = {}  # set flag → its set_flag
        self.mutexes: dict[int, tuple[str, object]] = {}  # #34: locked id → (pipe, its Lock)
        # special registers an instruction leaves for the scalar unit (rsvd_cnt: GatherMask's)
        self.special: dict[str, int] = {"ctrl": CTRL_LAUNCH}  # issue 34: CTRL (isa/ctrl.py)
        self.x = [0] * REGISTERS  # x0..x31, then block_idx and block_num (read-only)
        self.x[BLOCK_IDX], self.x[BLOCK_NUM] = block
        # instruction → [what, elements]: inputs whose result the vendor calls unknown (#27a)
        self.unknown: dict = {}
        # issue 34: the reg-based vector unit's registers, on the chips that have one
        self.regs = RegFile() if chip.reg_vector else None
        for t in (program.ub.values() if program is not None else ()):
            if t.init is not None and t.init.data is not None:
                self.ub[t.addr:t.addr + t.nbytes] = t.init.data

    @property
    def mask(self) -> tuple[int, int]:
        return self.mask_hi, self.mask_lo

    def space(self, name: str | None) -> np.ndarray:
        """The byte array of UB (None) or of the GM tensor NAME."""
        return self.ub if name is None else self.gm[name]

    def count_unknown(self, instr, what: str, n: int) -> None:
        """N more elements of INSTR had inputs whose result the docs call unknown (WHAT): the
        run warns once per instruction, with the total, when it ends."""
        seen = self.unknown.setdefault(instr, [what, 0])
        seen[1] += n

    def cmpmask_int(self) -> int:
        return int.from_bytes(self.cmpmask.tobytes(), "little")

    def signed(self, reg: int) -> int:
        v = self.x[reg]
        return v - (1 << 64) if v >> 63 else v
