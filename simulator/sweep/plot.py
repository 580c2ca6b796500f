"""The sweep's plot: the objective (cycles by default) against each swept parameter, one line
per combination of the other parameters' values. PNG, SVG or PDF by matplotlib; `.html` is a
self-contained page (the plot as inline SVG, then the best rows) with no script to load."""

from __future__ import annotations

import html
import io
from pathlib import Path

from simulator.sweep.table import best, parse_objective, ranked, tally, tally_words, verdict

FORMATS = (".png", ".svg", ".pdf", ".html")
MAX_LINES = 12  # lines per panel with a legend; more are drawn unlabelled


class PlotError(Exception):
    pass


def check_format(path: str | Path) -> None:
    if Path(path).suffix.lower() not in FORMATS:
        raise PlotError(f"--plot {path}: the format follows the extension: "
                        f"{', '.join(FORMATS)}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotError("--plot needs matplotlib: pip install 'pipev[sweep]'") from None


def plot(path: str | Path, rows: list[dict], params: list[str], objective: str,
         columns: list[str]) -> None:
    check_format(path)
    column, _ = parse_objective(objective)
    figure = _figure(rows, params, column)
    path = Path(path)
    try:
        data = _render(figure, path.suffix.lower(), rows, columns, objective)
    finally:
        import matplotlib.pyplot as plt

        plt.close(figure)
    _write_atomically(path, data)


def _render(figure, suffix: str, rows: list[dict], columns: list[str], objective: str) -> bytes:
    if suffix == ".html":
        svg = io.StringIO()
        figure.savefig(svg, format="svg", bbox_inches="tight")
        return _page(svg.getvalue(), rows, columns, objective).encode("utf-8")
    out = io.BytesIO()
    figure.savefig(out, format=suffix[1:], dpi=120, bbox_inches="tight")
    return out.getvalue()


def _write_atomically(path: Path, data: bytes) -> None:
    """The plot's folder is created as --out's is; a failed write leaves what was there."""
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def _sort_key(value):
    return (0, value, "") if isinstance(value, (int, float)) else (1, 0, str(value))


def _figure(rows: list[dict], params: list[str], column: str):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in rows if verdict(r) == "ok" and isinstance(r.get(column), (int, float))]
    odd = [r for r in rows if verdict(r) in ("differs", "no work")
           and isinstance(r.get(column), (int, float))]  # drawn apart, never a line's point
    axes_params = [p for p in params if len({str(r[p]) for r in ok}) > 1] or params[:1]
    n = max(1, len(axes_params))
    figure, panels = plt.subplots(1, n, figsize=(5.2 * n, 4.2), squeeze=False)
    for panel, param in zip(panels[0], axes_params or [None], strict=True):
        if param is None:
            panel.text(0.5, 0.5, "no parameter varies", ha="center", transform=panel.transAxes)
            continue
        _panel(panel, ok, param, [p for p in params if p != param], column)
        _outliers(panel, odd, ok, param, column)
    figure.suptitle(f"{column} by parameter ({len(rows)} variants: "
                    f"{tally_words(tally(rows))})")
    figure.tight_layout()
    return figure


def _panel(panel, rows: list[dict], param: str, others: list[str], column: str) -> None:
    xs = sorted({r[param] for r in rows}, key=_sort_key)
    numeric = all(isinstance(x, (int, float)) for x in xs)
    position = {x: (x if numeric else k) for k, x in enumerate(xs)}
    lines: dict[tuple, list] = {}
    for r in rows:
        lines.setdefault(tuple(r[o] for o in others), []).append(r)
    for k, (group, members) in enumerate(sorted(lines.items(), key=lambda g: [
            _sort_key(v) for v in g[0]])):
        members.sort(key=lambda r: _sort_key(r[param]))
        label = ", ".join(f"{o}={v}" for o, v in zip(others, group, strict=True)) or column
        panel.plot([position[r[param]] for r in members], [r[column] for r in members],
                   marker="o", label=label if k < MAX_LINES else None)
    if numeric and len(xs) > 2 and all(x > 0 for x in xs) and xs[-1] / xs[0] >= 8:
        panel.set_xscale("log", base=2)
    panel.set_xticks([position[x] for x in xs], [str(x) for x in xs])
    panel.set_xlabel(param)
    panel.set_ylabel(column)
    panel.grid(True, alpha=0.3)
    if others:
        panel.legend(fontsize="small", title=f"{len(lines)} lines" if len(lines) > MAX_LINES
                     else None)


def _outliers(panel, odd: list[dict], ok: list[dict], param: str, column: str) -> None:
    """Variants whose outputs differ from --expect, or that did no work: red crosses off the
    lines, labelled, so a fast wrong answer is seen and never read as the best."""
    if not odd:
        return
    xs = sorted({r[param] for r in [*ok, *odd]}, key=_sort_key)
    numeric = all(isinstance(x, (int, float)) for x in xs)
    for kind in ("differs", "no work"):
        mine = [r for r in odd if verdict(r) == kind]
        if mine:
            panel.plot([r[param] if numeric else xs.index(r[param]) for r in mine],
                       [r[column] for r in mine], linestyle="none", marker="x", color="red"
                       if kind == "differs" else "grey",
                       label="differs from --expect" if kind == "differs" else "did no work")
    panel.legend(fontsize="small")


def _page(svg: str, rows: list[dict], columns: list[str], objective: str) -> str:
    column, _ = parse_objective(objective)
    top_rows = ranked(rows, objective)[:20]
    top = best(rows, objective)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "\n".join("<tr>" + "".join(f"<td>{html.escape(str(r.get(c, '')))}</td>"
                                      for c in columns) + "</tr>" for r in top_rows)
    summary = "no variant ran, did work and matched --expect" if top is None else \
        f"best by {html.escape(objective)}: {html.escape(str(top[column]))}"
    return (f"<!doctype html>\n<html><head><meta charset='utf-8'><title>pipev sweep</title>"
            f"<style>body{{font-family:sans-serif}} table{{border-collapse:collapse;"
            f"font-size:12px}} td,th{{border:1px solid #ccc;padding:2px 6px}}</style></head>"
            f"<body><h1>pipev sweep</h1><p>{len(rows)} variants: "
            f"{html.escape(tally_words(tally(rows)))}; {summary}</p>\n{svg}\n"
            f"<h2>best {len(top_rows)}</h2><table><tr>{head}</tr>\n{body}</table></body></html>\n")
