"""#29 item 4: a C++ kernel's GlobalTensor GetValue / SetValue are seen by the cross-core race
check, as the scalar unit's GM loads and stores are in TIK and .vasm (before, two blocks
storing one GM element through SetValue went unflagged). Atomic accumulation still passes."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.support.cli import cli_main

# pipev's own kernel in the pdist_grad style: each block scales its row and stores one result
# element through the scalar unit; with SHARED every block stores the same element
KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void rowsum(GM_ADDR x, GM_ADDR y, GM_ADDR hist)
{
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xGm, yGm, hGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * 64, 64);
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    hGm.SetGlobalBuffer((__gm__ float*)hist, 64);
    DataCopy(t, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    float first = xGm.GetValue(0);
#ifdef SHARED
    yGm.SetValue(0, first);
#else
    yGm.SetValue(GetBlockIdx(), first);
#endif
    SetAtomicAdd<float>();
    DataCopy(hGm, t, 64);
    SetAtomicNone();
}
"""


def run(tmp_path: Path, capfd, text: str = KERNEL, *defines: str) -> tuple[int, str]:
    src = tmp_path / "rowsum.cpp"
    src.write_text(text)
    np.save(tmp_path / "x.npy", np.arange(4 * 64, dtype=np.float32))
    rc = cli_main(["run", src, "--kernel", "rowsum", "--block-dim", "4", "--arg", "x=x.npy",
                "--arg", "y=out:f32[8]", "--arg", "hist=out:f32[64]", *defines])
    return rc, capfd.readouterr().err


def test_setvalue_of_blocks_to_one_gm_element_is_a_race(tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    rc, err = run(tmp_path, capfd, KERNEL, "-D", "SHARED")
    assert rc == 0, err
    assert "write GM y bytes that another core also writes" in err, err
    assert "rowsum.cpp:18:" in err  # the SetValue line


def test_setvalue_of_own_elements_and_atomic_accumulation_pass(tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    rc, err = run(tmp_path, capfd)
    assert rc == 0 and "GM" not in err, err
    y = np.load(tmp_path / "pipev-out" / "y.npy")
    hist = np.load(tmp_path / "pipev-out" / "hist.npy")
    x = np.arange(4 * 64, dtype=np.float32).reshape(4, 64)
    assert y[:4].tolist() == x[:, 0].tolist()
    assert hist.tobytes() == (((x[0] + x[1]) + x[2]) + x[3]).tobytes()


def test_getvalue_of_an_element_other_blocks_store_is_a_race(tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    rc, err = run(tmp_path, capfd, KERNEL.replace("float first = xGm.GetValue(0);",
                                                  "float first = yGm.GetValue(1);"))
    assert rc == 0, err
    assert "read GM y bytes that another core writes" in err and "rowsum.cpp:16:" in err, err


def test_the_replay_of_a_recording_flags_the_same_setvalue_race(tmp_path, monkeypatch,
                                                                  capfd):
    # --save-vasm carries each GetValue / SetValue of GM as ld / st (session 8), and the launch's
    # cores as one program (rec.cores.vasm): its replay sees the same race, at the same line,
    # and writes the same outputs
    monkeypatch.chdir(tmp_path)
    rc, err = run(tmp_path, capfd, KERNEL, "-D", "SHARED", "--save-vasm", "rec.vasm")
    assert rc == 0 and "rowsum.cpp:18:" in err, err
    text = (tmp_path / "rec.cores.vasm").read_text()
    assert ".block_dim 4" in text and text.count("st.f32 x31, y[0]") == 4
    live = {n: np.load(tmp_path / "pipev-out" / f"{n}.npy") for n in ("y", "hist")}
    replay = tmp_path / "replay"
    replay.mkdir()
    monkeypatch.chdir(replay)
    rc = cli_main(["run", tmp_path / "rec.cores.vasm"])
    err = capfd.readouterr().err
    assert rc == 0, err
    assert "write GM y bytes that another core also writes" in err, err
    assert "rowsum.cpp:18:" in err, err
    for name, want in live.items():
        assert np.load(replay / "pipev-out" / f"{name}.npy").tobytes() == want.tobytes()
