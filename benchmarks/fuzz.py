"""A mutation fuzzer for ISA.md §9.1 "no input ever produces a Python traceback": it mutates the
example programs under programs/ (token swaps and deletions, duplicated and spliced lines,
random and huge numbers, odd characters, truncation) and runs each through the CLI entry point
in-process, over every chip and --checks mode, with `run`, now and then `check`, `asm` or a
trace. A finding is a traceback, a Python warning, a stderr line that is not a diagnostic, or
an exit status outside 0/1/2; a run longer than --timeout seconds is reported as slow.

    python benchmarks/fuzz.py [--n 10000] [--seed S] [--timeout 10] [--save DIR]

Exits 1 when it found anything but slow runs. tests/cli/test_fuzz.py runs the same `fuzz` function
on a few hundred mutations.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from isa.table import INSTRUCTIONS  # noqa: E402
from simulator.cli import main  # noqa: E402

CHIPS = ("ascend910", "ascend310p", "ascend910b", "ascend310b", "ascend950", None)
CHECKS = ("error", "warn", "off")
TRACES = ("jsonl", "chrome", "vcd", "text")
DIAG = re.compile(r"^.+:\d+:\d+: (error|warning|note): \S")
QUOTE = re.compile(r"^ *\d+ \| |^ +\| ")  # the source line and caret under a diagnostic
CHECK_OK = re.compile(r"^.+: ok \(\d+ statements, chip \S+\)$")  # `pipev check` on stderr
TOKEN = re.compile(r'"[^"\n]*"|0[xX][0-9a-fA-F_]+|\d[\w.]*|[A-Za-z_.][\w.]*|\S')
NUMBER = re.compile(r"^(0[xX][0-9a-fA-F_]+|\d[\w.]*)$")
BOUNDARY = ["0", "1", "2", "-1", "7", "8", "31", "32", "33", "63", "64", "127", "128", "255",
            "256", "257", "4095", "4096", "65535", "65536", "0x7fffffff", "0xffffffff",
            "4294967296", "0x7fffffffffffffff", "18446744073709551615", "18446744073709551616",
            "-9223372036854775808", "1.5", "-0.0", "nan", "inf", "-inf", "1e38", "65504",
            "0x", "0b2", "1_000", "0_", "3.", ".5e", "(1, 2)", "x1", "x31", "x32", "x1+32",
            "{i}", "2*3", "7//0", "7%0", "((1))"]
ODD = ["\x00", "\r", "\t", "\x0b", "\x0c", "\x7f", "\u2028", "\ufeff", "\u00e9", "\u0301",
       "\U0001d7d8", "\u0661", "\u3000", '"', "'", "[", "]", "(", ")", "{", "}", "{i}", ";", "#",
       ",", "=", "@", "\\", ":", ".", "-", "*", "//", "%", " " * 120, "\n", "\n\n.endr\n",
       "\n.rept 3\n", "scalar(", "cmpmask", "\udcff"]
EXTRA_VOCAB = ["x0", "x1", "x31", "@x1", "@x1+32", "@0", "@0x3c000", "repeat=", "count=x1",
               "mode=", "mask=", "mask_lo=", "mask_hi=", "stride=", "src0_blk=", "dst_rep=",
               "nburst=", "burst=", "src_gap=", "dst_gap=", ".rept", ".endr", ".end",
               ".chip", ".gm", ".ub", "input", "output", "inout", "=", "zeros", "fill(1)",
               "arange(0)", "random(1)", 'file("x.npy")', 'bits("00")', "f16", "f32", "u8",
               "s64", "c32", "bf16", "u64[8]", "f32[64]", "scalar(x[0])", "cmpmask", "V",
               "MTE2", "MTE3", "S", "ALL", "ascend950", "ascend910", "lbl:", "lbl"]


class FuzzTimeout(BaseException):
    """A run over the time limit (a BaseException, so that no `except Exception` eats it)."""


@dataclass
class Finding:
    kind: str  # traceback | warning | stderr | exit | slow
    key: str  # what makes two findings the same
    detail: str
    args: list[str]
    text: str


@dataclass
class Report:
    mutations: int = 0
    seconds: float = 0.0
    exits: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)

    def unique(self, *kinds: str) -> dict[str, Finding]:
        out: dict[str, Finding] = {}
        for f in self.findings:
            if not kinds or f.kind in kinds:
                out.setdefault(f.key, f)
        return out

    @property
    def failures(self) -> list[Finding]:
        return [f for f in self.findings if f.kind != "slow"]


# -- mutations ------------------------------------------------------------------------------------
def _tokens(lines: list[str]) -> list[tuple[int, re.Match]]:
    return [(i, m) for i, ln in enumerate(lines) for m in TOKEN.finditer(ln)]


def _replace(lines: list[str], i: int, m: re.Match, new: str) -> None:
    lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]


def swap_tokens(rng: random.Random, lines: list[str], _pool) -> None:
    toks = _tokens(lines)
    if len(toks) < 2:
        return
    (i, a), (j, b) = sorted(rng.sample(toks, 2), key=lambda t: (t[0], -t[1].start()),
                            reverse=True)
    ta, tb = a.group(), b.group()
    _replace(lines, i, a, tb)  # the later token first, so the earlier one's offsets hold
    _replace(lines, j, b, ta)


def delete_token(rng: random.Random, lines: list[str], _pool) -> None:
    toks = _tokens(lines)
    if toks:
        _replace(lines, *rng.choice(toks), "")


def delete_line(rng: random.Random, lines: list[str], _pool) -> None:
    if lines:
        del lines[rng.randrange(len(lines))]


def duplicate_line(rng: random.Random, lines: list[str], _pool) -> None:
    if lines:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines))


def splice_line(rng: random.Random, lines: list[str], pool: list[list[str]]) -> None:
    other = rng.choice(pool)
    if other:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(other))


def _number_token(rng: random.Random, lines: list[str]) -> tuple[int, re.Match] | None:
    toks = _tokens(lines)
    nums = [t for t in toks if NUMBER.match(t[1].group())]
    return rng.choice(nums or toks) if toks else None


def random_number(rng: random.Random, lines: list[str], _pool) -> None:
    at = _number_token(rng, lines)
    if at:
        new = rng.choice(BOUNDARY) if rng.random() < 0.6 else str(rng.randint(-300, 70000))
        _replace(lines, *at, new)


def huge_number(rng: random.Random, lines: list[str], _pool) -> None:
    at = _number_token(rng, lines)
    if not at:
        return
    k = rng.choice((20, 65, 400, 1100, 4400, 6000))
    new = rng.choice(("9" * k, "0x" + "f" * k, "-" * min(k, 999) + "1", "1e" + str(k),
                      "(" * min(k, 300) + "1" + ")" * min(k, 300), "1" + "+1" * min(k, 600),
                      "2" + "*2" * min(k, 400), str(1 << 64), str(1 << 63), "0." + "0" * k))
    _replace(lines, *at, new)


def odd_chars(rng: random.Random, lines: list[str], _pool) -> None:
    if not lines:
        lines.append("")
    i = rng.randrange(len(lines))
    pos = rng.randint(0, len(lines[i]))
    lines[i] = lines[i][:pos] + rng.choice(ODD) + lines[i][pos:]


def vocab_token(rng: random.Random, lines: list[str], _pool) -> None:
    toks = _tokens(lines)
    if toks:
        words = EXTRA_VOCAB + list(INSTRUCTIONS)
        _replace(lines, *rng.choice(toks), rng.choice(words))


def truncate(rng: random.Random, lines: list[str], _pool) -> None:
    text = "\n".join(lines)
    cut = text[:rng.randint(0, len(text))]
    lines[:] = cut.split("\n")


MUTATIONS: tuple[Callable, ...] = (swap_tokens, swap_tokens, delete_token, delete_line,
                                   duplicate_line, splice_line, random_number, random_number,
                                   random_number, huge_number, odd_chars, odd_chars,
                                   vocab_token, vocab_token, truncate)


def mutate(rng: random.Random, text: str, pool: list[list[str]]) -> str:
    lines = text.split("\n")
    for _ in range(rng.choice((1, 1, 2, 2, 3, 4))):
        rng.choice(MUTATIONS)(rng, lines, pool)
    return "\n".join(lines)


# -- running ------------------------------------------------------------------------------------
def _arguments(rng: random.Random, prog: Path, work: Path, i: int) -> list[str]:
    command = rng.choices(("run", "check", "asm"), (8, 1, 1))[0]
    args = [command, str(prog)]
    chip = CHIPS[i % len(CHIPS)]
    if chip is not None:
        args += ["--chip", chip]
    if command == "run":
        args += ["--checks", CHECKS[(i // len(CHIPS)) % len(CHECKS)], "--quiet",
                 "--max-steps", "20000", "--output-dir", str(work / "out")]
        if rng.random() < 0.1:
            fmt = rng.choice(TRACES)
            args += ["--trace", str(work / f"trace.{fmt}"), "--trace-format", fmt]
    return args


def _alarm(_signum, _frame) -> None:
    raise FuzzTimeout


def run_one(args: list[str], timeout: float) -> tuple[object, str, int, list[str], float]:
    """(exception or None, stderr, exit code, Python warnings, seconds) of one CLI run."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    start = time.perf_counter()
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            res = CliRunner().invoke(main, args)
    except FuzzTimeout:
        return FuzzTimeout(), "", -1, [], time.perf_counter() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    exc = res.exception if not isinstance(res.exception, SystemExit) else None
    if isinstance(exc, FuzzTimeout):
        exc = FuzzTimeout()
    exc_info = res.exc_info if exc is not None else None
    found = [f"{w.category.__name__}: {w.message} ({Path(w.filename).name}:{w.lineno})"
             for w in seen]
    stderr = res.stderr if exc_info is None else _trace_text(exc_info)
    return exc, stderr, res.exit_code, found, time.perf_counter() - start


