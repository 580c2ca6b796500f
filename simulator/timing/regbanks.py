"""Issue 34: ascend950's UB bank rule for the reg-based unit's loads and stores (docs/timing.md
§T9): the 32-byte rows one LoadAlign / StoreAlign touches, counted per bank group as the
memory-based unit's Bank950 counts a repeat's (§T3): a group serves `reads_per_beat` reads, or
one read and one write, a beat, so with R_g rows read (W_g written) in group g the access takes
max_g max(ceil(R_g / p), W_g, ceil((R_g + W_g) / p)) beats. A contiguous VL (8 rows, one per
group) takes one beat; a DataBlock access whose blocks share a group takes more."""

from __future__ import annotations

CACHE_LIMIT = 4096  # distinct (runs, write) layouts kept (a VF's loop repeats a few)


class RegBanks:
    """beats(runs, write): the bank beats of one register load (write False) or store over
    RUNS, ((address, bytes), ...) in UB; 0 when the chip has no 950 bank model."""

    def __init__(self, bank: dict):
        self.on = bank.get("model") == "950"
        self.groups = bank.get("groups", 8)
        self.ports = bank.get("reads_per_beat", 2)
        self._seen: dict[tuple, int] = {}

    def beats(self, runs, write: bool) -> int:
        if not self.on or not runs:
            return 0
        key = (tuple(runs), write)
        got = self._seen.get(key)
        if got is None:
            if len(self._seen) >= CACHE_LIMIT:
                self._seen.clear()
            got = self._seen[key] = self._count(runs, write)
        return got

    def _count(self, runs, write: bool) -> int:
        rows = {r for a, n in runs for r in range(a >> 5, ((a + n - 1) >> 5) + 1)}  # shared once
        per = [0] * self.groups
        for r in rows:
            per[r % self.groups] += 1
        p = self.ports
        if write:  # W_g rows written, none read: max(W_g, ceil(W_g / p)) = W_g
            return max(per)
        return max(-(-n // p) for n in per)
