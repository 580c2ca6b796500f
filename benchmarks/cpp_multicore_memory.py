"""Issue 31 defect 18: peak memory and CPU time of a C++ launch of N cores next to a large GM
buffer, against the same program on one core, measured in the same run.

    python benchmarks/cpp_multicore_memory.py            # 64 MB buffer, 1 and 8, 32 cores
    python benchmarks/cpp_multicore_memory.py --quick    # 16 MB buffer, 1 and 8 cores

Each figure is one `pipev run k.cpp -D BD=N -D BIGMB=M` in its own process: its children's peak
resident set (the worker's; `resource.getrusage(RUSAGE_CHILDREN)`) and their CPU time. The
ratios against one core should stay near 1 for memory (GM is one buffer for all the cores) and
grow with the cores' own work only for time; before the fix every core kept two copies of every
GM buffer and its whole machine until the launch ended.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KERNEL = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
constexpr uint32_t N = 256;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ta;
    AscendC::GlobalTensor<half> xg, yg;
    uint32_t b = AscendC::GetBlockIdx();
    xg.SetGlobalBuffer((__gm__ half*)x + b * N, N);
    yg.SetGlobalBuffer((__gm__ half*)y + b * N, N);
    pipe.InitBuffer(ta, N * sizeof(half));
    auto a = ta.Get<half>();
    AscendC::DataCopy(a, xg, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Abs(a, a, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, a, N);
}
int main() {
    half* x = (half*)AscendC::GmAlloc(BD * N * 2);
    half* y = (half*)AscendC::GmAlloc(BD * N * 2);
    uint8_t* big = (uint8_t*)AscendC::GmAlloc(size_t(BIGMB) << 20);  // a large unused buffer
    (void)big;
    ICPU_RUN_KF(k, BD, (uint8_t*)x, (uint8_t*)y);
    return 0;
}
"""
MEASURE = """import json, resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"mb": r.ru_maxrss / 1024, "cpu": r.ru_utime + r.ru_stime}))
"""


def measure(src: Path, cores: int, mb: int) -> dict:
    cmd = [sys.executable, "-m", "simulator.cli", "run", str(src), "-D", f"BD={cores}", "-D",
           f"BIGMB={mb}", "--quiet"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", MEASURE, *cmd], env=env, check=True,
                         capture_output=True, text=True, cwd=src.parent).stdout
    return json.loads(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    quick = ap.parse_args().quick
    mb, sizes = (16, (8,)) if quick else (64, (8, 32))
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "k.cpp"
        src.write_text(KERNEL)
        measure(src, 1, 0)  # compile once, outside the figures
        base = measure(src, 1, mb)
        print(f"{mb} MB GM buffer; 1 core: {base['mb']:.0f} MB peak, {base['cpu']:.2f} s CPU")
        print(f"{'cores':>6} {'peak MB':>8} {'x 1 core':>9} {'CPU s':>7} {'x 1 core':>9}")
        for n in sizes:
            m = measure(src, n, mb)
            print(f"{n:>6} {m['mb']:>8.0f} {m['mb'] / base['mb']:>9.2f} {m['cpu']:>7.2f} "
                  f"{m['cpu'] / base['cpu']:>9.2f}")


if __name__ == "__main__":
    main()
