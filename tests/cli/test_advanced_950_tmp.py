"""#32 class 4, Ascend 950: the sharedTmpBuffer forms the documentation gives (IsNan, IsInf)
on a kernel of ours sized by the host helpers, byte for byte against
tests/reference/predicates.py, and a too-small buffer an error at the call; the scalar-bound
Clamp on sources shorter than one repeat (it reads only the elements its count covers)."""

from __future__ import annotations

import numpy as np

from tests.reference import predicates as ref

F32, F16 = np.float32, np.float16

CLASSIFY = """// pipev's own kernel: IsNan / IsInf with the caller's temporary space, sized by the
// host helpers (a block less with -D SMALL: an error at the call; a byte less InitBuffer pads back)
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR h, GM_ADDR o, GM_ADDR p) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, hb, ob, pb, tb, ub;
    uint32_t nanMax = 0, nanMin = 0, infMax = 0, infMin = 0;
    GetIsNanMaxMinTmpSize(ge::Shape({300}), sizeof(float), false, nanMax, nanMin);
    GetIsInfMaxMinTmpSize(ge::Shape({90}), sizeof(half), false, infMax, infMin);
#ifdef SMALL
    infMax -= 32;
#endif
    pipe.InitBuffer(xb, 320 * 4); pipe.InitBuffer(hb, 96 * 2); pipe.InitBuffer(ob, 320);
    pipe.InitBuffer(pb, 96 * 2); pipe.InitBuffer(tb, nanMax); pipe.InitBuffer(ub, infMax);
    GlobalTensor<float> xg; GlobalTensor<half> hg, pg; GlobalTensor<uint8_t> og;
    xg.SetGlobalBuffer((__gm__ float*)x, 320); hg.SetGlobalBuffer((__gm__ half*)h, 96);
    og.SetGlobalBuffer((__gm__ uint8_t*)o, 320); pg.SetGlobalBuffer((__gm__ half*)p, 96);
    auto xl = xb.Get<float>(); auto hl = hb.Get<half>();
    auto ol = ob.Get<bool>(); auto pl = pb.Get<half>();
    DataCopy(xl, xg, 320); DataCopy(hl, hg, 96);
    Duplicate(ol, false, 320); Duplicate(pl, half(0.0f), 96);
    PipeBarrier<PIPE_ALL>();
    IsNan(ol, xl, tb.Get<uint8_t>(), 300);
    IsInf(pl, hl, ub.Get<uint8_t>(), 90);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, ol.ReinterpretCast<uint8_t>(), 320); DataCopy(pg, pl, 96);
}
"""


def _save(tmp_path, **arrays) -> list[str]:
    args = []
    for name, value in arrays.items():
        np.save(tmp_path / f"{name}.npy", value)
        args += ["--arg", f"{name}={tmp_path / name}.npy"]
    return args


def test_is_nan_is_inf_with_the_callers_buffer(pipev, tmp_path):
    (tmp_path / "k.cpp").write_text(CLASSIFY)
    rng = np.random.default_rng(33)
    x = rng.integers(0, 2**32, 320, dtype=np.uint64).astype(np.uint32).view(F32)
    x[:8] = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 3.4e38, 1e-45]
    h = rng.integers(0, 2**16, 96, dtype=np.uint32).astype(np.uint16).view(F16)
    h[:6] = [np.nan, np.inf, -np.inf, -0.0, 65504.0, 6e-8]
    args = ["--chip", "ascend950", "--kernel", "k", *_save(tmp_path, x=x, h=h),
            "--arg", "o=out:u8[320]", "--arg", "p=out:f16[96]",
            "--output-dir", tmp_path / "out", "--quiet"]
    proc = pipev("run", tmp_path / "k.cpp", *args)
    assert proc.returncode == 0, proc.stderr
    want_o = ref.as_result(ref.is_nan(x), np.uint8)
    want_o[300:] = 0
    want_p = ref.as_result(ref.is_inf(h), F16)
    want_p[90:] = 0
    assert np.load(tmp_path / "out" / "o.npy").tobytes() == want_o.tobytes()
    assert np.load(tmp_path / "out" / "p.npy").tobytes() == want_p.tobytes()
    small = pipev("run", tmp_path / "k.cpp", "-D", "SMALL", *args)
    assert small.returncode == 1
    lines = CLASSIFY.splitlines()
    line = next(i for i, t in enumerate(lines, 1) if t.startswith("    IsInf(pl"))
    need = 32 + 256  # the bits of 128 halves (a repeat), then |h| for a whole repeat
    assert (f"k.cpp:{line}:5: error: IsInf: sharedTmpBuffer holds {need - 32} bytes, the call "
            f"needs {need}") in small.stderr, small.stderr


CLAMP = """// pipev's own kernel: the 950 Clamp with scalar bounds on sources shorter than a repeat
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR h, GM_ADDR o, GM_ADDR p) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, hb, ob, pb;
    pipe.InitBuffer(xb, 96); pipe.InitBuffer(hb, 64); pipe.InitBuffer(ob, 96);
    pipe.InitBuffer(pb, 64);
    GlobalTensor<float> xg, og; GlobalTensor<half> hg, pg;
    xg.SetGlobalBuffer((__gm__ float*)x, 24); og.SetGlobalBuffer((__gm__ float*)o, 24);
    hg.SetGlobalBuffer((__gm__ half*)h, 32); pg.SetGlobalBuffer((__gm__ half*)p, 32);
    auto xl = xb.Get<float>(); auto ol = ob.Get<float>();
    auto hl = hb.Get<half>(); auto pl = pb.Get<half>();
    DataCopy(xl, xg, 24); DataCopy(hl, hg, 32);
    Duplicate(ol, 0.0f, 24); Duplicate(pl, half(0.0f), 32);
    PipeBarrier<PIPE_ALL>();
    Clamp(ol, xl, -1.0f, 1.5f, 20);
    Clamp(pl, hl, half(0.5f), half(-0.0f), 29);  // min > max: max everywhere but at NaN
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, ol, 24); DataCopy(pg, pl, 32);
}
"""


