"""The variants of a sweep: `--param NAME=V1,V2,...` axes combined as a grid (every
combination) or zipped (the k-th value of every axis together)."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence

MAX_VARIANTS = 100_000  # a sweep's cap: counted before anything is expanded (#31 19)
NAME = re.compile(r"[A-Za-z_]\w*")
RANGE = re.compile(r"(-?\d+)\.\.(-?\d+)(?::(\d+))?")  # 16..64:16 -> 16,32,48,64


class SpaceError(ValueError):
    """A malformed axis (the CLI's usage error, exit 2)."""


def parse_axis(text: str) -> tuple[str, list[str]]:
    """`NAME=V1,V2,...` (a value may be a range `LO..HI[:STEP]`) -> (NAME, values)."""
    name, sep, values = text.partition("=")
    name = name.strip()
    if not sep or not NAME.fullmatch(name) or not values.strip():
        raise SpaceError(f"--param takes NAME=V1,V2,... (or NAME=LO..HI:STEP), got '{text}'")
    out: list[str] = []
    for item in (v.strip() for v in values.split(",")):
        if not item:
            raise SpaceError(f"--param {name}: an empty value in '{values}'")
        m = RANGE.fullmatch(item)
        if m is None:
            out.append(item)
            continue
        lo, hi, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
        if step < 1 or hi < lo:
            raise SpaceError(f"--param {name}: the range '{item}' is empty (LO..HI:STEP with "
                             "LO <= HI and STEP >= 1)")
        count = (hi - lo) // step + 1
        if len(out) + count > MAX_VARIANTS:
            raise SpaceError(f"--param {name}: the range '{item}' has {count:,} values; a "
                             f"sweep runs at most {MAX_VARIANTS:,} variants (narrow the range "
                             "or give it a step: LO..HI:STEP)")
        out.extend(str(v) for v in range(lo, hi + 1, step))
    if len(set(out)) != len(out):
        raise SpaceError(f"--param {name}: a value is given twice in '{values}'")
    return name, out


def expand(axes: Mapping[str, Sequence], mode: str = "grid") -> list[dict[str, object]]:
    """Every variant, in a stable order (the first axis varies slowest)."""
    names = list(axes)
    columns = [list(axes[n]) for n in names]
    if any(not c for c in columns):
        empty = next(n for n, c in zip(names, columns, strict=True) if not c)
        raise SpaceError(f"--param {empty} has no value")
    check_count(names, [len(c) for c in columns], mode)
    if mode == "zip":
        lengths = {len(c) for c in columns}
        if len(lengths) > 1:
            sizes = ", ".join(f"{n}: {len(c)}" for n, c in zip(names, columns, strict=True))
            raise SpaceError(f"--zip needs as many values on every axis ({sizes})")
        rows = zip(*columns, strict=True)
    elif mode == "grid":
        rows = itertools.product(*columns)
    else:
        raise SpaceError(f"mode must be grid or zip, not {mode!r}")
    return [dict(zip(names, r, strict=True)) for r in rows]


def check_count(names: list[str], lengths: list[int], mode: str) -> None:
    """Refuse a sweep of more than MAX_VARIANTS variants, from the axes' lengths alone (a
    grid's product is known before any variant exists)."""
    total = max(lengths, default=1) if mode == "zip" else math.prod(lengths)
    if total > MAX_VARIANTS:
        sizes = " x ".join(f"{n}: {k:,}" for n, k in zip(names, lengths, strict=True))
        raise SpaceError(f"the sweep has {total:,} variants ({sizes}); at most "
                         f"{MAX_VARIANTS:,} run in one sweep: narrow an axis or split the "
                         "sweep")


def typed(value):
    """A parameter value as a table shows it: an int when it reads as one."""
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
        return int(value)
    return value
