"""The chip profile's [timing] table, checked once and turned into plain attributes.

Every cycle figure the model uses comes from here (docs/timing.md: none may be a literal in code).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import attrs

from isa.chip import Chip, show_value
from isa.diagnostics import Diagnostic
from isa.table import cost_classes
from isa.types import TYPES
from simulator.errors import SimulationError

BLOCK = 32  # bytes per block: the unit of DMA sizes and of the partial-block rule

SCALAR_KEYS = ("scalar_issue", "scalar_op", "branch_taken", "queue_depth", "set_flag",
               "wait_flag", "barrier_drain_V", "barrier_drain_MTE2", "barrier_drain_MTE3",
               "barrier_all", "vcmpv_partial_penalty", "vcmpvs_partial_penalty",
               "vcmp_min_cycles_f16", "mte2_latency", "mte2_cycles_per_block",
               "mte2_min_cycles_per_block", "mte3_latency", "mte3_cycles_per_block",
               "mte3_min_cycles_per_block", "burst_overhead")
# figures only some programs need, checked when a profile has them: a profile of one's own
# written before they existed stays valid, and a program that needs one asks for it (SyncAll
# across cores: an error at its line without sync_all)
OPTIONAL_KEYS = ("sync_all",)
CLASS_KEYS = ("slope", "min_cycles", "head", "tail")
BANK_KEYS = {"910b": ("groups", "bank_bytes", "conflict_beats"),
             "950": ("groups", "reads_per_beat"), "none": ()}


@attrs.frozen
class CostClass:
    """One row of docs/timing.md §T2: slope cycles per repeat, min_cycles, head, tail."""

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


# the DMA formula's figures may be fractional (it rounds up once); every other figure is a
# whole number of cycles (docs/machine.md: every cycle figure is an integer)
FRACTIONAL = ("mte2_latency", "mte2_cycles_per_block", "mte2_min_cycles_per_block",
              "mte3_latency", "mte3_cycles_per_block", "mte3_min_cycles_per_block",
              "burst_overhead")
MAX_CYCLES = 1_000_000  # per figure: far above any real cost, far below float overflow
BANK_RANGES = {"groups": (1, 1024), "bank_bytes": (32, 1 << 30), "conflict_beats": (1, 1024),
               "reads_per_beat": (1, 1024)}


def _fail(chip: Chip, message: str, key: str | None = None) -> SimulationError:
    line = _key_line(chip.path, key) if key else 1
    return SimulationError([Diagnostic("error", chip.path or chip.name, line, 1,
                                       f"chip profile {chip.name}: {message}")])


def _key_line(path: str, key: str) -> int:
    """The profile line that sets KEY (1 when it is not found: a built-in or absent key)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError, ValueError):
        return 1
    pattern = re.compile(rf"\s*{re.escape(key)}\s*=")
    return next((i for i, ln in enumerate(lines, 1) if pattern.match(ln)), 1)


def _number_problem(v, lo: int, whole: bool) -> str:
    """'' when v is a cycle figure in lo..MAX_CYCLES (an integer when WHOLE), else why not."""
    kinds = (int,) if whole else (int, float)
    if type(v) in kinds and lo <= v <= MAX_CYCLES:
        return ""
    return f"must be {'an integer' if whole else 'a number'} in {lo}..{MAX_CYCLES}"


def load_config(chip: Chip) -> TimingConfig:
    """Check the profile's [timing] and [bank] tables: every key the model needs, of the right
    type and range, and no key it does not know; a readable error names the first problem."""
    t = chip.timing
    _check_scalars(chip, t)
    table = t.get("classes")
    if not isinstance(table, dict):
        raise _fail(chip, "[timing.classes] is missing")
    unknown = [k for k in table if k not in cost_classes()]
    if unknown:
        raise _fail(chip, f"[timing.classes] {unknown[0]} is not a cost class (known: "
                    f"{', '.join(cost_classes())})", unknown[0])
    classes = {name: _cost_class(chip, t, table.get(name), name) for name in cost_classes()}
    return TimingConfig({k: t[k] for k in (*SCALAR_KEYS, *OPTIONAL_KEYS) if k in t}, classes,
                        _bank(chip))