def _trace_text(exc_info) -> str:
    return "".join(traceback.format_exception(*exc_info))


def _where(tb_text: str) -> str:
    """The innermost pipev frame of a traceback: File "...", line N, in F."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', tb_text)
    ours = [f for f in frames if "/isa/" in f[0] or "/simulator/" in f[0]] or frames
    if not ours:
        return "?"
    path, line, fn = ours[-1]
    return f"{Path(path).parent.name}/{Path(path).name}:{line} {fn}"


def classify(exc, stderr: str, code: int, found: list[str], seconds: float, args: list[str],
             text: str, timeout: float) -> list[Finding]:
    out = []
    if isinstance(exc, FuzzTimeout):
        return [Finding("slow", f"slow {args[0]}", f"over {timeout:g} s", args, text)]
    if exc is not None:
        last = stderr.strip().splitlines()[-1] if stderr.strip() else repr(exc)
        out.append(Finding("traceback", f"{type(exc).__name__} at {_where(stderr)}",
                           last[:300], args, text))
        return out
    for w in found:
        out.append(Finding("warning", re.sub(r"\d+", "N", w)[:120], w[:300], args, text))
    bad = [ln for ln in stderr.splitlines() if ln and not DIAG.match(ln) and not QUOTE.match(ln)
           and not CHECK_OK.match(ln) and not ln.startswith(("Usage:", "Try '", "Error: "))]
    if bad:
        out.append(Finding("stderr", re.sub(r"\d+", "N", bad[0])[:80], bad[0][:300], args,
                           text))
    if code not in (0, 1, 2):
        out.append(Finding("exit", f"exit {code}", f"exit status {code}", args, text))
    return out


def sources(root: Path = ROOT / "programs") -> list[tuple[Path, str]]:
    return [(p, p.read_text(encoding="utf-8")) for p in sorted(root.rglob("*.vasm"))]


def fuzz(n: int, seed: int, timeout: float = 10.0, progress: Callable | None = None
         ) -> Report:
    """N mutations of the example programs from SEED; every run's findings in the report."""
    rng = random.Random(seed)
    progs = sources()
    pool = [text.split("\n") for _, text in progs]
    report = Report()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pipev-fuzz-") as tmp:
        work = Path(tmp)
        for src, _ in progs:  # data files next to the programs (file("…") INITs)
            for npy in src.parent.glob("*.npy"):
                shutil.copy(npy, work / npy.name)
        for i in range(n):
            src, text = progs[rng.randrange(len(progs))]
            mutated = mutate(rng, text, pool)
            prog = work / src.name
            prog.write_bytes(mutated.encode("utf-8", "surrogateescape"))
            args = _arguments(rng, prog, work, i)
            result = run_one(args, timeout)
            report.exits[result[2]] += 1
            report.findings += classify(*result, args, mutated, timeout)
            report.mutations += 1
            if progress is not None:
                progress(report, i)
    report.seconds = time.perf_counter() - start
    return report


