"""The README's example kernel runs end to end and computes where(x < y, x, y)."""

from pathlib import Path

import numpy as np

import simulator

ROOT = Path(__file__).resolve().parents[2]


def test_quickstart_matches_numpy():
    result = simulator.run(ROOT / "programs" / "quickstart.vasm")
    p = result.program
    a = p.tensors["a"].init.data.view(np.float32)
    b = p.tensors["b"].init.data.view(np.float32)
    expected = np.where(a < b, a, b)
    assert result.outputs["out"].tobytes() == expected.tobytes()
    assert result.instructions == 17
