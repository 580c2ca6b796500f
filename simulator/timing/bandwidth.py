"""The aggregate GM bandwidth a launch's cores share (docs/timing.md, "Shared GM bandwidth").

A core's MTE2/MTE3 transfer alone would move its bytes evenly over its occupancy (the chip
profile's DMA formula). Cores run one after another in block order, so when core k runs, the
transfers of cores 0..k-1 are already booked: core k's transfer gets what they leave of the
chip's `gm_bandwidth_gbps`, never more than it would take alone, and takes longer when that is
less. A core's own transfers do not compete with each other (the calibrated DMA figures already
say what one core achieves); they are added to the ledger when the core finishes (`commit`).
"""

from __future__ import annotations

import bisect
import math

EPS = 1e-9


class GmBandwidth:
    """Booked bytes per cycle over time: piecewise constant on [times[i], times[i + 1])."""

    def __init__(self, bytes_per_cycle: float):
        self.cap = bytes_per_cycle
        self.times: list[int] = [0]
        self.used: list[float] = [0.0]
        self.pending: list[tuple[int, int, float]] = []  # this core's (start, end, rate)

    def book(self, start: int, cycles: int, nbytes: int) -> int:
        """The end cycle of a transfer of NBYTES that would take CYCLES alone from START."""
        if self.cap <= 0 or cycles <= 0 or nbytes <= 0:
            return start + cycles
        want = nbytes / cycles
        left = float(nbytes)
        t = start
        i = max(0, bisect.bisect_right(self.times, start) - 1)
        while True:
            seg_end = self.times[i + 1] if i + 1 < len(self.times) else None
            rate = min(want, self.cap - self.used[i])
            if rate > EPS * self.cap:
                if seg_end is None or left <= rate * (seg_end - t) * (1 + EPS):
                    end = t + max(1, math.ceil(round(left / rate, 6)))
                    self.pending.append((t, end, left / (end - t)))
                    return end
                self.pending.append((t, seg_end, rate))
                left -= rate * (seg_end - t)
            t = seg_end
            i += 1

    def commit(self) -> None:
        """The running core finished: its transfers now take their share from later cores."""
        for t0, t1, rate in self.pending:
            a, b = self._split(t0), self._split(t1)
            for k in range(a, b):
                self.used[k] += rate
        self.pending.clear()

    def _split(self, t: int) -> int:
        """The index of the segment starting at T (splitting the one containing it)."""
        i = bisect.bisect_right(self.times, t) - 1
        if self.times[i] == t:
            return i
        self.times.insert(i + 1, t)
        self.used.insert(i + 1, self.used[i])
        return i + 1
