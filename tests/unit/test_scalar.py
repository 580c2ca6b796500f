"""The scalar unit and control flow (docs/semantics.md §7): registers, branches, loops,
register-addressed operands and fields, `.rept`, `--max-steps`, and the run-time checks that name
the registers behind a bad value. Data is compared as raw bytes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simulator
from isa import assemble
from isa.diagnostics import AssemblyError
from simulator.cli import main
from simulator.errors import SimulationError

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "programs" / "kernels"
M64 = (1 << 64) - 1


def regs(text: str, **kw) -> list[int]:
    return list(simulator.run(text, timing=False, **kw).registers)


def run_error(text: str, **kw) -> str:
    """The first error diagnostic of a run that must fail, as `LINE:COL: MESSAGE`."""
    with pytest.raises((SimulationError, AssemblyError)) as e:
        simulator.run(text, **kw)
    d = next(d for d in e.value.diagnostics if d.severity == "error")
    return f"{d.line}:{d.column}: {d.message}"


# -- scalar instructions -----------------------------------------------------------------------
@pytest.mark.parametrize("body, reg, want", [
    ("li x1, 5", 1, 5),
    ("li x1, -1", 1, M64),
    ("li x1, -0x8000000000000000", 1, 1 << 63),
    ("li x1, 0xFFFFFFFFFFFFFFFF", 1, M64),
    ("li x0, 7", 0, 7),  # x0 is an ordinary register
    ("li x1, 1_000 * 3 + 4", 1, 3004),
    ("li x2, 9\nmov x1, x2", 1, 9),
    ("li x2, -1\nadd x1, x2, 2", 1, 1),  # modulo 2^64
    ("li x2, 3\nli x3, 4\nadd x1, x2, x3", 1, 7),
    ("li x2, 0\nsub x1, x2, 1", 1, M64),
    ("li x2, 5\nli x3, 7\nsub x1, x2, x3", 1, M64 - 1),
    ("li x2, 0x8000000000000001\nmul x1, x2, 2", 1, 2),
    ("li x2, -3\nli x3, 5\nmul x1, x2, x3", 1, (-15) & M64),
    ("li x2, 0xF0F0\nand x1, x2, 0xFF", 1, 0xF0),
    ("li x2, 0xF0F0\nand x1, x2, -1", 1, 0xF0F0),
    ("li x2, 0xF000\nli x3, 0x0F\nor x1, x2, x3", 1, 0xF00F),
    ("li x2, 0xFF\nxor x1, x2, 0x0F", 1, 0xF0),
    ("li x2, -1\nxor x1, x2, x2", 1, 0),
    ("li x2, 1\nshl x1, x2, 63", 1, 1 << 63),
    ("li x2, 1\nshl x1, x2, 65", 1, 2),  # low 6 bits of the amount: 65 & 63 = 1
    ("li x2, 5\nshl x1, x2, 64", 1, 5),  # 64 & 63 = 0
    ("li x2, 0x8000000000000001\nshl x1, x2, 1", 1, 2),  # bits shifted out are lost
    ("li x2, -1\nshr x1, x2, 60", 1, 0xF),  # logical: zeros come in
    ("li x2, -16\nshr x1, x2, 1", 1, ((-16) & M64) >> 1),
    ("li x2, 0x80\nli x3, 0x100000003\nshr x1, x2, x3", 1, 0x10),  # amount from a register
    ("li x2, 9\nshr x1, x2, 128", 1, 9),
])
def test_scalar_instruction_semantics(body: str, reg: int, want: int):
    assert regs(body + "\n")[reg] == want


def test_addr_gives_the_byte_address_of_a_ub_element():
    text = ".ub pad u8[64]\n.ub z f32[256]\n    addr x1, z[5]\n    addr x2, z\n"
    p = assemble(text)
    x = regs(text)
    assert x[1] == p.tensors["z"].addr + 20
    assert x[2] == p.tensors["z"].addr


@pytest.mark.parametrize("text, where, message", [
    ("li x1, 0x10000000000000000", "1:8", "does not fit in 64 bits"),
    ("li x1, -0x8000000000000001", "1:8", "does not fit in 64 bits"),
    ("li x1, x2", "1:8", "expected an integer"),
    ("add x1, x2", "1:1", "add takes 3 operands, got 2"),
    ("mov x1, 5", "1:9", "expected a register x0..x31, got '5'"),
    ("add x32, x1, 1", "1:5", "expected a register x0..x31"),
    ("jmp nowhere", "1:5", "unknown label 'nowhere'"),
    ("beq x1, 0", "1:1", "beq takes 3 operands"),
    ("l:\nl:\nnop", "2:1", "label 'l' is defined twice"),
])
def test_scalar_static_errors(text: str, where: str, message: str):
    got = run_error(text + "\n")
    assert got.startswith(where + ": ") and message in got, got


def test_addr_rejects_a_gm_tensor():
    got = run_error(".gm a f32[64] input = zeros\n    addr x1, a[0]\n")
    assert got.startswith("2:14: ") and "GM tensor" in got, got


# -- branches ------------------------------------------------------------------------------------
def _taken(branch: str, a: int, b: int | str) -> bool:
    text = f"""
    li x1, {a}
    li x2, {b if isinstance(b, int) else 0}
    li x9, 0
    {branch} x1, {'x2' if isinstance(b, int) else b}, yes
    jmp end
