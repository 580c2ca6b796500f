"""What the worker prints: diagnostics as they arise, one summary per kernel launch (stderr:
stdout belongs to the program), and the run's outcome (--werror, --json)."""

from __future__ import annotations

import sys

import attrs

from isa.diagnostics import Diagnostic
from simulator.render import render


class Reporter:
    def __init__(self, config: dict, chip):
        self.chip = chip
        self.quiet = bool(config.get("quiet"))
        self.as_json = bool(config.get("json"))
        self.werror = bool(config.get("werror"))
        self.show_source = bool(config.get("show_source", True))  # not --no-source, --json
        self.session = None  # set by the worker once the session exists
        self.promoted = False  # a warning became an error under --werror
        self.launches = []
        self.diagnostics: list[Diagnostic] = []  # as reported (--json's failure object)
        self.out = sys.stderr

    def emit(self, d: Diagnostic) -> None:
        warning = d
        if self.werror and d.severity == "warning":
            d = attrs.evolve(d, severity="error")
            self.promoted = True
        self.diagnostics.append(d)
        self.out.write(render(d, self.show_source) + "\n")
        self.out.flush()
        session = self.session
        if d is not warning and session is not None and not session.failed:
            # an error now: it fails the session as any error does, so the host program ends
            # at this launch and writes nothing (its WriteFile would replace the user's file)
            session.fail([warning])

    def printer(self, write_stdout):
        """Where kernel printf text goes: the program's stdout, or stderr under --json (whose
        stdout is the JSON object)."""
        if not self.as_json:
            return write_stdout

        def to_stderr(text: str) -> None:
            self.out.write(text)
            self.out.flush()

        return to_stderr

    def launch_end(self, launch) -> None:
        self.launches.append(launch)
        if self.quiet or self.as_json:
            return
        self.out.write(launch_summary(launch) + "\n")
        self.out.flush()

    @property
    def ok(self) -> bool:
        return not (self.promoted or (self.session is not None and self.session.failed))

    def finish(self, rc: int) -> int:
        """The exit status; under --json a failed run also prints `{"ok": false,
        "diagnostics": [...]}` on stdout, as `pipev run` of a .vasm does."""
        if self.ok:
            return rc
        if self.as_json:
            import json

            from simulator.commands import failure_object

            sys.stdout.write(json.dumps(failure_object(self.diagnostics)) + "\n")
            sys.stdout.flush()
        return 1


UNTIMED = "  scalar C++ code is not timed (it runs natively between the API calls)"


def launch_summary(launch) -> str:
    """The summary of one launch, a `.vasm` launch's (docs/cores.md): a launch of several cores
    says on how many vector cores in how many waves they ran, its figures are summed over
    them, and each core has its line (its span in the launch's cycles)."""
    from simulator.summary import summary_text

    result = launch.result()
    if result is None:
        return f"{launch.file}:{launch.line}: {launch.kernel}: no core finished"
    return summary_text(result) + "\n" + UNTIMED


def launch_dict(launch) -> dict:
    from simulator.summary import summary_dict

    result = launch.result()
    out = dict(summary_dict(result)) if result is not None else {}
    out.update({"kernel": launch.kernel, "file": launch.file, "line": launch.line,
                "block_dim": launch.block_dim})
    return out


def host_dict(session, exit_status: int) -> dict:
    """`pipev run host.cpp --json`: the `.vasm` run's summary with the same fields. One launch:
    that launch's (`block_dim`, `vector_cores`, `waves` and `cores` for several cores). Several
    launches, which run one after another: cycles, instructions, busy cycles and stalls
    summed, utilisation over the cycles each launch's cores spent, hot lines merged. Then each
    launch's own summary in `launches`, the program's exit status, and `gm`: a 16-hex-digit
    hash of each GM buffer's bytes after the last launch that used it (outputs the program
    writes to files are its own)."""
    launches = [launch_dict(launch) for launch in session.launches]
    warnings = [str(d) for d in session.diagnostics if d.severity != "error"]
    if len(launches) == 1:
        top = {k: v for k, v in launches[0].items() if k not in ("kernel", "file", "line")}
    else:
        top = _summed(session.chip, launches)
    top = {"ok": True, **top}
    top.update(warnings=warnings, exit_status=exit_status, gm=gm_hashes(session.launches),
               launches=launches)
    return top


def _summed(chip, launches: list[dict]) -> dict:
    """Launches run one after another, as one summary (build_summary's fields)."""
    from simulator.stats import HOT_LINES
    from simulator.summary import build_summary

    cycles = sum(d.get("cycles", 0) for d in launches)
    span = sum(sum(c["cycles"] for c in d["cores"]) if "cores" in d else d.get("cycles", 0)
               for d in launches)  # what each pipe's utilisation is over, as in a launch
    busy: dict[str, int] = {}
    stalls: dict[str, int] = {}
    hot: dict[tuple, dict] = {}
    for d in launches:
        for pipe, figures in d.get("pipes", {}).items():
            busy[pipe] = busy.get(pipe, 0) + figures["busy"]
        for cause, n in d.get("stalls", {}).items():
            stalls[cause] = stalls.get(cause, 0) + n
        for h in d.get("hot_lines", []):
            key = (h["file"], h["line"], h["text"])
            hot.setdefault(key, {**h, "cycles": 0})["cycles"] += h["cycles"]
    timed = any("stalls" in d for d in launches)
    out = build_summary(chip, cycles, busy, sum(d.get("instructions", 0) for d in launches),
                        sum(d.get("uops", 0) for d in launches), [], None,
                        stalls if timed else None,
                        sorted(hot.values(), key=lambda h: (-h["cycles"], h["file"],
                                                            h["line"]))[:HOT_LINES]
                        if timed else None)
    for figures in out["pipes"].values():
        figures["utilisation"] = round(figures["busy"] / span, 6) if span else 0.0
    return out



def gm_hashes(launches) -> dict[str, str]:
    import hashlib

    import numpy as np

    out: dict[str, str] = {}
    for launch in launches:
        if not launch.cores:
            continue
        last = launch.last  # the cores ran one after another over the same GM
        for name, arr in sorted(last.outputs.items()):
            out[name] = hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest()[:16]
    return out
