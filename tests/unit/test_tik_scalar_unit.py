"""#29: the scalar unit (div/rem, ld/st, float registers, a register as a vector scalar operand)
in .vasm and under TIK scripts written in the vendor operators' style, each bit-exact against
numpy; the op-framework stand-ins; dynamic shapes."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isa import assemble
from isa.diagnostics import DiagnosticError
from simulator.run import run
from tests.reference import scalar_unit as ref

ROOT = Path(__file__).resolve().parents[2]
PIPEV = [sys.executable, "-m", "simulator.cli"]


def build(tmp_path: Path, text: str):
    path = tmp_path / "op.py"
    path.write_text(textwrap.dedent(text))
    return runpy.run_path(str(path))["tik_instance"]


# -- the ISA: .vasm ------------------------------------------------------------------------------
def run_vasm(text: str, **inputs):
    program = assemble(textwrap.dedent(text), "t.vasm")
    return run(program, inputs=inputs).outputs


SCALAR_LOOP = """
.chip ascend910b
.gm  a    s32[64]  input
.gm  out  s32[128] output
.ub  x    s32[128]
    copy_gm_to_ub  x, a, nburst=1, burst=8
    set_flag       MTE2, S, 0
    wait_flag      MTE2, S, 0
    li x5, {divisor}
    li x1, 0
loop:
    ld.s32 x2, x[x1]
    div x3, x2, x5
    rem x4, x2, {divisor}
    st.s32 x3, x[x1]
    add x6, x1, 64
    st.s32 x4, x[x6]
    add x1, x1, 1
    blt x1, 64, loop
    copy_ub_to_gm  out, x, nburst=1, burst=16