yes:
    li x9, 1
end:
"""
    return regs(text)[9] == 1


@pytest.mark.parametrize("a, b", [(-1, 0), (0, -1), (3, 3), (-5, -5), (1 << 62, -(1 << 62)),
                                  (-(1 << 63), (1 << 63) - 1), (0, 0xFFFFFFFFFFFFFFFF)])
def test_branches_compare_signed(a: int, b: int):
    sa = a - (1 << 64) if a >= 1 << 63 else a
    sb = b - (1 << 64) if b >= 1 << 63 else b
    want = {"beq": sa == sb, "bne": sa != sb, "blt": sa < sb, "bge": sa >= sb, "ble": sa <= sb,
            "bgt": sa > sb}
    got = {op: _taken(op, a, b) for op in want}
    assert got == want


def test_branch_against_an_immediate():
    assert _taken("blt", -1, "0")  # unsigned compare would say 2^64-1 > 0
    assert _taken("beq", -1, "0xFFFFFFFFFFFFFFFF")
    assert _taken("bgt", 5, "-3")
    assert not _taken("ble", 5, "4")


def test_loop_jmp_halt_and_falling_off_the_end():
    text = """
    li x1, 0
    li x2, 0
loop:
    add x2, x2, x1
    add x1, x1, 1
    blt x1, 10, loop
    jmp over
    li x3, 99           ; skipped
over:
    li x4, 1
    halt
    li x4, 2            ; never reached
"""
    x = regs(text)
    assert (x[1], x[2], x[3], x[4]) == (10, 45, 0, 1)


def test_label_at_the_end_and_on_an_empty_expansion():
    text = """
.ub z f32[256]
.ub x f32[256] = zeros
.ub y f32[256] = zeros
.ub m u8[32] = zeros
    li x1, 0
    jmp skip
    li x1, 99
skip:
    select.f32 z, m, x, y, mode=2, count=0      ; expands to nothing (warning)
    li x2, 7
    jmp end
    li x3, 1
