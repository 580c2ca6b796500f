"""#32: the host's tiling helpers for the advanced math APIs' temporary space agree with the
kernel-side checks (both read pipev/tmp_sizes.h): Get...MaxMinTmpSize of the 950 Logical APIs
and Where leave exactly the room the framework form takes (32 bytes less is an error at the
call), and Get...TmpBufferFactorSize's (maxLiveNodeCount, extraBuf) give, for every buffer
size, an element count whose need fits that buffer."""

from __future__ import annotations

import numpy as np
import pytest

FACTOR = """// pipev's own host program: every buffer size from extraBuf to 200,000 bytes, by 32
#include <cstdio>
#include "tiling/tiling_api.h"
using namespace AscendC;
typedef void (*MaxMin)(const ge::Shape&, uint32_t, bool, uint32_t&, uint32_t&);
typedef void (*FactorFn)(uint32_t, uint32_t&, uint32_t&);
struct Api { const char* name; MaxMin size; FactorFn factor; uint32_t type_size; };
int main() {
    const Api apis[] = {
        {"Floor", GetFloorMaxMinTmpSize, GetFloorTmpBufferFactorSize, 2},
        {"Floor", GetFloorMaxMinTmpSize, GetFloorTmpBufferFactorSize, 4},
        {"Ceil", GetCeilMaxMinTmpSize, GetCeilTmpBufferFactorSize, 2},
        {"Trunc", GetTruncMaxMinTmpSize, GetTruncTmpBufferFactorSize, 2},
        {"Rint", GetRintMaxMinTmpSize, GetRintTmpBufferFactorSize, 2},
        {"Round", GetRoundMaxMinTmpSize, GetRoundTmpBufferFactorSize, 4},
        {"Frac", GetFracMaxMinTmpSize, GetFracTmpBufferFactorSize, 2},
        {"Frac", GetFracMaxMinTmpSize, GetFracTmpBufferFactorSize, 4},
        {"Clamp", GetClampMaxMinTmpSize, GetClampTmpBufferFactorSize, 2},
        {"Clamp", GetClampMaxMinTmpSize, GetClampTmpBufferFactorSize, 4},
        {"Xor", GetXorMaxMinTmpSize, GetXorTmpBufferFactorSize, 2},
        {"IsNan", GetIsNanMaxMinTmpSize, GetIsNanTmpBufferFactorSize, 2},
        {"IsInf", GetIsInfMaxMinTmpSize, GetIsInfTmpBufferFactorSize, 4},
        {"IsFinite", GetIsFiniteMaxMinTmpSize, GetIsFiniteTmpBufferFactorSize, 2},
        {"IsFinite", GetIsFiniteMaxMinTmpSize, GetIsFiniteTmpBufferFactorSize, 4},
        {"LogicalAnd", GetLogicalAndMaxMinTmpSize, GetLogicalAndTmpBufferFactorSize, 1},
        {"LogicalAnd", GetLogicalAndMaxMinTmpSize, GetLogicalAndTmpBufferFactorSize, 2},
        {"LogicalOr", GetLogicalOrMaxMinTmpSize, GetLogicalOrTmpBufferFactorSize, 4},
        {"LogicalXor", GetLogicalXorMaxMinTmpSize, GetLogicalXorTmpBufferFactorSize, 1},
        {"LogicalNot", GetLogicalNotMaxMinTmpSize, GetLogicalNotTmpBufferFactorSize, 2},
        {"LogicalAnds", GetLogicalAndsMaxMinTmpSize, GetLogicalAndsTmpBufferFactorSize, 4},
        {"LogicalOrs", GetLogicalOrsMaxMinTmpSize, GetLogicalOrsTmpBufferFactorSize, 1},
        {"Where", GetWhereMaxMinTmpSize, GetWhereTmpBufferFactorSize, 1},
        {"Where", GetWhereMaxMinTmpSize, GetWhereTmpBufferFactorSize, 2},
        {"Where", GetWhereMaxMinTmpSize, GetWhereTmpBufferFactorSize, 4},
    };
    int checked = 0;
    for (const Api& api : apis) {
        uint32_t live = 0, extra = 0, mx = 0, mn = 0;
        api.factor(api.type_size, live, extra);
        for (uint32_t buf = extra; buf <= 200000; buf += 32) {
            uint32_t n = live ? (buf - extra) / live / api.type_size : 100000;
            api.size(ge::Shape({int64_t(n)}), api.type_size, false, mx, mn);
            if (mn > buf) {
                std::printf("%s/%u: %u bytes give %u elements, which need %u\\n", api.name,
                            api.type_size, buf, n, mn);
                return 1;
            }
            ++checked;
        }
    }
    std::printf("factors hold for %d sizes\\n", checked);
    return 0;
}
"""


