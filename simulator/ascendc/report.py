"""What the worker prints: diagnostics as they arise, one summary per kernel launch (stderr:
stdout belongs to the program) with its --view views, and the run's outcome (--expect,
--werror, --json); `pipev check` (the `ok` line) and `pipev asm` (the listing) of a C++
program end here too, and the Python API's run leaves its result in a file (`result`)."""

from __future__ import annotations

import os
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
        self.mode = config.get("mode", "run")  # run | check | asm
        self.source = config.get("source", "")
        self.views = tuple(config.get("views", ()))
        self.expects = dict(config.get("expects", {}))
        self.expect_ulp = int(config.get("expect_ulp", 0))
        self.result_path = config.get("result")  # the Python API's run: prints nothing
        self.kernel_outputs: dict | None = None  # a kernel-only run's out: buffers
        self.failed_expect = False
        self.listing = None  # simulator.ascendc.listing.Collector of `pipev asm`
        self.out = open(os.devnull, "w") if self.result_path else sys.stderr  # noqa: SIM115

    def launch_observers(self) -> list:
        """A launch's own observers: --view's (one Views over all its cores)."""
        if not self.views:
            return []
        from simulator.views import Views

        return [Views()]

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
        result = launch.result()
        if launch.observers and result is not None:
            from simulator.views import shown

            for name in dict.fromkeys(self.views):
                self.out.write(shown(launch.observers[0], name, result) + "\n")
        self.out.flush()

    @property
    def ok(self) -> bool:
        return not (self.promoted or self.failed_expect or
                    (self.session is not None and self.session.failed))

    def outputs(self) -> dict:
        """What the run produced, by name: a kernel-only run's `out:` buffers, else each GM
        buffer as the last launch that used it left it (bytes: a host program's buffers are
        untyped)."""
        if self.kernel_outputs is not None:
            return dict(self.kernel_outputs)
        out: dict = {}
        for launch in self.session.launches if self.session is not None else ():
            last = launch.last
            out.update(getattr(last, "outputs", None) or {})
        return out

    def finish(self, rc: int) -> int:
        """The exit status; under --json a failed run also prints `{"ok": false,
        "diagnostics": [...]}` on stdout, as `pipev run` of a .vasm does. First the --expect
        comparisons, `check`'s verdict or `asm`'s listing, and the API's result file."""
        if self.ok and self.expects:
            self._compare()
        if self.mode == "check" and self.ok and rc == 0:  # else the run has said why
            self._check_verdict()
        if self.mode == "asm" and self.listing is not None:
            sys.stdout.write(self.listing.text() + "\n")
            sys.stdout.flush()
        if self.result_path:
            self._save_result(rc)
        if self.ok:
            return rc
        if self.as_json:
            import json

            from simulator.commands import failure_object

            sys.stdout.write(json.dumps(failure_object(self.diagnostics)) + "\n")
            sys.stdout.flush()
        return 1

    def _compare(self) -> None:
        """--expect NAME=FILE.npy against the run's outputs (an error per mismatch, at the
        launch that last wrote NAME)."""
        from simulator.expect import check_arrays

        where = {}
        for launch in self.launches:
            for name in getattr(launch.last, "outputs", None) or {}:
                where[name] = (launch.file, launch.line)
        for d in check_arrays(self.source, self.outputs(), self.expects, self.expect_ulp,
                              where):
            self.failed_expect = True
            self.emit(d)

    def _check_verdict(self) -> None:
        """`pipev check k.cpp`: `ok` naming what was checked, or an error for a program that
        launched no kernel (nothing was checked: never a silent ok)."""
        launches = self.session.launches if self.session is not None else []
        if not launches:
            self.failed_expect = True
            self.emit(Diagnostic("error", self.source, 1, 1, "the program made no kernel "
                                 "launch: nothing was checked (`pipev check` runs the program "
                                 "and checks what its launches issue)"))
            return
        cores = sum(launch.block_dim for launch in launches)
        n = len(launches)
        issued = sum(getattr(launch.result(), "instructions", 0) for launch in launches)
        self.out.write(f"{self.source}: ok ({n} kernel launch{'es' if n != 1 else ''} on "
                       f"{cores} core{'s' if cores != 1 else ''}, {issued} instructions, "
                       f"chip {self.chip.name})\n")

    def _save_result(self, rc: int) -> None:
        """The Python API's run: its RunResult (simulator/ascendc/api.py reads it)."""
        import pickle


        with open(self.result_path, "wb") as f:
            pickle.dump(result_payload(self, rc), f)


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


def result_payload(reporter, rc: int) -> dict:
    """What the worker hands back to `pipev.run` (simulator/ascendc/api.py)."""
    import numpy as np

    from simulator.result import RunResult

    session = reporter.session
    launches = [launch.result() for launch in (session.launches if session else [])]
    return {"launches": [r for r in launches if isinstance(r, RunResult)],
            "outputs": {k: np.array(v) for k, v in reporter.outputs().items()},
            "diagnostics": list(reporter.diagnostics), "exit_status": rc,
            "ok": reporter.ok, "chip": reporter.chip}