end:
"""
    x = regs(text)
    assert (x[1], x[2], x[3]) == (0, 7, 0)


def test_labels_before_statements_on_the_same_line():
    x = regs("    li x1, 3\nagain: sub x1, x1, 1\n    bne x1, 0, again\n    li x5, 1\n")
    assert (x[1], x[5]) == (0, 1)


# -- register-addressed operands and fields -------------------------------------------------------
HEAD = """
.chip ascend910b
.ub x f32[1024] = random(1)
.ub y f32[1024] = random(2)
.ub z f32[1024] = fill(-1)
.ub m u8[128] = random(3, 0, 255)
.ub w u8[256] = zeros
"""


def _ub(text: str) -> bytes:
    return simulator.run(HEAD + text, timing=False).ub.tobytes()


@pytest.mark.parametrize("with_regs, constant", [
    ("li x1, 64\n vadds.f32 z[x1], x[x1], 2.5", "vadds.f32 z[64], x[64], 2.5"),
    ("li x1, 60\n vadds.f32 z[x1+4], x[x1+4], 2.5", "vadds.f32 z[64], x[64], 2.5"),
    ("addr x1, z[128]\n addr x2, x[64]\n vmuls.f32 @x1, @x2, 3.0",
     "vmuls.f32 z[128], x[64], 3.0"),
    ("addr x1, z[192]\n vmuls.f32 @x1+256, @x1-256, 3.0",
     "vmuls.f32 z[256], z[128], 3.0"),
    ("li x1, 3\n vadd.f32 z, x, y, repeat=x1", "vadd.f32 z, x, y, repeat=3"),
    ("li x1, 100\n duplicate.f32 z, 7.0, count=x1", "duplicate.f32 z, 7.0, count=100"),
    ("li x1, 10\n select.f32 z, m, x, y, mode=2, repeat=2, mask=x1",
     "select.f32 z, m, x, y, mode=2, repeat=2, mask=10"),
    ("li x1, 0x0F0F\n select.f32 z, m, x, y, mode=2, repeat=2, mask_lo=x1",
     "select.f32 z, m, x, y, mode=2, repeat=2, mask_lo=0x0F0F"),
    ("li x1, 0\n li x2, 0xFF00FF\n set_vector_mask x1, x2\n vcopy.f32 z, x, repeat=2",
     "set_vector_mask 0, 0xFF00FF\n vcopy.f32 z, x, repeat=2"),
    ("li x1, 2\n li x2, 3\n li x3, 1\n copy_ub_to_ub z, x, nburst=x1, burst=x2, src_gap=x3, "
     "dst_gap=x1", "copy_ub_to_ub z, x, nburst=2, burst=3, src_gap=1, dst_gap=2"),
    ("li x1, 32\n compare.lt.f32 w[x1], x, y, count=512",
     "compare.lt.f32 w[32], x, y, count=512"),
])
def test_register_form_equals_constant_form(with_regs: str, constant: str):
    want = _ub(" " + constant + "\n")
    assert _ub(" " + with_regs + "\n") == want
    assert want != _ub("nop\n")  # the statement does something


def test_dma_with_register_gm_offset():
    text = """
.gm a f32[512] input = arange(0)
.gm out f32[512] output
.ub t f32[64]
    li x1, 0
loop:
    copy_gm_to_ub t, a[x1], nburst=1, burst=8
    vadds.f32 t, t, 1.0
    copy_ub_to_gm out[x1], t, nburst=1, burst=8
    add x1, x1, 64
    blt x1, 512, loop
