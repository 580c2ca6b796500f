"""`pipev check` and `pipev asm` take .vasm programs and TIK scripts (#31 30): a C++ kernel is a
usage error naming the way to check what it issues, never a page of assembler errors about its
C++ lines."""

from __future__ import annotations

from pathlib import Path

import pytest

KERNEL = """#include "kernel_operator.h"
constexpr int32_t N = 256;
class KernelMax {
public:
    __aicore__ inline void Init() {}
    AscendC::TPipe pipe;
};
extern "C" __global__ __aicore__ void kmax(GM_ADDR x) { KernelMax op; op.Init(); }
"""


@pytest.mark.parametrize("command", ["check", "asm"])
@pytest.mark.parametrize("suffix", [".cpp", ".asc"])
def test_check_and_asm_refuse_cpp_with_the_way_to_check_it(cli, tmp_path, monkeypatch,
                                                            command, suffix):
    monkeypatch.chdir(tmp_path)
    Path(f"k{suffix}").write_text(KERNEL)
    result = cli(command, f"k{suffix}")
    assert result.exit_code == 2, result.output
    assert f"{command} takes .vasm programs and TIK scripts, not C++ (k{suffix})" in result.output
    assert f"pipev run k{suffix} --save-vasm k.vasm" in result.output
    assert "expected a statement" not in result.output and "Traceback" not in result.output
