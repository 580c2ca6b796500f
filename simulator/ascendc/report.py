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
    """The summary of one launch: a launch of several cores summed over them, as a `.vasm`
    launch's (docs/cores.md), each core on its own line."""
    from simulator.summary import summary_text

    result = launch.result()
    if result is None:
        return f"{launch.file}:{launch.line}: {launch.kernel}: no core finished"
    text = summary_text(result) + "\n" + UNTIMED
    if launch.block_dim > 1:
        text = (f"{launch.file}:{launch.line}: {launch.kernel}<<<{launch.block_dim}>>>: "
                f"{len(launch.cores)} cores one after another, summed:\n" + text)
    return text


def launch_dict(launch) -> dict:
    from simulator.summary import summary_dict

    result = launch.result()
    out = dict(summary_dict(result)) if result is not None else {}
    out.update({"kernel": launch.kernel, "file": launch.file, "line": launch.line,
                "block_dim": launch.block_dim})
    return out


def host_dict(session, exit_status: int) -> dict:
    """`pipev run host.cpp --json`: the program's launches, one after another, as one summary —
    cycles, instructions, busy cycles and stalls summed (utilisation over the summed cycles) —
    with each launch's own summary in `launches`, the program's exit status, and `gm`: a
    16-hex-digit hash of each GM buffer's bytes after the last launch that used it (outputs
    the program writes to files are its own)."""
    launches = [launch_dict(launch) for launch in session.launches]
    cycles = sum(d.get("cycles", 0) for d in launches)
    busy: dict[str, int] = {}
    stalls: dict[str, int] = {}
    for d in launches:
        for pipe, figures in d.get("pipes", {}).items():
            busy[pipe] = busy.get(pipe, 0) + figures["busy"]
        for cause, n in d.get("stalls", {}).items():
            stalls[cause] = stalls.get(cause, 0) + n
    chip = session.chip
    return {"chip": chip.name, "cycles": cycles, "time_us": round(cycles / chip.clock_mhz, 6),
            "instructions": sum(d.get("instructions", 0) for d in launches),
            "uops": sum(d.get("uops", 0) for d in launches),
            "pipes": {p: {"busy": b, "utilisation": round(b / cycles, 6) if cycles else 0.0}
                      for p, b in busy.items()},
            "stalls": stalls, "warnings": [str(d) for d in session.diagnostics
                                           if d.severity != "error"],
            "exit_status": exit_status, "gm": gm_hashes(session.launches),
            "launches": launches}


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
