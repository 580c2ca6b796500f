"""`pipev run|asm|check SCRIPT.py -D NAME=VALUE`: a TIK script's module-level constants are its
parameters; what follows from them follows; an unknown name or a bad value is a diagnostic."""

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
TILED = ROOT / "programs" / "tik" / "tiled_maximum.py"


@pytest.fixture
def halves(tmp_path):
    rng = np.random.default_rng(7)
    x, y = (rng.standard_normal(8192).astype(np.float16) for _ in range(2))
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    return ["--input", f"x_gm={tmp_path / 'x.npy'}", "--input", f"y_gm={tmp_path / 'y.npy'}"], \
        np.maximum(x, y)


def test_a_constant_changes_the_kernel_and_what_follows_from_it(cli, tmp_path, halves):
    args, want = halves
    runs = {}
    for tile in ("1024", "512"):
        out = cli("run", TILED, *args, "-D", f"TILE={tile}", "--json", "--output-dir",
                  tmp_path / tile)
        assert out.exit_code == 0, out.output
        runs[tile] = json.loads(out.stdout)
        got = np.load(tmp_path / tile / "z_gm.npy")
        assert got.tobytes() == want.tobytes()  # BLOCKS = TILE * 2 // 32 followed TILE
    default = cli("run", TILED, *args, "--json", "--output-dir", tmp_path / "default")
    assert json.loads(default.stdout)["cycles"] == runs["1024"]["cycles"]  # TILE = 1024 as written
    assert runs["512"]["cycles"] > runs["1024"]["cycles"]  # twice the tiles
    listing = cli("asm", TILED, "-D", "TILE=512", "-D", "N=4096")
    assert "bge x2, 4, __tik1_end" in listing.output  # n // (2 * TILE): the builder's default n


def test_unknown_name_lists_the_parameters(cli):
    out = cli("run", TILED, "-D", "TILES=512")
    assert out.exit_code == 1
    assert (f"{TILED}:1:1: error: -D TILES: the script declares no parameter 'TILES' (its "
            "parameters, module-level constants: N, TILE); did you mean 'TILE'?") in out.output
    assert "Traceback" not in out.output


@pytest.mark.parametrize("define, message", [
    ("TILE=big", "-D TILE: the value must be an integer expression (the default is 1024), got "
                 "'big'"),
    ("BLOCKS=4", "declares no parameter 'BLOCKS'"),  # computed, not a literal
])
def test_bad_values_are_diagnostics(cli, define, message):
    out = cli("check", TILED, "-D", define)
    assert out.exit_code == 1 and message in out.output


def test_malformed_define_is_a_usage_error(cli):
    out = cli("run", TILED, "-D", "TILE")
    assert out.exit_code == 2 and "-D takes NAME=VALUE, got 'TILE'" in out.output


def test_typed_constants(cli, tmp_path):
    script = tmp_path / "k.py"
    script.write_text(
        "from tbe import tik\n"
        "DTYPE = 'float16'\n"
        "SHAPE: tuple = (2, 128)\n"
        "SCALE = 2.0\n"
        "DOUBLE = False\n"
        "t = tik.Tik()\n"
        "n = SHAPE[0] * SHAPE[1] * (2 if DOUBLE else 1)\n"
        "size = 2 if DTYPE == 'float16' else 4\n"
        "x = t.Tensor(DTYPE, (n,), name='x', scope=tik.scope_gm)\n"
        "y = t.Tensor(DTYPE, (n,), name='y', scope=tik.scope_gm)\n"
        "u = t.Tensor(DTYPE, (n,), name='u', scope=tik.scope_ubuf)\n"
        "t.data_move(u, x, 0, 1, n * size // 32, 0, 0)\n"
        "t.vec_muls(256 // size, u, u, SCALE, n * size // 256, 8, 8)\n"
        "t.data_move(y, u, 0, 1, n * size // 32, 0, 0)\n"
        "t.BuildCCE(kernel_name='k', inputs=[x], outputs=[y])\n")
    np.save(tmp_path / "x.npy", np.arange(512, dtype=np.float32))
    out = cli("run", script, "-D", "DTYPE=float32", "-D", "SHAPE=(4, 64)", "-D", "SCALE=0.5",
              "-D", "DOUBLE=true", "--input", f"x={tmp_path / 'x.npy'}", "--output-dir",
              tmp_path / "out", "--quiet")
    assert out.exit_code == 0, out.output
    y = np.load(tmp_path / "out" / "y.npy")
    assert y.dtype == np.float32 and y.tobytes() == (np.arange(512, dtype=np.float32)
                                                     * np.float32(0.5)).tobytes()
    bad = cli("check", script, "-D", "SHAPE=4")
    assert bad.exit_code == 1
    assert "-D SHAPE: the value must be a tuple literal like the default (2, 128), got '4'" \
        in bad.output
    bad = cli("check", script, "-D", "DOUBLE=maybe")
    assert "the value must be true or false" in bad.output


def test_an_error_at_an_overridden_value_names_the_script_line(cli):
    out = cli("check", TILED, "-D", "TILE=3")
    assert out.exit_code == 1
    assert f"{TILED}:25:13: error: Tensor: shape (0,) must have positive dimensions" \
        in out.output


def test_json_reports_a_failed_build_as_json(cli):
    out = cli("run", TILED, "-D", "TILE=3", "--json")
    assert out.exit_code == 1
    report = json.loads(out.stdout)
    assert report["ok"] is False
    assert report["diagnostics"][0]["text"] == (f"{TILED}:25:13: error: Tensor: shape (0,) must "
                                                "have positive dimensions")


def test_the_same_script_under_two_paths_names_each_path(cli, tmp_path):
    """One process runs the same script from two places: each error names the path it ran
    (call sites are cached by code object, and equal code objects of two files compare equal)."""
    copy = tmp_path / "tiled_maximum.py"
    copy.write_text(TILED.read_text())
    for path in (copy, TILED, copy):
        out = cli("check", path, "-D", "TILE=3")
        assert out.exit_code == 1
        assert f"{path}:25:13: error: Tensor: shape (0,)" in out.output, out.output
