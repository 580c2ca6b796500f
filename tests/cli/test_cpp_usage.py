"""`pipev check` and `pipev asm` take C++ (#30, which replaced #31 30's usage error): a C++ file
goes to the C++ front end, never to the assembler (no page of assembler errors about its C++
lines), and a kernel-only file says how to run it."""

from __future__ import annotations

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
def test_check_and_asm_take_cpp(pipev, tmp_path, command, suffix):
    (tmp_path / f"k{suffix}").write_text(KERNEL)
    result = pipev(command, f"k{suffix}")
    assert result.returncode == 1, result.stderr
    # one error, no assembler's: pipev's diagnostic, with its source line as every one has
    assert result.stderr.splitlines() == [
        f"k{suffix}:1:1: error: the program has no main() (for a file with only a kernel, run "
        "it with --kernel NAME --arg ...)", '    1 | #include "kernel_operator.h"', "      | ^"]
    result = pipev(command, f"k{suffix}", "--kernel", "kmax", "--arg", "x=out:u8[32]")
    assert result.returncode == 0, result.stderr
    if command == "check":
        assert result.stderr == f"k{suffix}: ok (1 kernel launch on 1 core, 0 instructions, " \
            "chip ascend910b)\n"
    else:
        assert result.stdout.startswith("; ") and " kmax on ascend910b: " in result.stdout
