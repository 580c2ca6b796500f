"""`pipev run|asm|check|debug SCRIPT.py` and `pipev python`: the TIK page's scripts as they are
(only the import resolved by pipev), diagnostics at the script's line, the user's own traceback."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simulator.tik import SHIM

ROOT = Path(__file__).resolve().parents[2]
TIK = ROOT / "programs" / "tik"
EXPECTED = ROOT / "programs" / "expected"
PIPEV = [sys.executable, "-m", "simulator.cli"]
sys.path.insert(0, str(ROOT / "programs"))
import make_expected  # noqa: E402

sys.path.remove(str(ROOT / "programs"))


def inputs(tmp_path, program: str) -> list[str]:
    args = []
    for name, (values, dtype) in make_expected.INPUTS[program].items():
        path = tmp_path / f"{name}.npy"
        np.save(path, np.asarray(values, dtype))
        args += ["--input", f"{name}={path}"]
    return args


@pytest.mark.parametrize("script", ["vec_sel_mode0", "vec_sel_mode1", "vec_sel_mode2",
                                    "vec_sel_example2"])
def test_run_page_scripts_bit_exact(cli, tmp_path, script):
    out = cli("run", TIK / f"{script}.py", *inputs(tmp_path, f"tik_{script}"),
              "--output-dir", tmp_path / "out", "--json")
    assert out.exit_code == 0, out.output
    got = np.load(tmp_path / "out" / "dst_gm.npy")
    want = np.load(EXPECTED / f"tik_{script}" / "dst_gm.npy")
    assert got.reshape(-1).tobytes() == want.tobytes()


def test_run_missing_input_names_it(cli, tmp_path):
    out = cli("run", TIK / "vec_sel_mode2.py", "--output-dir", tmp_path)
    assert out.exit_code == 1
    assert "vec_sel_mode2.py:7:11: error: input 'src1_gm' is required" in out.output
    assert not list(tmp_path.iterdir())


def test_asm_shows_one_loop(cli):
    out = cli("asm", TIK / "tiled_maximum.py")
    assert out.exit_code == 0, out.output
    assert out.output.count("-> blt ") == 1 and out.output.count("copy_gm_to_ub") == 4
    assert "vec_sel(128, 2, z, gt, x, y, TILE // 128, 8, 8, 8)" in out.output


def test_check_and_trace(cli, tmp_path):
    assert cli("check", TIK / "vec_sel_mode0.py").exit_code == 0
    out = cli("run", TIK / "vec_sel_mode0.py", *inputs(tmp_path, "tik_vec_sel_mode0"),
              "--output-dir", tmp_path / "o", "--trace", tmp_path / "t.json",
              "--trace-format", "chrome", "--quiet")
    assert out.exit_code == 0, out.output
    assert "vec_sel_mode0.py" in (tmp_path / "t.json").read_text()


def test_debug_names_script_lines(cli, tmp_path):
    commands = tmp_path / "session.txt"
    commands.write_text("break 20\ncontinue\nprint is_le[0:2]\nquit\n")
    out = cli("debug", TIK / "vec_sel_mode0.py", *inputs(tmp_path, "tik_vec_sel_mode0"),
              "--commands", commands)
    assert out.exit_code == 0, out.output
    assert "vec_sel_mode0.py:20: tik_instance.vec_sel(128, 0, dst_ub, is_le" in out.output
    assert "is_le[0:2] = [7 0]" in out.output
    gdb = cli("debug", TIK / "vec_sel_mode0.py", *inputs(tmp_path, "tik_vec_sel_mode0"),
              "--ex", "break 20", "--ex", "continue", "--ex", "print/x is_le[0:2]", "--batch")
    assert gdb.exit_code == 0, gdb.output
    assert "is_le[0:2] = [0x7 0x0]" in gdb.output


def test_usage_error_is_a_diagnostic(cli, tmp_path):
    script = tmp_path / "k.py"
    script.write_text("from tbe import tik\nt = tik.Tik()\n"
                      "a = t.Tensor('float16', (128,), name='a', scope=tik.scope_ubuf)\n"
                      "t.vec_dup(128, a, 0)\n")
    out = cli("run", script)
    assert out.exit_code == 1
    assert f"{script}:4:1: error: vec_dup(): missing a required argument" in out.output
    assert "Traceback" not in out.output


def test_chip_and_checks_reach_the_kernel(cli, tmp_path):
    """--chip: vec_sel mode 1 does not exist on ascend910, at the script's line."""
    out = cli("python", "--chip", "ascend910", TIK / "vec_sel_mode1.py")
    assert out.exit_code == 1
    assert "vec_sel_mode1.py:16:1: error: vec_sel:" in out.output
    assert "supports mode 0 only" in out.output
    assert cli("python", "--checks", "warn", TIK / "vec_sel_mode1.py").exit_code == 0


def test_no_kernel(cli, tmp_path):
    script = tmp_path / "k.py"
    script.write_text("from tbe import tik\n")
    out = cli("asm", script)
    assert out.exit_code == 1 and "builds no kernel" in out.output


def test_python_runs_start_debug_tests_and_shows_user_tracebacks(tmp_path):
    """Two real processes: the example start_debug tests, and a user bug."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    ok = subprocess.run([*PIPEV, "python", "-m", "pytest", TIK / "test_examples.py"],
                        capture_output=True, text=True, env=env, cwd=ROOT)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "6 passed" in ok.stdout  # the examples: vec_sel x4, tiled maximum, masked row-max
    script = tmp_path / "bug.py"
    script.write_text("from tbe import tik\nimport sys\n\ndef f():\n    return 1 / 0\n\n"
                      "print(sys.argv[1:])\nf()\n")
    bad = subprocess.run([*PIPEV, "python", script, "a", "--b"], capture_output=True, text=True,
                         env=env)
    assert bad.returncode == 1 and bad.stdout == "['a', '--b']\n"
    assert "ZeroDivisionError" in bad.stderr and f'File "{script}", line 8' in bad.stderr
    assert "runpy" not in bad.stderr and "simulator" not in bad.stderr
    plain = subprocess.run([sys.executable, "-c", "import tbe"], capture_output=True, env=env)
    assert plain.returncode == 1 and SHIM not in sys.path  # nothing installed shadows CANN


def test_python_runs_a_test_file_as_python_does(cli, tmp_path):
    """`pipev python test_x.py` is `python test_x.py`: the file runs as a script (its tests are
    only defined), pytest runs only through `-m pytest` (#30)."""
    script = tmp_path / "test_x.py"
    script.write_text("print('as a script', __name__)\n\ndef test_never():\n"
                      "    raise AssertionError('pytest ran it')\n")
    out = cli("python", script)
    assert out.exit_code == 0 and out.output == "as a script __main__\n"


def test_python_m_of_a_missing_module_is_one_line_naming_its_extra(cli, monkeypatch):
    """`pipev python -m pytest` where pytest is not installed: one line naming the package and
    the extra that brings it, exit 1, never a traceback."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pytest" else real(name, *a))
    out = cli("python", "-m", "pytest", "-q")
    assert out.exit_code == 1
    assert out.output == "error: pytest is not installed: pip install 'pipev[test]'\n"
    out = cli("python", "-m", "no_such_module_here")
    assert out.exit_code == 1
    assert out.output == "error: no module named 'no_such_module_here'\n"