"""
    out = simulator.run(text, timing=False).outputs["out"]
    assert out.tobytes() == (np.arange(512, dtype=np.float32) + 1).tobytes()


def test_values_are_read_at_issue():
    """A register changed after an instruction does not change what it did."""
    text = HEAD + " li x1, 0\n vector_dup.f32 z[x1], 5.0\n li x1, 64\n"
    ub = simulator.run(text, timing=False).ub
    z = assemble(text).tensors["z"]
    vals = ub[z.addr:z.addr + 512].view(np.float32)
    assert vals[:64].tobytes() == np.full(64, 5, np.float32).tobytes()
    assert vals[64:128].tobytes() == np.full(64, -1, np.float32).tobytes()


# -- run-time checks name the registers -----------------------------------------------------------
CHECKED = """.chip ascend910b
.ub x f32[1024] = random(1)
.ub y f32[1024] = random(2)
.ub z f32[1024] = fill(-1)
"""  # z is at 0x2000; the statement under test is on line 6


@pytest.mark.parametrize("body, col, message", [
    ("li x3, 0x1010\n    vsel.f32 @x3, z, z", 14,
     "vsel.f32 dst address 0x1010 (x3 = 0x1010) is not 32-byte aligned (vector operands must "
     "be 32-byte aligned)"),
    ("li x3, 4\n    vadds.f32 z, x[x3], 1.0", 18,
     "address 0x10 (x3 = 4) is not 32-byte aligned (vector operands must be 32-byte aligned)"),
    ("li x1, -256\n    vadds.f32 @x1, z, 1.0", 15,
     "vadds.f32 dst touches byte -0x100 outside UB (196608 bytes) (x1 = -0x100) "
     "(repeat 0, block 0)"),
    ("li x1, -64\n    vadds.f32 z[x1], z, 1.0", 15,
     "vadds.f32 dst z starts at byte 0x1f00, before the tensor (0x2000) (x1 = -64)"),
    ("li x1, 968\n    vadds.f32 z[x1], x, 1.0", 15,
     "vadds.f32 dst z needs 4128 bytes, tensor has 4096 (x1 = 968) (repeat 0, block 7)"),
    ("li x1, 17\n    vadds.f32 z, x, 1.0, repeat=x1", 15,
     "vadds.f32 dst z needs 4352 bytes, tensor has 4096 (x1 = 17) (repeat 16, block 0)"),
    ("li x1, 300\n    vadds.f32 z, x, 1.0, repeat=x1", 33,
     "repeat=300 is out of range (0..255) (x1 = 300)"),
    ("li x1, 0\n    copy_ub_to_ub z, x, nburst=1, burst=x1", 41,
     "burst=0 is out of range (1..65535) (x1 = 0)"),
    ("li x1, 8\n    vadds.f32 z[x1], z, 1.0", 22,
     "vadds.f32 dst z and src z overlap partially in repeat 0"),
])
def test_runtime_checks_name_the_registers(body: str, col: int, message: str):
    got = run_error(CHECKED + "    " + body + "\n")
    assert got.startswith(f"6:{col}: ") and message in got, got
    if "overlap" in message:
        assert "(x1 = 8)" in got, got


@pytest.mark.parametrize("step, message", [
    (64, "vadds.f32 dst z needs 4352 bytes, tensor has 4096 (x1 = 1024) (repeat 0, block 0)"),
    (68, "address 0x2110 (x1 = 68) is not 32-byte aligned"),
])
def test_loop_checks_every_execution(step: int, message: str):
    """A later trip of a loop that goes wrong is caught, after earlier clean trips."""
    text = CHECKED + f"    li x1, 0\nl:  vadds.f32 z[x1], x[x1], 1.0\n    add x1, x1, {step}\n" \
                     "    blt x1, 2048, l\n"
    got = run_error(text)
    assert got.startswith("6:15: ") and message in got, got


def test_gm_offset_beyond_the_tensor_names_the_register():
    text = ".gm a f32[256] input = zeros\n.ub t f32[256]\n    li x1, 200\n" \
           "    copy_gm_to_ub t, a[x1], nburst=1, burst=8\n"
    got = run_error(text)
    assert got.startswith("4:22: ") and "outside GM tensor a (1024 bytes) (x1 = 200) " \
        "(burst 0, block 7)" in got, got


def test_static_alignment_error_names_the_typed_mnemonic():
    got = run_error(".ub z f32[2048]\n    vsel.f32 @0x1010, z, z\n")
    assert got == ("2:14: vsel.f32 dst address 0x1010 is not 32-byte aligned (vector operands "
                   "must be 32-byte aligned)")


def test_checks_warn_reports_register_values_once_per_statement():
    text = HEAD + "    li x1, 0x1010\nl:  vadds.f32 @x1, @x1, 1.0\n    add x2, x2, 1\n" \
                  "    blt x2, 3, l\n"
    r = simulator.run(text, checks="warn", timing=False)
    warns = [d for d in r.diagnostics if "not 32-byte aligned" in d.message]
    assert len(warns) == 1 and "(x1 = 0x1010)" in warns[0].message


# -- .rept ---------------------------------------------------------------------------------------
def test_rept_with_index_and_expressions():
    text = HEAD + """
.rept 2 * 2
    vector_dup.f32 z[{i}*64 + 64], {i}.5
.endr
.rept 0
    vector_dup.f32 z, 9.0
.endr
"""
    p = assemble(text)
    assert [s.rept for s in p.statements] == [0, 1, 2, 3]
    ub = simulator.run(text, timing=False).ub
    z = p.tensors["z"]
    got = ub[z.addr:z.addr + 4096].view(np.float32)
    want = np.full(1024, -1, np.float32)
    for i in range(4):
        want[64 + 64 * i:128 + 64 * i] = i + 0.5
    assert got.tobytes() == want.tobytes()


def test_nested_rept_uses_the_innermost_index():
    text = """
