"""The results table: columns in a fixed order, written as CSV, JSON Lines or Parquet (by the
file's extension), and the best row by an objective column."""

from __future__ import annotations

import csv
import json
import os
import tempfile
from pathlib import Path

FORMATS = (".csv", ".jsonl", ".parquet")
LEAD = ["status", "error", "expect", "cycles", "time_us", "instructions", "uops"]
TAIL = ["warnings", "seconds", "cached", "key"]


RESULT_PREFIXES = ("busy_", "util_", "stall_", "out_")


class TableError(Exception):
    pass


def result_column(name: str) -> bool:
    """Whether NAME is (or may be) a column the run fills: a parameter of that name would be
    overwritten by the result in every row (#31 07)."""
    return name in LEAD or name in TAIL or name.startswith(RESULT_PREFIXES)


def columns(rows: list[dict], params: list[str]) -> list[str]:
    """Parameters first, then the fixed figures, per-pipe and stall columns, output hashes."""
    seen: dict[str, None] = {}
    for row in rows:
        seen.update(dict.fromkeys(row))
    fixed = [c for c in LEAD if c in seen]
    rest = [c for c in seen if c not in params and c not in LEAD and c not in TAIL]
    order = {"busy": 0, "util": 1, "stall": 2, "out": 3}
    rest.sort(key=lambda c: (order.get(c.split("_", 1)[0], 4), list(seen).index(c)))
    return [*params, *fixed, *rest, *(c for c in TAIL if c in seen)]


def check_format(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise TableError(f"--out {path}: the format follows the extension: "
                         f"{', '.join(FORMATS)}")
    if suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise TableError("--out .parquet needs pyarrow: pip install 'pipev[sweep]'") from None
    return suffix


def check_destination(path: str | Path, option: str) -> None:
    """Raise TableError unless PATH can be written once the sweep is done (#31 16): not a
    directory, and its folder either exists as a writable directory or can be created under
    the nearest one that exists. Checked before any variant runs, so a long sweep never ends
    in an unwritable output."""
    path = Path(path)
    if path.is_dir():
        raise TableError(f"{option} {path}: is a directory")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        if folder.is_symlink():  # a dangling link cannot become a folder
            raise TableError(f"{option} {path}: {folder} is a broken symbolic link")
        folder = folder.parent
    if not folder.is_dir():
        raise TableError(f"{option} {path}: {folder} is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise TableError(f"{option} {path}: cannot write in {folder} (permission denied)")


def write(path: str | Path, rows: list[dict], cols: list[str]) -> None:
    """Write the table atomically (a temporary file renamed into place)."""
    path = Path(path)
    suffix = check_format(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    try:
        {".csv": _csv, ".jsonl": _jsonl, ".parquet": _parquet}[suffix](tmp, rows, cols)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _csv(path: str, rows: list[dict], cols: list[str]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, cols, restval="", extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def _jsonl(path: str, rows: list[dict], cols: list[str]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps({c: row[c] for c in cols if c in row}) + "\n")


def _parquet(path: str, rows: list[dict], cols: list[str]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = {c: [row.get(c) for row in rows] for c in cols}
    for c, values in data.items():  # one type a column: mixed ints and strings become text
        kinds = {type(v) for v in values if v is not None}
        if len(kinds) > 1 and not kinds <= {int, float}:
            data[c] = [None if v is None else str(v) for v in values]
    pq.write_table(pa.table(data), path)


def parse_objective(text: str) -> tuple[str, bool]:
    """`COLUMN` (smallest is best) or `COLUMN:max` (largest) -> (column, maximise)."""
    column, _, direction = text.partition(":")
    if direction not in ("", "min", "max"):
        raise TableError(f"--objective takes COLUMN or COLUMN:max, got '{text}'")
    return column, direction == "max"


def verdict(row: dict) -> str:
    """What a row is: "ok" (ran, did work, and matched any --expect), "differs" (its outputs
    are not the expected ones), "no work" (its launches ran no cycle: nothing was measured), or
    "error". Only "ok" rows are ranked anywhere (the summary, the HTML's table, the plot)."""
    if row.get("status") != "ok":
        return "error"
    if row.get("expect", "match") != "match":
        return "differs"
    if not row.get("cycles"):
        return "no work"
    return "ok"


def tally(rows: list[dict]) -> dict[str, int]:
    """How many rows each verdict has (every verdict present, zeros too)."""
    counts = dict.fromkeys(("ok", "differs", "no work", "error"), 0)
    for row in rows:
        counts[verdict(row)] += 1
    return counts


def tally_words(counts: dict[str, int]) -> str:
    """`19 ok, 2 differ from --expect, 1 did no work, 0 errors`: the clauses for differing and
    idle variants only when there are some."""
    words = [f"{counts['ok']} ok"]
    if counts["differs"]:
        words.append(f"{counts['differs']} differ from --expect")
    if counts["no work"]:
        words.append(f"{counts['no work']} did no work (0 cycles)")
    errors = counts["error"]
    words.append(f"{errors} error{'s' if errors != 1 else ''}")
    return ", ".join(words)


def ranked(rows: list[dict], objective: str = "cycles") -> list[dict]:
    """The "ok" rows with a number in OBJECTIVE's column, best first (equals in table order)."""
    column, maximise = parse_objective(objective)
    scored = [r for r in rows if verdict(r) == "ok" and isinstance(r.get(column), (int, float))
              and not isinstance(r[column], bool)]
    return sorted(scored, key=lambda r: -r[column] if maximise else r[column])


def best(rows: list[dict], objective: str = "cycles") -> dict | None:
    """The "ok" row with the best OBJECTIVE value (the first of equals), or None: a fast wrong
    answer (--expect) or a variant that did no work is never the best."""
    top = ranked(rows, objective)
    return top[0] if top else None
