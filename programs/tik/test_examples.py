"""start_debug tests of the examples, the way TIK authors test kernels; they need TIK importable:

    pipev python -m pytest programs/tik/test_examples.py

Each vec_sel script runs with the page's input data (programs/vendor_data.py) and its outputs
are compared byte for byte with programs/expected/ (which make_expected.py checks against the
values the page prints); the tiled kernel is compared with numpy.
"""
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # make_expected and vendor_data
sys.path.insert(0, str(HERE))

import make_expected  # noqa: E402
from masked_row_max import masked_row_max_kernel  # noqa: E402
from tiled_maximum import maximum_kernel  # noqa: E402

SCRIPTS = ["vec_sel_mode0", "vec_sel_mode1", "vec_sel_mode2", "vec_sel_example2"]


def feed(program: str, tik_instance) -> dict:
    shapes = {t.name: t.shape for t in tik_instance.inputs}
    return {name: np.asarray(values, dtype).reshape(shapes[name])
            for name, (values, dtype) in make_expected.INPUTS[program].items()}


@pytest.mark.parametrize("script", SCRIPTS)
def test_vec_sel_page_example(script):
    tik_instance = runpy.run_path(str(HERE / f"{script}.py"))["tik_instance"]
    program = f"tik_{script}"
    dst, = tik_instance.tikdb.start_debug(feed_dict=feed(program, tik_instance),
                                          interactive=False)
    expected = np.load(HERE.parent / "expected" / program / "dst_gm.npy")
    assert dst.dtype == np.float16
    assert dst.tobytes() == expected.tobytes()
    assert not tik_instance.tikdb.result.diagnostics  # no race: the inserted flags suffice


def test_tiled_maximum_matches_numpy():
    rng = np.random.default_rng(7)
    x = rng.uniform(-100, 100, 8192).astype(np.float16)
    y = rng.uniform(-100, 100, 8192).astype(np.float16)
    tik_instance = maximum_kernel()
    z, = tik_instance.tikdb.start_debug(feed_dict={"x_gm": x, "y_gm": y}, interactive=False)
    assert z.tobytes() == np.where(x > y, x, y).tobytes()


def test_masked_row_max_matches_numpy():
    rng = np.random.default_rng(9)
    x = rng.uniform(-8, 8, 512).astype(np.float32)
    y = rng.uniform(-8, 8, 512).astype(np.float32)
    y[128:192] = 100  # row 2: the compare keeps nothing, -inf at column 0
    tik_instance = masked_row_max_kernel()
    out, = tik_instance.tikdb.start_debug(feed_dict={"x_gm": x, "y_gm": y}, interactive=False)
    kept = np.where(x > y, x, np.float32(-np.inf)).reshape(8, 64)
    assert out[0::2].tobytes() == kept.max(axis=1).tobytes()
    assert out[1::2].view(np.uint32).tolist() == kept.argmax(axis=1).tolist()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