.rept 2
    li x1, {i}
.rept 3
    add x2, x2, {i}
.endr
    add x3, x3, x1
.endr
"""
    x = regs(text)
    assert (x[1], x[2], x[3]) == (1, 2 * (0 + 1 + 2), 1)


@pytest.mark.parametrize("text, where, message", [
    (".ub z f32[256]\n.rept 3\n    vsel.f32 z[{i}*3], z, z\n.endr\n", "3:14",
     "vsel.f32 dst address 0xc is not 32-byte aligned (vector operands must be 32-byte aligned)"
     " (in .rept iteration 1)"),
    (".ub z f32[256]\n.rept 3\n    li x3, {i}*8\n    vsel.f32 z[x3], z, z\n.endr\n", "4:21",
     "vsel.f32 dst z and src0 z overlap partially in repeat 0, first at byte 0x20"),
    (".rept 2\n    nop\n", "1:1", ".rept without .endr"),
    ("    nop\n.endr\n", "2:1", ".endr without .rept"),
    (".rept x1\n.endr\n", "1:7", "expected an integer"),
])
def test_rept_diagnostics_name_the_body_line_and_iteration(text: str, where: str, message: str):
    got = run_error(text)
    assert got.startswith(where + ": ") and message in got, got
    if "overlap" in message:
        assert "(x3 = 8)" in got and got.endswith("(in .rept iteration 1)"), got


def test_runtime_warning_inside_rept_names_the_iteration():
    text = ".ub z f32[256] = zeros\n.rept 2\n    li x1, {i}\n    vadds.f32 z, z, 1.0, " \
           "repeat=x1\n.endr\n"
    r = simulator.run(text, timing=False)
    msgs = [d.message for d in r.diagnostics if "repeat=0" in d.message]
    assert msgs == ["vadds.f32 with repeat=0 does nothing (x1 = 0) (in .rept iteration 0)"]


def test_runtime_diagnostics_in_a_substituted_rept_line_name_source_columns():
    # `{i}` (3 characters) becomes `0` or `1`: an operand after it is 2 columns further right in
    # the source than in the substituted text; both the uninitialised read of y (col 28) and the
    # repeat=0 warning at its value x1 (col 38) must name the source's column
    text = ".ub x f32[1024] = zeros\n.ub y f32[64]\n.rept 2\n    li x1, 0\n" \
           "    vadd.f32 x[{i}*64], x, y, repeat=x1\n    vadd.f32 x[{i}*64], x, y\n.endr\n"
    r = simulator.run(text, timing=False)
    got = {(d.line, d.column, d.message.split(" ")[1]) for d in r.diagnostics}
    assert (5, 38, "with") in got and (6, 28, "src1") in got, got


# -- --max-steps -----------------------------------------------------------------------------------
def test_max_steps_stops_a_runaway_loop_at_its_line():
    text = "    li x1, 0\nspin:\n    add x1, x1, 1\n    jmp spin\n"
    got = run_error(text, max_steps=1000)  # li, then add/jmp pairs: step 1001 is a jmp
    assert got.startswith("4:5: --max-steps 1000 reached"), got


def test_max_steps_counts_executed_instructions():
    text = "    li x1, 0\nl:  add x1, x1, 1\n    blt x1, 10, l\n"  # 1 + 2 * 10 = 21 steps
    assert regs(text, max_steps=21)[1] == 10
    assert "--max-steps 20" in run_error(text, max_steps=20)


def test_cli_max_steps(tmp_path: Path):
    prog = tmp_path / "spin.vasm"
    prog.write_text("spin:\n    jmp spin\n")
    r = CliRunner().invoke(main, ["run", str(prog), "--max-steps", "50", "--output-dir",
                                  str(tmp_path / "o")])
    assert r.exit_code == 1
    assert r.stderr.startswith(f"{prog}:2:5: error: --max-steps 50 reached"), r.stderr
    assert "Traceback" not in r.stderr


# -- decoding stays cheap in loops ----------------------------------------------------------------
def test_loop_decodes_each_static_instruction_once_and_never_reparses(monkeypatch):
    import isa.lexer
    import simulator.semantics.vector as ex

    text = HEAD + """
    li x1, 0
    li x2, 0
