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
from tests.reference import softmax

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


# -- the AscendC programs (programs/ascendc/*.cpp, *.asc, and projects in folders) --------------
# Each runs with one command in an empty directory — `pipev run programs/ascendc/X.cpp`, a
# sample folder with a CMakeLists.txt `pipev run programs/ascendc/X`, a two-file project
# `pipev run programs/ascendc/X/main.cpp programs/ascendc/X/other.cpp` — and writes its inputs
# (X_in_NAME.bin) and outputs (X_out_NAME.bin) there; REFERENCES computes each output from the
# inputs in numpy, element by element, and the bytes must be equal.

CPP_PROGRAMS = sorted(p for p in (PROGRAMS / "ascendc").iterdir()
                      if p.suffix in (".cpp", ".asc") or p.is_dir())


def _command(path: Path) -> list[str]:
    """What `pipev run` is given for the program at PATH (a file whose header says it runs
    with --chip C gets it: issue 34's ascend950 reg-based examples)."""
    if not path.is_dir() or (path / "CMakeLists.txt").is_file():
        chip = CHIP_RE.search(path.read_text()[:400]) if path.is_file() else None
        return [*(("--chip", chip.group(1)) if chip else ()), str(path)]
    return [str(path / "main.cpp"), *sorted(str(p) for p in path.glob("*.cpp")
                                            if p.name != "main.cpp")]
F16, F32 = np.float16, np.float32
CHIP_RE = re.compile(r"run with --chip (\w+)")


def _bits(sel: np.ndarray) -> np.ndarray:
    """Selection/result bits, element k at bit k%8 of byte k//8 (docs/machine.md §3.2)."""
    return np.unpackbits(sel, bitorder="little").astype(bool)


def _pack(bits: np.ndarray) -> np.ndarray:
    return np.packbits(bits, bitorder="little")


