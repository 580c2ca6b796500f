"""The chip profile's [timing] table, checked once and turned into plain attributes.

Every cycle figure the model uses comes from here (TIMING.md: none may be a literal in code).
"""

from __future__ import annotations

import math

import attrs

from isa.chip import Chip
from isa.diagnostics import Diagnostic
from isa.table import cost_classes
from simulator.errors import SimulationError

BLOCK = 32  # bytes per block: the unit of DMA sizes and of the partial-block rule

SCALAR_KEYS = ("scalar_issue", "scalar_op", "branch_taken", "queue_depth", "set_flag",
               "wait_flag", "barrier_drain_V", "barrier_drain_MTE2", "barrier_drain_MTE3",
               "barrier_all", "vcmpv_partial_penalty", "vcmpvs_partial_penalty",
               "vcmp_min_cycles_f16", "mte2_latency", "mte2_cycles_per_block",
               "mte2_min_cycles_per_block", "mte3_latency", "mte3_cycles_per_block",
               "mte3_min_cycles_per_block", "burst_overhead")
CLASS_KEYS = ("slope", "min_cycles", "head", "tail")
BANK_KEYS = {"910b": ("groups", "bank_bytes", "conflict_beats"),
             "950": ("groups", "reads_per_beat"), "none": ()}


@attrs.frozen
class CostClass:
    """One row of TIMING.md §2: slope cycles per repeat, min_cycles, head, tail."""

    name: str
    slope: int
    min_cycles: int
    head: int
    tail: int
    penalty: int  # partial-block penalty of bit-output compares (0 elsewhere)
    min_by_type: dict[str, int] = attrs.field(eq=False, factory=dict)  # e.g. vcmp f16: 4

    def min_for(self, type_name: str) -> int:
        return self.min_by_type.get(type_name, self.min_cycles)


@attrs.frozen
class TimingConfig:
    t: dict  # the [timing] table (scalars)
    classes: dict[str, CostClass] = attrs.field(eq=False)
    bank: dict = attrs.field(eq=False)

    def dma_cycles(self, engine: str, nburst: int, burst: int) -> int:
        """MTE2/MTE3: max(latency + a·nblk, b·nblk) + burst_overhead per extra burst, ceil."""
        t, nblk = self.t, nburst * burst
        cyc = max(t[f"{engine}_latency"] + t[f"{engine}_cycles_per_block"] * nblk,
                  t[f"{engine}_min_cycles_per_block"] * nblk)
        return ceil(cyc + t["burst_overhead"] * (nburst - 1))


def ceil(x: float) -> int:
    """Round up, forgiving binary noise (0.36·100 must give 36, not 37)."""
    return math.ceil(round(x, 9))


def _fail(chip: Chip, message: str) -> SimulationError:
    return SimulationError([Diagnostic("error", chip.path or chip.name, 1, 1, message)])


def load_config(chip: Chip) -> TimingConfig:
    """Check the profile has every key the model needs; a readable error names the first gap."""
    t = chip.timing
    for k in SCALAR_KEYS:
        if not isinstance(t.get(k), (int, float)) or isinstance(t.get(k), bool):
            raise _fail(chip, f"chip profile {chip.name}: [timing] lacks the number '{k}'")
    table = t.get("classes")
    if not isinstance(table, dict):
        raise _fail(chip, f"chip profile {chip.name}: [timing.classes] is missing")
    classes = {}
    for name in cost_classes():  # every class the instruction table's families name
        row = table.get(name)
        if not isinstance(row, dict) or any(not isinstance(row.get(k), int) for k in CLASS_KEYS):
            raise _fail(chip, f"chip profile {chip.name}: [timing.classes] {name} needs integer "
                        f"{', '.join(CLASS_KEYS)}")
        mins = {k.rsplit("_", 1)[1]: int(v) for k, v in t.items()
                if k.startswith(f"{name}_min_cycles_")}
        classes[name] = CostClass(name, row["slope"], row["min_cycles"], row["head"],
                                  row["tail"], int(t.get(f"{name}_partial_penalty", 0)), mins)
    bank = dict(chip.bank)
    model = bank.get("model", "none")
    if model not in BANK_KEYS:
        raise _fail(chip, f"chip profile {chip.name}: unknown bank model '{model}' (known: "
                    f"{', '.join(BANK_KEYS)})")
    for k in BANK_KEYS[model]:
        if not isinstance(bank.get(k), int):
            raise _fail(chip, f"chip profile {chip.name}: [bank] model {model} needs the integer "
                        f"'{k}'")
    bank["model"] = model
    return TimingConfig({k: t[k] for k in SCALAR_KEYS}, classes, bank)
