"""#29: a TIK kernel declares more Scalars than the scalar unit has registers (x1..x23), as the
vendor's operators do (TIK's compiler allocates and spills them): pipev gives the most used
ones registers and keeps the rest in a per-core UB spill area (simulator/tik/regalloc.py).
Our own operator-style kernels, bit-exact against numpy."""

from __future__ import annotations

import runpy
import textwrap
from pathlib import Path

import numpy as np
import pytest

from isa.listing import format_listing

ROWS, COLS, NT = 4, 8, 20
MASK32 = (1 << 32) - 1


def build(tmp_path: Path, text: str):
    path = tmp_path / "op.py"
    path.write_text(textwrap.dedent(text))
    return runpy.run_path(str(path))["tik_instance"]


# 20 tiling Scalars, 20 per row, 18 per column (in an if_scope, another 18 in its else_scope),
# the value and the accumulator, the two loop counters: 62 alive at once in the innermost scope
MANY = f"""
from impl.util.platform_adapter import tik

ROWS, COLS, NT = {ROWS}, {COLS}, {NT}
tik_instance = tik.Tik()
tiling_gm = tik_instance.Tensor("int64", (32,), name="tiling_gm", scope=tik.scope_gm)
x_gm = tik_instance.Tensor("int32", (ROWS * COLS,), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("int32", (ROWS * COLS,), name="y_gm", scope=tik.scope_gm)
tiling_ub = tik_instance.Tensor("int64", (32,), name="tiling_ub", scope=tik.scope_ubuf)
x_ub = tik_instance.Tensor("int32", (ROWS * COLS,), name="x_ub", scope=tik.scope_ubuf)
y_ub = tik_instance.Tensor("int32", (ROWS * COLS,), name="y_ub", scope=tik.scope_ubuf)
tik_instance.data_move(tiling_ub, tiling_gm, 0, 1, 8, 0, 0)
tik_instance.data_move(x_ub, x_gm, 0, 1, ROWS * COLS * 4 // 32, 0, 0)
t = [tik_instance.Scalar("int64", name=f"t{{k}}") for k in range(NT)]
for k in range(NT):
    t[k].set_as(tiling_ub[k])
with tik_instance.for_range(0, ROWS) as r:
    a = [tik_instance.Scalar("int64", name=f"a{{k}}", init_value=t[k] * (r + 1) + k)
         for k in range(NT)]
    with tik_instance.for_range(0, COLS) as c:
        with tik_instance.if_scope(c % 2 == 0):
            b = [tik_instance.Scalar("int64", name=f"b{{k}}") for k in range(18)]
            for k in range(18):
                b[k].set_as((a[k] * (c + 1) + t[k + 1]) // (k + 2))
            v = tik_instance.Scalar("int64", name="v")
            v.set_as(x_ub[r * COLS + c])
            acc = tik_instance.Scalar("int64", name="acc", init_value=v)
            for s in t + a + b:
                acc.set_as((acc ^ s) + s * 3)
            y_ub[r * COLS + c].set_as(acc + r * 1000 + c)
        with tik_instance.else_scope():
            d = [tik_instance.Scalar("int64", name=f"d{{k}}") for k in range(18)]
            for k in range(18):
                d[k].set_as(a[k + 2] % (k + 3) + c)
            acc = tik_instance.Scalar("int64", name="acc")
            acc.set_as(x_ub[r * COLS + c])
            for k, s in enumerate(a + d + t):
                acc.set_as(acc - s * k)
            y_ub[r * COLS + c].set_as(acc)
tik_instance.data_move(y_gm, y_ub, 0, 1, ROWS * COLS * 4 // 32, 0, 0)
tik_instance.BuildCCE(kernel_name="many", inputs=[x_gm], outputs=[y_gm],
                      flowtable=[tiling_gm])
"""


