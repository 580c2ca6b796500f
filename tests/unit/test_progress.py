"""`pipev run` shows a progress line on a terminal for runs longer than a second."""

import types

from simulator.cli import Progress


def _run():
    prog = types.SimpleNamespace(statements=[None] * 10)
    return types.SimpleNamespace(program=prog)


EVENT = types.SimpleNamespace(instr=types.SimpleNamespace(pc=5))


def test_progress_appears_after_one_second_and_clears(capsys):
    p = Progress()
    now = [0.0]
    p.clock = lambda: now[0]
    p.start = 0.0
    p.on_start(_run())
    for _ in range(Progress.EVERY):
        p.on_event(EVENT)
    assert capsys.readouterr().err == ""  # under a second: silent
    now[0] = 2.5
    for _ in range(Progress.EVERY):
        p.on_event(EVENT)
    err = capsys.readouterr().err
    assert "running: 4,096 instructions, statement 6/10, 2.5 s" in err
    p.clear()
    assert capsys.readouterr().err == "\r\033[K"


def test_no_progress_when_stderr_is_not_a_terminal(tmp_path):
    from click.testing import CliRunner

    from simulator.cli import main

    prog = tmp_path / "p.vasm"
    prog.write_text("nop\n")
    out = CliRunner().invoke(main, ["run", str(prog), "--output-dir", str(tmp_path)])
    assert out.exit_code == 0
    assert "running:" not in out.output
