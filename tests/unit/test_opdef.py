"""An msopgen project's DTYPE_ macros from its OpDef (simulator/ascendc/opdef.py): the first
entry of each input's and output's DataType list, for a unit that is, or includes, a file of the
project's op_kernel folder; a macro the user defines is left to the user."""

from __future__ import annotations

from pathlib import Path

from simulator.ascendc.opdef import dtype_defines, first_combination

OPDEF = """#include "register/op_def_registry.h"
namespace ops {
class Thing : public OpDef {
public:
    explicit Thing(const char* name) : OpDef(name)
    {
        this->Input("x1").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        // this->Input("old").DataType({ge::DT_INT8});
        this->Input("indices").DataTypeList({ge::DT_INT32});
        this->Input("odd").DataType({ge::DT_COMPLEX64});
        this->Output("y")
            .DataType({ge::DT_BF16, ge::DT_INT8});
    }
};
OP_ADD(Thing);
}
"""


def project(tmp_path: Path) -> Path:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "thing.cpp").write_text(OPDEF)
    (tmp_path / "op_host" / "thing_tiling.h").write_text("// no OpDef here\n")
    kernel = tmp_path / "op_kernel" / "thing.cpp"
    kernel.write_text("// kernel\n")
    return kernel


def test_the_first_combination_of_every_listed_input_and_output(tmp_path):
    project(tmp_path)
    assert first_combination(tmp_path / "op_host") == {
        "X1": "DT_FLOAT16", "INDICES": "DT_INT32", "Y": "DT_BF16"}  # (no comment, no unknown)


def test_a_main_including_the_kernel_gets_the_macros_the_user_did_not_define(tmp_path):
    kernel = project(tmp_path)
    main = tmp_path / "main.cpp"
    text = '#include "op_kernel/thing.cpp"\nint main() {}\n'
    got = dtype_defines([(main, text)], (), ("DTYPE_X1=float",))
    # the user's type decides its code's name; the others are the OpDef's first
    assert "DTYPE_X1=half" not in got and "ORIG_DTYPE_X1=DT_FLOAT" in got
    assert {"DTYPE_INDICES=int32_t", "ORIG_DTYPE_INDICES=DT_INT32", "DTYPE_Y=bfloat16_t",
            "ORIG_DTYPE_Y=DT_BF16"} <= set(got)
    # a code name the user gives decides the type; a type without a code leaves its name out
    got = dtype_defines([(main, text)], (), ("ORIG_DTYPE_Y=DT_INT8", "DTYPE_X1=float8"))
    assert "DTYPE_Y=int8_t" in got and not any(d.startswith(("ORIG_DTYPE_X1", "DTYPE_X1"))
                                               for d in got)
    assert dtype_defines([(kernel, "")], (), ()) == dtype_defines([(main, text)], (), ())
    # a file outside an op_kernel folder, or a project without an op_host folder: nothing
    assert dtype_defines([(main, "int main() {}\n")], (), ()) == ()
    (tmp_path / "op_host" / "thing.cpp").unlink()
    assert dtype_defines([(main, text)], (), ()) == ()
