"""C++ sweep variants in a warm runner (simulator/sweep/cppwarm.py) against the cold path (each
variant a `pipev run` process and a worker process of its own): the same row — figures, output
hashes, error messages, a crash's diagnostic — and the same files recorded as read (what the
sweep cache checks), for a host main and a kernel-only run; and the runner goes when asked."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from simulator.sweep import cppwarm, task
from simulator.sweep.task import CppKernel, Task, run_task

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "sweep"

CRASH = """// a host main that crashes after a launch: the worker dies by SIGSEGV
#include <cstdio>
#include "tikicpulib.h"
#include "scale.cpp"

int main()
{
    float* x = (float*)AscendC::GmAlloc(256 * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(256 * sizeof(float));
    FILE* f = fopen("data.bin", "rb");  // read at run time: the sweep cache must see it
    if (f) { fread(x, sizeof(float), 256, f); fclose(f); }
    scale<<<1, nullptr, nullptr>>>((GM_ADDR)x, (GM_ADDR)y);
    if (TILE == 128) { *(volatile int*)nullptr = 1; }
    printf("TILE %d done\\n", TILE);
    return 0;
}
"""


@pytest.fixture
def folder(tmp_path):
    for name in ("scale_host.cpp", "scale.cpp"):
        (tmp_path / name).write_text((DATA / name).read_text())
    (tmp_path / "crash.cpp").write_text(CRASH)
    np.arange(256, dtype=np.float32).tofile(tmp_path / "data.bin")
    np.save(tmp_path / "x.npy", np.arange(256, dtype=np.float32))
    yield tmp_path
    cppwarm.close_runners()


def tasks(folder: Path) -> list[Task]:
    env = (("PIPEV_CACHE_DIR", str(folder / "cache")),)
    host = CppKernel(None, cwd=str(folder), env=env)
    kernel = CppKernel("scale", args=(f"x={folder / 'x.npy'}", "y=out:f32[256]"),
                       cwd=str(folder), env=env)
    out = []
    for path, cpp, tiles in (("scale_host.cpp", host, ("64", "3")),
                             ("crash.cpp", host, ("64", "128")),
                             ("scale.cpp", kernel, ("32", "3"))):
        for tile in tiles:
            out.append(Task(len(out), f"k{len(out)}", str(folder / path), "",
                            (("TILE", tile),), cpp=cpp))
    return out


def rows(folder: Path, warm: bool, monkeypatch) -> list[dict]:
    monkeypatch.setattr(task, "WARM", warm)
    if warm:  # the warm runner must not fall back on a process per variant
        def refused(*args, **kw):
            raise AssertionError("a variant ran the cold way")
        monkeypatch.setattr(subprocess, "run", refused)
    got = []
    for t in tasks(folder):
        row = run_task(t)
        row.pop("seconds")
        got.append(row)
    monkeypatch.undo()
    return got


def test_warm_variants_give_the_cold_rows_and_reads(folder, monkeypatch):
    first = rows(folder, False, monkeypatch)  # compiles each (source, defines) once
    cold = rows(folder, False, monkeypatch)  # from the build cache (what it reads differs)
    warm = rows(folder, True, monkeypatch)
    assert [{k: v for k, v in r.items() if k != "reads"} for r in first] == \
        [{k: v for k, v in r.items() if k != "reads"} for r in cold]
    assert [r["status"] for r in cold] == ["ok", "error", "ok", "error", "ok", "error"]
    assert "less than one 32-byte block" in cold[1]["error"]
    assert "crashed (SIGSEGV)" in cold[3]["error"]
    assert cold[4]["out_y"] != ""
    assert any(p.endswith("data.bin") for p, _ in cold[2]["reads"])
    for c, w in zip(cold, warm, strict=True):
        assert w == c
    assert cppwarm._runners  # the warm rows came from a runner
    runner = next(iter(cppwarm._runners.values()))
    cppwarm.close_runners()
    assert runner.proc.returncode is not None and not cppwarm._runners


def test_a_runner_ends_when_its_sweep_worker_closes_its_input(folder, monkeypatch):
    monkeypatch.setattr(task, "WARM", True)
    run_task(tasks(folder)[0])
    runner = next(iter(cppwarm._runners.values()))
    runner.proc.stdin.close()
    assert runner.proc.wait(timeout=30) == 0
    row = run_task(tasks(folder)[0])  # a gone runner is replaced
    assert row["status"] == "ok"


def test_concurrent_builds_of_one_variant_compile_it_once(folder, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    from isa.chip import get_chip
    from simulator.ascendc.build import compile_source

    monkeypatch.setenv("PIPEV_CACHE_DIR", str(folder / "shared-cache"))
    arch = get_chip("ascend910b").npu_arch

    def build(_):
        return compile_source(folder / "scale_host.cpp", npu_arch=arch, defines=("TILE=64",))
    with ThreadPoolExecutor(3) as pool:
        builds = list(pool.map(build, range(3)))
    assert sorted(b.cached for b in builds) == [False, True, True]
    assert len({b.shared_object for b in builds}) == 1


def test_threads_of_one_process_run_variants_side_by_side(folder, monkeypatch):
    """A caller's thread pool (`pipev.sweep(executor=ThreadPoolExecutor(...))`) runs variants
    in one process: each thread has a runner of its own."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr(task, "WARM", True)
    chosen = [t for t in tasks(folder) if t.cpp.kernel is None][:4]
    for t in chosen:  # compiled first: a cached build reads other files than a compile
        run_task(t)
    alone = [run_task(t) for t in chosen]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(run_task, chosen))
    for a, b in zip(alone, together, strict=True):
        a.pop("seconds"), b.pop("seconds")
        assert a == b
    assert len(cppwarm._runners) >= 2
