"""The command line itself: chips listing, .chip with a profile path, usage errors."""

from pathlib import Path

from click.testing import CliRunner

from isa.chip import CHIP_DIR
from simulator.cli import main


def test_chips_lists_every_profile_with_its_key_figures():
    out = CliRunner().invoke(main, ["chips"])
    assert out.exit_code == 0
    rows = {line.split()[0]: line for line in out.output.splitlines()[1:]}
    assert set(rows) == {"ascend910", "ascend310p", "ascend910b", "ascend310b", "ascend950"}
    assert "196608" in rows["ascend910b"] and "compare: f16 f32 s32 (eq)" in rows["ascend910b"]
    assert " 0      no " in rows["ascend910"]  # vsel mode 0 only, no counter mode


def test_chip_directive_takes_a_profile_path_relative_to_the_program(tmp_path):
    text = (CHIP_DIR / "ascend910b.toml").read_text().replace('name = "ascend910b"',
                                                             'name = "tiny"')
    text = text.replace("ub_bytes = 196608", "ub_bytes = 16384")
    (tmp_path / "chips").mkdir()
    (tmp_path / "chips" / "tiny.toml").write_text(text)
    prog = tmp_path / "k.vasm"
    prog.write_text(".chip chips/tiny.toml\n.ub x f32[64] @0x3fe0\n    vector_dup.f32 x, 1.0\n")
    out = CliRunner().invoke(main, ["run", str(prog), "--output-dir", str(tmp_path / "o")])
    assert out.exit_code == 1
    assert "does not fit in UB (16384 bytes on tiny)" in out.output
    # the same placement fits the 192 KB UB of ascend910b
    out = CliRunner().invoke(main, ["run", str(prog), "--chip", "ascend910b", "--output-dir",
                                    str(tmp_path / "o")])
    assert out.exit_code == 0, out.output


def test_unknown_option_and_missing_program_are_usage_errors(tmp_path):
    runner = CliRunner()
    assert runner.invoke(main, ["run", "--frobnicate", "x.vasm"]).exit_code == 2
    assert runner.invoke(main, ["run", str(tmp_path / "missing.vasm")]).exit_code == 2
    prog = Path(tmp_path / "ok.vasm")
    prog.write_text("nop\n")
    assert runner.invoke(main, ["run", str(prog), "--chip", "ascend000"]).exit_code == 2


def test_a_tensor_beyond_256_mib_is_an_error_not_an_allocation(tmp_path):
    prog = tmp_path / "big.vasm"
    prog.write_text(".gm a u64[536870912] = fill(1)\nnop\n")
    out = CliRunner().invoke(main, ["run", str(prog), "--output-dir", str(tmp_path)])
    assert out.exit_code == 1
    assert "big.vasm:1:11: error: element count 536870912 is out of range" in out.output


def test_running_out_of_memory_is_one_error_line(tmp_path, monkeypatch):
    import sys

    run_module = sys.modules["simulator.run"]  # the package exports a function of that name

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(run_module, "run", exhausted)
    prog = tmp_path / "p.vasm"
    prog.write_text("nop\n")
    out = CliRunner().invoke(main, ["run", str(prog), "--output-dir", str(tmp_path)])
    assert out.exit_code == 1
    assert out.output.strip().endswith("error: out of memory: the program's tensors do not fit "
                                       "in this machine's memory")


QUICKSTART = Path(__file__).resolve().parents[2] / "programs" / "quickstart.vasm"


def test_asm_json_lists_expansions_and_micro_ops():
    import json

    out = CliRunner().invoke(main, ["asm", str(QUICKSTART), "--json"])
    assert out.exit_code == 0
    listing = json.loads(out.output)
    assert listing["chip"] == "ascend910b"
    select = next(s for s in listing["statements"] if s["source"].startswith("select.f32"))
    assert select["api"] and len(select["hw"]) == 9
    vsel = next(h for h in select["hw"] if h["text"].startswith("vsel.f32"))
    assert vsel["pipe"] == "V" and [u["repeat"] for u in vsel["uops"]] == [0, 1, 2, 3]
    assert vsel["uops"][0]["rows"]["dst"][0] == "0x820"  # z is placed at 2080


def test_check_fails_a_footprint_overrun_as_run_does(tmp_path):
    ok = CliRunner().invoke(main, ["check", str(QUICKSTART)])
    assert ok.exit_code == 0 and "ok (9 statements, chip ascend910b)" in ok.output
    bad = tmp_path / "bad.vasm"
    # a footprint needs no data: `check` fails it at run's line and column
    bad.write_text(".ub z f32[32]\n    vector_dup.f32 z, 1.0\n")
    checked = CliRunner().invoke(main, ["check", str(bad)])
    run = CliRunner().invoke(main, ["run", str(bad), "--output-dir", str(tmp_path)])
    assert run.exit_code == checked.exit_code == 1
    assert "bad.vasm:2:" in run.output and "needs 256 bytes" in run.output
    assert checked.output.splitlines()[0] == run.output.splitlines()[0]


# what a `.vasm` run must not import: the other commands' code and what only some runs use (a
# regression here costs every `pipev run` its start-up; benchmarks/footprint.py measures it)
NOT_AT_START_UP = ("simulator.ascendc", "simulator.sweep", "simulator.tik", "simulator.debugger",
                   "simulator.trace.", "simulator.expect", "simulator.semantics.convert",
                   "simulator.views", "simulator.render", "simulator.crosscore",
                   "simulator.timing.bandwidth", "isa.listing", "isa.reference", "json",
                   "tempfile", "difflib")


def test_a_plain_run_imports_only_what_it_uses(tmp_path):
    import subprocess
    import sys

    prog = tmp_path / "trivial.vasm"
    prog.write_text("nop\n")
    code = ("import sys\nfrom simulator.cli import main\n"
            f"sys.argv = ['pipev', 'run', {str(prog)!r}, '--quiet', '--output-dir', "
            f"{str(tmp_path / 'o')!r}]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print(' '.join(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert "simulator.run" in out and "simulator.group" in out
    assert [m for m in out if m.startswith(NOT_AT_START_UP)] == []