_checked: dict[int, tuple[Chip, TimingConfig]] = {}


def config_of(chip: Chip) -> TimingConfig:
    """load_config, once per chip object (a launch of many cores times each with it)."""
    hit = _checked.get(id(chip))
    if hit is None or hit[0] is not chip:
        if len(_checked) > 64:
            _checked.clear()
        hit = _checked[id(chip)] = (chip, load_config(chip))
    return hit[1]


def _check_scalars(chip: Chip, t: dict) -> None:
    for k in (*SCALAR_KEYS, *OPTIONAL_KEYS):
        if k not in t:
            if k in OPTIONAL_KEYS:
                continue
            raise _fail(chip, f"[timing] lacks the number '{k}'")
        problem = _number_problem(t[k], 1 if k == "queue_depth" else 0, k not in FRACTIONAL)
        if problem:
            raise _fail(chip, f"[timing] {k} = {show_value(t[k])} {problem}", k)
    for k, v in t.items():
        if k in SCALAR_KEYS or k in OPTIONAL_KEYS or k == "classes":
            continue
        if not _per_class_key(k):
            raise _fail(chip, f"[timing] unknown key '{k}' (docs/timing.md lists the keys)", k)
        problem = _number_problem(v, 0, True)
        if problem:
            raise _fail(chip, f"[timing] {k} = {show_value(v)} {problem}", k)


def _per_class_key(k: str) -> bool:
    """CLASS_min_cycles_TYPE (a per-type floor) or CLASS_partial_penalty."""
    for name in cost_classes():
        rest = k[len(name) + 1:] if k.startswith(name + "_") else ""
        if rest == "partial_penalty" or (rest.startswith("min_cycles_")
                                         and rest[len("min_cycles_"):] in TYPES):
            return True
    return False


def _cost_class(chip: Chip, t: dict, row, name: str) -> CostClass:
    if not isinstance(row, dict) or set(row) != set(CLASS_KEYS):
        raise _fail(chip, f"[timing.classes] {name} needs exactly the integers "
                    f"{', '.join(CLASS_KEYS)}", name)
    for k in CLASS_KEYS:
        problem = _number_problem(row[k], 0, True)
        if problem:
            raise _fail(chip, f"[timing.classes] {name} {k} = {show_value(row[k])} {problem}", name)
    mins = {k.rsplit("_", 1)[1]: int(v) for k, v in t.items()
            if k.startswith(f"{name}_min_cycles_")}
    return CostClass(name, row["slope"], row["min_cycles"], row["head"], row["tail"],
                     int(t.get(f"{name}_partial_penalty", 0)), mins)


def _bank(chip: Chip) -> dict:
    bank = dict(chip.bank)
    model = bank.get("model", "none")
    if model not in BANK_KEYS:
        raise _fail(chip, f"unknown bank model '{model}' (known: {', '.join(BANK_KEYS)})",
                    "model")
    for k in bank:
        if k != "model" and k not in BANK_KEYS[model]:
            raise _fail(chip, f"[bank] {k} does not apply to bank model {model} (its keys: "
                        f"{', '.join(BANK_KEYS[model]) or 'none'})", k)
    for k in BANK_KEYS[model]:
        lo, hi = BANK_RANGES[k]
        v = bank.get(k)
        if v is None:
            raise _fail(chip, f"[bank] model {model} needs the integer '{k}'")
        step = 32 if k == "bank_bytes" else 1
        if type(v) is not int or not lo <= v <= hi or v % step:
            rule = f"an integer in {lo}..{hi}" + (", a multiple of 32" if step > 1 else "")
            raise _fail(chip, f"[bank] {k} = {show_value(v)} must be {rule}", k)
    bank["model"] = model
    return bank
