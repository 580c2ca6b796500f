"""Timing model (docs/timing.md): pipes, sync, vector cost classes, UB banks, DMA."""

from simulator.instr_timing import InstrTiming, RepeatTiming
from simulator.timing.model import TimingModel

__all__ = ["TimingModel", "InstrTiming", "RepeatTiming"]
