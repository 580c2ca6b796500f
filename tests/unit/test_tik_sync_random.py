"""The synchronisation TIK kernels get, on random kernels: loads, stores, vector work and UB
copies over a few buffers and new_stmt_scope tensors sharing freed UB, in nested loops and
ifs. pipev's race check (docs/format.md §9.4: a vector clock per pipe) must find no race, no
flag may be left set and no wait may deadlock; results are program order's (functional results
never depend on timing), checked against numpy."""

import runpy
import sys

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.tik import SHIM

BUFFERS = ("a", "b", "c")
N = 128  # halves per buffer: one repeat


def op():
    load = st.tuples(st.just("load"), st.sampled_from(BUFFERS), st.integers(0, 3))
    store = st.tuples(st.just("store"), st.sampled_from(BUFFERS), st.integers(0, 3))
    add = st.tuples(st.just("add"), st.sampled_from(BUFFERS), st.sampled_from(BUFFERS),
                    st.sampled_from(BUFFERS))
    copy = st.tuples(st.just("copy"), st.sampled_from(BUFFERS), st.sampled_from(BUFFERS))
    # a new_stmt_scope's own tensor: every one is placed in the same freed UB bytes
    scoped = st.tuples(st.just("scoped"), st.sampled_from(BUFFERS), st.integers(0, 3))
    return st.one_of(load, store, add, copy, scoped)


body = st.recursive(
    st.lists(op(), min_size=1, max_size=4),
    lambda inner: st.lists(st.one_of(
        op(), st.tuples(st.just("loop"), st.integers(0, 3), inner),
        st.tuples(st.just("if"), st.integers(0, 2), inner, inner)), min_size=1, max_size=4),
    max_leaves=12)


def source(ops, depth=0, var="flag") -> list[str]:
    """The TIK statements; an if tests the innermost loop's counter (`flag`, 1, outside)."""
    pad = "    " * depth
    out = []
    for o in ops:
        if o[0] == "load":
            out.append(f"{pad}tik_instance.data_move({o[1]}, g_in[{o[2] * N}], 0, 1, 8, 0, 0)")
        elif o[0] == "store":
            out.append(f"{pad}tik_instance.data_move(g_out[{o[2] * N}], {o[1]}, 0, 1, 8, 0, 0)")
        elif o[0] == "add":
            out.append(f"{pad}tik_instance.vec_add(128, {o[1]}, {o[2]}, {o[3]}, 1, 8, 8, 8)")
        elif o[0] == "copy":
            out.append(f"{pad}tik_instance.data_move({o[1]}, {o[2]}, 0, 1, 8, 0, 0)")
        elif o[0] == "scoped":
            out += [f"{pad}with tik_instance.new_stmt_scope():",
                    f'{pad}    t = tik_instance.Tensor("float16", ({N},), name="t", '
                    "scope=tik.scope_ubuf)",
                    f"{pad}    tik_instance.data_move(t, g_in[{o[2] * N}], 0, 1, 8, 0, 0)",
                    f"{pad}    tik_instance.vec_add(128, t, t, {o[1]}, 1, 8, 8, 8)",
                    f"{pad}    tik_instance.data_move({o[1]}, t, 0, 1, 8, 0, 0)"]
        elif o[0] == "loop":
            out.append(f"{pad}with tik_instance.for_range(0, {o[1]}) as i{depth}:")
            out += source(o[2], depth + 1, f"i{depth}")
        else:
            out.append(f"{pad}with tik_instance.if_scope({var} < {o[1]}):")
            out += source(o[2], depth + 1, var)
            out.append(f"{pad}with tik_instance.else_scope():")
            out += source(o[3], depth + 1, var)
    return out


def simulate(ops, ub, g_in, g_out, loop_var=None):
    """Program order with numpy: what the kernel computes."""
    for o in ops:
        if o[0] == "load":
            ub[o[1]] = g_in[o[2] * N:(o[2] + 1) * N].copy()
        elif o[0] == "store":
            g_out[o[2] * N:(o[2] + 1) * N] = ub[o[1]]
        elif o[0] == "add":
            ub[o[1]] = ub[o[2]] + ub[o[3]]
        elif o[0] == "copy":
            ub[o[1]] = ub[o[2]].copy()
        elif o[0] == "scoped":
            ub[o[1]] = g_in[o[2] * N:(o[2] + 1) * N] + ub[o[1]]
        elif o[0] == "loop":
            for i in range(o[1]):
                simulate(o[2], ub, g_in, g_out, i)
        else:
            taken = (loop_var if loop_var is not None else 1) < o[1]
            simulate(o[2] if taken else o[3], ub, g_in, g_out, loop_var)


def run_kernel(body: list[str], tmp_path_factory):
    """A random kernel of BODY's lines between the buffers' loads and BuildCCE, run as a TIK
    script with no diagnostic: (its output, its input, its script's path)."""
    lines = ["from tbe import tik", "tik_instance = tik.Tik()",
             'g_in = tik_instance.Tensor("float16", (512,), name="g_in", scope=tik.scope_gm)',
             'g_out = tik_instance.Tensor("float16", (512,), name="g_out", scope=tik.scope_gm)',
             'flag = tik_instance.Scalar("int32", name="flag", init_value=1)']
    for b in BUFFERS:
        lines.append(f'{b} = tik_instance.Tensor("float16", ({N},), name="{b}", '
                     "scope=tik.scope_ubuf)")
        lines.append(f"tik_instance.data_move({b}, g_in, 0, 1, 8, 0, 0)")
    lines += body
    lines.append('tik_instance.BuildCCE(kernel_name="k", inputs=[g_in], outputs=[g_out])')
    path = tmp_path_factory.mktemp("k") / "kernel.py"
    path.write_text("\n".join(lines) + "\n")
    sys.path.insert(0, SHIM)
    try:
        tik_instance = runpy.run_path(str(path))["tik_instance"]
    finally:
        sys.path.remove(SHIM)
    g_in = (np.arange(512) % 7).astype(np.float16)
    out, = tik_instance.tikdb.start_debug({"g_in": g_in}, interactive=False)
    problems = [str(d) for d in tik_instance.tikdb.result.diagnostics]
    assert not problems, "\n".join(problems) + "\n" + path.read_text()
    return out, g_in, path


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(ops=body)
def test_random_kernels_race_free(ops, tmp_path_factory):
    out, g_in, path = run_kernel(source(ops), tmp_path_factory)
    ub = {b: g_in[:N].copy() for b in BUFFERS}
    want = np.zeros(512, np.float16)
    simulate(ops, ub, g_in, want)
    assert out.tobytes() == want.tobytes()
