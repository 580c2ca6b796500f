"""`.gm NAME TYPE[COUNT] inout data(BYTES) = INIT` (docs/format.md §4.1): kernels may touch the
whole tensor, its outputs hold the first BYTES (a C++ recording's allocation before its slack)."""

from __future__ import annotations

import numpy as np
import pytest

from isa.assembler import assemble
from isa.diagnostics import DiagnosticError
from simulator.run import run

PROGRAM = """
.gm x u8[96] inout data(64) = arange(0)
.ub t u8[96]
    copy_gm_to_ub t[0], x[0], nburst=1, burst=3
    pipe_barrier ALL
    copy_ub_to_gm x[32], t[0], nburst=1, burst=2
"""


def test_outputs_hold_the_data_bytes_and_kernels_reach_the_slack():
    program = assemble(PROGRAM, chip="ascend910b")
    assert program.gm["x"].data_bytes == 64
    out = run(program).outputs["x"]
    # the copy into bytes 32..95 reached the slack (64..95); the output holds bytes 0..63
    expected = np.arange(96, dtype=np.uint8)
    expected[32:96] = np.arange(64, dtype=np.uint8)
    assert out.dtype == np.uint8 and out.tobytes() == expected[:64].tobytes()


@pytest.mark.parametrize("decl, message", [
    (".gm x u8[96] inout data(0) = zeros", "data(0) of 'x': whole u8 elements, 1..96 bytes"),
    (".gm x u8[96] inout data(97) = zeros", "data(97) of 'x': whole u8 elements, 1..96 bytes"),
    (".gm x f32[8] inout data(6) = zeros", "data(6) of 'x': whole f32 elements, 1..32 bytes"),
])
def test_a_data_size_outside_the_tensor_is_an_error_at_its_word(decl, message):
    with pytest.raises(DiagnosticError) as e:
        assemble(decl + "\n", chip="ascend910b")
    d = e.value.diagnostics[0]
    assert message in d.message and (d.line, d.column) == (1, decl.index("data(") + 1)
