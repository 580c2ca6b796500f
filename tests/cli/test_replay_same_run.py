"""A `--save-vasm` recording replays as the same run (#30 item 5): the same instruction and
micro-op counts, cycles, pipe figures, stalls, diagnostics and outputs, for API statements whose
count comes from a register at run time (Compares' count= from a register is one counter-mode
instruction; as a literal it would be whole repeats: the recording keeps what ran)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

# counts known only at run time (read from GM), none a whole number of repeats, and a race
# (Muls right after the DataCopy into its source, no flag between) that warns
KERNEL = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void cmps(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    uint32_t n = *(__gm__ uint32_t*)tiling;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, bz, bm;
    AscendC::GlobalTensor<half> xGm, oGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 2048);
    oGm.SetGlobalBuffer((__gm__ half*)out, 2048);
    pipe.InitBuffer(bx, 2048 * sizeof(half));
    pipe.InitBuffer(by, 2048 * sizeof(half));
    pipe.InitBuffer(bz, 2048 * sizeof(half));
    pipe.InitBuffer(bm, 2048 / 8);
    auto xLocal = bx.Get<half>();
    auto yLocal = by.Get<half>();
    auto zLocal = bz.Get<half>();
    auto mLocal = bm.Get<uint8_t>();
    AscendC::DataCopy(xLocal, xGm, 2048);
    AscendC::Muls(zLocal, xLocal, (half)2.0f, 2048);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t t = 1; t < 4; ++t) {
        uint32_t k = n - 100 * t;
        AscendC::Compares(mLocal, xLocal, (half)1.0f, AscendC::CMPMODE::GT, k);
        AscendC::CompareScalar(mLocal, xLocal, (half)2.0f, AscendC::CMPMODE::LT, k - 7);
        AscendC::Duplicate(yLocal, (half)-1.0f, k);
        AscendC::Select(zLocal, mLocal, xLocal, yLocal,
                        AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, k);
        AscendC::Adds(zLocal, zLocal, (half)1.0f, k - 1);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(oGm, zLocal, 2048);
}
int main() {
    half* x = (half*)AscendC::GmAlloc(2048 * sizeof(half));
    half* o = (half*)AscendC::GmAlloc(2048 * sizeof(half));
    uint32_t* t = (uint32_t*)AscendC::GmAlloc(32);
    for (int i = 0; i < 2048; ++i) x[i] = half(float(i % 7) * 0.5f);
    t[0] = 2000;
    ICPU_RUN_KF(cmps, 1, (uint8_t*)x, (uint8_t*)o, (uint8_t*)t);
    return 0;
}
"""

SAME = ("cycles", "time_us", "instructions", "uops", "pipes", "stalls", "warnings")


def _summary(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


def test_a_recording_replays_as_the_same_run(pipev, tmp_path: Path):
    (tmp_path / "cmps.cpp").write_text(KERNEL)
    live = pipev("run", "cmps.cpp", "--json", "--save-vasm", "rec.vasm")
    assert live.returncode == 0, live.stderr
    replay = pipev("run", "rec.vasm", "--json", "--output-dir", "out")
    assert replay.returncode == 0, replay.stderr
    a, b = _summary(live.stdout), _summary(replay.stdout)
    assert {k: a[k] for k in SAME} == {k: b[k] for k in SAME}
    assert a["instructions"] > 40 and a["stalls"]["barrier"] > 0
    # the race is said in the same words (no header register named in either)
    assert len(a["warnings"]) == 1 and "race: " in a["warnings"][0]
    assert "x1 =" not in a["warnings"][0]
    # every GM output is the same, byte for byte: the recording keeps each allocation's 32
    # bytes of runtime slack (#32) and marks the data before it, which its outputs hold
    replayed = {p.stem: hashlib.sha256(np.load(p).tobytes()).hexdigest()[:16]
                for p in (tmp_path / "out").glob("*.npy")}
    assert replayed == a["gm"]
    assert sorted(np.load(p).nbytes for p in (tmp_path / "out").glob("*.npy")) == \
        [32, 4096, 4096]
    assert ".gm gm_o u8[4128] inout data(4096) =" in (tmp_path / "rec.vasm").read_text()
    # Compares with a run-time count: the counter-mode instruction that ran, not whole repeats
    text = (tmp_path / "rec.vasm").read_text()
    assert "set_mask_count" in text and "vcmpvs.gt.f16" in text