# -- the script ---------------------------------------------------------------------------------
def _print_report(report: Report, save: Path | None) -> None:
    print(f"{report.mutations} mutations in {report.seconds:.1f} s "
          f"({report.mutations / max(report.seconds, 1e-9):.0f}/s); exit statuses "
          + ", ".join(f"{k}: {v}" for k, v in sorted(report.exits.items())))
    kinds = Counter(f.kind for f in report.findings)
    print("findings: " + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "none"))
    for k, (key, f) in enumerate(report.unique().items()):
        print(f"\n[{f.kind}] {key}\n  {f.detail}\n  pipev {' '.join(f.args)}")
        if save is not None:
            save.mkdir(parents=True, exist_ok=True)
            path = save / f"finding{k:03d}.vasm"
            path.write_bytes(f.text.encode("utf-8", "surrogateescape"))
            print(f"  program saved as {path}")


def main_() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10_000, help="mutations to run")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds before a run is slow")
    ap.add_argument("--save", type=Path, help="write each unique finding's program here")
    a = ap.parse_args()

    def progress(report: Report, i: int) -> None:
        if (i + 1) % 1000 == 0:
            print(f"  {i + 1} mutations, {len(report.failures)} findings", file=sys.stderr)

    report = fuzz(a.n, a.seed, a.timeout, progress)
    _print_report(report, a.save)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main_())
