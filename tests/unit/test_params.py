"""`.param NAME = VALUE` and its overrides (-D, params=): one named integer in every constant
expression."""

import numpy as np
import pytest
from click.testing import CliRunner

import pipev
from isa import assemble
from isa.diagnostics import AssemblyError
from simulator.cli import main

KERNEL = """.chip ascend910b
.param N = 256                   ; elements
.param TILE = 128
.param TILES = N // TILE
.gm  a    f16[N]  input = arange(0)
.gm  out  f16[N]  output
.ub  x    f16[N]
.ub  z    f16[N]
    copy_gm_to_ub  x, a, nburst=1, burst=N*2//32
    set_flag       MTE2, V, EV
    wait_flag      MTE2, V, EV
.rept TILES
    vadds.f16      z[{i}*TILE], x[{i}*TILE], K, repeat=TILE//128, dst_rep=8
.endr
    set_flag       V, MTE3, EV
    wait_flag      V, MTE3, EV
    copy_ub_to_gm  out, z, nburst=1, burst=N*2//32
.param EV = 1                    ; declared after its use: parameters come first
.param K = 3
"""


def test_a_parameter_stands_in_counts_shapes_fields_rept_counts_indices_and_scalars():
    prog = assemble(KERNEL, "k.vasm")
    assert prog.params == {"N": 256, "TILE": 128, "TILES": 2, "EV": 1, "K": 3}
    assert prog.tensors["x"].count == 256
    r = pipev.run(KERNEL)
    assert r.outputs["out"].tobytes() == (np.arange(256, dtype=np.float16) + 3).tobytes()


def test_params_override_by_name_in_the_api_and_reach_derived_parameters():
    prog = assemble(KERNEL, "k.vasm", params={"N": 512, "K": 5})
    assert prog.params["TILES"] == 4 and prog.tensors["out"].count == 512
    r = pipev.run(KERNEL, params={"N": 512, "K": 5})
    assert r.outputs["out"].tobytes() == (np.arange(512, dtype=np.float16) + 5).tobytes()
    d = pipev.debug(KERNEL, params={"N": 512})
    assert d.session.program.params["N"] == 512


def errors(text: str, **kw) -> list[str]:
    with pytest.raises(AssemblyError) as e:
        assemble(text, "k.vasm", **kw)
    return [str(d) for d in e.value.diagnostics]


def test_an_unknown_override_lists_the_declared_parameters():
    assert errors(KERNEL, params={"TILESS": 64}) == [
        "k.vasm:1:1: error: -D TILESS: the program declares no parameter 'TILESS' (its "
        "parameters: N, TILE, TILES, EV, K); did you mean 'TILES'?"]


def test_parameter_mistakes_are_errors_at_their_column():
    assert errors(".param N = 4\n.param N = 5\n") == [
        "k.vasm:2:8: error: parameter 'N' is declared twice"]
    assert errors(".param x3 = 4\n") == ["k.vasm:1:8: error: 'x3' is a register name, not a "
                                         "parameter"]
    assert errors(".param A = B + 1\n.param B = 2\n") == [
        "k.vasm:1:12: error: parameter 'B' is declared below this line (a .param value uses "
        "the parameters above it)"]
    assert errors(".param N\n") == [
        "k.vasm:1:1: error: .param takes NAME = VALUE (an integer expression)"]
    assert errors(".param LEN = 4\n.ub z f32[LNE]\n") == [
        "k.vasm:2:11: error: unknown parameter 'LNE'; did you mean 'LEN'?"]


def test_minus_d_overrides_on_the_command_line(tmp_path):
    prog = tmp_path / "k.vasm"
    prog.write_text(KERNEL)
    r = CliRunner().invoke(main, ["run", str(prog), "-D", "N=1024", "-D", "K=2*3", "--json",
                                  "--output-dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    out = np.load(tmp_path / "out.npy")
    assert out.size == 1024 and out[5] == 11
    for cmd in ("check", "asm"):
        assert CliRunner().invoke(main, [cmd, str(prog), "-D", "N=512"]).exit_code == 0
    bad = CliRunner().invoke(main, ["check", str(prog), "-D", "M=3"])
    assert bad.exit_code == 1 and "the program declares no parameter 'M'" in bad.output
    usage = CliRunner().invoke(main, ["run", str(prog), "-D", "N"])
    assert usage.exit_code == 2 and "-D takes NAME=VALUE" in usage.output
    usage = CliRunner().invoke(main, ["run", str(prog), "-D", "N=abc"])
    assert usage.exit_code == 2 and "must be an integer expression" in usage.output