def _select_count(i):
    a, b, bits = i["a"], i["b"], _bits(i["sel"])
    return {"mode0": np.where(np.tile(bits[:128], a.size // 128), a, b),  # CMPMASK every repeat
            "mode1": np.where(bits, a, F16(0.5)),
            "mode2": np.where(bits, a, b)}


def _select_highdim(i):
    a, b, bits = i["a"], i["b"], _bits(i["sel"])
    lane, rep = np.arange(a.size) % 64, np.arange(a.size) // 64
    bitwise = _bits(np.array([0xffff0000ffff0000], "<u8").view(np.uint8))[lane]
    old = F32(-9)
    return {"bitwise": np.where(bitwise, np.where(bits, a, b), old),
            "mode0": np.where(lane < 32, np.where(bits[lane], a, b), old),
            "mode1": np.where(rep < 2, np.where(bits, a, F32(1.5)), old)}


def _select_nomask(i):
    a, b, bits = i["a"], i["b"], _bits(i["sel"])
    lane = np.arange(a.size) % 64
    return {"mode0": np.where(bits[lane], a, b), "mode1": np.where(bits, a, F32(2.5))}


def _compare(i):
    a, b = i["a"], i["b"]
    return {"lt": _pack(a < b),
            "eq": np.concatenate([_pack(a[:128] == b[:128]), np.zeros(16, np.uint8)]),
            "ge": _pack(a >= F16(0.5))}


def _c_api_compare(i):
    x, y = i["x"], i["y"]
    return {"ne": _pack(x != y), "lt": _pack(x < y), "sel": np.where(x != y, x, y)}


def _masked_row_max(i):
    """Per row of 64: the largest x where x > y (-inf where none is), and its first column as
    the raw bits of a uint32 in a float's slot."""
    x, y = i["x"].reshape(-1, 64), i["y"].reshape(-1, 64)
    kept = np.where(x > y, x, F32(-np.inf))
    col = kept.argmax(axis=1).astype(np.uint32)
    return {"max": np.stack([kept.max(axis=1), col.view(F32)], axis=1).reshape(-1)}


def _compact_kept(i):
    """GatherMask with x > y as its pattern: the kept x first, in order, zeros after; then the
    count (GetRsvdCnt) as a uint32 in a float's slot, and a block's zeros."""
    kept = i["x"][i["x"] > i["y"]]
    out = np.zeros(256 + 8, F32)
    out[:kept.size] = kept
    out[256:257] = np.array([kept.size], np.uint32).view(F32)
    return {"kept": out}


def _reg_select(i):
    """ascend950 reg-based: the larger of x, y on the first 1000 floats; x or y by the UB mask,
    one 32-byte MaskReg per 64 floats, float k of a register read at bit 4k."""
    x, y, n = i["x"][:1000], i["y"][:1000], np.arange(1000)
    bit = _bits(i["sel"])[(n // 64) * 256 + (n % 64) * 4]
    return {"max": np.where(x > y, x, y), "pick": np.where(bit, x, y)}


def _quant_int4(i):
    """#27: q = x / 0.5 rounded half to even, saturated to -8..7, packed two a byte (element 2j
    in the low half); y = q * 0.5 (every step exact in half for the quarter-step inputs)."""
    q = np.clip(np.round(i["x"].astype(np.float64) / 0.5), -8, 7).astype(np.int64)
    nib = (q & 0xF).astype(np.uint8)
    return {"q": nib[0::2] | (nib[1::2] << 4), "y": (q * 0.5).astype(F16)}


def _softmax_rows(i):
    """SoftMax of each row of 96 (tests/reference/softmax.py: pipev's documented sequence)."""
    y, mx, sm = softmax.softmax(i["x"].reshape(40, 96), 96)
    return {"y": y.reshape(-1), "max": mx.reshape(-1), "sum": sm.reshape(-1)}


REFERENCES = {  # program: ({input: dtype}, numpy reference of the outputs)
    "select_count": ({"a": F16, "b": F16, "sel": np.uint8}, _select_count),
    "select_highdim": ({"a": F32, "b": F32, "sel": np.uint8}, _select_highdim),
    "select_nomask": ({"a": F32, "b": F32, "sel": np.uint8}, _select_nomask),
    "compare": ({"a": F16, "b": F16}, _compare),
    "tiled_add": ({"x": F32, "y": F32}, lambda i: {"z": i["x"] + i["y"]}),
    "c_api_compare": ({"x": F16, "y": F16}, _c_api_compare),
    "masked_row_max": ({"x": F32, "y": F32}, _masked_row_max),
    "compact_kept": ({"x": F32, "y": F32}, _compact_kept),  # issue 28 (h28)
    "brcb_row_scale": ({"x": F32, "s": F32},  # issue 28 (h28): row r times s[r]
                       lambda i: {"y": (i["x"].reshape(8, 64) * i["s"][:, None]).reshape(-1)}),
    "scale_cores": ({"x": F32}, lambda i: {"y": i["x"] * F32(2)}),
    "select_max": ({"x": F16, "y": F16},
                   lambda i: {"z": np.where(i["x"] > i["y"], i["x"], i["y"])}),
    # issue #27 (27b): bf16 clamp through Cast, ToFloat, Maxs/Mins (bf16 as its raw bits)
    "clamp_bf16": ({"x": np.uint16}, lambda i: {"y": (np.clip(
        (i["x"].astype(np.uint32) << 16).view(F32), F32(-2.5), F32(2.5)).view(np.uint32)
        >> 16).astype(np.uint16)}),
    "scale_input": ({"x": F32}, lambda i: {"z": i["x"] * F32(2)}),  # #30 sweeps (30b)
    "add_sample": ({"x": F16, "y": F16}, lambda i: {"z": i["x"] + i["y"]}),
    "clamp_two_file": ({"x": F32},
                       lambda i: {"z": np.minimum(np.maximum(i["x"], F32(-2.5)), F32(3.0))}),
    # #27a: the product in half, rounded once (numpy's half multiply)
    "leaky_relu": ({"x": F16}, lambda i: {"y": np.where(i["x"] < 0, i["x"] * F16(0.1), i["x"])}),
    "reg_select": ({"x": F32, "y": F32, "sel": np.uint8}, _reg_select),  # issue 34
    "quant_int4": ({"x": F16}, _quant_int4),  # #27: int4b_t, half -> int4 -> half
    "softmax_rows": ({"x": F32}, _softmax_rows),  # the SoftMax advanced API
    "c_api_reg_max": ({"x": F16, "y": F16}, lambda i: {  # issue 34: the C API's reg section
        "z": np.where(i["x"][:320] > i["y"][:320], i["x"][:320], i["y"][:320])}),
}


@pytest.fixture(scope="session")
def cpp_runs(request, tmp_path_factory):
    """Every AscendC program run once, two at a time, each in its own empty directory, with the
    compile cache under pytest's cache (a rerun of the suite compiles nothing)."""
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor

    from tests.support.cli import compile_cache_env

    env = compile_cache_env(request.config, tmp_path_factory)

    def run(path: Path):
        cwd = tmp_path_factory.mktemp(path.stem)
        proc = subprocess.run([sys.executable, "-m", "simulator.cli", "run", *_command(path)],
                              cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        return proc, cwd

    with ThreadPoolExecutor(2) as pool:
        return dict(zip([p.stem for p in CPP_PROGRAMS], pool.map(run, CPP_PROGRAMS),
                        strict=True))


def test_every_cpp_program_has_a_numpy_reference():
    assert sorted(p.stem for p in CPP_PROGRAMS) == sorted(REFERENCES)


@pytest.mark.parametrize("path", CPP_PROGRAMS, ids=lambda p: p.name)
def test_cpp_program_matches_numpy(path: Path, cpp_runs):
    proc, cwd = cpp_runs[path.stem]
    assert proc.returncode == 0, proc.stderr
    assert " error: " not in proc.stderr and " warning: " not in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    where = f"{path}/" if path.is_dir() else f"{path}:"  # the launch's file
    assert where in proc.stderr and "cycles" in proc.stderr  # the launch's summary
    types, reference = REFERENCES[path.stem]
    inputs = {name: np.fromfile(cwd / f"{path.stem}_in_{name}.bin", t)
              for name, t in types.items()}
    expected = reference(inputs)
    written = sorted(f.name for f in cwd.glob(f"{path.stem}_out_*.bin"))
    assert written == sorted(f"{path.stem}_out_{n}.bin" for n in expected)
    for name, want in expected.items():
        got = (cwd / f"{path.stem}_out_{name}.bin").read_bytes()
        assert got == np.ascontiguousarray(want).tobytes(), f"{path.name}: {name} differs"


CPP_PROGRAMS = sorted(p for p in (PROGRAMS / "ascendc").iterdir()
                      if p.name != "data_utils.h" and not p.name.startswith((".", "__")))


@pytest.mark.parametrize("path", CPP_PROGRAMS, ids=lambda p: p.name)
def test_every_cpp_program_is_listed_in_the_readme(path):
    """programs/README.md's table names every C++ program and sample folder (a reader finds
    each one there with what it shows)."""
    assert f"`{path.name}" in (PROGRAMS / "README.md").read_text()
