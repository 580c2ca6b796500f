"""#32 class 4: the advanced math APIs pipev builds from its basic instructions
(pipev/advanced.h), run on pipev's own kernels in kernel-only mode and checked byte for byte
against numpy expressions of the documented rules, with NaN, infinities and signed zeros in
the data: ClampMax, ClampMin, Xor (A2); Floor, Ceil, Trunc, Rint, Round, Frac in every form
(tests/reference/rounding.py); on the 950 IsNan, IsInf, IsFinite, Where, LogicalAnd,
LogicalNot and Clamp (tests/reference/predicates.py, directed and hypothesis data)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

KERNEL = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "vendor" / "advanced_math.cpp"
N, COUNT = 1024, 1000  # buffer elements, elements each call takes
F32, F16 = np.float32, np.float16


def _inputs(tmp_path: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(32)
    f = (rng.integers(-40, 40, N) / 8).astype(F32)
    f[:8] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 2.5, -1.5, 3.0]
    h = (rng.integers(-40, 40, N) / 8).astype(F16)
    h[:8] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 2.5, -1.5, -3.0]
    a = rng.integers(-32768, 32768, N).astype(np.int16)
    b = rng.integers(-32768, 32768, N).astype(np.int16)
    return {"xf": f, "xh": h, "a": a, "b": b}


@pytest.mark.parametrize(("hi", "lo"), [(2.5, -1.5), (0.0, -0.0), (np.nan, np.nan)])
def test_clamp_and_xor_follow_the_documented_rules(pipev, tmp_path, hi, lo):
    data = _inputs(tmp_path)
    data["hi"], data["lo"] = np.array([hi], F32), np.array([lo], F16)
    given = {}  # parameter -> its --arg, bound in the kernel's order
    for name, value in data.items():
        np.save(tmp_path / f"{name}.npy", value)
        given[name] = f"{name}={tmp_path / name}.npy"
    outs = {"maxOut": "f32", "minOut": "f16", "xorOut": "s16", "xorOut2": "s16"}
    for name, t in outs.items():
        given[name] = f"{name}=out:{t}[{N}]"
    order = ["xf", "xh", "a", "b", "maxOut", "minOut", "xorOut", "xorOut2", "hi", "lo"]
    args = [a for name in order for a in ("--arg", given[name])]
    proc = pipev("run", KERNEL, "--kernel", "advanced_math", *args, "--output-dir",
                 tmp_path / "out", "--quiet")
    assert proc.returncode == 0, proc.stderr
    got = {n: np.load(tmp_path / "out" / f"{n}.npy") for n in outs}
    f, h = data["xf"], data["xh"]
    # "replace the elements greater (less) than the scalar with it, keep the others"
    want_max = np.where(f > F32(hi), F32(hi), f)
    want_min = np.where(h < F16(lo), F16(lo), h)
    xor = data["a"] ^ data["b"]
    for name, want in (("maxOut", want_max), ("minOut", want_min), ("xorOut", xor),
                       ("xorOut2", xor)):
        want = want.copy()
        want[COUNT:] = 0  # past the count: the zeros the kernel wrote first
        assert got[name].tobytes() == want.tobytes(), name


def test_rint_off_the_950_is_an_error_at_the_call(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) {\n'
                   '    AscendC::TPipe pipe;\n'
                   '    AscendC::TBuf<AscendC::TPosition::VECCALC> b;\n'
                   '    pipe.InitBuffer(b, 1024);\n'
                   '    auto f = b.Get<float>();\n'
                   '    AscendC::Rint(f, f, 64);\n'
                   '}\n')
    proc = pipev("run", src, "--kernel", "k", "--arg", "x=out:u8[32]", "--quiet",
                 cwd=tmp_path)
    assert proc.returncode == 1
    assert "k.cpp:7:5: error: Rint is an Ascend 950 API" in proc.stderr, proc.stderr


def test_a_temporary_space_too_small_is_an_error_at_the_call(pipev, tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text('''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> big, small;
    pipe.InitBuffer(big, 196608 - 256);
    pipe.InitBuffer(small, 64);
    auto a = big.Get<int16_t>();
#ifndef FRAMEWORK
    AscendC::Xor(a, a, a, small.Get<uint8_t>(), 256);
#else
    AscendC::Xor(a, a, a, 256);
#endif
}
''')
    args = ["--arg", "x=out:u8[32]"]
    proc = pipev("run", src, "--kernel", "k", *args, "--quiet", cwd=tmp_path)
    assert proc.returncode == 1
    assert "k.cpp:9:5: error: Xor: sharedTmpBuffer holds 64 bytes, the call needs 512" \
        in proc.stderr, proc.stderr
    framework = pipev("run", src, "-D", "FRAMEWORK", "--kernel", "k", *args, "--quiet",
                      cwd=tmp_path)
    assert framework.returncode == 1
    assert "k.cpp:11:5: error: Xor takes 512 bytes of temporary space from the UB the " \
        "kernel's buffers leave free, and 192 are free above UB 0x2ff40" in framework.stderr, \
        framework.stderr


def test_bitwise_and_or_of_ascend950_on_every_width(pipev, tmp_path):
    kernel = KERNEL.with_name("bitwise950.cpp")
    rng = np.random.default_rng(950)
    a, b = (rng.integers(0, 256, 2048, dtype=np.uint8) for _ in range(2))
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    args = ["--arg", f"a={tmp_path / 'a.npy'}", "--arg", f"b={tmp_path / 'b.npy'}"]
    for name in ("and8", "or8", "and32", "or32", "and64", "or64"):
        args += ["--arg", f"{name}=out:u8[2048]"]
    proc = pipev("run", kernel, "--chip", "ascend950", "--kernel", "bitwise950", *args,
                 "--output-dir", tmp_path / "out", "--quiet")
    assert proc.returncode == 0, proc.stderr
    for width in (8, 32, 64):
        assert np.load(tmp_path / "out" / f"and{width}.npy").tobytes() == (a & b).tobytes()
        assert np.load(tmp_path / "out" / f"or{width}.npy").tobytes() == (a | b).tobytes()
    other = pipev("run", kernel, "--kernel", "bitwise950", *args, "--output-dir",
                  tmp_path / "out", "--quiet")  # ascend910b
    assert other.returncode == 1
    assert "error: BitwiseAnd is an Ascend 950 API (the documentation lists no other chip)" \
        in other.stderr, other.stderr


ROUNDING = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "vendor" / \
    "rounding_math.cpp"


@pytest.mark.parametrize("chip", ["ascend910b", "ascend950"])
def test_the_rounding_apis_follow_the_documented_rules(pipev, tmp_path, chip):
    """Floor, Ceil, Trunc, Rint (950), Round and Frac (#32 item 1) of half and float in every
    form, bit for bit against tests/reference/rounding.py: ±0, ±inf, NaN, halfway values."""
    from tests.reference import rounding as ref

    rng = np.random.default_rng(7)
    inputs = {}
    for name, t in (("xf", F32), ("xh", F16)):
        x = (rng.integers(-4000, 4000, N) / 4).astype(t)
        x[:12] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.5, -2.5, -0.3, 2.5, 1e4]
        inputs[name] = x
        np.save(tmp_path / f"{name}.npy", x)
    args = ["--arg", f"xf={tmp_path / 'xf.npy'}", "--arg", f"xh={tmp_path / 'xh.npy'}",
            "--arg", f"outF=out:f32[{6 * N}]", "--arg", f"outH=out:f16[{6 * N}]"]
    proc = pipev("run", ROUNDING, "--chip", chip, "--kernel", "rounding_math", *args,
                 "--output-dir", tmp_path / "out", "--quiet")
    assert proc.returncode == 0, proc.stderr
    for out, src in (("outF", "xf"), ("outH", "xh")):
        got = np.load(tmp_path / "out" / f"{out}.npy").reshape(6, N)
        x = inputs[src]
        for k, name in enumerate(("floor", "ceil", "trunc", "rint", "round", "frac")):
            want = ref.reference(name, x)
            n = N if name == "trunc" else COUNT  # Trunc: the whole-tensor form
            if name == "rint" and chip != "ascend950":
                n = 0  # not called: Rint is a 950 API
            want[n:] = 0
            assert got[k].tobytes() == want.tobytes(), (out, name)


PREDICATES = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "vendor" / \
    "predicates_950.cpp"
OUTS = {"o1": "u8", "o2": "f32", "o3": "u8", "o4": "f32", "o5": "u8", "o6": "u8", "o7": "f32"}


def _predicate_data(seed: int) -> dict[str, np.ndarray]:
    """Inputs with NaN (both signs), infinities, signed zeros and ties between operands."""
    rng = np.random.default_rng(seed)
    special = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0], F32)
    x = np.where(rng.random(256) < 0.3, rng.choice(special, 256),
                 (rng.integers(-24, 24, 256) / 8)).astype(F32)
    a = np.where(rng.random(256) < 0.3, rng.choice(special, 256),
                 rng.integers(-3, 3, 256)).astype(F32)
    b = rng.integers(-1, 2, 256).astype(F32)
    cond = (rng.random(256) < 0.5).astype(np.uint8)
    return {"xf": x, "cond": cond, "a": a, "b": b}


def _run_predicates(pipev, tmp_path, data) -> dict[str, np.ndarray]:
    args = []
    for name, value in data.items():
        np.save(tmp_path / f"{name}.npy", value)
        args += ["--arg", f"{name}={tmp_path / name}.npy"]
    args += [a for name, t in OUTS.items() for a in ("--arg", f"{name}=out:{t}[256]")]
    proc = pipev("run", PREDICATES, "--chip", "ascend950", "--kernel", "predicates", *args,
                 "--output-dir", tmp_path / "out", "--quiet")
    assert proc.returncode == 0, proc.stderr
    return {name: np.load(tmp_path / "out" / f"{name}.npy") for name in OUTS}


def _check_predicates(got, data) -> None:
    from tests.reference import predicates as ref

    x, a, b, cond = data["xf"], data["a"], data["b"], data["cond"]
    c = 200  # the count each call takes; past it the zeros the kernel wrote first
    want = {"o1": ref.as_result(ref.is_nan(x), np.uint8),
            "o2": ref.as_result(ref.is_inf(x), F32),
            "o3": ref.as_result(ref.is_finite(x), np.uint8),
            "o4": ref.where(cond, a, F32(7.5)),
            "o5": ref.as_result(ref.truthy(a) & ref.truthy(b), np.uint8),
            "o6": ref.as_result(~ref.truthy(a), np.uint8),
            "o7": ref.clamp(x, F32(-1.0), a)}
    for name, w in want.items():
        w = w.copy()
        if name != "o7":  # Clamp takes all 256
            w[c:] = 0
        assert got[name].tobytes() == w.tobytes(), name


def test_the_950_predicates_follow_the_documented_rules(pipev, tmp_path):
    data = _predicate_data(0)
    _check_predicates(_run_predicates(pipev, tmp_path, data), data)


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(1, 2**32 - 1))
def test_the_950_predicates_on_random_data(pipev, tmp_path_factory, seed):
    data = _predicate_data(seed)
    tmp = tmp_path_factory.mktemp("p")
    _check_predicates(_run_predicates(pipev, tmp, data), data)


def test_950_compares_with_a_tensor_element_as_the_scalar(pipev, tmp_path):
    """The 950's flexible scalar position (BinaryConfig): src1[0] as the scalar by default,
    src0[0] with scalarTensorIndex 0 (compared the other way round), and Duplicate of bool."""
    src = tmp_path / "k.cpp"
    src.write_text('''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR o) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, ob, bb;
    pipe.InitBuffer(xb, 256); pipe.InitBuffer(yb, 256); pipe.InitBuffer(ob, 96);
    pipe.InitBuffer(bb, 64);
    GlobalTensor<float> xg, yg; GlobalTensor<uint8_t> og;
    xg.SetGlobalBuffer((__gm__ float*)x, 64); yg.SetGlobalBuffer((__gm__ float*)y, 64);
    og.SetGlobalBuffer((__gm__ uint8_t*)o, 96);
    auto xl = xb.Get<float>(); auto yl = yb.Get<float>(); auto ol = ob.Get<uint8_t>();
    auto bl = bb.Get<bool>();
    DataCopy(xl, xg, 64); DataCopy(yl, yg, 64);
    Duplicate(bl, true, 32);
    PipeBarrier<PIPE_ALL>();
    Compares(ol, xl, yl[3], CMPMODE::LT, 64);             // x < y[3]
    static constexpr BinaryConfig first = {0};
    Compares<BinaryDefaultType, BinaryDefaultType, true, first>(ol[32], yl[3], xl, CMPMODE::LT,
                                                                64);  // y[3] < x
    DataCopy(ol[64], bl.ReinterpretCast<uint8_t>(), 32);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, ol, 96);
}
''')
    rng = np.random.default_rng(5)
    x = (rng.integers(-8, 8, 64) / 2).astype(F32)
    x[:3] = [np.nan, 0.0, -0.0]
    y = (rng.integers(-8, 8, 64) / 2).astype(F32)
    y[3] = 0.0
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    proc = pipev("run", src, "--chip", "ascend950", "--kernel", "k", "--arg",
                 f"x={tmp_path / 'x.npy'}", "--arg", f"y={tmp_path / 'y.npy'}", "--arg",
                 "o=out:u8[96]", "--output-dir", tmp_path / "out", "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = np.load(tmp_path / "out" / "o.npy")
    with np.errstate(invalid="ignore"):
        assert got[:8].tobytes() == np.packbits(x < y[3], bitorder="little").tobytes()
        assert got[32:40].tobytes() == np.packbits(y[3] < x, bitorder="little").tobytes()
    assert (got[64:] == 1).all()  # Duplicate(bool tensor, true)


LOGICAL = """// pipev's own kernel: LogicalXor; LogicalAnds / LogicalOrs, a scalar either side
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR o) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, bb, ob;
    pipe.InitBuffer(ab, 256 * 2); pipe.InitBuffer(bb, 256 * 2); pipe.InitBuffer(ob, 4 * 256);
    GlobalTensor<half> ag, bg; GlobalTensor<uint8_t> og;
    ag.SetGlobalBuffer((__gm__ half*)a, 256); bg.SetGlobalBuffer((__gm__ half*)b, 256);
    og.SetGlobalBuffer((__gm__ uint8_t*)o, 4 * 256);
    auto al = ab.Get<half>(); auto bl = bb.Get<half>(); auto ol = ob.Get<bool>();
    DataCopy(al, ag, 256); DataCopy(bl, bg, 256);
    Duplicate(ol, false, 4 * 256);
    PipeBarrier<PIPE_ALL>();
    LogicalXor(ol, al, bl, 200);
    LogicalAnds(ol[256], al, half(2.0), 200);
    LogicalOrs(ol[512], half(0.0), bl, 200);
    LogicalAnds(ol[768], half(0.0), bl, 200);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, ol.ReinterpretCast<uint8_t>(), 4 * 256);
}
"""


def test_950_logical_xor_and_the_scalar_forms(pipev, tmp_path):
    from tests.reference import predicates as ref

    (tmp_path / "k.cpp").write_text(LOGICAL)
    rng = np.random.default_rng(3)
    a = rng.integers(-2, 3, 256).astype(F16)
    a[:4] = [np.nan, -0.0, 0.0, 1]
    b = rng.integers(-1, 2, 256).astype(F16)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    proc = pipev("run", tmp_path / "k.cpp", "--chip", "ascend950", "--kernel", "k", "--arg",
                 f"a={tmp_path / 'a.npy'}", "--arg", f"b={tmp_path / 'b.npy'}", "--arg",
                 "o=out:u8[1024]", "--output-dir", tmp_path / "out", "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = np.load(tmp_path / "out" / "o.npy").reshape(4, 256)
    for row, truth in enumerate((ref.truthy(a) ^ ref.truthy(b),  # LogicalXor
                                 ref.truthy(a),  # LogicalAnds(a, 2.0)
                                 ref.truthy(b),  # LogicalOrs(0.0, b)
                                 np.zeros(256, bool))):  # LogicalAnds(0.0, b)
        want = ref.as_result(truth, np.uint8)
        want[200:] = 0
        assert got[row].tobytes() == want.tobytes(), row


CLAMP_SHORT = """// pipev's own kernel: ClampMax / ClampMin on sources shorter than one repeat, the
// temporary space sized by the host helper (a block less with -D SMALL: an error at the call)
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR h, GM_ADDR o, GM_ADDR p) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, hb, ob, pb, tb;
    uint32_t mx = 0, mn = 0;
    GetClampMaxMinTmpSize(ge::Shape({20}), sizeof(float), false, mx, mn);
