"""`pipev run host.cpp --json`: a host main's launches as one summary on stdout (the program's
own output on stderr), each launch's own, its exit status and a hash of each GM buffer — what
`pipev sweep host.cpp` makes a row of. The program uses the stand-in headers of
tests/data/ascendc/include (a fast compile)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from simulator.sweep.task import output_hash

ROOT = Path(__file__).resolve().parents[2]
FAKE_INCLUDE = ROOT / "tests" / "data" / "ascendc" / "include"

TWO_LAUNCHES = r"""
#include <cstdint>
#include <cstdio>
#include "pipev_standin.h"

__global__ __aicore__ void copy(GM_ADDR in, GM_ADDR out, uint32_t n) {
    pipev::ub("x", "uint16_t", 0, n);
    pipev::issue("copy_gm_to_ub x, in, nburst=1, burst=x1", {n / 16});
    pipev::issue("set_flag MTE2, MTE3, 0");
    pipev::issue("wait_flag MTE2, MTE3, 0");
    pipev::issue("copy_ub_to_gm out, x, nburst=1, burst=x1", {n / 16});
}

int main(int argc, char **argv) {
    uint16_t in[64], out[64] = {0};
    for (int i = 0; i < 64; ++i) in[i] = (uint16_t)(i * 3);
    pipev::gm("in", "uint16_t", in, sizeof in);
    pipev::gm("out", "uint16_t", out, sizeof out);
    copy<<<1, nullptr, nullptr>>>((GM_ADDR)in, (GM_ADDR)out, 32);
    copy<<<1, nullptr, nullptr>>>((GM_ADDR)in, (GM_ADDR)out, 64);
    printf("out[1] %u\n", out[1]);
    return argc > 1 ? 9 : 0;
}
"""


def run(tmp_path, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PIPEV_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "simulator.cli", "run", "two.cpp", "-I",
                           str(FAKE_INCLUDE), "--json", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_launches_summed_on_stdout_the_programs_output_on_stderr(tmp_path):
    (tmp_path / "two.cpp").write_text(TWO_LAUNCHES)
    proc = run(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "out[1] 3\n"  # printf, and no per-launch summary
    summary = json.loads(proc.stdout)  # one object, nothing else
    first, second = summary["launches"]
    assert (first["kernel"], first["line"], second["line"]) == ("copy", 19, 20)
    for figure in ("cycles", "instructions", "uops"):
        assert summary[figure] == first[figure] + second[figure]
    for pipe, figures in summary["pipes"].items():
        assert figures["busy"] == first["pipes"][pipe]["busy"] + second["pipes"][pipe]["busy"]
        assert figures["utilisation"] == round(figures["busy"] / summary["cycles"], 6)
    assert summary["stalls"] == {c: first["stalls"][c] + second["stalls"][c]
                                 for c in first["stalls"]}
    data = np.arange(64, dtype=np.uint16) * 3
    assert summary["gm"] == {"in": output_hash(data), "out": output_hash(data)}
    assert summary["exit_status"] == 0 and summary["chip"] == "ascend910b"

    status = run(tmp_path, "--", "x")
    assert status.returncode == 9  # the program's own exit status, its summary still printed
    assert json.loads(status.stdout)["exit_status"] == 9


def test_a_failed_run_prints_the_failure_object(tmp_path):
    """A check that fails in a host main's launch: `{"ok": false, "diagnostics": [...]}` on
    stdout and exit 1, as `pipev run prog.vasm --json` does."""
    bad = TWO_LAUNCHES.replace("burst=x1\", {n / 16});\n    pipev::issue(\"set_flag",
                               "burst=x1\", {n / 8});\n    pipev::issue(\"set_flag", 1)
    assert bad != TWO_LAUNCHES
    (tmp_path / "two.cpp").write_text(bad)
    proc = run(tmp_path)
    assert proc.returncode == 1, proc.stderr
    failure = json.loads(proc.stdout)
    assert failure["ok"] is False and failure["diagnostics"]
    first = failure["diagnostics"][0]
    line = next(i for i, text in enumerate(bad.splitlines(), 1) if "{n / 8}" in text)
    assert (first["severity"], first["line"]) == ("error", line)
    assert first["path"].endswith("two.cpp")
    assert first["text"] in proc.stderr


BYE = r"""
struct Bye {
    ~Bye() { std::printf("bye\n"); std::fflush(stdout); }
} bye;
"""


def test_output_after_main_goes_to_stderr_too(tmp_path):
    # #31 20: a global destructor's printf ran after the JSON line, on stdout
    (tmp_path / "two.cpp").write_text(TWO_LAUNCHES + BYE)
    proc = run(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "out[1] 3\nbye\n"
    assert json.loads(proc.stdout)["exit_status"] == 0  # one object, nothing else


KERNEL_ONLY = r"""
#include <cstdio>
#include "pipev_standin.h"

__global__ __aicore__ void copy(GM_ADDR in, GM_ADDR out) {
    pipev::ub("x", "uint16_t", 0, 64);
    pipev::issue("copy_gm_to_ub x, in, nburst=1, burst=4");
    pipev::issue("set_flag MTE2, MTE3, 0");
    pipev::issue("wait_flag MTE2, MTE3, 0");
    pipev::issue("copy_ub_to_gm out, x, nburst=1, burst=4");
}
""" + BYE


def test_kernel_only_json_is_alone_on_stdout(tmp_path):
    (tmp_path / "two.cpp").write_text(KERNEL_ONLY)
    np.save(tmp_path / "in.npy", np.arange(64, dtype=np.uint16))
    proc = run(tmp_path, "--kernel", "copy", "--arg", "in=in.npy", "--arg", "out=out:u16[64]")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "bye\n"
    assert json.loads(proc.stdout)["kernel"] == "copy"
