"""tik_break / tik_continue in random kernels (test_tik_sync_random's, with jumps): a jump out
of a loop body skips the rest of the iteration or the loop, and the synchronisation must still
leave no race, no flag set and no deadlock; results are program order's, against numpy."""


import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.unit.test_tik_sync_random import BUFFERS, N, op, run_kernel
from tests.unit.test_tik_sync_random import simulate as simulate_plain
from tests.unit.test_tik_sync_random import source as source_plain


class Leave(Exception):
    def __init__(self, kind: str):
        self.kind = kind


jump = st.tuples(st.sampled_from(["break", "continue"]), st.integers(0, 3))
body = st.recursive(
    st.lists(op(), min_size=1, max_size=4),
    lambda inner: st.lists(st.one_of(
        op(), jump,
        # a loop body with a jump somewhere in it (possibly inside an if)
        st.tuples(st.just("loop"), st.integers(1, 3),
                  st.tuples(inner, jump, inner).map(lambda t: t[0] + [t[1]] + t[2])),
        st.tuples(st.just("loop"), st.integers(0, 3), inner),
        st.tuples(st.just("if"), st.integers(0, 2), inner, inner)), min_size=1, max_size=4),
    max_leaves=12)


def source(ops, depth=0, var="flag", in_loop=False) -> list[str]:
    pad = "    " * depth
    out = []
    for o in ops:
        if o[0] in ("break", "continue"):
            if in_loop:  # at iteration K of the innermost loop
                out += [f"{pad}with tik_instance.if_scope({var} == {o[1]}):",
                        f"{pad}    tik_instance.tik_{o[0]}()"]
            else:  # outside every loop: nothing (a scope may hold only this)
                out.append(f"{pad}pass")
        elif o[0] == "loop":
            out.append(f"{pad}with tik_instance.for_range(0, {o[1]}) as i{depth}:")
            out += source(o[2], depth + 1, f"i{depth}", True)
        elif o[0] == "if":
            out.append(f"{pad}with tik_instance.if_scope({var} < {o[1]}):")
            out += source(o[2], depth + 1, var, in_loop)
            out.append(f"{pad}with tik_instance.else_scope():")
            out += source(o[3], depth + 1, var, in_loop)
        else:
            out += source_plain([o], depth, var)
    return out


def simulate(ops, ub, g_in, g_out, loop_var=None):
    for o in ops:
        if o[0] in ("break", "continue"):
            if loop_var is not None and loop_var == o[1]:
                raise Leave(o[0])
        elif o[0] == "loop":
            for i in range(o[1]):
                try:
                    simulate(o[2], ub, g_in, g_out, i)
                except Leave as e:
                    if e.kind == "break":
                        break
        elif o[0] == "if":
            taken = (loop_var if loop_var is not None else 1) < o[1]
            simulate(o[2] if taken else o[3], ub, g_in, g_out, loop_var)
        else:
            simulate_plain([o], ub, g_in, g_out, loop_var)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(ops=body)
def test_random_kernels_with_break_and_continue(ops, tmp_path_factory):
    out, g_in, path = run_kernel(source(ops), tmp_path_factory)
    ub = {b: g_in[:N].copy() for b in BUFFERS}
    want = np.zeros(512, np.float16)
    simulate(ops, ub, g_in, want)
    assert out.tobytes() == want.tobytes(), path.read_text()


# a kernel the random test found: the synchronisation's walk of the second loop cycled through
# two states forever (an access supersedes entries, so iterating a loop body need not converge)
CYCLING = [
    ("if", 2, [("copy", "a", "a")],
     [("loop", 3, [("load", "a", 0), ("add", "c", "a", "c"), ("continue", 2), ("scoped", "c", 2)]),
      ("copy", "a", "c"), ("continue", 0)]),
    ("loop", 1, [("if", 1, [("store", "a", 0), ("scoped", "b", 0), ("load", "c", 2)],
                  [("store", "c", 0), ("scoped", "a", 3), ("add", "c", "a", "b"),
                   ("load", "a", 3)])]),
]


def test_a_kernel_whose_loop_walk_cycled_builds_and_runs(tmp_path_factory):
    out, g_in, path = run_kernel(source(CYCLING), tmp_path_factory)
    ub = {b: g_in[:N].copy() for b in BUFFERS}
    want = np.zeros(512, np.float16)
    simulate(CYCLING, ub, g_in, want)
    assert out.tobytes() == want.tobytes(), path.read_text()
