"""#27 end to end: AddReluCast, SubReluCast and MulCast in an AscendC kernel and the C API's
asc_mul_cast_half2int8 / asc_mul_cast_half2uint8, and the mixed Axpy / MulAddDst (half →
float) in AscendC and TIK (tests/data/elementwise/), run as a user runs them, their outputs
bit-exact against tests/reference/binary_conv.py, the unknown-result warning (negative
products to uint8_t) at the kernel's own line."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

from tests.reference.binary_conv import element, mixed

DATA = Path(__file__).resolve().parents[1] / "data" / "elementwise"
N = 256
NP = {"f16": np.float16, "f32": np.float32, "s16": np.int16, "s8": np.int8, "u8": np.uint8}


def each(name: str, dst: str, src: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = b"".join(element(name, dst, src, x.tobytes(), y.tobytes())
                   for x, y in zip(a, b, strict=True))
    return np.frombuffer(out, NP[dst])


def same(got: np.ndarray, want: np.ndarray, what: str) -> None:
    if got.tobytes() != want.tobytes():
        i = int(np.flatnonzero(got.view(np.uint8) != want.view(np.uint8))[0]) // got.itemsize
        raise AssertionError(f"{what}: element {i}: got {got[i:i + 1].tobytes().hex()}, "
                             f"want {want[i:i + 1].tobytes().hex()}")


def masked(want: np.ndarray, active: np.ndarray) -> np.ndarray:
    """WANT where ACTIVE, the kernel's 0x77 fill elsewhere (one byte a lane: s8/u8)."""
    return np.where(active, want, np.full(want.shape, 0x77, want.dtype))


@pytest.fixture(scope="module")
def ascendc_run(env, tmp_path_factory):
    from tests.support.cli import pipev_process
    cwd = tmp_path_factory.mktemp("cast_composite")
    proc = pipev_process(env, cwd, "run", DATA / "cast_composite_ascendc.cpp", timeout=300)
    return proc, cwd


def test_ascendc_kernel_matches_the_reference(ascendc_run):
    proc, cwd = ascendc_run
    assert proc.returncode == 0, proc.stderr

    def read(name: str, t: str) -> np.ndarray:
        return np.fromfile(cwd / f"cast_composite_ascendc_{name}.bin", NP[t])
    x, y = read("in_x", "f32"), read("in_y", "f32")
    h, g = read("in_h", "f16"), read("in_g", "f16")
    s, r = read("in_s", "s16"), read("in_r", "s16")
    out = read("out", "s8").reshape(7, 2 * N)
    same(out[0].view(np.float16), each("vaddreluconv", "f16", "f32", x, y), "AddReluCast f32")
    same(out[1].view(np.float16), each("vsubreluconv", "f16", "f32", x, y),
         "SubReluCast f32 (mask 64, 4 repeats)")
    fill = np.full(N, 0x77, np.int8)
    same(out[2], np.concatenate([each("vaddreluconv", "s8", "f16", h, g), fill]),
         "AddReluCast half -> int8")
    k = np.arange(N) % 128  # the bitwise mask: even lanes of the first 64, all of the next 32
    bits = np.where(k < 64, k % 2 == 0, k < 96)
    same(out[3], np.concatenate([masked(each("vsubreluconv", "s8", "s16", s, r), bits), fill]),
         "SubReluCast int16 -> int8 (bitwise mask)")
    same(out[4], np.concatenate([each("vmulconv", "s8", "f16", h, g), fill]), "MulCast int8")
    same(out[5].view(np.uint8), np.concatenate([each("vmulconv", "u8", "f16", h, g),
                                                fill.view(np.uint8)]), "MulCast uint8")
    same(out[6], np.concatenate([masked(each("vaddreluconv", "s8", "s16", s, r), k < 16), fill]),
         "AddReluCast<int8_t, int16_t, false> (MASK set outside)")


