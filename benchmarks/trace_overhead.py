"""The cost of tracing (docs/format.md §11): a 20,000-instruction program of one-repeat `vsel.f32`
run without a trace and with a jsonl trace; prints the median time of each, their ratio against the
2x target, and the peak RSS of a traced run measured in a fresh subprocess against the 400 MB
target; exits non-zero when a target is missed.

    python benchmarks/trace_overhead.py [--instructions N] [--repetitions K] [--format F]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RATIO_TARGET = 2.0
RSS_TARGET_MB = 400


def program(n: int) -> str:
    """N one-repeat vsel.f32 instructions walking over a few disjoint operand slots."""
    lines = [".chip ascend910b", ".ub  x  f32[2048] = random(1)", ".ub  y  f32[2048] = random(2)",
             ".ub  z  f32[2048]", ".ub  m  u8[16] = random(3)", "    set_cmpmask m"]
    for i in range(n - 1):
        k = (i % 32) * 64
        lines.append(f"    vsel.f32 z[{k}], x[{k}], y[{k}]")
    return "\n".join(lines) + "\n"


def timed(prog, trace: Path | None, fmt: str) -> float:
    from simulator import run

    t0 = time.perf_counter()
    run(prog, trace=trace, trace_format=fmt)
    return time.perf_counter() - t0


def peak_rss_mb(n: int, fmt: str, trace: Path) -> float:
    """Peak RSS of a fresh interpreter that assembles and runs the program with a trace."""
    code = ("import resource, sys\n"
            "sys.path.insert(0, sys.argv[1])\n"
            "from trace_overhead import program\n"
            "from simulator import run\n"
            "run(program(int(sys.argv[2])), trace=sys.argv[3], trace_format=sys.argv[4])\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent), str(n),
                          str(trace), fmt], capture_output=True, text=True, check=True)
    kb = int(out.stdout.split()[-1])  # Linux reports kilobytes
    return kb / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instructions", type=int, default=20_000)
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--format", default="jsonl", choices=["jsonl", "chrome", "vcd", "text"])
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args(argv)
    from isa import assemble

    prog = assemble(program(args.instructions), "trace_overhead.vasm")
    hw = sum(len(s.hw) for s in prog.statements)
    with tempfile.TemporaryDirectory() as d:
        trace = Path(d) / f"t.{args.format}"
        timed(prog, trace, args.format)  # warm caches (address tables, imports)
        on, off = [], []
        for _ in range(args.repetitions):
            off.append(timed(prog, None, args.format))
            on.append(timed(prog, trace, args.format))
        size = trace.stat().st_size
        rss = peak_rss_mb(args.instructions, args.format, trace)
    t_on, t_off = statistics.median(on), statistics.median(off)
    ratio = t_on / t_off
    ok_ratio, ok_rss = ratio <= RATIO_TARGET, rss <= RSS_TARGET_MB
    if args.json:
        print(json.dumps({"instructions": hw, "format": args.format, "traced_s": t_on,
                          "untraced_s": t_off, "ratio": ratio, "peak_rss_mb": rss,
                          "trace_bytes": size}))
    else:
        print(f"{hw} hardware instructions, median of {args.repetitions}: "
              f"{args.format} trace {t_on:.3f} s, no trace {t_off:.3f} s, ratio {ratio:.2f} "
              f"(target <= {RATIO_TARGET}): {'ok' if ok_ratio else 'MISSED'}")
        print(f"trace {size / 1e6:.1f} MB; peak RSS of a traced run {rss:.0f} MB "
              f"(target <= {RSS_TARGET_MB}): {'ok' if ok_rss else 'MISSED'}")
    return 0 if ok_ratio and ok_rss else 1


if __name__ == "__main__":
    sys.exit(main())
