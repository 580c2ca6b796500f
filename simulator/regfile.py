"""Issue 34: the register files of ascend950's reg-based vector unit (docs/machine.md §1.4): 32
vector registers of VL = 256 bytes (RegTensor) and the 32 spill slots past them (v32..v63), 8
mask registers of VL/8 = 32 bytes (MaskReg) and the 56 slots past them (p8..p63), which bytes of
each vector register (and which mask registers) have been written since its vector function
began (the check of a read before a write, per lane: a merging write defines only the lanes its
mask enables) and, for each mask register, the element width it was made for (the check of a
MaskReg used at another width; 0 = unknown, e.g. loaded from UB)."""

from __future__ import annotations

import numpy as np

from isa.regvec import FILE_PREGS, FILE_VREGS, PL, UREGS, VL


class RegFile:
    """Part of the machine (simulator/machine.py), saved and restored whole by the undo log."""

    __slots__ = ("v", "p", "v_set", "v_def", "p_set", "p_width", "stored", "store_log", "ul_set",
                 "us_lo", "us_len", "us_data", "us_next", "ar")

    def __init__(self) -> None:
        self.v = np.zeros((FILE_VREGS, VL), np.uint8)  # v32..v63: the spill slots
        self.p = np.zeros((FILE_PREGS, PL), np.uint8)  # p8..p63: spill slots
        # v_set[r]: every byte of vr written in this VF; else v_def[r] says which bytes are
        # (a row is only read while v_set is False: a whole write sets v_set alone)
        self.v_set = np.zeros(FILE_VREGS, bool)
        self.v_def = np.zeros((FILE_VREGS, VL), bool)
        self.p_set = np.zeros(FILE_PREGS, bool)
        self.p_width = np.zeros(FILE_PREGS, np.uint8)
        # h34a: the unaligned registers: a load one made ready (LoadUnAlignPre), a store one's
        # kept bytes (StoreUnAlign's last partial block): their UB address (-1: none), count
        self.ul_set = np.zeros(UREGS, bool)
        self.us_lo = np.full(UREGS, -1, np.int64)
        self.us_len = np.zeros(UREGS, np.int64)
        self.us_data = np.zeros((UREGS, 32), np.uint8)
        # where the next AR-form StoreUnAlign through each store register goes (-1: its
        # operand's address), and AR, the byte count Squeeze STORE_REG leaves for it
        self.us_next = np.full(UREGS, -1, np.int64)
        self.ar = np.zeros(1, np.int64)
        # the LocalMemBar check's record (not machine state): per UB byte the serial of the
        # VF's latest vector store no barrier has ordered yet (0: none), and each serial's
        # (register, instruction); None until the VF stores
        self.stored: np.ndarray | None = None
        self.store_log: list[tuple[int, object]] = []

    def state(self) -> bytes:
        """Everything, as one bytes object (the undo log's snapshot; the written bytes' flags
        packed eight to a byte)."""
        return b"".join(a.tobytes() for a in self._arrays()) + np.packbits(self.v_def).tobytes()

    def _arrays(self) -> tuple[np.ndarray, ...]:
        return (self.v, self.p, self.v_set, self.p_set, self.p_width, self.ul_set, self.us_lo,
                self.us_len, self.us_data, self.us_next, self.ar)

    def restore(self, state: bytes) -> None:
        at = 0
        for a in self._arrays():
            n = a.nbytes
            a.reshape(-1).view(np.uint8)[:] = np.frombuffer(state, np.uint8, n, at)
            at += n
        bits = np.unpackbits(np.frombuffer(state, np.uint8, self.v_def.size // 8, at))
        self.v_def[:] = bits.reshape(self.v_def.shape).astype(bool)

    def clear_written(self) -> None:
        """A vector function begins: its registers hold nothing it wrote."""
        self.v_set[:] = False
        self.v_def[:] = False
        self.p_set[:] = False
        self.p_width[:] = 0
        self.ul_set[:] = False
        self.us_lo[:] = -1
        self.us_len[:] = 0
        self.us_next[:] = -1
        self.stored = None
        self.store_log = []