def test_clamp_with_scalar_bounds_reads_only_its_count(pipev, tmp_path):
    """24 floats and 32 halves, counts 20 and 29: before, the compare read a whole 256-byte
    repeat of each source (an error: the tensor holds 96 / 64 bytes)."""
    (tmp_path / "k.cpp").write_text(CLAMP)
    rng = np.random.default_rng(34)
    x = (rng.integers(-16, 16, 24) / 4).astype(F32)
    x[:5] = [np.nan, -0.0, 1.5, np.inf, -np.inf]
    h = (rng.integers(-16, 16, 32) / 4).astype(F16)
    h[:4] = [np.nan, 0.0, -0.0, -np.inf]
    proc = pipev("run", tmp_path / "k.cpp", "--chip", "ascend950", "--kernel", "k",
                 *_save(tmp_path, x=x, h=h), "--arg", "o=out:f32[24]", "--arg",
                 "p=out:f16[32]", "--output-dir", tmp_path / "out", "--quiet")
    assert proc.returncode == 0, proc.stderr
    want_o = ref.clamp(x, F32(-1.0), F32(1.5))
    want_o[20:] = 0
    want_p = ref.clamp(h, F16(0.5), F16(-0.0))
    want_p[29:] = 0
    assert np.load(tmp_path / "out" / "o.npy").tobytes() == want_o.tobytes()
    assert np.load(tmp_path / "out" / "p.npy").tobytes() == want_p.tobytes()



CLAMP_TENSOR = """// pipev's own kernel: the 950 Clamp with tensor bounds shorter than a repeat
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR lo, GM_ADDR h, GM_ADDR hi, GM_ADDR o,
                                        GM_ADDR p) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, lb, hb, ub, ob, pb;
    pipe.InitBuffer(xb, 96); pipe.InitBuffer(lb, 96); pipe.InitBuffer(hb, 64);
    pipe.InitBuffer(ub, 64); pipe.InitBuffer(ob, 96); pipe.InitBuffer(pb, 64);
    GlobalTensor<float> xg, lg, og; GlobalTensor<half> hg, ug, pg;
    xg.SetGlobalBuffer((__gm__ float*)x, 24); lg.SetGlobalBuffer((__gm__ float*)lo, 24);
    og.SetGlobalBuffer((__gm__ float*)o, 24); hg.SetGlobalBuffer((__gm__ half*)h, 32);
    ug.SetGlobalBuffer((__gm__ half*)hi, 32); pg.SetGlobalBuffer((__gm__ half*)p, 32);
    auto xl = xb.Get<float>(); auto ll = lb.Get<float>(); auto ol = ob.Get<float>();
    auto hl = hb.Get<half>(); auto ul = ub.Get<half>(); auto pl = pb.Get<half>();
    DataCopy(xl, xg, 24); DataCopy(ll, lg, 24); DataCopy(hl, hg, 32); DataCopy(ul, ug, 32);
    Duplicate(ol, 0.0f, 24); Duplicate(pl, half(0.0f), 32);
    PipeBarrier<PIPE_ALL>();
    Clamp(ol, xl, ll, 1.5f, 20);          // a tensor min
    Clamp(pl, hl, half(-1.0f), ul, 29);   // a tensor max
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, ol, 24); DataCopy(pg, pl, 32);
}
"""


def test_clamp_with_tensor_bounds_reads_only_its_count(pipev, tmp_path):
    """A tensor bound is compared in place in whole groups and, past them, through copies of
    both tails: 24 floats and 32 halves, counts 20 and 29, every tensor shorter than a repeat
    (before, the compare read a whole 256-byte repeat of each: an error)."""
    (tmp_path / "k.cpp").write_text(CLAMP_TENSOR)
    rng = np.random.default_rng(35)
    x, lo = ((rng.integers(-16, 16, 24) / 4).astype(F32) for _ in range(2))
    x[:6] = [np.nan, -0.0, 1.5, np.inf, 0.0, -np.inf]
    lo[:6] = [0.0, 0.0, np.nan, -np.inf, -0.0, 2.0]
    h, hi = ((rng.integers(-16, 16, 32) / 4).astype(F16) for _ in range(2))
    h[:5] = [np.nan, 0.0, -0.0, -np.inf, np.inf]
    hi[:5] = [1.0, -0.0, 0.0, -2.0, np.nan]
    proc = pipev("run", tmp_path / "k.cpp", "--chip", "ascend950", "--kernel", "k",
                 *_save(tmp_path, x=x, lo=lo, h=h, hi=hi), "--arg", "o=out:f32[24]", "--arg",
                 "p=out:f16[32]", "--output-dir", tmp_path / "out", "--quiet")
    assert proc.returncode == 0, proc.stderr
    want_o = ref.clamp(x, lo, F32(1.5))
    want_o[20:] = 0
    want_p = ref.clamp(h, F16(-1.0), hi)
    want_p[29:] = 0
    assert np.load(tmp_path / "out" / "o.npy").tobytes() == want_o.tobytes()
    assert np.load(tmp_path / "out" / "p.npy").tobytes() == want_p.tobytes()
