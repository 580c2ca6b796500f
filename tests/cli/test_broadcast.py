"""Broadcast (pipev/broadcast.h): pipev's own kernels (tests/data/ascendc/kernels/broadcast.cpp)
in kernel-only mode, every byte of dst against tests/reference/broadcast.py — each documented
type (float, half, int8_t, uint8_t), dim 1 and dim 2 along either axis, k a whole number of
32-byte blocks or not, shapes that broadcast nothing, more rows than a repeat holds, Brcb's
instruction split, passes from a small sharedTmpBuffer, the framework's space, the older
spelling BroadCast; dst's bytes past the result untouched — and the errors at the call; the
host helper GetBroadCastMaxMinTmpSize."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reference import broadcast as ref

KERNEL = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "kernels" / "broadcast.cpp"
TYPES = {"f32": np.float32, "f16": np.float16, "s8": np.int8, "u8": np.uint8}
FILL = 0xA5  # the kernel fills dst with it before the call


def _values(t, n: int, seed: int) -> np.ndarray:
    """N elements of T from random bits, with NaN payloads, -0, denormals and inf put in."""
    size = np.dtype(t).itemsize
    bits = np.random.default_rng(seed).integers(0, 1 << (8 * size), n, dtype=np.uint64)
    x = bits.astype(ref.BITS[size]).view(t)
    if size > 1:
        special = {2: [0x8000, 0x7C01, 0x0001, 0x7C00, 0xFE37], 4: [
            0x80000000, 0x7F800123, 0x00000001, 0xFF800000, 0xFFC0FFEE]}[size]
        x.view(ref.BITS[size])[:len(special)] = special[:n]
    return x


def _scalar(tmp_path: Path, name: str, value: int) -> str:
    np.save(tmp_path / f"{name}.npy", np.array([value], np.uint32))
    return f"{name}={tmp_path / name}.npy"


def _check(pipev, tmp_path: Path, name: str, mode: int, m: int, k: int, tmp: int = 0,
           flags: int = 0, seed: int = 1) -> None:
    """Run the kernel of type NAME and compare every byte of dst with the reference."""
    t = TYPES[name]
    size = np.dtype(t).itemsize
    src_shape, dst_shape = ref.shapes(mode, m, k, bool(flags & 1))
    nx = int(np.prod(src_shape))
    per = 32 // size
    x = np.zeros(-(-nx // per) * per, t)
    x[:nx] = _values(t, nx, seed)
    np.save(tmp_path / "x.npy", x)
    ny = -(-m * k // per) * per
    args = ["--arg", f"x={tmp_path / 'x.npy'}", "--arg", f"y=out:{name}[{ny}]"]
    for key, value in {"m": m, "k": k, "mode": mode, "tmp": tmp, "flags": flags}.items():
        args += ["--arg", _scalar(tmp_path, key, value)]
    out = tmp_path / "out"
    proc = pipev("run", KERNEL, "--kernel", f"broadcast_{name}", *args, "--output-dir", out,
                 "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr, proc.stderr
    got = np.load(out / "y.npy").tobytes()
    want = ref.broadcast(x, src_shape, dst_shape)
    assert got[:len(want)] == want, (name, mode, m, k, np.frombuffer(got, t)[:m * k],
                                     np.frombuffer(want, t))
    assert got[len(want):] == bytes([FILL]) * (len(got) - len(want)), "written past dst"


@pytest.mark.parametrize(("name", "mode", "m", "k", "tmp", "flags"), [
    ("f32", 1, 9, 64, 0, 0),        # [m, 1] -> [m, k], k whole blocks: Brcb, Copy
    ("f32", 1, 5, 13, 0, 0),        # k not: Brcb, GatherMask (block stride 0)
    ("f32", 1, 3, 2400, 0, 0),      # 300 blocks a row: a row at a time
    ("f32", 1, 300, 24, 0, 0),      # more rows than a repeat
    ("f32", 1, 300, 5, 0, 0),
    ("f32", 1, 40, 20, 320, 0),     # passes of 8 rows (288 bytes each)
    ("f32", 2, 7, 40, 0, 0),        # [1, k] -> [m, k]: Copy, source repeat stride 0
    ("f32", 2, 300, 13, 0, 0),      # GatherMask, repeat stride 0, 248 rows an instruction
    ("f32", 2, 2, 2056, 0, 0),      # 257 blocks a row: a row at a time
    ("f32", 0, 1, 100, 0, 0),       # dim 1
    ("f32", 0, 1, 64, 0, 2),        # dim 1, BroadCast
    ("f32", 1, 6, 10, 0, 1),        # nothing to broadcast: a copy
    ("f32", 2, 6, 10, 0, 1),
    ("f32", 0, 1, 7, 0, 1),
    ("f16", 1, 17, 48, 0, 0),
    ("f16", 1, 2100, 3, 0, 0),      # Brcb over 254 groups: a second instruction
    ("f16", 1, 33, 50, 600, 2),     # passes of 16 rows; BroadCast
    ("f16", 2, 260, 31, 0, 0),      # 240 rows a GatherMask
    ("f16", 2, 5, 64, 0, 0),
    ("f16", 0, 1, 1, 0, 0),         # [1] -> [1]
    ("s8", 1, 9, 40, 0, 0),         # 8-bit: through half
    ("s8", 1, 70, 7, 2400, 0),      # passes of 32 rows
    ("s8", 2, 11, 33, 0, 0),
    ("s8", 0, 1, 77, 0, 0),
    ("u8", 1, 5, 64, 0, 0),
    ("u8", 2, 300, 7, 1200, 0),     # passes of 160 rows
    ("u8", 2, 4, 5, 0, 1),          # a copy, an odd count of bytes
    ("u8", 0, 1, 200, 0, 2),
])
def test_broadcast_is_numpys_byte_for_byte(pipev, tmp_path, name, mode, m, k, tmp, flags):
    _check(pipev, tmp_path, name, mode, m, k, tmp, flags, seed=m * 1000 + k)


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(TYPES)), mode=st.integers(0, 2), m=st.integers(1, 300),
       k=st.integers(1, 90), same=st.booleans(), small_tmp=st.booleans(),
       older=st.booleans(), seed=st.integers(0, 2**16))
def test_broadcast_on_random_shapes(pipev, tmp_path, name, mode, m, k, same, small_tmp, older,
                                    seed):
    if mode == 0:
        m = 1
    tmp = 4096 if small_tmp else 0  # a few passes, or all in one from the framework's space
    _check(pipev, tmp_path, name, mode, m, k, tmp, int(same) | int(older) << 1, seed)


CALL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, tb;
    pipe.InitBuffer(xb, 4096); pipe.InitBuffer(yb, 4096); pipe.InitBuffer(tb, 32);
    auto x = xb.Get<float>(); auto y = yb.Get<float>(); auto t = tb.Get<uint8_t>();
    Duplicate(x, 1.0f, 1024);
    uint32_t d[3] = {%s}, s[3] = {%s};
    BroadcastTiling tiling;
    %s
}
"""


