"""#29: `pipev debug` prints a TIK Scalar by its Python name, in a register or spilled to UB
(a kernel with more Scalars than x1..x23: simulator/tik/regalloc.py)."""

from __future__ import annotations

import numpy as np

SCRIPT = """\
from tbe import tik

tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("int32", (64,), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("int32", (64,), name="y_gm", scope=tik.scope_gm)
x_ub = tik_instance.Tensor("int32", (64,), name="x_ub", scope=tik.scope_ubuf)
tik_instance.data_move(x_ub, x_gm, 0, 1, 8, 0, 0)
s = [tik_instance.Scalar("int32", name=f"s{k}") for k in range(40)]
for k in range(40):
    s[k].set_as(x_ub[k])
f = tik_instance.Scalar("float32", name="f", init_value=1.5)
with tik_instance.for_range(0, 4) as i:
    total = tik_instance.Scalar("int32", name="total", init_value=0)
    for k in range(40):
        total.set_as(total + s[k])
    x_ub[i].set_as(total - i)
tik_instance.data_move(y_gm, x_ub, 0, 1, 8, 0, 0)
tik_instance.BuildCCE(kernel_name="many", inputs=[x_gm], outputs=[y_gm])
"""


def test_debug_prints_scalars_by_name_in_registers_and_spilled(cli, tmp_path):
    script = tmp_path / "many.py"
    script.write_text(SCRIPT)
    x = np.arange(100, 164, dtype=np.int32)
    np.save(tmp_path / "x.npy", x)
    out = cli("debug", script, "--input", f"x_gm={tmp_path / 'x.npy'}", "--batch",
              "--ex", "break 16", "--ex", "continue", "--ex", "continue",
              *[a for k in (0, 7, 22, 39) for a in ("--ex", f"print s{k}")],
              "--ex", "print total", "--ex", "print i", "--ex", "print f")
    assert out.exit_code == 0, out.output
    for k in (0, 7, 22, 39):
        assert f"s{k} = {100 + k}" in out.output
    assert f"total = {sum(range(100, 140))}" in out.output
    assert "i = 1" in out.output and "f = 1.5" in out.output
    early = cli("debug", script, "--input", f"x_gm={tmp_path / 'x.npy'}", "--batch",
                "--ex", "print total")
    assert "Scalar 'total' is not alive here" in early.output  # before its for_range


def test_some_of_them_are_spilled(cli, tmp_path):
    """The 40 kernel-scope Scalars, the loop's i and total and f: at least 20 live in UB."""
    import runpy
    import sys

    from simulator.tik import SHIM

    script = tmp_path / "many.py"
    script.write_text(SCRIPT)
    sys.path.insert(0, str(SHIM))
    try:
        program = runpy.run_path(str(script))["tik_instance"].program
    finally:
        sys.path.remove(str(SHIM))
    homes = {h.name: h for h in program.scalars}
    assert len(homes) == 43
    assert sum(h.reg < 0 for h in homes.values()) == 20
    assert homes["total"].reg > 0 and homes["i"].reg > 0  # the loop's: registers

    from simulator.debugger import Commands, Session
    from simulator.debugger.complete import candidates

    commands = Commands(Session(program, inputs={"x_gm": np.zeros(64, np.int32)}))
    assert candidates(commands, "print tot") == ["total"]  # tab completes Scalar names too
    assert "s39" in candidates(commands, "print s3")
