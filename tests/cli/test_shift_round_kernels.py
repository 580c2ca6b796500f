"""#27 end to end: AscendC ShiftRight with roundEn and the C API's asc_shiftright_round (and
asc_shiftleft / asc_shiftright), run as a user runs them, bit-exact against
tests/reference/shift_round.py and tests/reference/elementwise.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.reference import elementwise
from tests.reference.shift_round import shift_right_round

DATA = Path(__file__).resolve().parents[1] / "data" / "elementwise"


def rounded(t: str, a: np.ndarray, n: int) -> np.ndarray:
    s = np.asarray(n, a.dtype).tobytes()
    return np.frombuffer(b"".join(shift_right_round(t, x.tobytes(), s) for x in a), a.dtype)


def plain(name: str, t: str, a: np.ndarray, n: int) -> np.ndarray:
    s = np.asarray(n, a.dtype).tobytes()
    return np.frombuffer(b"".join(elementwise.shift(name, t, x.tobytes(), s) for x in a),
                         a.dtype)


def test_ascendc_shift_right_with_round_en(pipev, tmp_path):
    proc = pipev("run", DATA / "shift_round_ascendc.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    s = np.fromfile(tmp_path / "shift_round_ascendc_in_s.bin", np.int16)
    w = np.fromfile(tmp_path / "shift_round_ascendc_in_w.bin", np.int32)
    out = np.fromfile(tmp_path / "shift_round_ascendc_out.bin", np.uint8)
    z, y = out[:512].view(np.int16), out[512:].view(np.int32)
    assert z[0] == 1  # the page's example
    assert z.tobytes() == rounded("s16", s, 5).tobytes()
    assert y.tobytes() == rounded("s32", w, 3).tobytes()


def test_c_api_shifts(pipev, tmp_path):
    proc = pipev("run", DATA / "shift_round_c_api.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    a = np.fromfile(tmp_path / "shift_round_c_api_in_s.bin", np.int16)
    z = np.fromfile(tmp_path / "shift_round_c_api_out_z.bin", np.int16).reshape(5, 128)
    assert z[0].tobytes() == rounded("s16", a, 4).tobytes()
    assert z[1].tobytes() == rounded("s16", a, 1).tobytes()
    assert z[2].tobytes() == rounded("s16", a, 7).tobytes()
    assert z[3].tobytes() == plain("vshr", "s16", a, 4).tobytes()
    assert z[4].tobytes() == plain("vshl", "s16", a, 3).tobytes()
