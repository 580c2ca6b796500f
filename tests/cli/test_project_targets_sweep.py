"""#32 items 2 and 3, on pipev's own vendor-layout project (tests/data/ascendc/project):

- a CMake target's definitions apply to every file of that target and reach the targets that
  link it only as CMake's scopes say (a PRIVATE definition of the kernel library is defined
  in the kernel file and not in main.cpp);
- `pipev sweep DIR` sweeps a sample directory as `pipev run DIR` runs it: a swept -D macro
  reaches the kernel, the rows are cached, and a changed source is run again."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "project"


@pytest.fixture
def project(tmp_path):
    dst = tmp_path / "add"
    shutil.copytree(PROJECT, dst)
    subprocess.run([sys.executable, "scripts/gen_data.py"], cwd=dst, check=True)
    return dst


def _verified(project: Path) -> str:
    proc = subprocess.run([sys.executable, "scripts/verify_result.py", "output/output_z.bin",
                           "output/golden.bin"], cwd=project, capture_output=True, text=True)
    return proc.stdout


def _prepend(path: Path, text: str) -> None:
    path.write_text(text + path.read_text())


def test_a_library_definition_reaches_its_own_files_only(pipev, project):
    _prepend(project / "add_custom.cpp", "#ifndef LIB_ONLY\n#error LIB_ONLY missing\n#endif\n"
             "#if LIB_PUBLIC != 2\n#error LIB_PUBLIC missing\n#endif\n")
    _prepend(project / "main.cpp", "#ifdef LIB_ONLY\n#error the PRIVATE definition leaked\n"
             "#endif\n#if LIB_PUBLIC != 2\n#error LIB_PUBLIC did not pass on\n#endif\n")
    with (project / "cmake" / "npu_lib.cmake").open("a") as f:
        f.write("target_compile_definitions(ascendc_kernels_${RUN_MODE} PRIVATE LIB_ONLY\n"
                "    PUBLIC LIB_PUBLIC=2)\n")
    run = pipev("run", ".", cwd=project)
    assert run.returncode == 0, run.stderr
    assert _verified(project) == "test pass\n"


def test_a_sample_directory_sweeps_as_it_runs(pipev, project):
    kernel = project / "add_custom.cpp"
    kernel.write_text(kernel.read_text().replace(
        "constexpr int32_t TILE_NUM = 8;",
        "#ifndef TILES\n#define TILES 8\n#endif\nconstexpr int32_t TILE_NUM = TILES;"))
    args = ["sweep", ".", "--param", "TILES=4,8", "--jobs", "1", "--cache",
            str(project / "rows"), "--out", "r.jsonl"]
    first = pipev(*args, cwd=project)
    assert first.returncode == 0, first.stderr
    rows = [json.loads(line) for line in (project / "r.jsonl").read_text().splitlines()]
    assert [(r["TILES"], r["status"], r["cached"]) for r in rows] == [(4, "ok", False),
                                                                       (8, "ok", False)]
    assert rows[0]["instructions"] != rows[1]["instructions"]  # the macro reached the kernel
    assert _verified(project) == "test pass\n"
    again = pipev(*args, cwd=project)
    assert again.returncode == 0, again.stderr
    rows = [json.loads(line) for line in (project / "r.jsonl").read_text().splitlines()]
    assert [r["cached"] for r in rows] == [True, True]
    kernel.write_text(kernel.read_text() + "// changed\n")  # a source the CMake file names
    changed = pipev(*args, cwd=project)
    assert changed.returncode == 0, changed.stderr
    rows = [json.loads(line) for line in (project / "r.jsonl").read_text().splitlines()]
    assert [r["cached"] for r in rows] == [False, False]


def test_a_sample_directory_pipev_cannot_read_is_a_usage_error(pipev, tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "CMakeLists.txt").write_text("add_executable(a missing.cpp)\n")
    proc = pipev("sweep", "p", "--param", "X=1", "--out", "r.csv", cwd=tmp_path)
    assert proc.returncode == 2
    assert "CMakeLists.txt:1: error: source missing.cpp" in proc.stderr, proc.stderr
