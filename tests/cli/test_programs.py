"""Every program shipped under programs/ runs through the CLI with no argument but its path.

- every `*.vasm` not ending in `_bug.vasm` (subfolders included) exits 0 with no error;
- where programs/expected/<path relative to programs/, without .vasm>/ exists, its .npy files
  are exactly the outputs the run wrote, byte for byte (dtype, shape and raw bytes);
- where the vendor page prints an output (programs/make_expected.py PRINTED), the run's output
  equals those printed values;
- the stored expected files are what programs/make_expected.py computes now;
- every `*_bug.vasm` exits 1 with a `FILE:LINE:COL: error: …` diagnostic and writes no output.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "programs"
EXPECTED = PROGRAMS / "expected"
ALL = sorted(p for p in PROGRAMS.rglob("*.vasm") if EXPECTED not in p.parents)
GOOD = [p for p in ALL if not p.name.endswith("_bug.vasm")]
BUGS = [p for p in ALL if p.name.endswith("_bug.vasm")]
RAW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
DIAG_RE = re.compile(r"^(?P<file>.+\.vasm):(?P<line>\d+):(?P<col>\d+): error: \S")


def _key(path: Path) -> str:
    """programs/kernels/relu.vasm → 'kernels/relu' (the expected-outputs folder)."""
    return path.relative_to(PROGRAMS).with_suffix("").as_posix()


def _load_make_expected():
    spec = importlib.util.spec_from_file_location("programs_make_expected",
                                                  PROGRAMS / "make_expected.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _load_make_expected()


def _run(path: Path, out_dir: Path):
    result = CliRunner().invoke(main, ["run", str(path), "--output-dir", str(out_dir),
                                       "--quiet"])
    # an uncaught exception (a traceback for the user) is never acceptable
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{path}: {result.exception!r}")
    return result


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each good program runs once; the tests below share the result."""
    cache: dict[str, tuple] = {}

    def get(path: Path):
        key = _key(path)
        if key not in cache:
            out = tmp_path_factory.mktemp(key.replace("/", "__"))
            cache[key] = (_run(path, out), out)
        return cache[key]
    return get


def test_programs_are_collected():
    names = {_key(p) for p in ALL}
    assert set(MAKE.PROGRAMS) <= names, set(MAKE.PROGRAMS) - names
    assert len(BUGS) >= 2


@pytest.mark.parametrize("path", GOOD, ids=_key)
def test_program_runs_and_matches_expected(path: Path, runs):
    result, out = runs(path)
    assert result.exit_code == 0, result.stderr
    assert " error: " not in result.stderr, result.stderr
    folder = EXPECTED / _key(path)
    if not folder.is_dir():
        return  # other developers' programs may come without expected outputs
    want = sorted(f.name for f in folder.glob("*.npy"))
    got = sorted(f.name for f in out.glob("*.npy"))
    assert want == got, f"expected outputs {want}, the run wrote {got}"
    for name in want:
        exp, act = np.load(folder / name), np.load(out / name)
        assert (act.dtype, act.shape) == (exp.dtype, exp.shape), name
        assert act.tobytes() == exp.tobytes(), f"{_key(path)}: {name} differs"


@pytest.mark.parametrize("program", sorted(MAKE.PRINTED))
def test_output_matches_vendor_printed_values(program: str, runs):
    result, out = runs(PROGRAMS / f"{program}.vasm")
    assert result.exit_code == 0, result.stderr
    for name, printed in MAKE.printed(program).items():
        act = np.load(out / f"{name}.npy")
        assert (act.dtype, act.shape) == (printed.dtype, printed.shape), name
        raw = RAW[act.itemsize]
        bad = np.flatnonzero(act.view(raw) != printed.view(raw))
        assert bad.size == 0, (f"{program}: {name} differs from the page's printed values at "
                               f"{bad[:8]}: {act[bad[:8]]} != {printed[bad[:8]]}")


@pytest.mark.parametrize("program", sorted(MAKE.INPUTS))
def test_default_inputs_are_the_vendor_data(program: str):
    """The data inlined in the program is the page's (not only where it is selected)."""
    import isa

    path = PROGRAMS / f"{program}.vasm"
    prog = isa.assemble(path.read_text(encoding="utf-8"), str(path))
    for name, (values, t) in MAKE.INPUTS[program].items():
        data = prog.tensors[name].init.data
        assert bytes(data) == np.asarray(values, t).tobytes(), f"{program}: {name}"


@pytest.mark.parametrize("program", sorted(MAKE.PROGRAMS))
def test_stored_expected_is_what_make_expected_computes(program: str):
    for name, arr in MAKE.PROGRAMS[program]().items():
        stored = np.load(EXPECTED / program / f"{name}.npy")
        assert (stored.dtype, stored.shape) == (arr.dtype, arr.shape)
        assert stored.tobytes() == arr.tobytes(), f"run programs/make_expected.py ({program})"


@pytest.mark.parametrize("path", BUGS, ids=_key)
def test_bug_program_fails_with_a_located_diagnostic(path: Path, tmp_path):
    out = tmp_path / "out"
    result = _run(path, out)
    assert result.exit_code == 1, result.stderr
    errors = [m for line in result.stderr.splitlines() if (m := DIAG_RE.match(line))]
    assert errors, result.stderr
    first = errors[0]
    assert Path(first["file"]).resolve() == path.resolve()
    n_lines = len(path.read_text(encoding="utf-8").splitlines())
    assert 1 <= int(first["line"]) <= n_lines
    assert int(first["col"]) >= 1
    assert not out.exists() or not list(out.glob("*.npy"))


def test_pipev_run_with_no_other_argument(tmp_path):
    """`python -m simulator.cli run FILE` from another directory writes ./pipev-out/NAME.npy."""
    import subprocess
    import sys

    path = PROGRAMS / "tik_vec_sel_example2.vasm"
    proc = subprocess.run([sys.executable, "-m", "simulator.cli", "run", str(path)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    out = np.load(tmp_path / "pipev-out" / "dst_gm.npy")
    assert out.tobytes() == np.load(EXPECTED / "tik_vec_sel_example2" / "dst_gm.npy").tobytes()