def test_the_factor_helpers_give_counts_that_fit(pipev, tmp_path):
    (tmp_path / "factor.cpp").write_text(FACTOR)
    proc = pipev("run", tmp_path / "factor.cpp", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "factors hold for 156038 sizes" in proc.stdout, proc.stdout


FRAMEWORK = """// pipev's own kernel: the buffers leave exactly the helper's figure of UB free (32
// bytes less with -D TIGHT) for LogicalNot, or (-D WHERE) for Where of two scalars on its result
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR o) {
    constexpr uint32_t N = 1000;
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, ob, big;
    uint32_t mx = 0, mn = 0;
#ifdef WHERE
    GetWhereMaxMinTmpSize(ge::Shape({N}), sizeof(float), false, mx, mn);
#else
    GetLogicalNotMaxMinTmpSize(ge::Shape({N}), sizeof(half), false, mx, mn);
#endif
#ifdef TIGHT
    mx -= 32;
#endif
    uint64_t ub = 0;
    platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreMemSize(
        platform_ascendc::CoreMemType::UB, ub);
    pipe.InitBuffer(ab, 2048); pipe.InitBuffer(ob, 5120);
    pipe.InitBuffer(big, uint32_t(ub) - 2048 - 5120 - mx);  // the rest: mx bytes stay free
    GlobalTensor<half> ag; GlobalTensor<uint8_t> og;
    ag.SetGlobalBuffer((__gm__ half*)a, 1024); og.SetGlobalBuffer((__gm__ uint8_t*)o, 4096);
    auto al = ab.Get<half>(); auto ol = ob.Get<uint8_t>();
    DataCopy(al, ag, 1024);
    Duplicate(ol, uint8_t(0), 5120);
    PipeBarrier<PIPE_ALL>();
#ifdef WHERE
    LogicalNot(ol.ReinterpretCast<bool>()[4096], al, N);  // the condition: a == 0
    PipeBarrier<PIPE_ALL>();
    Where(ol.ReinterpretCast<float>(), 1.5f, -2.0f, ol.ReinterpretCast<bool>()[4096], N);
#else
    LogicalNot(ol.ReinterpretCast<bool>(), al, N);
#endif
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, ol, 4096);
}
"""


@pytest.mark.parametrize(("where", "api", "need", "line"), [
    (False, "LogicalNot", 2176, 35),
    (True, "Where", 4128, 33),
])
def test_the_950_helpers_leave_the_room_the_call_takes(pipev, tmp_path, where, api, need, line):
    from tests.reference import predicates as ref

    (tmp_path / "k.cpp").write_text(FRAMEWORK)
    rng = np.random.default_rng(32)
    a = rng.integers(-1, 2, 1024).astype(np.float16)
    a[:3] = [np.nan, -0.0, 0.0]
    np.save(tmp_path / "a.npy", a)
    args = ["--chip", "ascend950", "--kernel", "k", "--arg", f"a={tmp_path / 'a.npy'}",
            "--arg", "o=out:u8[4096]", "--output-dir", tmp_path / "out", "--quiet"]
    defines = ["-D", "WHERE"] if where else []
    proc = pipev("run", tmp_path / "k.cpp", *defines, *args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = np.load(tmp_path / "out" / "o.npy")
    zero = ~ref.truthy(a[:1000])
    if where:
        want = np.where(zero, np.float32(1.5), np.float32(-2.0)).astype(np.float32).tobytes()
    else:
        want = ref.as_result(zero, np.uint8).tobytes()
    assert got[:len(want)].tobytes() == want
    tight = pipev("run", tmp_path / "k.cpp", *defines, "-D", "TIGHT", *args, cwd=tmp_path)
    assert tight.returncode == 1
    assert f"k.cpp:{line}:5: error: {api} takes {need} bytes of temporary space from the UB " \
        f"the kernel's buffers leave free, and {need - 32} are free" in tight.stderr, tight.stderr
