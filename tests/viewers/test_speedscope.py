"""Chrome traces of shipped programs in speedscope (npm, tests/viewers/node_modules).

speedscope's release build is served from 127.0.0.1 and opens the trace by its
`#profileURL=` hash in headless Chromium. Its Chrome-trace importer reports slices that do not
nest (`Tried to end "x" when "y" was on the top of the stack`, `Frame "x" was still open at end
of profile`) with console.warn: a trace imports cleanly when the page logs no warning or error
and shows one profile per thread. A trace with overlapping siblings shows that the check
catches what issue 18 saw.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support import viewers
from tests.support.viewers import PROGRAMS, chrome_trace

# Chromium's software GL (SwiftShader) logs its own performance notes as console warnings
GPU_NOTE = re.compile(r"^\[\.WebGL-[0-9a-fx]+\]GL Driver Message")


@pytest.fixture(scope="module")
def speedscope(chromium_context):
    """load(doc) -> (profiles shown, warnings and errors logged) for speedscope opening DOC."""
    with viewers.static_server(viewers.SPEEDSCOPE) as (origin, bodies):
        loads = []

        def load(doc: dict) -> tuple[int, list[str]]:
            loads.append(doc)
            name = f"trace{len(loads)}.json"
            bodies[f"/{name}"] = json.dumps(doc).encode()
            page = chromium_context.new_page()
            logged: list[str] = []
            page.on("console", lambda m: logged.append(f"{m.type}: {m.text}")
                    if m.type in ("warning", "error") and not GPU_NOTE.match(m.text) else None)
            page.on("pageerror", lambda e: logged.append(f"pageerror: {e}"))
            page.on("dialog", lambda d: (logged.append(f"dialog: {d.message}"), d.dismiss()))
            viewers.only_origin(page, origin)
            try:
                page.goto(f"{origin}/index.html#profileURL={origin}/{name}")
                page.wait_for_function("(name) => document.title === name + ' - speedscope'",
                                       arg=name)
                shown = re.search(r"\((\d+)/(\d+)\)", page.inner_text("body"))
                return int(shown[2]) if shown else 1, logged
            finally:
                page.close()

        yield load


def threads_with_slices(doc: dict) -> int:
    return len({(e["pid"], e["tid"]) for e in doc["traceEvents"] if e["ph"] == "X"})


@pytest.mark.parametrize("time", ["cycles", "real"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_speedscope_imports_without_a_nesting_warning(speedscope, tmp_path, program: Path, time):
    doc = chrome_trace(program, tmp_path, time)
    profiles, logged = speedscope(doc)
    assert logged == []
    assert profiles == threads_with_slices(doc)


def test_speedscope_check_catches_overlapping_siblings(speedscope):
    """Issue 18's failure in small: a slice that ends after its sibling began."""
    doc = {"traceEvents": [{"name": n, "ph": "X", "pid": 1, "tid": 1, "ts": ts, "dur": 10}
                           for n, ts in (("a", 0), ("b", 9.999), ("c", 20))]}
    _, logged = speedscope(doc)
    assert any('Tried to end "a"' in m for m in logged), logged
