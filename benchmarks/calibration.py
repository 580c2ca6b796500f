"""The timing model against the measured 910B1 points of docs/timing.md §T5.

    python benchmarks/calibration.py        # exit 1 when the mean absolute % error exceeds 5%

Each point is one instruction on ascend910b, with the bank-conflict-free layout docs/timing.md §T5
suggests (src0 at 0x0, src1 at 0x10100, dst at 0x20000); the model's figure is the
instruction's own occupancy on V (end - start), which is what msKPP's tables measure.
Source: Huawei msKPP, csrc/prof_data/resource910b.cpp (total cycles of one instruction).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import isa  # noqa: E402
from simulator.events import Observer  # noqa: E402
from simulator.run import Run  # noqa: E402

LIMIT = 5.0  # % MAPE above which the defaults need re-fitting
SRC0, SRC1, DST = "@0x0", "@0x10100", "@0x20000"

# (label, instruction text with {R}, {measured cycles by R})
POINTS = [
    ("vsel f16 mode 0", f"vsel.f16 {DST}, {SRC0}, {SRC1}, repeat={{R}}",
     {1: 3.03, 2: 4.03, 4: 8.03, 16: 32.02}),
    ("vsel f32 mode 0", f"vsel.f32 {DST}, {SRC0}, {SRC1}, repeat={{R}}",
     {1: 3.03, 2: 4.03, 4: 8.03, 16: 32.02}),
    ("vcmp f16", f"vcmp.lt.f16 {SRC0}, {SRC1}", {1: 4.03}),
    ("vcmp f32", f"vcmp.lt.f32 {SRC0}, {SRC1}", {1: 3.05}),
    ("vcmpv f16", f"vcmpv.lt.f16 {DST}, {SRC0}, {SRC1}, repeat={{R}}",
     {1: 7.03, 2: 4.03, 4: 8.03, 16: 32.03}),
    ("vcmpv f32", f"vcmpv.lt.f32 {DST}, {SRC0}, {SRC1}, repeat={{R}}",
     {1: 7.04, 2: 9.03, 4: 8.03, 16: 32.03}),
    ("vcmpvs f16", f"vcmpvs.lt.f16 {DST}, {SRC0}, 0.0, repeat={{R}}",
     {1: 7.04, 2: 3.06, 4: 4.03, 16: 16.03}),
    ("vadd f32", f"vadd.f32 {DST}, {SRC0}, {SRC1}, repeat={{R}}",
     {1: 3.09, 2: 4.07, 4: 8.03, 16: 32.03}),
]


class _Last(Observer):
    """Keeps the timing record of the last instruction."""

    def __init__(self):
        self.record = None

    def on_event(self, event) -> None:
        self.record = event.timing


def model_cycles(line: str, chip: str = "ascend910b") -> int:
    """Occupancy of one instruction (end - start) on a fresh machine."""
    prog = isa.assemble(f".chip {chip}\n    {line}\n")
    last = _Last()
    Run.of_program(prog, checks="warn", observers=[last]).executor.run()
    return last.record.end - last.record.start


def rows() -> list[tuple[str, int, float, int, float]]:
    """(label, R, measured, model, error %) for every measured point."""
    out = []
    for label, text, measured in POINTS:
        for r, cyc in measured.items():
            got = model_cycles(text.format(R=r))
            out.append((label, r, cyc, got, 100.0 * abs(got - cyc) / cyc))
    return out


def main() -> int:
    table = rows()
    print(f"{'instruction':<18}{'R':>4}{'measured':>10}{'model':>7}{'error %':>9}")
    for label, r, cyc, got, err in table:
        print(f"{label:<18}{r:>4}{cyc:>10.2f}{got:>7}{err:>9.2f}")
    mape = sum(e for *_, e in table) / len(table)
    print(f"MAPE {mape:.2f}% over {len(table)} points (limit {LIMIT:g}%)")
    return 0 if mape <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
