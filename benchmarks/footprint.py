"""Issue 20 targets 3 and 4: start-up and memory, each printed against its target; exit 1 when
one is missed.

    python benchmarks/footprint.py

3. start-up: `pipev run` of a trivial program (one `nop`) <= 1.5x the bare imports it needs
   (`python -c "import numpy, attrs, click"`): child CPU time (user + system, from
   RUSAGE_CHILDREN), medians of several runs, both with bytecode caching on (a warm-up run fills
   a private cache) as an installed pipev has it;
4. memory: <= 0.3 KB per assembled line (tracemalloc: bytes the Program keeps, per line, for
   60,000 one-repeat vsel lines and for an unrolled kernel), and a 200,000-line program run with
   a JSONL trace <= 150 MB peak RSS (ru_maxrss of the child process).
"""

from __future__ import annotations

import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import kernel_programs, repeated_kernel, vsel_program  # noqa: E402

STARTUP_RATIO = 1.5
KB_PER_LINE = 0.3
PEAK_MB = 150
PEAK_LINES = 200_000
RUNS = 9


def child_cpu(cmd: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) the child running CMD took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def startup(d: Path) -> bool:
    prog = d / "trivial.vasm"
    prog.write_text("nop\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(d / "pycache")
    run = [sys.executable, "-m", "simulator.cli", "run", str(prog), "--quiet",
           "--output-dir", str(d / "out")]
    bare = [sys.executable, "-c", "import numpy, attrs, click"]
    child_cpu(run, env), child_cpu(bare, env)  # warm-up: bytecode cached
    t_run, t_bare = [], []
    for _ in range(RUNS):  # interleaved, so a busy spell hits both
        t_run.append(child_cpu(run, env))
        t_bare.append(child_cpu(bare, env))
    ratio = statistics.median(t_run) / statistics.median(t_bare)
    ok = ratio <= STARTUP_RATIO
    print(f"start-up: pipev run trivial.vasm {statistics.median(t_run) * 1e3:.0f} ms CPU, "
          f"bare imports {statistics.median(t_bare) * 1e3:.0f} ms -> {ratio:.2f}x "
          f"(target <= {STARTUP_RATIO}x) {'ok' if ok else 'MISSED'}")
    return ok


def kept_per_line(text: str) -> tuple[float, int]:
    """(KB the assembled Program keeps per statement line, lines)."""
    import isa

    isa.assemble(text)  # warm: tables, chip profile, memos
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    prog = isa.assemble(text)
    kept = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return kept / len(prog.statements) / 1024, len(prog.statements)


def per_line() -> bool:
    ok = True
    relu = kernel_programs()["relu"]
    for name, text in (("60,000 vsel.f32 lines", vsel_program(60_000)),
                       ("relu unrolled x4,000", repeated_kernel(relu, 4_000, unroll=True)),
                       ("relu in .rept 4000", repeated_kernel(relu, 4_000))):
        kb, lines = kept_per_line(text)
        met = kb <= KB_PER_LINE
        ok &= met
        print(f"memory: {name} ({lines:,} statements): {kb:.3f} KB per line kept "
              f"(target <= {KB_PER_LINE}) {'ok' if met else 'MISSED'}")
    return ok


def peak(d: Path) -> bool:
    prog = d / "long.vasm"
    prog.write_text(vsel_program(PEAK_LINES))
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    # an intermediate process: RUSAGE_CHILDREN's maximum is then this run's alone
    out = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "simulator.cli",
                          "run", str(prog), "--quiet", "--output-dir", str(d / "out"),
                          "--trace", str(d / "long.jsonl")],
                         check=True, capture_output=True, text=True).stdout
    mb = int(out.split()[-1]) / 1024
    ok = mb <= PEAK_MB
    print(f"memory: {PEAK_LINES:,}-line program run with a JSONL trace: {mb:.0f} MB peak RSS "
          f"(target <= {PEAK_MB} MB) {'ok' if ok else 'MISSED'}")
    return ok


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        results = [startup(d), per_line(), peak(d)]
    ok = all(results)
    print("all targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
