"""What the debugger's pre-write hook (`Observer.before_write`) costs `pipev run` when no
debugger is attached — it should cost nothing measurable — and what a debugging session costs
per instruction.

    python benchmarks/debugger_overhead.py          # exit 1 when the hook costs > 3%

The baseline is the *current* executor with the hook compiled out: simulator/executor.py's own
source with the hook loops removed, loaded as a separate module. So the comparison measures
the hook and nothing else, whatever else changes in the executor.
"""

from __future__ import annotations

import importlib.util
import io
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import run_times  # noqa: E402

import isa  # noqa: E402
import simulator.executor  # noqa: E402
from simulator.debugger import Commands, Session  # noqa: E402
from simulator.machine import Machine  # noqa: E402
from simulator.run import gm_arrays  # noqa: E402
from simulator.sources import ProgramSource  # noqa: E402

RUN = importlib.import_module("simulator.run")  # the module (`simulator.run` is the function)

HEADER = """.chip ascend910b
.ub x f32[4096] = random(1)
.ub y f32[4096] = random(2)
.ub m u8[32] = random(3)
"""
WORKLOADS = {
    # many small vector instructions: the hook's test runs once per instruction
    "20,000 vsel.f32 repeat=1": HEADER + "    set_cmpmask m\n"
    + "    vsel.f32 x, x, y, repeat=1\n" * 20_000,
    # a register loop: scalar, vector and branch instructions
    "loop of 10,000 x (vadds, add, blt)": HEADER + "    li x1, 0\ntop:\n"
    "    vadds.f32 x, x, 1.0, repeat=4\n    add x1, x1, 1\n    blt x1, 10000, top\n",
    # DMA-heavy
    "4,000 ub->ub copies": HEADER + "    copy_ub_to_ub y, x, nburst=4, burst=8, src_gap=8, "
    "dst_gap=8\n" * 4_000,
}
LIMIT = 1.03  # the hook may cost at most 3% (timing noise included)


def hookless_executor() -> type:
    """The current Executor class with every `before` hook line removed."""
    src = Path(simulator.executor.__file__).read_text()
    src = re.sub(r"\n[ \t]*for hook in self\._before:\n[ \t]*hook\([^\n]*\)", "", src)
    if re.search(r"^[^#\n]*\bhook\(", src, re.M):
        raise SystemExit("could not compile the hook out of simulator/executor.py")
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "executor_without_hook.py"
        path.write_text(src)
        spec = importlib.util.spec_from_file_location("executor_without_hook", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module.Executor


def best(fn: Callable[[], object], repeats: int) -> float:
    """Least CPU time of REPEATS calls (after one warm-up): process time, so other work on a
    shared machine does not count, and the minimum, the least disturbed run."""
    return min(run_times(fn, repeats, time.process_time))


def compare(name: str, text: str, plain: type, repeats: int) -> float:
    program = isa.assemble(text)
    hooked = simulator.executor.Executor

    def bare(cls: type) -> Callable[[], None]:
        def go() -> None:
            cls(Machine(program.chip, gm_arrays(program, None), program),
                ProgramSource(program)).run()
        return go

    def full(cls: type) -> Callable[[], None]:
        def go() -> None:
            RUN.Executor = cls
            try:
                RUN.run(program)
            finally:
                RUN.Executor = hooked
        return go

    worst = 0.0
    for label, make in (("executor alone", bare), ("pipev run (timing, checks)", full)):
        t_plain, t_hook = [], []
        for _ in range(5):  # interleaved, so drift hits both alike
            t_plain.append(best(make(plain), repeats))
            t_hook.append(best(make(hooked), repeats))
        a, b = min(t_plain), min(t_hook)
        ratio = b / a
        worst = max(worst, ratio)
        print(f"  {label:<28} without hook {a * 1e3:8.1f} ms   with hook (None) "
              f"{b * 1e3:8.1f} ms   ratio {ratio:.3f}")
    return worst


def session_cost(text: str) -> None:
    """What a debugging session costs: `continue` to the end with the undo log recording."""
    program = isa.assemble(text)
    t_run = best(lambda: RUN.run(program), 3)

    def debug() -> None:
        Commands(Session(program)).execute("continue")
    t_dbg = best(debug, 3)
    print(f"  debugger `continue` {t_dbg * 1e3:8.1f} ms vs pipev run {t_run * 1e3:8.1f} ms "
          f"({t_dbg / t_run:.1f}x: the undo log; benchmarks/debugger_speed.py has the bound)")


def main() -> int:
    plain = hookless_executor()
    repeats = 3 if "--quick" in sys.argv else 5
    worst = 0.0
    for name, text in WORKLOADS.items():
        print(name)
        worst = max(worst, compare(name, text, plain, repeats))
        session_cost(text)
    ok = worst <= LIMIT
    print(f"largest ratio with the hook attached to nothing: {worst:.3f} "
          f"({'ok' if ok else 'over'} the {LIMIT:.2f} limit)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.stdout = io.TextIOWrapper(sys.stdout.buffer, line_buffering=True)
    sys.exit(main())
