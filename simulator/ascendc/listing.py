"""`pipev asm k.cpp`: the listing of a C++ program at its C++ lines.

A C++ kernel has no statement list before it runs: its scalar code decides what it issues. So
`asm` runs the program (as `check` does: untimed, on its own inputs) with streams that note
every statement they are given, and lists, per launch, each C++ call site's line, the API
statements it issued (registers `x1…` hold the values that change from call to call: element
offsets, counts, repeats), how often each ran over the launch's cores, and the hardware
instructions each expands to — the `.vasm` listing's columns (isa/listing.py).
"""

from __future__ import annotations

from isa.listing import hardware_lines, listing
from isa.program import Program, Statement
from simulator.ascendc.source import SourceLines
from simulator.stream import Stream

RUN_TIME = "decoded at run time (register operands or MASK)"


class _Site:
    """One statement text issued at one C++ position."""

    def __init__(self, file: str, line: int, text: str, statement: Statement | None):
        self.file, self.line, self.text = file, line, text
        self.statement = statement
        self.count = 0


class _Launch:
    def __init__(self, name: str, block_dim: int):
        self.name, self.block_dim = name, block_dim
        self.sites: dict[tuple[str, int, str], _Site] = {}
        self.tensors: dict = {}


class Collector:
    """Notes what every stream of the run issues; `text()` / `data()` list it by launch."""

    def __init__(self, as_json: bool = False):
        self.as_json = as_json
        self.launches: list[_Launch] = []
        self.chip = None

    def stream(self, chip, **options) -> Stream:
        """The session's stream factory: a Stream that reports its statements here (the first
        core of a launch opens the launch's section)."""
        self.chip = chip
        core, n = options.get("block", (0, 1))
        name = options.get("name", "<stream>").removesuffix(f" core {core}")
        if core == 0 or not self.launches:
            self.launches.append(_Launch(name, n))
        return _ListedStream(self.launches[-1], chip, record_gm=False, **options)

    # -- the listing -----------------------------------------------------------------------
    def data(self) -> dict:
        return {"chip": self.chip.name if self.chip is not None else None,
                "launches": [self._launch_data(launch) for launch in self.launches]}

    def _launch_data(self, launch: _Launch) -> dict:
        """The launch's call sites by file (in the order first used) and line, each line's
        statements in the order first issued (a double buffer's two texts side by side)."""
        order = list(launch.sites.values())
        files: dict[str, int] = {}
        for site in order:
            files.setdefault(site.file, len(files))
        sites = [site for _, site in sorted(enumerate(order), key=lambda ks: (
            files[ks[1].file], ks[1].line, ks[0]))]
        statements = []
        for pc, site in enumerate(sites):
            st = site.statement
            if st is None:
                continue
            statements.append(st.evolve(pc=pc))
        rows = {s["pc"]: s for s in listing(_program(launch, statements, self.chip))}
        out = []
        for pc, site in enumerate(sites):
            hw = rows[pc]["hw"] if pc in rows else []
            api = len(hw) > 1 or any(h["text"] != site.text for h in hw)
            out.append({"file": site.file, "line": site.line, "cpp": _line_text(site),
                        "source": site.text, "count": site.count, "api": api, "hw": hw})
        return {"launch": launch.name, "block_dim": launch.block_dim, "statements": out}

    def text(self) -> str:
        if self.as_json:
            import json

            return json.dumps(self.data())
        out = []
        for launch in self.data()["launches"]:
            cores = f"<<<{launch['block_dim']}>>>" if launch["block_dim"] > 1 else ""
            out.append(f"; {launch['launch']}{cores} on {self.chip.name}: each API call at its "
                       "C++ line, the statements it issued (x1… hold the values that change "
                       "between calls) and how often they ran")
            at = None
            for s in launch["statements"]:
                if s["file"] != (at or ("",))[0]:
                    out.append(f"; {s['file']}")
                if (s["file"], s["line"]) != at:
                    at = (s["file"], s["line"])
                    out.append(f"{s['line']:>5}  {s['cpp']}")
                out.append(f"{'':>7}{s['source']:<58} x{s['count']}")
                for h in hardware_lines(out, s, 72):
                    for u in h["uops"]:
                        if u.get("note") not in (None, RUN_TIME):
                            out.append(f"{'':>16}; {u['note']}")
        return "\n".join(out)


class _ListedStream(Stream):
    """A Stream that notes each statement it is given in its launch's section."""

    def __init__(self, launch: _Launch, chip, **options):
        super().__init__(chip, **options)
        self._listed = launch

    def issue(self, text: str, *, file: str = "", line: int = 0, col: int = 0,
              regs=()) -> None:
        key = (file or self.name, line, text)
        site = self._listed.sites.get(key)
        if site is None:
            site = self._listed.sites[key] = _Site(*key, None)
        site.count += 1
        try:
            super().issue(text, file=file, line=line, col=col, regs=regs)
        finally:
            if site.statement is None:
                hw = self._statements.get(key)
                if hw:
                    site.statement = Statement(0, line, max(col, 1), text, hw[0].defn,
                                               tuple(hw))
            self._listed.tensors.update(self.tensors)


def _program(launch: _Launch, statements: list[Statement], chip) -> Program:
    return Program(path=launch.name, chip=chip, chip_from_text=None, tensors=launch.tensors,
                   statements=tuple(statements), labels={}, lines=())


_SOURCE = SourceLines()


def _line_text(site: _Site) -> str:
    """The C++ line of SITE, stripped ('' when the file cannot be read)."""
    return _SOURCE.line(site.file, site.line).strip()
