"""Timing model (docs/timing.md): pipes, sync, vector cost classes, UB banks, DMA."""

from simulator.timing.model import TimingModel
from simulator.timing.records import InstrTiming, RepeatTiming

__all__ = ["TimingModel", "InstrTiming", "RepeatTiming"]