def test_ascendc_negative_products_to_uint8_are_warned_at_the_call(ascendc_run):
    proc, cwd = ascendc_run
    src = (DATA / "cast_composite_ascendc.cpp").read_text().splitlines()
    line = next(i for i, t in enumerate(src, 1) if "MulCast(zh.ReinterpretCast<uint8_t>" in t)
    warned = [w for w in proc.stderr.splitlines() if "the docs call the result unknown" in w]
    assert len(warned) == 1 and f"cast_composite_ascendc.cpp:{line}:" in warned[0], proc.stderr
    h = np.fromfile(cwd / "cast_composite_ascendc_in_h.bin", np.float16)
    g = np.fromfile(cwd / "cast_composite_ascendc_in_g.bin", np.float16)
    with np.errstate(all="ignore"):
        p = h.astype(np.float32) * g.astype(np.float32)
    assert f"on {int(np.count_nonzero(p < 0))} elements" in warned[0]


def test_c_api_kernel_matches_the_reference(pipev, tmp_path):
    proc = pipev("run", DATA / "cast_composite_c_api.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    x = np.fromfile(tmp_path / "cast_composite_c_api_in_x.bin", np.float16)
    y = np.fromfile(tmp_path / "cast_composite_c_api_in_y.bin", np.float16)
    z = np.fromfile(tmp_path / "cast_composite_c_api_out_z.bin", np.uint8).reshape(3, 128)
    same(z[0].view(np.int8), each("vmulconv", "s8", "f16", x, y), "asc_mul_cast_half2int8")
    same(z[1], each("vmulconv", "u8", "f16", x, y), "asc_mul_cast_half2uint8 (repeat form)")
    same(z[2].view(np.int8), each("vmulconv", "s8", "f16", x, y), "asc_mul_cast_half2int8_sync")


# --- the mixed forms: Axpy / MulAddDst half → float ---------------------------------------------
def mixed_each(name: str, a: np.ndarray, b, old: np.ndarray) -> np.ndarray:
    out = b"".join(mixed(name, "f32", "f16", a[i].tobytes(),
                         np.asarray(b if np.ndim(b) == 0 else b[i], np.float16).tobytes(),
                         old[i].tobytes()) for i in range(len(a)))
    return np.frombuffer(out, np.float32)


def test_mixed_tik_kernel_matches_the_reference(tik_importable):
    tik_instance = runpy.run_path(str(DATA / "axpy_mixed_tik.py"))["mixed_kernel"]()
    rng = np.random.default_rng(29)
    x = rng.uniform(-600, 600, 64).astype(np.float16)
    y = rng.uniform(-600, 600, 64).astype(np.float16)
    d = rng.uniform(-3e5, 3e5, 3 * 64).astype(np.float32)
    x[::9], y[::11], d[::13] = np.inf, np.nan, -0.0
    x[5], y[7] = np.float16(6e-8), np.float16(-65504)
    (z,) = tik_instance.tikdb.start_debug({"x_gm": x, "y_gm": y, "d_gm": d}, interactive=False)
    z, d = z.reshape(3, 64), d.reshape(3, 64)
    same(z[0], mixed_each("vaxpy", x, np.float16(0.5), d[0]), "vec_axpy float16 -> float32")
    same(z[1], mixed_each("vaxpy", x, np.float16(-3.0), d[1]), "vaxpy float16 -> float32")
    same(z[2], mixed_each("vmla", x, y, d[2]), "vmla float16 -> float32")


def test_mixed_ascendc_kernel_matches_the_reference(pipev, tmp_path):
    proc = pipev("run", DATA / "axpy_mixed_ascendc.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr

    def read(name: str, dt) -> np.ndarray:
        return np.fromfile(tmp_path / f"axpy_mixed_ascendc_{name}.bin", dt)
    x, y, d = read("in_x", np.float16), read("in_y", np.float16), read("in_d", np.float32)
    z = read("out", np.float32).reshape(4, N)
    same(z[0], mixed_each("vaxpy", x, np.float16(0.75), d), "Axpy(float, half) count")
    same(z[1], mixed_each("vmla", x, y, d), "MulAddDst(float, half) high-dimensional")
    lanes = np.arange(N) % 64 < 32  # MASK_LO 2^32 - 1, set outside (isSetMask false)
    want = d.copy()
    want[lanes] = mixed_each("vmla", x[lanes], y[lanes], d[lanes])
    same(z[2], want, "MulAddDst<float, half, false>")
    same(z[3], mixed_each("vaxpy", x, np.float16(-1.5), d), "Axpy<float, half> high-dimensional")
    from tests.reference import elementwise as ref
    h = np.frombuffer(b"".join(ref.element("vaxpy", "f16", x[i].tobytes(),
                                           np.float16(2.0).tobytes(), y[i].tobytes())
                               for i in range(N)), np.float16)
    same(read("out_h", np.float16), h, "Axpy<half, half> (the vendor sample's spelling)")


# --- ascend950: Ands, Ors, Divs with the flexible scalar position -------------------------------
def test_flex_scalar_950_kernel(pipev, tmp_path):
    proc = pipev("run", "--chip", "ascend950", DATA / "flex_scalar_950.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    a = np.fromfile(tmp_path / "flex_scalar_950_in_a.bin", np.int16)
    h = np.fromfile(tmp_path / "flex_scalar_950_in_h.bin", np.float16)
    out = np.fromfile(tmp_path / "flex_scalar_950_out.bin", np.uint8)
    z, q = out[:4 * N].view(np.int16), out[4 * N:].view(np.float16)
    assert (z[:N] == (a & np.int16(0x0FF0))).all(), "Ands(dst, src, scalar)"
    assert (z[N:] == (np.int16(3) | a)).all(), "Ors(dst, scalar, src) high-dimensional"
    from tests.reference import elementwise as ref

    def div(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.frombuffer(b"".join(ref.div("f16", u.tobytes(), v.tobytes())
                                      for u, v in zip(x, y, strict=True)), np.float16)
    same(q[:N], div(h, np.full(N, 4.0, np.float16)), "Divs(dst, src, scalar)")
    same(q[N:], div(np.full(N, h[5], np.float16), h), "Divs<…, {0}>(dst, src[5], src)")


def test_mixed_c_api_kernel_matches_the_reference(pipev, tmp_path):
    """asc_axpy / asc_fma's half → float overloads, asc_mul_add, and asc_add_relu /
    asc_sub_relu's converting overloads (the C-API pages' list)."""
    proc = pipev("run", DATA / "axpy_mixed_c_api.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr

    def read(name: str, dt) -> np.ndarray:
        return np.fromfile(tmp_path / f"axpy_mixed_c_api_{name}.bin", dt)
    x, y, d = read("in_x", np.float16), read("in_y", np.float16), read("in_d", np.float32)
    z = read("out", np.float32).reshape(4, 128)
    same(z[0], mixed_each("vaxpy", x, np.float16(0.75), d), "asc_axpy(float, half) count")
    same(z[1], mixed_each("vmla", x, y, d), "asc_fma(float, half) high-dimensional")
    same(z[2], mixed_each("vmla", x, y, d), "asc_fma_sync(float, half)")
    same(z[3], mixed_each("vaxpy", x, np.float16(-1.5), d), "asc_axpy(float, half) hd")
    from tests.reference import elementwise as ref
    h = np.frombuffer(b"".join(ref.element("vmadd", "f16", x[i].tobytes(), y[i].tobytes(),
                                           y[i].tobytes()) for i in range(128)), np.float16)
    same(read("out_h", np.float16), h, "asc_mul_add: dst = src0·dst + src1")
    q = read("out_q", np.int8)
    same(q[:128], each("vaddreluconv", "s8", "f16", x, y), "asc_add_relu(int8_t, half) count")
    same(q[128:], each("vsubreluconv", "s8", "f16", x, y), "asc_sub_relu(int8_t, half) hd")