l:  vadds.f32 z, x, 1.0
    vadds.f32 z[x1], x[x1], 2.0
    add x1, x1, 64
    and x1, x1, 255            ; four distinct addresses
    add x2, x2, 1
    blt x2, 40, l
"""
    program = assemble(text)
    calls = []
    real = ex.decode_vector
    monkeypatch.setattr(ex, "decode_vector", lambda *a: calls.append(a[0].text) or real(*a))
    for name in ("parse_int", "parse_number", "parse_reg_expr", "parse_register", "split_top"):
        monkeypatch.setattr(isa.lexer, name, None)  # executing must not parse text
    simulator.run(program, timing=False)
    assert calls.count("vadds.f32 z, x, 1.0, repeat=1") == 1
    assert calls.count("vadds.f32 z[x1], x[x1], 2.0, repeat=1") == 1  # one shape, 4 addresses
    assert len(calls) == 2


# -- the tiled kernels ---------------------------------------------------------------------------
def _expected_module():
    spec = importlib.util.spec_from_file_location("where_expected", KERNELS / "where_expected.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def kernel_runs():
    return {name: simulator.run(KERNELS / f"{name}.vasm")
            for name in ("where_tiled_loop", "where_tiled_rept", "where_tiled_db_loop")}


def test_loop_kernel_matches_its_unrolled_twin_and_numpy(kernel_runs):
    a = np.random.default_rng(1).uniform(-100, 100, 65536).astype(np.float32)
    b = np.random.default_rng(2).uniform(-100, 100, 65536).astype(np.float32)
    want = np.where(a < b, a, b).tobytes()
    loop = kernel_runs["where_tiled_loop"].outputs["out"].tobytes()
    assert loop == want
    assert kernel_runs["where_tiled_rept"].outputs["out"].tobytes() == loop
    assert kernel_runs["where_tiled_db_loop"].outputs["out"].tobytes() == loop
    for r in kernel_runs.values():
        assert not [d for d in r.diagnostics if d.severity != "note"], r.diagnostics


def test_stored_kernel_outputs_are_what_where_expected_computes():
    mod = _expected_module()
    for kernel in mod.KERNELS:
        for name, arr in mod.expected().items():
            stored = np.load(ROOT / "programs" / "expected" / "kernels" / kernel / f"{name}.npy")
            assert (stored.dtype, stored.shape) == (arr.dtype, arr.shape)
            assert stored.tobytes() == arr.tobytes()


def test_loop_kernel_costs_scalar_cycles(kernel_runs):
    loop, rept = kernel_runs["where_tiled_loop"], kernel_runs["where_tiled_rept"]
    assert loop.pipes["S"] > 0
    assert loop.pipes["S"] > rept.pipes["S"]  # li/add/blt and the taken branches
    assert loop.instructions == rept.instructions + 1 + 2 * 16
    # the loop's extra S work: li, 16 x (add, blt) at scalar_op each, 15 taken branches
    timing = loop.program.chip.timing
    extra = 33 * timing["scalar_op"] + 15 * timing["branch_taken"]
    assert loop.pipes["S"] == rept.pipes["S"] + extra
    db = kernel_runs["where_tiled_db_loop"]
    assert db.cycles < loop.cycles  # double buffering overlaps MTE2, V and MTE3


# -- random loop programs against an independent numpy model ------------------------------------
D_COUNT, S_COUNT = 2048, 2048  # f32 elements of the destination and source tensors
OPS = {"vadds": lambda s, c: s + c, "vmuls": lambda s, c: s * c, "vcopy": lambda s, c: s,
       "vector_dup": lambda s, c: np.full_like(s, c)}


@st.composite
def loop_programs(draw):
    op = draw(st.sampled_from(sorted(OPS)))
    trips = draw(st.integers(1, 6))
    reps = draw(st.integers(1, 3))
    span = reps * 64
    strides, starts = [], []
    for count in (D_COUNT, S_COUNT):
        k = draw(st.integers(-12, 12)) * 8  # element stride, 32-byte multiples
        lo = max(0, -k * (trips - 1))
        hi = count - span - max(0, k * (trips - 1))
        start = draw(st.integers(lo // 8, hi // 8)) * 8
        strides.append(k)
        starts.append(start)
    return dict(op=op, trips=trips, reps=reps, strides=strides, starts=starts,
                form=draw(st.sampled_from(["index", "index+k", "raw"])),
                control=draw(st.sampled_from(["bne", "blt", "bge"])),
                rep_reg=draw(st.booleans()),
                mask=draw(st.one_of(st.none(), st.integers(0, M64))),
                const=draw(st.sampled_from([0.5, -3.0, 1e30])))


def _source(p: dict) -> str:
    (dk, sk), (d0, s0) = p["strides"], p["starts"]
    lines = [".chip ascend910b", f".ub d f32[{D_COUNT}] = fill(-1)",
             f".ub s f32[{S_COUNT}] = random(7)"]
    if p["form"] == "raw":  # byte addresses in x1/x2, strides in bytes
        lines += [f"    addr x1, d[{d0}]", f"    addr x2, s[{s0}]",
                  f"    li x4, {dk // 8}", "    shl x4, x4, 5", f"    li x5, {sk * 4}"]
        dst, src = "@x1", "@x2"
    else:
        bias = 16 if p["form"] == "index+k" else 0
        lines += [f"    li x1, {d0 - bias}", f"    li x2, {s0 - bias}",
                  f"    li x4, {dk // 8}", "    shl x4, x4, 3", f"    li x5, {sk}"]
        dst, src = (f"d[x1+{bias}]", f"s[x2+{bias}]") if bias else ("d[x1]", "s[x2]")
    if p["mask"] is not None:
        lines += [f"    li x6, {p['mask']}", "    set_vector_mask x0, x6"]
    lines.append(f"    li x7, {p['reps']}")
    rep = "x7" if p["rep_reg"] else str(p["reps"])
    n = p["trips"]
    lines.append({"bne": f"    li x3, {n}", "blt": "    li x3, 0",
                  "bge": f"    li x3, {n - 1}"}[p["control"]])
    lines.append("loop:")
    operands = f"{dst}, {p['const']}" if p["op"] == "vector_dup" else \
        f"{dst}, {src}" + ("" if p["op"] == "vcopy" else f", {p['const']}")
    lines.append(f"    {p['op']}.f32 {operands}, repeat={rep}")
    lines += ["    add x1, x1, x4", "    add x2, x2, x5"]
    lines += {"bne": ["    sub x3, x3, 1", "    bne x3, 0, loop"],
              "blt": ["    add x3, x3, 1", f"    blt x3, {n}, loop"],
              "bge": ["    sub x3, x3, 1", "    bge x3, 0, loop"]}[p["control"]]
    return "\n".join(lines) + "\n"


def _model(p: dict, s: np.ndarray) -> np.ndarray:
    """What the loop computes, written independently of the simulator."""
    d = np.full(D_COUNT, -1, np.float32)
    mask = M64 if p["mask"] is None else p["mask"]
    active = np.array([(mask >> k) & 1 for k in range(64)], bool)
    if not active.any():
        return d  # MASK = 0: every instruction is a no-op (with a warning)
    c = np.float32(p["const"])
    (dk, sk), (d0, s0) = p["strides"], p["starts"]
    with np.errstate(over="ignore"):
        for t in range(p["trips"]):
            for i in range(p["reps"]):
                db, sb = d0 + t * dk + 64 * i, s0 + t * sk + 64 * i
                val = OPS[p["op"]](s[sb:sb + 64], c).astype(np.float32)
                d[db:db + 64][active] = val[active]
    return d


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(loop_programs())
def test_random_loops_match_a_numpy_model(p: dict):
    text = _source(p)
    program = assemble(text)
    s = program.tensors["s"].init.data.view(np.float32)
    r = simulator.run(program, timing=False, max_steps=1000)
    dt = program.tensors["d"]
    got = r.ub[dt.addr:dt.addr + dt.nbytes]
    assert got.tobytes() == _model(p, s).tobytes(), text
