"""random() draws are kept by (seed, type, count, bounds) (isa/inits.py): the same values as a
fresh draw, read-only, never changed by a run, and the store stays within its byte bound."""

from __future__ import annotations

import numpy as np
import pytest

import isa
import pipev
from isa import inits
from isa.types import lookup

PROGRAM = """.chip ascend910b
.ub x f32[64] = random(7)
.gm out f32[64] output
    vadds.f32 x, x, 1.0
    set_flag V, MTE3, 0
    wait_flag V, MTE3, 0
    copy_ub_to_gm out, x, nburst=1, burst=8
"""


def _draw(init: str, t: str, count: int) -> np.ndarray:
    return inits.evaluate(init, 0, lookup(t), count, None)[1]


@pytest.mark.parametrize("init, t, want", [
    ("random(7)", "f32", lambda n: np.random.default_rng(7).uniform(-100, 100, n)
     .astype(np.float32)),
    ("random(3, -2.5, 4)", "f16", lambda n: np.random.default_rng(3).uniform(-2.5, 4.0, n)
     .astype(np.float16)),
    ("random(5)", "s16", lambda n: np.random.default_rng(5).integers(-100, 100, n,
                                                                      endpoint=True,
                                                                      dtype=np.int16)),
])
def test_a_kept_draw_is_the_fresh_draw_and_read_only(init, t, want):
    first, again = _draw(init, t, 1000), _draw(init, t, 1000)
    assert again is first and not first.flags.writeable
    assert first.tobytes() == want(1000).tobytes()
    assert _draw(init, t, 999).tobytes() == want(999).tobytes()  # the count is in the key


def test_bounds_of_another_sign_of_zero_are_another_draw():
    a, b = _draw("random(1, 0.0, 1.0)", "f32", 8), _draw("random(1, -0.0, 1.0)", "f32", 8)
    assert a is not b


def test_a_run_never_changes_the_kept_values():
    first = pipev.run(PROGRAM).outputs["out"].tobytes()
    assert pipev.run(PROGRAM).outputs["out"].tobytes() == first
    x = isa.assemble(PROGRAM).tensors["x"].init.data
    assert x.tobytes() == np.random.default_rng(7).uniform(-100, 100, 64).astype(
        np.float32).tobytes()


def test_the_store_keeps_within_its_bytes(monkeypatch):
    monkeypatch.setattr(inits, "DRAWN_BYTES", 4096)
    monkeypatch.setattr(inits, "_DRAWN", {})
    for seed in range(20):
        _draw(f"random({seed})", "f32", 256)  # 1 KB each
        assert sum(a.nbytes for a in inits._DRAWN.values()) <= 4096
    assert len(inits._DRAWN) == 4 and (19, "f32", 256, "-100.0", "100.0") in inits._DRAWN
    _draw("random(1)", "f32", 2048)  # above a quarter of the bound: drawn, not kept
    assert len(inits._DRAWN) == 4
