"""#27a end to end: one AscendC, one C-API and one TIK kernel of the element-wise group
(tests/data/elementwise/) run as a user runs them, their outputs bit-exact against
tests/reference/elementwise.py, the unknown-result warnings at the kernel's own lines."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

from tests.reference import elementwise as ref

DATA = Path(__file__).resolve().parents[1] / "data" / "elementwise"


def each(name: str, t: str, a: np.ndarray, b=None) -> np.ndarray:
    """The reference element by element (B: a second array, or one scalar for all)."""
    dt = a.dtype
    out = []
    for i, x in enumerate(a):
        y = None if b is None else (b[i] if isinstance(b, np.ndarray) and b.shape else b)
        out.append(ref.element(name, t, x.tobytes(), None if y is None else
                               np.asarray(y, dt).tobytes()))
    return np.frombuffer(b"".join(out), dt)


def same(got: np.ndarray, want: np.ndarray, what: str) -> None:
    if got.tobytes() != want.tobytes():
        i = int(np.flatnonzero(got.view(np.uint8) != want.view(np.uint8))[0]) // got.itemsize
        raise AssertionError(f"{what}: element {i}: got {got[i]!r} "
                             f"({got[i:i + 1].tobytes().hex()}), want {want[i]!r} "
                             f"({want[i:i + 1].tobytes().hex()})")


@pytest.fixture(scope="module")
def ascendc_run(env, tmp_path_factory):
    from tests.support.cli import pipev_process
    cwd = tmp_path_factory.mktemp("math_ascendc")
    proc = pipev_process(env, cwd, "run", DATA / "math_ascendc.cpp", timeout=300)
    return proc, cwd


def test_ascendc_kernel_matches_the_reference(ascendc_run):
    proc, cwd = ascendc_run
    assert proc.returncode == 0, proc.stderr

    def read(name: str, dt) -> np.ndarray:
        return np.fromfile(cwd / f"math_ascendc_{name}.bin", dt)
    x, y = read("in_x", np.float32), read("in_y", np.float32)
    h, s = read("in_h", np.float16), read("in_s", np.int16)
    out = {n: read(f"out_{n}", np.float32) for n in ("exp", "ln", "sqrt", "rsqrt", "rec",
                                                     "div", "relu", "lrelu", "subs")}
    for name, hw in (("exp", "vexp"), ("ln", "vln"), ("sqrt", "vsqrt"), ("rec", "vrec"),
                     ("relu", "vrelu")):
        same(out[name], each(hw, "f32", x), name)
    rsqrt = np.full(256, 7.0, np.float32)
    lanes = np.arange(256) % 64 < 32  # mask bits: the first 32 of each repeat of 64
    rsqrt[lanes] = each("vrsqrt", "f32", x[lanes])
    same(out["rsqrt"], rsqrt, "rsqrt (bitwise mask)")
    same(out["div"], each("vdiv", "f32", x, y), "div")
    same(out["lrelu"], each("vlrelu", "f32", x, np.float32(0.25)), "leaky_relu")
    with np.errstate(all="ignore"):
        same(out["subs"], x - np.float32(1.5), "subs")
    hexp = np.zeros(256, np.float16)
    half_lanes = np.arange(256) % 128 < 64  # MASK_LO only, set outside (isSetMask false)
    hexp[half_lanes] = each("vexp", "f16", h[half_lanes])
    same(read("out_hexp", np.float16)[:256], hexp, "Exp<half, false>")
    same(read("out_hlrelu", np.float16)[:256], each("vlrelu", "f16", h, np.float16(-2.0)),
         "leaky_relu f16")
    same(read("out_shl", np.int16)[:256], each("vshl", "s16", s, np.int16(3)), "shift_left")
    same(read("out_shr", np.int16)[:256], each("vshr", "s16", s, np.int16(5)), "shift_right")
    with np.errstate(all="ignore"):
        same(read("out_hadds", np.float16)[:256], h + np.float16(1.0), "Adds<half, false>")


def test_ascendc_unknown_results_are_warned_once_at_the_call(ascendc_run):
    proc, _ = ascendc_run
    src = (DATA / "math_ascendc.cpp").read_text().splitlines()
    warned = [ln for ln in proc.stderr.splitlines() if "the docs call the result unknown" in ln]
    assert len(warned) == 3, proc.stderr  # Sqrt, Rsqrt, Reciprocal: one each
    for what, call in (("Sqrt of an input <= 0", "Sqrt(zl, xl, N)"),
                       ("Rsqrt of an input <= 0", "Rsqrt(zl"),
                       ("Reciprocal of 0", "Reciprocal(zl")):
        line = next(i for i, s in enumerate(src, 1) if s.strip().startswith(call))
        hit = [w for w in warned if what in w]
        assert hit and f"math_ascendc.cpp:{line}:" in hit[0], (what, warned)


def test_ascendc_warning_counts_the_elements(ascendc_run):
    proc, cwd = ascendc_run
    x = np.fromfile(cwd / "math_ascendc_in_x.bin", np.float32)
    sqrt_bad = int(np.count_nonzero(x <= 0))
    rec_bad = int(np.count_nonzero(x == 0))
    assert f"Sqrt of an input <= 0 on {sqrt_bad} elements" in proc.stderr
    assert f"Reciprocal of 0 on {rec_bad} elements" in proc.stderr
    lanes = np.arange(256) % 64 < 32  # Rsqrt counts active elements only
    assert f"Rsqrt of an input <= 0 on {int(np.count_nonzero(x[lanes] <= 0))} elements" \
        in proc.stderr


def test_c_api_kernel_matches_the_reference(pipev, tmp_path):
    proc = pipev("run", DATA / "math_c_api.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    cwd = tmp_path
    x = np.fromfile(cwd / "math_c_api_in_x.bin", np.float16)
    y = np.fromfile(cwd / "math_c_api_in_y.bin", np.float16)
    z = np.fromfile(cwd / "math_c_api_out_z.bin", np.float16).reshape(6, 128)
    same(z[0], each("vdiv", "f16", x, y), "asc_div")
    same(z[1], each("vexp", "f16", x), "asc_exp (high-dimensional)")
    same(z[2], each("vrsqrt", "f16", x), "asc_rsqrt_sync")
    same(z[3], each("vrelu", "f16", x), "asc_relu")
    with np.errstate(all="ignore"):
        same(z[4], x - np.float16(0.5), "asc_sub_scalar")
    same(z[5], each("vlrelu", "f16", x, np.float16(0.125)), "asc_leakyrelu")


def test_tik_kernel_matches_the_reference(tik_importable):
    tik_instance = runpy.run_path(str(DATA / "math_tik.py"))["math_kernel"]()
    rng = np.random.default_rng(27)
    x = rng.uniform(-6, 6, 128).astype(np.float16)
    x[::9] = np.array([0, -0.0, np.inf, -np.inf, np.nan, 6e-8, -6e-8, 65504, -1, 1, 0.5,
                       -0.5, 3, 7, 2], np.float16)[:len(x[::9])]
    y = rng.uniform(-3, 3, 128).astype(np.float16)
    y[::11] = 0
    (z,) = tik_instance.tikdb.start_debug({"x_gm": x, "y_gm": y}, interactive=False)
    z = z.reshape(13, 128)
    for row, hw in enumerate(("vexp", "vln", "vsqrt", "vrsqrt", "vrec", "vrelu")):
        same(z[row], each(hw, "f16", x), f"row {row} ({hw})")
    same(z[6], each("vdiv", "f16", x, y), "vec_div")
    same(z[7], each("vlrelu", "f16", x, np.float16(0.5)), "vec_leaky_relu")
    same(z[8], each("vexp", "f16", x), "vexp")
    same(z[9], each("vdiv", "f16", x, y), "vdiv")
    with np.errstate(all="ignore"):
        same(z[10], x + np.float16(-1.0), "vadds")
        same(z[12], x - y, "vsub")
    same(z[11], each("vrelu", "f16", x), "vrelu")


# -- the composite group -----------------------------------------------------------------------
def test_composite_ascendc_kernel_matches_the_reference(pipev, tmp_path):
    proc = pipev("run", DATA / "composite_ascendc.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert " warning: " not in proc.stderr, proc.stderr

    def read(name: str, dt) -> np.ndarray:
        return np.fromfile(tmp_path / f"composite_ascendc_{name}.bin", dt)
    x, y, d = read("in_x", np.float32), read("in_y", np.float32), read("in_d", np.float32)
    s, h = read("in_s", np.int16), read("in_h", np.float16)

    def acc(name: str, t: str, a, b, old) -> np.ndarray:
        dt = old.dtype
        return np.frombuffer(b"".join(
            ref.element(name, t, a[i].tobytes(), np.asarray(b if np.ndim(b) == 0 else b[i], dt)
                        .tobytes(), old[i].tobytes()) for i in range(len(old))), dt)
    same(read("out_addrelu", np.float32), each("vaddrelu", "f32", x, y), "AddRelu")
    same(read("out_subrelu", np.float32), each("vsubrelu", "f32", x, y), "SubRelu")
    same(read("out_axpy", np.float32), acc("vaxpy", "f32", x, np.float32(0.75), d), "Axpy")
    same(read("out_mla", np.float32), acc("vmla", "f32", x, y, d), "MulAddDst")
    same(read("out_madd", np.float32), acc("vmadd", "f32", x, y, d), "FusedMulAdd")
    same(read("out_maddrelu", np.float32), acc("vmaddrelu", "f32", x, y, d), "MulAddRelu")
    same(read("out_saddrelu", np.int16)[:256], each("vaddrelu", "s16", s, s), "AddRelu s16")
    same(read("out_haxpy", np.float16)[:256], acc("vaxpy", "f16", h, np.float16(-1.5), h),
         "Axpy f16 (high-dimensional)")


def test_composite_tik_kernel_matches_the_reference(tik_importable):
    tik_instance = runpy.run_path(str(DATA / "composite_tik.py"))["composite_kernel"]()
    rng = np.random.default_rng(28)
    x = rng.uniform(-6, 6, 128).astype(np.float16)
    y = rng.uniform(-6, 6, 128).astype(np.float16)
    d = rng.uniform(-30, 30, 5 * 128).astype(np.float16)
    x[::10], y[::13], d[::17] = np.inf, np.nan, -0.0
    (z,) = tik_instance.tikdb.start_debug({"x_gm": x, "y_gm": y, "d_gm": d}, interactive=False)
    z, d = z.reshape(5, 128), d.reshape(5, 128)

    def acc(name: str, a, b, old) -> np.ndarray:
        return np.frombuffer(b"".join(
            ref.element(name, "f16", a[i].tobytes(), np.asarray(
                b if np.ndim(b) == 0 else b[i], np.float16).tobytes(), old[i].tobytes())
            for i in range(128)), np.float16)
    same(z[0], acc("vaxpy", x, np.float16(0.5), d[0]), "vec_axpy")
    same(z[1], acc("vaxpy", x, np.float16(-2.0), d[1]), "vaxpy")
    same(z[2], acc("vmla", x, y, d[2]), "vmla")
    same(z[3], acc("vmadd", x, y, d[3]), "vmadd")
    same(z[4], acc("vmaddrelu", x, y, d[4]), "vmaddrelu")
