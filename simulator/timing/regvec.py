"""Issue 34: the cost classes of the reg-based vector unit (docs/timing.md §T9), read from the
chip profile's [reg_timing] table: cycles V is busy with one instruction of each class."""

from __future__ import annotations

from isa.chip import Chip
from isa.regvec import COST_CLASSES
from simulator.timing.config import CostClass

_made: dict[int, tuple[Chip, dict[str, CostClass]]] = {}


def reg_classes(chip: Chip) -> dict[str, CostClass]:
    """Each class of the unit as a CostClass of fixed cycles (min_cycles); {} on a chip without
    the unit. A missing or malformed figure is a profile error naming the key."""
    hit = _made.get(id(chip))
    if hit is not None and hit[0] is chip:
        return hit[1]
    out: dict[str, CostClass] = {}
    if chip.reg_vector:
        for name in COST_CLASSES:
            v = chip.reg_timing.get(name)
            if type(v) is not int or v < 0:
                raise ValueError(f"{chip.path or chip.name}: [reg_timing] {name} must be a "
                                 "whole number of cycles (docs/timing.md §T9)")
            out[name] = CostClass(f"reg_{name}", 0, v, 0, 0, 0)
    if len(_made) > 64:
        _made.clear()
    _made[id(chip)] = (chip, out)
    return out