#ifdef SMALL
    mx -= 32;  // (a byte less: InitBuffer pads it back to the block)
#endif
    pipe.InitBuffer(xb, 96); pipe.InitBuffer(hb, 64); pipe.InitBuffer(ob, 96);
    pipe.InitBuffer(pb, 64); pipe.InitBuffer(tb, mx);
    GlobalTensor<float> xg, og; GlobalTensor<half> hg, pg;
    xg.SetGlobalBuffer((__gm__ float*)x, 24); og.SetGlobalBuffer((__gm__ float*)o, 24);
    hg.SetGlobalBuffer((__gm__ half*)h, 32); pg.SetGlobalBuffer((__gm__ half*)p, 32);
    auto xl = xb.Get<float>(); auto ol = ob.Get<float>();
    auto hl = hb.Get<half>(); auto pl = pb.Get<half>();
    DataCopy(xl, xg, 24); DataCopy(hl, hg, 32);
    Duplicate(ol, 0.0f, 24); Duplicate(pl, half(0.0f), 32);
    PipeBarrier<PIPE_ALL>();
    ClampMax(ol, xl, tb.Get<uint8_t>(), 1.5f, 20);
    ClampMin(pl, hl, half(-0.0f), 29);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, ol, 24); DataCopy(pg, pl, 32);
}
"""


def test_clamp_max_min_read_only_the_elements_their_count_covers(pipev, tmp_path):
    """A source shorter than a repeat (24 floats, 32 halves): ClampMax/ClampMin compare a copy
    of the COUNT elements, so nothing past the caller's buffer is read; the helper's size is
    exactly what the call checks."""
    (tmp_path / "k.cpp").write_text(CLAMP_SHORT)
    rng = np.random.default_rng(7)
    x = (rng.integers(-16, 16, 24) / 4).astype(F32)
    x[:4] = [np.nan, -0.0, 1.5, np.inf]
    h = (rng.integers(-16, 16, 32) / 4).astype(F16)
    h[:4] = [np.nan, 0.0, -0.0, -np.inf]
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "h.npy", h)
    args = ["--kernel", "k", "--arg", f"x={tmp_path / 'x.npy'}", "--arg",
            f"h={tmp_path / 'h.npy'}", "--arg", "o=out:f32[24]", "--arg", "p=out:f16[32]",
            "--output-dir", tmp_path / "out", "--quiet"]
    proc = pipev("run", tmp_path / "k.cpp", *args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    with np.errstate(invalid="ignore"):
        want_o = np.where(x > F32(1.5), F32(1.5), x)
        want_p = np.where(h < F16(-0.0), F16(-0.0), h)
    want_o[20:] = 0
    want_p[29:] = 0
    assert np.load(tmp_path / "out" / "o.npy").tobytes() == want_o.tobytes()
    assert np.load(tmp_path / "out" / "p.npy").tobytes() == want_p.tobytes()
    small = pipev("run", tmp_path / "k.cpp", "-D", "SMALL", *args, cwd=tmp_path)
    assert small.returncode == 1
    assert "k.cpp:24:5: error: ClampMax: sharedTmpBuffer holds 256 bytes, the call needs 288" \
        in small.stderr, small.stderr


LOGICAL_ELEMENT = """// pipev's own kernel: LogicalAnds / LogicalOrs, a tensor element as the scalar
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR o) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, bb, ob;
    pipe.InitBuffer(ab, 256 * 2); pipe.InitBuffer(bb, 256 * 2); pipe.InitBuffer(ob, 6 * 256);
    GlobalTensor<half> ag, bg; GlobalTensor<uint8_t> og;
    ag.SetGlobalBuffer((__gm__ half*)a, 256); bg.SetGlobalBuffer((__gm__ half*)b, 256);
    og.SetGlobalBuffer((__gm__ uint8_t*)o, 6 * 256);
    auto al = ab.Get<half>(); auto bl = bb.Get<half>(); auto ol = ob.Get<bool>();
    DataCopy(al, ag, 256); DataCopy(bl, bg, 256);
    Duplicate(ol, false, 6 * 256);
    PipeBarrier<PIPE_ALL>();
    static constexpr LogicalAndsConfig andFirst = {false, 0};
    static constexpr LogicalOrsConfig orFirst = {false, 0};
    LogicalAnds(ol, al, bl[0], 200);               // b[0] (nonzero): a's truth
    LogicalAnds(ol[256], al, bl[1], 200);          // b[1] (-0.0): false
    LogicalOrs(ol[512], al, bl[1], 200);           // b[1] (-0.0): a's truth
    LogicalOrs(ol[768], al, bl[2], 200);           // b[2] (NaN): true
    LogicalAnds<andFirst>(ol[1024], bl[2], al, 200);  // the scalar first: b[2] (NaN) && a
    LogicalOrs<orFirst>(ol[1280], bl[3], al, 200);    // b[3] (+0.0) || a
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, ol.ReinterpretCast<uint8_t>(), 6 * 256);
}
"""


def test_950_logical_ands_ors_with_a_tensor_element_as_the_scalar(pipev, tmp_path):
    from tests.reference import predicates as ref

    (tmp_path / "k.cpp").write_text(LOGICAL_ELEMENT)
    rng = np.random.default_rng(4)
    a = rng.integers(-2, 3, 256).astype(F16)
    a[:4] = [np.nan, -0.0, 0.0, 1]
    b = rng.integers(-1, 2, 256).astype(F16)
    b[:4] = [3.0, -0.0, np.nan, 0.0]
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    proc = pipev("run", tmp_path / "k.cpp", "--chip", "ascend950", "--kernel", "k", "--arg",
                 f"a={tmp_path / 'a.npy'}", "--arg", f"b={tmp_path / 'b.npy'}", "--arg",
                 "o=out:u8[1536]", "--output-dir", tmp_path / "out", "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = np.load(tmp_path / "out" / "o.npy").reshape(6, 256)
    x = ref.truthy(a)
    s = ref.truthy(b[:4])
    for row, truth in enumerate((x & s[0], x & s[1], x | s[1], x | s[2], s[2] & x, s[3] | x)):
        want = ref.as_result(truth, np.uint8)
        want[200:] = 0
        assert got[row].tobytes() == want.tobytes(), row