"""


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-2**31, 2**31 - 1), min_size=64, max_size=64),
       st.integers(-1000, 1000).filter(lambda d: d != 0))
def test_div_rem_ld_st_are_c_division(values, divisor):
    a = np.array(values, np.int32)
    out = run_vasm(SCALAR_LOOP.format(divisor=divisor), a=a)["out"]
    q = ref.div(a, divisor)
    assert out[:64].tobytes() == q.astype(np.int32).tobytes()
    assert out[64:].tobytes() == ref.rem(a, divisor).astype(np.int32).tobytes()


def test_division_by_a_zero_register_is_an_error_at_its_line():
    with pytest.raises(DiagnosticError) as e:
        run_vasm(SCALAR_LOOP.format(divisor=0).replace("rem x4, x2, 0", "rem x4, x2, 1"),
                 a=np.ones(64, np.int32))
    d = e.value.diagnostics[0]
    assert (d.line, "div by zero") == (13, d.message.split(" (")[0])


FLOAT = """
.chip ascend910b
.gm  out  {t}[16] output
.ub  r    {t}[16]
    li x1, {a:#x}
    li x2, {b:#x}
    fadd.{t} x3, x1, x2
    st.{t} x3, r[0]
    fsub.{t} x3, x1, x2
    st.{t} x3, r[1]
    fmul.{t} x3, x1, x2
    st.{t} x3, r[2]
    fdiv.{t} x3, x1, x2
    st.{t} x3, r[3]
    fmax.{t} x3, x1, x2
    st.{t} x3, r[4]
    fmin.{t} x3, x1, x2
    st.{t} x3, r[5]
    li x4, -7
    itof.{t} x3, x4
    st.{t} x3, r[6]
    ftoi.{t} x5, x1, round=floor
    itof.{t} x3, x5
    st.{t} x3, r[7]
    set_flag S, MTE3, 0
    wait_flag S, MTE3, 0
    copy_ub_to_gm  out, r, nburst=1, burst=1
"""
FLOATS = st.floats(-1e4, 1e4, allow_subnormal=False, width=16)


@settings(max_examples=25, deadline=None)
@given(FLOATS, FLOATS.filter(lambda v: v != 0), st.sampled_from(["f16", "f32"]))
def test_float_registers_compute_in_their_type(a, b, t):
    np_t = {"f16": np.float16, "f32": np.float32}[t]
    raw = {"f16": np.uint16, "f32": np.uint32}[t]
    fa, fb = np_t(a), np_t(b)
    bits = [int(np.array([v], np_t).view(raw)[0]) for v in (fa, fb)]
    out = run_vasm(FLOAT.format(t=t, a=bits[0], b=bits[1]))["out"]
    ops = [ref.falu(name, t, fa, fb) for name in ("fadd", "fsub", "fmul", "fdiv", "fmax",
                                                    "fmin")]
    want = np.array(ops + [-7, int(np.floor(fa))] + [0] * 8, np_t)  # an integer: -0.0 is 0
    assert out.tobytes() == want.tobytes()


def test_a_register_is_a_vector_scalar_operand():
    x = np.arange(128, dtype=np.float16)
    out = run_vasm("""
        .chip ascend910b
        .gm  a    f16[128]  input
        .gm  out  f16[128]  output
        .ub  v    f16[128]
            li x3, 0x3e00
            copy_gm_to_ub  v, a, nburst=1, burst=8
            set_flag MTE2, V, 0
            wait_flag MTE2, V, 0
            adds.f16 v, v, x3, count=128
            vmuls.f16 v, v, x3
            set_flag V, MTE3, 0
            wait_flag V, MTE3, 0
            copy_ub_to_gm  out, v, nburst=1, burst=8
        """, a=x)["out"]
    assert out.tobytes() == ((x + np.float16(1.5)) * np.float16(1.5)).tobytes()


def test_a_scalar_load_before_its_dma_is_a_race():
    program = assemble(textwrap.dedent("""
        .chip ascend910b
        .gm  a    s32[8]  input
        .ub  x    s32[8]
            copy_gm_to_ub  x, a, nburst=1, burst=1
            ld.s32 x1, x[0]
        """), "t.vasm")
    result = run(program, inputs={"a": np.ones(8, np.int32)}, checks="warn")
    assert any("race: ld.s32 on S reads" in d.message for d in result.diagnostics)


# -- TIK, in the operators' style ----------------------------------------------------------------
LOOP_OP = """
import numpy as np
from te import platform as tbe_platform
from te.utils import op_utils, para_check
from tbe import tik
from tbe.common.utils import para_check as tbe_para_check

N = 256
assert op_utils.check_shape is para_check.check_shape is tbe_para_check.check_shape
from tbe.common.platform import platform_info  # noqa: E402
from te.platform import cce_conf  # noqa: E402
assert platform_info.get_soc_spec is cce_conf.get_soc_spec is tbe_platform.get_soc_spec
tik_instance = tik.Tik(tik.Dprofile("v100", "mini"), disable_debug=True)
assert tik.Dprofile().get_unified_buffer_size() == tbe_platform.get_soc_spec("UB_SIZE")
x_gm = tik_instance.Tensor("int32", (N,), name="x_gm", scope=tik.scope_gm)
f_gm = tik_instance.Tensor("float32", (N,), name="f_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("int32", (N,), name="y_gm", scope=tik.scope_gm)
g_gm = tik_instance.Tensor("float32", (N,), name="g_gm", scope=tik.scope_gm)
x = tik_instance.Tensor("int32", (N,), name="x", scope=tik.scope_ubuf)
f = tik_instance.Tensor("float32", (N,), name="f", scope=tik.scope_ubuf)
tik_instance.data_move(x, x_gm, 0, 1, N * 4 // 32, 0, 0)
tik_instance.data_move(f, f_gm, 0, 1, N * 4 // 32, 0, 0)
v = tik_instance.Scalar("int32", name="v")
acc = tik_instance.Scalar("float32", name="acc", init_value=0.0)
with tik_instance.for_range(0, N) as i:
    v.set_as(x[i])
    x[i].set_as(v // 40 + v % 7 - v // 3)
    fv = tik_instance.Scalar("float32", name="fv", init_value=1.5)
    with tik_instance.if_scope(tik.any(v < 1000, v > 90000)):
        fv.set_as(f[i])
    acc.set_as(acc * 0.5 + fv)
tik_instance.vadds(64, f, f, acc, N // 64, 1, 1, 8, 8)
tik_instance.data_move(y_gm, x, 0, 1, N * 4 // 32, 0, 0)
tik_instance.data_move(g_gm, f, 0, 1, N * 4 // 32, 0, 0)
tik_instance.BuildCCE(kernel_name="loop_op", inputs=[x_gm, f_gm], outputs=[y_gm, g_gm])
"""


def loop_op_expected(x, f):
    q = ref.div(x, 40) + ref.rem(x, 7) - ref.div(x, 3)
    acc = np.float32(0)
    for k in range(x.size):
        fv = f[k] if (x[k] < 1000 or x[k] > 90000) else np.float32(1.5)
        acc = np.float32(acc * np.float32(0.5)) + fv
    return q.astype(np.int32), (f + acc).astype(np.float32)


@pytest.mark.parametrize("seed", [0, 1])
def test_operator_style_scalar_loop_is_bit_exact(tik_importable, tmp_path, seed):
    tik_instance = build(tmp_path, LOOP_OP)
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 100000, 256).astype(np.int32)
    f = rng.standard_normal(256).astype(np.float32)
    y, g = tik_instance.tikdb.start_debug({"x_gm": x, "f_gm": f}, interactive=False)
    ey, eg = loop_op_expected(x, f)
    assert y.tobytes() == ey.tobytes() and g.tobytes() == eg.tobytes()
    assert not tik_instance.tikdb.result.diagnostics  # the sync leaves no race


def test_listing_shows_scalar_unit_instructions_under_python_lines(tik_importable, tmp_path):
    from isa.listing import format_listing

    text = format_listing(build(tmp_path, LOOP_OP).program)
    assert "x[i].set_as(v // 40 + v % 7 - v // 3)" in text
    # v's register: the allocator picks it (simulator/tik/regalloc.py), the loop's i the first
    assert re.search(r"ld\.s32 x\d+, x\[x\d+", text)
    for hw in ("div x", "rem x", "st.s32", "fmul.f32", "wait_flag MTE2, S"):
        assert hw in text, hw


def test_framework_checks_at_the_operators_line(tik_importable, tmp_path):
    path = tmp_path / "op.py"
    path.write_text(textwrap.dedent("""
        from impl.util.platform_adapter import para_check

        @para_check.check_op_params(para_check.REQUIRED_INPUT, para_check.REQUIRED_ATTR_INT,
                                    para_check.KERNEL_NAME)
        def op(x, n, kernel_name="op"):
            para_check.check_shape(x["shape"], max_rank=2, param_name="x")

        op({"shape": (2, 3), "dtype": "float16"}, 3)
        op({"shape": (2, 3, 4), "dtype": "float16"}, 3)
        """))
    with pytest.raises(DiagnosticError) as e:
        runpy.run_path(str(path))
    d = e.value.diagnostics[0]
    assert d.line == 7 and "check_shape: shape of x (2, 3, 4)" in d.message


def test_dynamic_shape_tensor_is_bound_at_run_time(tik_importable, tmp_path):
    tik_instance = build(tmp_path, """
        from tbe import tik
        tik_instance = tik.Tik()
        x_gm = tik_instance.Tensor("float16", (2 ** 31 - 1,), name="x", scope=tik.scope_gm)
        y_gm = tik_instance.Tensor("float16", (2 ** 31 - 1,), name="y", scope=tik.scope_gm)
        tiling = tik_instance.Tensor("int32", (8,), name="tiling", scope=tik.scope_gm)
        t_ub = tik_instance.Tensor("int32", (8,), name="t_ub", scope=tik.scope_ubuf)
        x = tik_instance.Tensor("float16", (128,), name="xu", scope=tik.scope_ubuf)
        tik_instance.data_move(t_ub, tiling, 0, 1, 1, 0, 0)
        n = tik_instance.Scalar("int32", name="n")
        n.set_as(t_ub[0])
        with tik_instance.for_range(0, n // 128) as i:
            tik_instance.data_move(x, x_gm[i * 128], 0, 1, 8, 0, 0)
            tik_instance.vec_muls(128, x, x, 2.0, 1, 8, 8)
            tik_instance.data_move(y_gm[i * 128], x, 0, 1, 8, 0, 0)
        tik_instance.BuildCCE(kernel_name="dyn", inputs=[x_gm], outputs=[y_gm],
                              flowtable=[tiling])
        """)
    from simulator.static_check import check_program, zero_inputs

    assert zero_inputs(tik_instance.program)["x"].nbytes == 1 << 20  # not the declared 4 GiB
    assert check_program(tik_instance.program).ok
    x = np.arange(1, 641, dtype=np.float16)
    tiling = np.array([640, 0, 0, 0, 0, 0, 0, 0], np.int32)
    y, = tik_instance.tikdb.start_debug({"x": x, "tiling": tiling}, interactive=False)
    assert y.tobytes() == (x * np.float16(2)).tobytes()
    with pytest.raises(DiagnosticError) as e:  # past what was bound: out of bounds
        tik_instance.tikdb.start_debug({"x": x, "tiling": tiling * 2}, interactive=False)
    assert "outside GM tensor x (1312 bytes)" in e.value.diagnostics[0].message


def test_operator_program_runs_under_pipev_python_and_steps_by_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    program = ROOT / "programs" / "tik" / "op_scaled_bias.py"
    ok = subprocess.run([*PIPEV, "python", program], capture_output=True, text=True, env=env,
                        cwd=ROOT)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "bit-exact" in ok.stdout
    sys.path.insert(0, str(program.parent))
    n = 4 * 2048
    np.save(tmp_path / "x.npy", np.arange(n, dtype=np.float32))
    np.save(tmp_path / "t.npy", np.array([n, n // 4, 1, 0, 0, 0, 0, 0], np.int32))
    line = program.read_text().splitlines().index(
        "                    elem.set_as(x_ub[j])") + 1
    commands = tmp_path / "session.txt"
    commands.write_text(f"break {line}\ncontinue\nstep\nquit\n")
    out = subprocess.run([*PIPEV, "debug", program, "--input", f"x={tmp_path / 'x.npy'}",
                          "--input", f"tiling={tmp_path / 't.npy'}", "--commands", commands],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"op_scaled_bias.py:{line}: elem.set_as(x_ub[j])" in out.stdout
    # one step runs the line's scalar load and stops at the next Python line
    assert f"op_scaled_bias.py:{line + 3}: b.set_as(bias[idx - idx // 40 * 40])" in out.stdout


# a dynamic-shape copy-and-scale in the library's style: the core count and each core's share
# come from an int64 tiling tensor, the UB buffers of one scope are placed again in the next
RUNTIME_CORES = """
from impl.util.platform_adapter import tbe_platform, tik
from impl.util.util_common import is_unknown
from impl.util.util_tik_comm_func import ceil_div

MAX = 2 ** 31 - 1
tik_instance = tik.Tik(tik.Dprofile)
assert is_unknown([{"shape": (-1,)}])
ub_elems = (tbe_platform.get_soc_spec(tbe_platform.UB_SIZE) - 8192) // 2 // 4
x_gm = tik_instance.Tensor("int32", (MAX,), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("float32", (MAX,), name="y_gm", scope=tik.scope_gm)
tiling_gm = tik_instance.Tensor("int64", (8,), name="tiling_gm", scope=tik.scope_gm)
tiling_ub = tik_instance.Tensor("int64", (8,), name="tiling_ub", scope=tik.scope_ubuf)
tik_instance.data_move(tiling_ub, tiling_gm, 0, 1, 2, 0, 0)
cores = tik_instance.Scalar("int64", name="cores", init_value=8)
per_core = tik_instance.Scalar("int64", name="per_core")
cores.set_as(tiling_ub[0])
per_core.set_as(tiling_ub[1])
with tik_instance.for_range(0, cores, block_num=cores) as core:
    with tik_instance.if_scope(tik.all(core < cores, per_core > 0)):
        x_ub = tik_instance.Tensor("int32", (ub_elems,), name="x_ub", scope=tik.scope_ubuf)
        tik_instance.data_move(x_ub, x_gm[core * per_core], 0, 1, ceil_div(per_core, 8), 0, 0)
        with tik_instance.for_range(0, per_core) as i:
            v = tik_instance.Scalar("int32", name="v")
            f = tik_instance.Scalar("float32", name="f")
            v.set_as(x_ub[i])
            tik_instance.scalar_conv("", f, v)
            x_ub[i] = v * 3 // 7
        y_ub = tik_instance.Tensor("float32", (ub_elems,), name="y_ub", scope=tik.scope_ubuf)
        tik_instance.vconv(64, "", y_ub, x_ub, ceil_div(per_core, 64), 1, 1, 8, 8)
        tik_instance.vmuls(64, y_ub, y_ub, 0.5, ceil_div(per_core, 64), 1, 1, 8, 8)
        tik_instance.data_move(y_gm[core * per_core], y_ub, 0, 1, ceil_div(per_core, 8), 0, 0)
    with tik_instance.else_scope():
        z_ub = tik_instance.Tensor("int32", (ub_elems,), name="z_ub", scope=tik.scope_ubuf)
        tik_instance.vec_dup(64, z_ub, 0, 1, 8)
tik_instance.BuildCCE(kernel_name="runtime_cores", inputs=[x_gm], outputs=[y_gm],
                      flowtable=[tiling_gm], config={})
"""


@pytest.mark.parametrize("cores, per_core", [(3, 512), (8, 128)])
def test_runtime_core_count_from_tiling(tik_importable, tmp_path, cores, per_core):
    tik_instance = build(tmp_path, RUNTIME_CORES)
    n = cores * per_core
    x = np.random.default_rng(cores).integers(-10 ** 6, 10 ** 6, n).astype(np.int32)
    tiling = np.array([cores, per_core, 0, 0, 0, 0, 0, 0], np.int64)
    y, = tik_instance.tikdb.start_debug({"x_gm": x, "tiling_gm": tiling}, interactive=False)
    want = (ref.div(x.astype(np.int64) * 3, 7).astype(np.float32) * np.float32(0.5))
    assert y.tobytes() == want.astype(np.float32).tobytes()
    assert tik_instance.block_dim == tik_instance.chip.vector_cores  # launched at CORE_NUM


SCALAR_CALLS = """
from tbe import tik
tik_instance = tik.Tik()
out_gm = tik_instance.Tensor("int64", (16,), name="out_gm", scope=tik.scope_gm)
f_gm = tik_instance.Tensor("float32", (8,), name="f_gm", scope=tik.scope_gm)
in_gm = tik_instance.Tensor("int64", (4,), name="in_gm", scope=tik.scope_gm)
out = tik_instance.Tensor("int64", (16,), name="out", scope=tik.scope_ubuf)
fo = tik_instance.Tensor("float32", (8,), name="fo", scope=tik.scope_ubuf)
vin = tik_instance.Tensor("int64", (4,), name="vin", scope=tik.scope_ubuf)
tik_instance.data_move(vin, in_gm, 0, 1, 1, 0, 0)
a = tik_instance.Scalar("int64", name="a")
b = tik_instance.Scalar("int64", name="b")
r = tik_instance.Scalar("int64", name="r")
a.set_as(vin[0])
b.set_as(vin[1])
calls = [lambda: tik_instance.scalar_abs(r, a), lambda: tik_instance.scalar_max(r, a, b),
         lambda: tik_instance.scalar_min(r, a, 5), lambda: tik_instance.scalar_countbit1(r, a),
         lambda: tik_instance.scalar_countbit0(r, b),
         lambda: tik_instance.scalar_countleading0(r, b)]
for k, call in enumerate(calls):
    call()
    out[k].set_as(r)
f = tik_instance.Scalar("float32", name="f")
g = tik_instance.Scalar("float32", name="g")
tik_instance.scalar_conv("", f, a)
tik_instance.scalar_abs(g, f)
fo[0].set_as(g)
tik_instance.scalar_sqrt(g, g)
fo[1].set_as(g)
tik_instance.scalar_conv("to-zero", r, g)
out[6].set_as(r)
tik_instance.data_move(out_gm, out, 0, 1, 4, 0, 0)
tik_instance.data_move(f_gm, fo, 0, 1, 1, 0, 0)
tik_instance.BuildCCE(kernel_name="scalar_calls", inputs=[in_gm], outputs=[out_gm, f_gm])
"""


@pytest.mark.parametrize("a, b", [(-1234567, 99), (7, -3), (-(2 ** 40), 1)])
def test_tik_scalar_instructions(tik_importable, tmp_path, a, b):
    tik_instance = build(tmp_path, SCALAR_CALLS)
    vin = np.array([a, b, 0, 0], np.int64)
    out, fo = tik_instance.tikdb.start_debug({"in_gm": vin}, interactive=False)
    want = [abs(a), max(a, b), min(a, 5), ref.popcnt(a), 64 - ref.popcnt(b), ref.clz(b)]
    fa = np.float32(np.array(a, np.int64).astype(np.int32))  # itof: the low 32 bits, signed
    assert out[:6].tolist() == want
    assert fo[0] == np.abs(fa) and fo[1].tobytes() == np.sqrt(np.abs(fa)).tobytes()
    assert out[6] == int(np.sqrt(np.abs(fa)))


def test_fast_loop_equals_reference_on_the_scalar_unit():
    """The new scalar instructions (effects in the fast loop; loads and stores on the reference
    path) and a register scalar operand give the same outputs, cycles and diagnostics both
    ways."""
    from tests.differential.test_fused import same_both_ways

    outcome = same_both_ways("""
.chip ascend910b
.ub x s32[256] = random(1)
.ub f f32[256] = random(2)
.ub u f32[256]
    li x1, 0
    li x7, 0x3fc00000
loop:
    ld.s32 x2, x[x1]
    div x3, x2, 40
    or x3, x3, 1
    rem x4, x2, x3
    smax x4, x4, -5
    st.s32 x4, x[x1]
    ld.f32 x5, f[x1]
    fmul.f32 x6, x5, x7
    fsqrt.f32 x6, x6
    st.f32 x6, f[x1]
    vadds.f32 u, f, x6
    add x1, x1, 1
    blt x1, 200, loop
""")
    assert outcome[0] == "ok", outcome


GM_SCALARS = """
from tbe import tik
tik_instance = tik.Tik()
tiling = tik_instance.Tensor("int32", (8,), name="tiling", scope=tik.scope_gm)
out = tik_instance.Tensor("int32", (8,), name="out", scope=tik.scope_gm)
n = tik_instance.Scalar("int32", name="n")
n.set_as(tiling[1])
out[0].set_as(n * 7)
out[1] = tiling[2]
tik_instance.BuildCCE(kernel_name="gm_scalars", inputs=[tiling], outputs=[out])
"""


def test_scalar_gm_access_where_the_chip_has_it(tik_importable, tmp_path):
    tik_instance = build(tmp_path, GM_SCALARS)
    tiling = np.array([0, 6, -9, 0, 0, 0, 0, 0], np.int32)
    out, = tik_instance.tikdb.start_debug({"tiling": tiling}, interactive=False)
    assert out[:2].tolist() == [42, -9]


def test_scalar_gm_access_is_an_error_on_ascend910(tik_importable, tmp_path, monkeypatch):
    from simulator.tik.tik import SETTINGS

    monkeypatch.setitem(SETTINGS, "chip", "ascend910")
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, GM_SCALARS)
    d = e.value.diagnostics[0]
    assert d.line == 7 and "of ascend910 loads and stores UB elements only" in d.message


def test_an_expr_into_a_float16_scalar_is_an_error(tik_importable, tmp_path):
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, """
            from tbe import tik
            tik_instance = tik.Tik()
            h = tik_instance.Scalar("float16", init_value=1.5)
            h.set_as(h * 2.0)
            """)
    d = e.value.diagnostics[0]
    assert d.line == 5 and "an Expr cannot be assigned to a float16 Scalar" in d.message


def test_a_call_pipev_does_not_model_is_a_diagnostic_at_the_line(tik_importable, tmp_path):
    with pytest.raises(DiagnosticError) as e:
        build(tmp_path, """
            from tbe import tik
            tik_instance = tik.Tik()
            assert not hasattr(tik_instance, "vec_no_such_call")
            tik_instance.vec_no_such_call(64)
            """)
    d = e.value.diagnostics[0]
    assert d.line == 5 and "tik_instance.vec_no_such_call: not a TIK call" in d.message


def test_every_scalar_taking_statement_takes_a_register():
    """compares, select mode 1, duplicate and vcmpvs read the scalar from x4 at issue."""
    x = np.tile(np.array([0.5, -1, 2, 3, 1, 1.5, -2, 7], np.float32), 8)
    out = run_vasm("""
        .chip ascend910b
        .gm a f32[64] input
        .ub x f32[64]
        .ub m u8[32]
        .ub m2 u8[32]
        .ub d f32[64]
        .ub z f32[64]
        .gm o1 u8[8] output
        .gm o2 f32[64] output
        .gm o3 f32[64] output
        .gm o4 u8[8] output
            copy_gm_to_ub x, a, nburst=1, burst=8
            set_flag MTE2, V, 0
            wait_flag MTE2, V, 0
            li x4, 0x3f800000
            compares.gt.f32 m, x, x4, count=64
            select.f32 d, m, x, x4, mode=1, count=64
            duplicate.f32 z, x4, count=64
            vcmpvs.lt.f32 m2, x, x4
            set_flag V, MTE3, 0
            wait_flag V, MTE3, 0
            copy_ub_to_gm_pad.u8 o1, m, nburst=1, len=8
            copy_ub_to_gm o2, d, nburst=1, burst=8
            copy_ub_to_gm o3, z, nburst=1, burst=8
            copy_ub_to_gm_pad.u8 o4, m2, nburst=1, len=8
        """, a=x)
    bits = lambda b: np.unpackbits(b, bitorder="little").astype(bool)  # noqa: E731
    assert (bits(out["o1"]) == (x > 1)).all() and (bits(out["o4"]) == (x < 1)).all()
    assert out["o2"].tobytes() == np.where(x > 1, x, np.float32(1)).tobytes()
    assert out["o3"].tobytes() == np.ones(64, np.float32).tobytes()


def test_a_dynamic_input_is_bound_in_whole_blocks(tik_importable, tmp_path):
    """37 halves bound: the DMA's third block runs past the last element into the allocation's
    32-byte granule, the fourth into the runtime's 32 bytes of slack (zeros), as on the device;
    a fifth block would be out of bounds."""
    tik_instance = build(tmp_path, """
        from tbe import tik
        tik_instance = tik.Tik()
        x_gm = tik_instance.Tensor("float16", (2 ** 31 - 1,), name="x", scope=tik.scope_gm)
        y_gm = tik_instance.Tensor("float16", (2 ** 31 - 1,), name="y", scope=tik.scope_gm)
        t_gm = tik_instance.Tensor("int32", (8,), name="t", scope=tik.scope_gm)
        t_ub = tik_instance.Tensor("int32", (8,), name="t_ub", scope=tik.scope_ubuf)
        x = tik_instance.Tensor("float16", (64,), name="xu", scope=tik.scope_ubuf)
        tik_instance.data_move(t_ub, t_gm, 0, 1, 1, 0, 0)
        blocks = tik_instance.Scalar("int32", name="blocks")
        blocks.set_as(t_ub[0])
        tik_instance.data_move(x, x_gm, 0, 1, blocks, 0, 0)
        tik_instance.vec_adds(64, x, x, 1.0, 1, 8, 8)
        tik_instance.data_move(y_gm, x, 0, 1, blocks, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[x_gm], outputs=[y_gm], flowtable=[t_gm])
        """)
    x = np.arange(1, 38, dtype=np.float16)
    y, = tik_instance.tikdb.start_debug({"x": x, "t": np.array([3] + [0] * 7, np.int32)},
                                        interactive=False)
    assert y[:37].tobytes() == (x + np.float16(1)).tobytes() and (y[37:] == 1).all()
    y, = tik_instance.tikdb.start_debug({"x": x, "t": np.array([4] + [0] * 7, np.int32)},
                                        interactive=False)
    assert y[:37].tobytes() == (x + np.float16(1)).tobytes() and (y[37:64] == 1).all()
    with pytest.raises(DiagnosticError) as e:
        tik_instance.tikdb.start_debug({"x": x, "t": np.array([5] + [0] * 7, np.int32)},
                                       interactive=False)
    assert "outside GM tensor x (128 bytes)" in e.value.diagnostics[0].message


def test_a_scalar_changed_later_in_the_loop_is_read_each_iteration(tik_importable, tmp_path):
    tik_instance = build(tmp_path, """
        from tbe import tik
        tik_instance = tik.Tik()
        y_gm = tik_instance.Tensor("float32", (4 * 64,), name="y", scope=tik.scope_gm)
        y = tik_instance.Tensor("float32", (4 * 64,), name="yu", scope=tik.scope_ubuf)
        acc = tik_instance.Scalar("float32", name="acc", init_value=0.5)
        with tik_instance.for_range(0, 4) as i:
            tik_instance.vec_dup(64, y[i * 64], acc, 1, 8)
            acc.set_as(acc * 2.0)
        tik_instance.data_move(y_gm, y, 0, 1, 32, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[], outputs=[y_gm])
        """)
    y, = tik_instance.tikdb.start_debug({}, interactive=False)
    assert y.tobytes() == np.repeat(np.float32([0.5, 1, 2, 4]), 64).tobytes()


def test_h_sub_of_a_runtime_scalar_negates_it_on_the_scalar_unit(tik_importable, tmp_path):
    tik_instance = build(tmp_path, """
        from tbe import tik
        tik_instance = tik.Tik()
        x_gm = tik_instance.Tensor("float32", (64,), name="x", scope=tik.scope_gm)
        y_gm = tik_instance.Tensor("float32", (64,), name="y", scope=tik.scope_gm)
        x = tik_instance.Tensor("float32", (64,), name="xu", scope=tik.scope_ubuf)
        s = tik_instance.Scalar("float32", name="s")
        tik_instance.data_move(x, x_gm, 0, 1, 8, 0, 0)
        s.set_as(x[3])
        tik_instance.h_sub(x, x, s)
        tik_instance.data_move(y_gm, x, 0, 1, 8, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[x_gm], outputs=[y_gm])
        """)
    x = np.random.default_rng(5).standard_normal(64).astype(np.float32)
    y, = tik_instance.tikdb.start_debug({"x": x}, interactive=False)
    assert y.tobytes() == (x + -x[3]).tobytes()


@pytest.mark.parametrize("chip", ["ascend910b", "ascend910"])  # ld from GM / DMA to UB, ld
def test_input_scalars_come_from_the_launch(tik_importable, tmp_path, monkeypatch, chip):
    from simulator.tik.tik import SETTINGS

    monkeypatch.setitem(SETTINGS, "chip", chip)
    tik_instance = build(tmp_path, """
        from tbe import tik
        tik_instance = tik.Tik(disable_debug=False)
        n = tik_instance.InputScalar("int32", name="n")
        scale = tik_instance.InputScalar(dtype="float32", name="scale")
        x_gm = tik_instance.Tensor("float32", (256,), name="x", scope=tik.scope_gm)
        y_gm = tik_instance.Tensor("float32", (256,), name="y", scope=tik.scope_gm)
        x = tik_instance.Tensor("float32", (256,), name="xu", scope=tik.scope_ubuf)
        tik_instance.data_move(x, x_gm, 0, 1, 32, 0, 0)
        tik_instance.vec_muls(64, x, x, scale, n // 64, 8, 8)
        tik_instance.data_move(y_gm, x, 0, 1, 32, 0, 0)
        tik_instance.BuildCCE(kernel_name="k", inputs=[x_gm, n, scale], outputs=(y_gm))
        """)
    x = np.random.default_rng(2).standard_normal(256).astype(np.float32)
    y, = tik_instance.tikdb.start_debug({"x": x, "n": 128, "scale": 0.75}, interactive=False)
    want = np.concatenate([x[:128] * np.float32(0.75), x[128:]])
    assert y.tobytes() == want.tobytes()


# -- `//` and `%` by a power of two: C's division, negative dividends too (#29 left) -----------
POW2_DIV = """
from tbe import tik
N = 64
tik_instance = tik.Tik()
a_gm = tik_instance.Tensor("int32", (N,), name="a_gm", scope=tik.scope_gm)
d_gm = tik_instance.Tensor("int32", (4 * N,), name="d_gm", scope=tik.scope_gm)
a = tik_instance.Tensor("int32", (N,), name="a", scope=tik.scope_ubuf)
d = tik_instance.Tensor("int32", (4 * N,), name="d", scope=tik.scope_ubuf)
tik_instance.data_move(a, a_gm, 0, 1, N * 4 // 32, 0, 0)
v = tik_instance.Scalar("int32", name="v")
with tik_instance.for_range(0, N) as i:
    v.set_as(a[i])
    d[i].set_as(v // {p})
    d[N + i].set_as(v % {p})
    d[2 * N + i].set_as(v // 1)
    d[3 * N + i].set_as((v - 3 * 4096) % {p})
tik_instance.data_move(d_gm, d, 0, 1, 4 * N * 4 // 32, 0, 0)
tik_instance.BuildCCE(kernel_name="pow2_div", inputs=[a_gm], outputs=[d_gm])
"""


@pytest.mark.parametrize("p", [2, 8, 1024])
def test_floor_div_and_mod_by_a_power_of_two_are_c_division(tik_importable, tmp_path, p):
    """A power-of-two divisor once lowered to a logical shr/and: -7 // 2 gave 2^63 − 4 (the
    int32 store then 0xfffffffc = −4, not C's −3) and -7 % 2 gave 1, not −1."""
    tik_instance = build(tmp_path, POW2_DIV.format(p=p))
    rng = np.random.default_rng(p)
    a = np.concatenate([[-7, -1, -p, -p - 1, 0, 1, p - 1, -(2 ** 31)],
                        rng.integers(-2 ** 31, 2 ** 31, 56)]).astype(np.int32)
    [out] = tik_instance.tikdb.start_debug({"a_gm": a}, interactive=False)
    want = np.concatenate([ref.div(a, p), ref.rem(a, p), a,
                           ref.rem(a.astype(np.int64) - 3 * 4096, p)])
    assert out.tobytes() == want.astype(np.int32).tobytes()


@pytest.mark.parametrize("a, b", [(-7, 2), (7, -2), (-7, -2), (-8, 4), (9, 4)])
def test_folded_division_is_the_scalar_units(a, b):
    """A constant expression folds as div/rem compute at run time, not as Python's floor."""
    from simulator.tik.expr import Const
    assert (Const(a) // b).constant() == int(ref.div(np.int64(a), b))
    assert (Const(a) % b).constant() == int(ref.rem(np.int64(a), b))
