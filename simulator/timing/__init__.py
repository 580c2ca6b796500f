"""Timing model (TIMING.md) — placeholder until issue 8 lands: counts nothing yet."""

from simulator.events import Observer
from simulator.timing.records import InstrTiming, RepeatTiming


class TimingModel(Observer):
    def __init__(self, chip):
        self.chip = chip
        self.total_cycles = 0
        self.busy = {"S": 0, "V": 0, "MTE2": 0, "MTE3": 0}
        self.last: InstrTiming | None = None


__all__ = ["TimingModel", "InstrTiming", "RepeatTiming"]