@pytest.mark.parametrize(("dst", "src", "call", "message"), [
    ("4, 8", "4, 3", "Broadcast<float, 2, 1>(y, x, d, s);",
     "Broadcast along axis 1: srcShape[1] is 3 and dstShape[1] is 8: the source's axis is 1 "
     "(broadcast) or dst's (a copy)"),
    ("4, 8", "1, 1", "Broadcast<float, 2, 1>(y, x, d, s);",
     "Broadcast along axis 1: srcShape[0] is 1 and dstShape[0] is 4: only the axis broadcasts, "
     "the other dimension is the same in both"),
    ("4, 8", "1, 8", "BroadCast<float, 2, 1>(y, x, d, s);",
     "BroadCast along axis 1: srcShape[0] is 1 and dstShape[0] is 4: only the axis broadcasts"),
    ("0, 8", "1, 8", "Broadcast<float, 2, 0>(y, x, d, s);",
     "Broadcast: dstShape[0] is 0 and srcShape[0] is 1: every dimension is at least 1"),
    ("2, 2, 2", "1, 2, 2", "Broadcast<float, 3, 0>(y, x, d, s);",
     "Broadcast: dim is 3: the page takes dim 1 or 2"),
    ("8", "1", "Broadcast<float, 1, 1>(y, x, d, s);",
     "Broadcast: axis is 1 with dim 1: the page takes axis 0 for dim 1, 0 or 1 for dim 2"),
    ("64, 32", "64, 1", "Broadcast<float, 2, 1>(y, x, d, s);",
     "Broadcast: dstLocal holds 1024 elements and dstShape needs 2048"),
    ("16, 8", "16, 1", "Broadcast<float, 2, 1>(y, x, d, s, t);",
     "Broadcast: sharedTmpBuffer holds 32 bytes, the call needs 288"),
    ("16, 8", "16, 1", "Broadcast<float>(y, x, d, s, &tiling);",
     "Broadcast with a BroadcastTiling (the dynamic-shape form) is an Ascend 950 form"),
])
def test_broadcast_errors_at_the_call(pipev, tmp_path, dst, src, call, message):
    path = tmp_path / "k.cpp"
    path.write_text(CALL % (dst, src, call))
    proc = pipev("run", path, "--kernel", "k", "--arg", "out=out:u8[32]", "--quiet",
                 cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert f"k.cpp:11:5: error: {message}" in proc.stderr, proc.stderr


def test_a_sharedtmpbuffer_of_the_helpers_minimum_runs(pipev, tmp_path):
    # [70, 1] -> [70, 7] int8_t: 64 + 448 + 1,056 bytes a pass of 32 rows (the helper's min)
    _check(pipev, tmp_path, "s8", 1, 70, 7, 1568)


HOST = """// pipev's own host program: GetBroadCastMaxMinTmpSize on the page's example and others
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    auto platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    struct Case { ge::Shape src, dst; uint32_t size; } cases[] = {
        {ge::Shape({1024, 1}), ge::Shape({1024, 16}), 2},  // the page's example
        {ge::Shape({1, 16}), ge::Shape({1024, 16}), 2},
        {ge::Shape({8, 1}), ge::Shape({8, 8}), 4},
        {ge::Shape({100, 1}), ge::Shape({100, 7}), 1},
        {ge::Shape({5, 7}), ge::Shape({5, 7}), 1},
        {ge::Shape({1, 7}), ge::Shape({40, 7}), 1},
        {ge::Shape({1}), ge::Shape({100}), 4},
        {ge::Shape({1, 1}), ge::Shape({4, 8}), 4},  // two axes: the kernel refuses it
    };
    for (auto& c : cases) {
        uint32_t mx = 7, mn = 7;
        AscendC::GetBroadCastMaxMinTmpSize(*platform, c.src, c.dst, c.size, false, mx, mn);
        std::printf("%u/%u ", mx, mn);
    }
    uint32_t mx = 0, mn = 0;
    optiling::GetBroadCastMaxMinTmpSize(*platform, ge::Shape({3, 1}), ge::Shape({3, 9}), 4,
                                        false, mx, mn);
    std::printf("%u/%u\\n", mx, mn);
    return 0;
}
"""


def test_the_host_helper_sizes_pipevs_passes(pipev, tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    proc = pipev("run", tmp_path / "host.cpp", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # [m, 1] -> [m, k]: a 32-byte block a row (the rows rounded up to 8) and one zeroed block,
    # min a pass of 16 half rows; [1, k] of 16 bits takes none; int8_t adds the half source
    # and result (min 32 rows a pass); a copy of bytes its half copy; dim 1 one row
    assert ("32800/544 0/0 288/288 4992/1568 96/96 608/480 288/288 0/0 288/288"
            in proc.stdout), proc.stdout


def test_broadcast_on_a_chip_without_brcb_is_an_error_at_the_call(pipev, tmp_path):
    path = tmp_path / "k.cpp"
    path.write_text(CALL % ("4, 8", "4, 1", "Broadcast<float, 2, 1>(y, x, d, s);"))
    proc = pipev("run", path, "--kernel", "k", "--arg", "out=out:u8[32]", "--chip", "ascend310p",
                 "--quiet", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert ("k.cpp:11:5: error: Broadcast: pipev builds it for Atlas A2/A3 (__NPU_ARCH__ 2201: "
            "its steps take Brcb, which pipev has there); this chip's __NPU_ARCH__ is 2002"
            in proc.stderr), proc.stderr