def many_expected(x: np.ndarray, tiling: np.ndarray) -> np.ndarray:
    """The kernel's arithmetic on Python ints (exact; every value stays far inside int64), the
    stores keeping the low 32 bits."""
    t = [int(v) for v in tiling[:NT]]
    out = []
    for r in range(ROWS):
        a = [t[k] * (r + 1) + k for k in range(NT)]
        for c in range(COLS):
            if c % 2 == 0:
                b = [(a[k] * (c + 1) + t[k + 1]) // (k + 2) for k in range(18)]
                acc = int(x[r * COLS + c])
                for s in t + a + b:
                    acc = (acc ^ s) + s * 3
                acc += r * 1000 + c
            else:
                d = [a[k + 2] % (k + 3) + c for k in range(18)]
                acc = int(x[r * COLS + c])
                for k, s in enumerate(a + d + t):
                    acc -= s * k
            out.append(acc & MASK32)
    return np.array(out, np.uint32).view(np.int32)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_62_live_scalars_in_loops_and_scopes_are_bit_exact(tik_importable, tmp_path, seed):
    tik_instance = build(tmp_path, MANY)
    rng = np.random.default_rng(seed)
    x = rng.integers(-2**31, 2**31, ROWS * COLS, dtype=np.int64).astype(np.int32)
    tiling = np.zeros(32, np.int64)
    tiling[:NT] = rng.integers(0, 100000, NT)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x, "tiling_gm": tiling}, interactive=False)
    assert y.tobytes() == many_expected(x, tiling).tobytes()
    assert not tik_instance.tikdb.result.diagnostics


def test_the_scalars_beyond_the_registers_are_spilled_to_ub(tik_importable, tmp_path):
    """The heaviest (the inner loop's) get x1..x23; the rest live in __tik_spill, read through
    a scratch register (`ld.s64` before, `st.s64` after a write), above the kernel's tensors."""
    program = build(tmp_path, MANY).program
    area = program.tensors["__tik_spill"]
    assert area.space == "ub" and area.dtype.name == "s64"
    assert area.addr >= max(t.addr + t.nbytes for t in program.tensors.values()
                            if t.space == "ub" and t is not area)
    text = format_listing(program)
    assert "ld.s64 x2" in text and ", __tik_spill[" in text and "st.s64 x2" in text
    registers = {int(w[1:].rstrip(",")) for w in text.split() if w[:1] == "x" and
                 w[1:].rstrip(",").isdigit()}
    assert registers <= set(range(32))  # no virtual register reaches the program


FLAT = """
from impl.util.platform_adapter import tik

tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("int32", (64,), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("int32", (64,), name="y_gm", scope=tik.scope_gm)
x_ub = tik_instance.Tensor("int32", (64,), name="x_ub", scope=tik.scope_ubuf)
tik_instance.data_move(x_ub, x_gm, 0, 1, 8, 0, 0)
s = [tik_instance.Scalar("int32", name=f"s{k}") for k in range(60)]
for k in range(60):
    s[k].set_as(x_ub[k])
with tik_instance.for_range(0, 60) as i:
    total = tik_instance.Scalar("int32", name="total", init_value=0)
    for k in range(60):
        total.set_as(total + s[k] * (k + 1))
    x_ub[i].set_as(total - i)
tik_instance.data_move(y_gm, x_ub, 0, 1, 8, 0, 0)
tik_instance.BuildCCE(kernel_name="flat", inputs=[x_gm], outputs=[y_gm])
"""


def test_sixty_kernel_scope_scalars_read_in_a_loop(tik_importable, tmp_path):
    """60 Scalars alive for the whole kernel (before #29's allocator: an error at the 24th)."""
    tik_instance = build(tmp_path, FLAT)
    x = np.random.default_rng(5).integers(-1000, 1000, 64).astype(np.int32)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    total = int(np.dot(x[:60].astype(np.int64), np.arange(1, 61)))
    want = x.copy()
    want[:60] = total - np.arange(60)
    assert y.tobytes() == want.tobytes()


# -- random programs: many Scalars, random statements in a loop and if_scopes ---------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

OPS = ("+", "-", "*", "^", "&", "|")
WRAP = 1 << 64


def _wrap(v: int) -> int:
    v %= WRAP
    return v - WRAP if v >> 63 else v


def _apply(op: str, a: int, b: int) -> int:
    return _wrap({"+": a + b, "-": a - b, "*": a * b, "^": a ^ b, "&": a & b,
                  "|": a | b}[op])


