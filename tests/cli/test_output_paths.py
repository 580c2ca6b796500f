"""No output option writes over a file the command reads (#31 11): `--save-vasm k.cpp`,
`--trace prog.vasm`, `sweep --out prog.vasm`, a trace over an --input file are usage errors
(exit 2) and the file is untouched, as `g++ x.cpp -o x.cpp` is refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x) {}
"""


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "programs" / "tutorial" / "maximum.vasm", "m.vasm")
    Path("k.cpp").write_text(KERNEL)
    np.save("x.npy", np.zeros(4, np.float16))
    return {p: Path(p).read_bytes() for p in ("m.vasm", "k.cpp", "x.npy")}


@pytest.mark.parametrize("args", [
    ("run", "m.vasm", "--trace", "m.vasm"),
    ("run", "m.vasm", "--trace", "./m.vasm", "--trace-format", "jsonl"),
    ("run", "k.cpp", "--save-vasm", "k.cpp"),
    ("run", "k.cpp", "--trace", "k.cpp"),
    ("run", "k.cpp", "--kernel", "k", "--arg", "x=x.npy", "--save-vasm", "x.npy"),
    ("run", "m.vasm", "--input", "x=x.npy", "--trace", "x.npy"),
    ("sweep", "m.vasm", "--out", "m.vasm"),
    ("sweep", "m.vasm", "--out", "results.csv", "--plot", "m.vasm"),
])
def test_an_output_over_a_file_read_is_a_usage_error(cli, files, args):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert "pipev would write over it" in result.output
    assert {p: Path(p).read_bytes() for p in files} == files
