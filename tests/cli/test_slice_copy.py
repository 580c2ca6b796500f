"""DataCopy with SliceInfo (pipev/slice_copy.h): pipev's own kernel
(tests/data/ascendc/kernels/slice_copy.cpp) picks runs of columns, rows and planes of a
[4, 3, 87] float tensor into UB and copies them out through the UB -> GM form; numpy slicing
gives every byte. The page's rules on the slice parameters are errors at the call."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

KERNEL = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "kernels" / "slice_copy.cpp"


def test_slices_land_back_to_back_in_row_major_order(pipev, tmp_path):
    x = np.random.default_rng(5).standard_normal((4, 3, 87)).astype(np.float32)
    np.save(tmp_path / "x.npy", x.reshape(-1))
    proc = pipev("run", KERNEL, "--kernel", "slice_copy", "--arg", f"x={tmp_path / 'x.npy'}",
                 "--arg", "y2=out:f32[96]", "--arg", "y3=out:f32[192]", "--output-dir",
                 tmp_path / "out", "--quiet")
    assert proc.returncode == 0, proc.stderr
    cols = np.r_[16:40, 47:71]  # two runs of 3 blocks (24 floats), 7 elements apart
    want2 = x[0][[0, 2]][:, cols]
    want3 = x[[1, 3]][:, [0, 2]][:, :, cols]
    assert np.load(tmp_path / "out" / "y2.npy").tobytes() == want2.tobytes()
    assert np.load(tmp_path / "out" / "y3.npy").tobytes() == want3.tobytes()


CALL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECIN> b;
    pipe.InitBuffer(b, 4096);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, 1024);
    LocalTensor<float> ub = b.Get<float>();
    SliceInfo src[] = {%s};
    SliceInfo dst[] = {%s};
    DataCopy(ub, g, dst, src, %d);
}
"""


@pytest.mark.parametrize(("src", "dst", "dims", "message"), [
    ("{16, 69, 7, 3, 87}", "{0, 47, 0, 3, 48}", 1,
     "srcSliceInfo[0] spans 54 elements, which is not N runs of 24 elements 7 apart"),
    ("{0, 23, 0, 3, 87}, {0, 2, 1, 2, 3}", "{0, 23, 0, 3, 24}, {0, 1, 0, 1, 2}", 2,
     "srcSliceInfo[1].burstLen is 2; above the first dimension it must be 1"),
    ("{0, 47, 0, 3, 87}", "{0, 23, 0, 3, 24}", 1,
     "dimension 0 takes 2 runs of burstLen 3 from the source and 1 of burstLen 3"),
    ("{40, 16, 0, 3, 87}", "{0, 23, 0, 3, 24}", 1,
     "srcSliceInfo[0] has startIndex 40, endIndex 16, shapeValue 87"),
    ("{0, 23, 0, 3, 87}", "{0, 23, 0, 3, 24}", 9, "dimValue is 9 (the page: 1 to 8)"),
])
def test_slice_rules_are_errors_at_the_call(pipev, tmp_path, src, dst, dims, message):
    path = tmp_path / "k.cpp"
    path.write_text(CALL % (src, dst, dims))
    proc = pipev("run", path, "--kernel", "k", "--arg", "x=out:f32[1024]", "--quiet",
                 cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert f"k.cpp:12:5: error: DataCopy with SliceInfo: {message}" in proc.stderr, proc.stderr