statement = st.tuples(st.integers(0, 99), st.sampled_from(OPS), st.integers(0, 99),
                      st.integers(0, 99), st.integers(-50, 50), st.booleans())


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.integers(24, 48), st.integers(4, 16), st.lists(statement, min_size=1, max_size=30),
       st.integers(1, 3))
def test_random_scalar_programs_with_spills_are_exact(tik_importable, tmp_path, outer, inner,
                                                      body, trips):
    """OUTER kernel Scalars and INNER loop Scalars (more than x1..x23 together), statements
    `d = a OP b + k` on random ones, some inside if_scope(i == 1): every kernel Scalar stored
    at the end, against the same statements on Python ints (64-bit wrap)."""
    size = (outer + 3) // 4 * 4
    lines = ["from tbe import tik", "t = tik.Tik()",
             f"o_gm = t.Tensor('int64', ({size},), name='o_gm', scope=tik.scope_gm)",
             f"o_ub = t.Tensor('int64', ({size},), name='o_ub', scope=tik.scope_ubuf)",
             f"s = [t.Scalar('int64', name=f's{{k}}', init_value=k * 7 - 3) "
             f"for k in range({outer})]",
             f"with t.for_range(0, {trips}) as i:",
             f"    u = [t.Scalar('int64', name=f'u{{k}}', init_value=i * k) "
             f"for k in range({inner})]"]
    n = outer + inner
    for d, op, a, b, k, cond in body:
        d, a, b = d % n, a % n, b % n
        name = lambda j: f"s[{j}]" if j < outer else f"u[{j - outer}]"  # noqa: E731
        text = f"{name(d)}.set_as(({name(a)} {op} {name(b)}) + {k})"
        if cond:
            lines += ["    with t.if_scope(i == 1):", f"        {text}"]
        else:
            lines.append(f"    {text}")
    lines += [f"for k in range({outer}):", "    o_ub[k].set_as(s[k])",
              f"t.data_move(o_gm, o_ub, 0, 1, {size // 4}, 0, 0)",
              "t.BuildCCE(kernel_name='r', inputs=[], outputs=[o_gm])", "tik_instance = t"]
    tik_instance = build(tmp_path, "\n".join(lines) + "\n")
    [out] = tik_instance.tikdb.start_debug({}, interactive=False)
    s = [k * 7 - 3 for k in range(outer)]
    for i in range(trips):
        u = [i * k for k in range(inner)]

        def get(j, s=s, u=u):
            return s[j] if j < outer else u[j - outer]

        for d, op, a, b, k, cond in body:
            d, a, b = d % n, a % n, b % n
            if cond and i != 1:
                continue
            v = _wrap(_apply(op, get(a), get(b)) + k)
            if d < outer:
                s[d] = v
            else:
                u[d - outer] = v
    assert out[:outer].tolist() == s


UNSET = """
from impl.util.platform_adapter import tik

tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("int32", (64,), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("int32", (64,), name="y_gm", scope=tik.scope_gm)
x_ub = tik_instance.Tensor("int32", (64,), name="x_ub", scope=tik.scope_ubuf)
tik_instance.data_move(x_ub, x_gm, 0, 1, 8, 0, 0)
s = [tik_instance.Scalar("int32", name=f"s{k}") for k in range(40)]  # never set
v = tik_instance.Scalar("int32", name="v")
for k in range(40):
    v.set_as(x_ub[k])
    x_ub[k].set_as(v + s[k])
tik_instance.data_move(y_gm, x_ub, 0, 1, 8, 0, 0)
tik_instance.BuildCCE(kernel_name="unset", inputs=[x_gm], outputs=[y_gm])
"""


def test_a_spilled_scalar_read_before_its_first_write_reads_0_as_a_register_does(
        tik_importable, tmp_path):
    """Where a Scalar lives is the allocator's choice: a read before any write gives 0 and the
    same (no) diagnostics whether it got a register or a spill slot."""
    tik_instance = build(tmp_path, UNSET)
    assert "__tik_spill" in tik_instance.program.tensors  # 40 Scalars: some are spilled
    x = np.random.default_rng(9).integers(-1000, 1000, 64).astype(np.int32)
    [y] = tik_instance.tikdb.start_debug({"x_gm": x}, interactive=False)
    assert y.tobytes() == x.tobytes()
    assert not tik_instance.tikdb.result.diagnostics
