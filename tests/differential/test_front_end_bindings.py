"""Every binding row (simulator/bindings.py) in every form its language has issues what the
`.vasm` API statement does: the AscendC C++ call, the C API call and the TIK call of a row each
decode into the same hardware instructions (operands by address, fields, types) as the
statement written by hand, on a chip with counter mode and on ascend910 (chunks). The C++
kernels of a module are compiled once (one source for both C++ languages) and run in-process
through the bridge; the statements they issued are read back from the stream's replay text.

A row added at run time is callable from C++ (through the header the build generates) and from
TIK, with no header edited."""

from __future__ import annotations

import ctypes
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

from isa import assemble
from isa.chip import get_chip
from isa.table import INSTRUCTIONS, TYPED_FORMS
from simulator.ascendc.bridge import Session
from simulator.ascendc.build import compile_source
from simulator.bindings import ROWS, TENSORS, Binding
from simulator.stream import Stream
from simulator.tik import SHIM
from simulator.tik import tik as tik_module

CHIPS = ("ascend910b", "ascend910")
CPP = {"f16": "half", "f32": "float", "s16": "int16_t", "u16": "uint16_t", "s32": "int32_t",
       # the C API's conversions (issue #27) name these too
       "s64": "int64_t", "bf16": "bfloat16_t", "s8": "int8_t", "u8": "uint8_t",
       "s4": "int4b_t"}  # #27: two a byte (asc_half2int4, asc_int42half)
TIK = {"f16": "float16", "f32": "float32", "s16": "int16", "u16": "uint16", "s32": "int32"}
PREFERRED = ("f16", "s16", "f32", "s32", "u16")
OFFSETS = (0, 2048, 4096)  # element offsets of dst, src0 and src1 in their tensor
N, REPEAT, MASK, LO = 300, 2, 60, 0xFF0F  # count=, repeat=, mask= and a bitwise mask word
FORMS = {"ascendc": ("count", "mask", "bits", "keep"), "c_api": ("count", "keep"),
         "tik": ("mask", "bits")}
STRIDES = {"binary": "1,1,1,8,8,8", "scalar": "1,1,8,8", "unary": "1,1,8,8", "cast": "1,1,8,8",
           "conv": "1,1,8,8", "binary_cast": "1,1,1,8,8,8"}
# #27's shapes that call like an older one: Axpy/MulAddDst (<T, U> overloads too: tried with one
# type here, their mixed forms in tests/cli/test_binary_cast_kernels.py) and ShiftRight (roundEn)
AS_SHAPE = {"scalar_mixed": "scalar", "binary_mixed": "binary", "scalar_round": "scalar",
            "binary_or_cast": "binary",  # asc_add_relu: converting forms in that file too
            "copy": "unary"}  # Copy: its high-dimensional forms take CopyRepeatParams
# statements ascend910b has no types for (ascend950's Ands/Ors/Divs): their C++ calls are run on
# ascend950 in tests/cli/test_binary_cast_kernels.py
ELSEWHERE = ("ands", "ors", "divs")


# a row with parameter lists (`params`): each overload, with both mask forms where it has a
# mask; its strides and its order take these values
POSITION = {"dst": 0, "src": 1, "src0": 1, "src1": 2, "work": 2}
ORDER = ("index_value", "ReduceOrder::ORDER_INDEX_VALUE", 1)  # the word, C++, C API / TIK


def stride_value(name: str) -> int:
    return 2 if name == "dst_rep" else 1 if name.endswith("_blk") else 8


def forms_of(row: Binding) -> tuple[str, ...]:
    if not row.params:
        return FORMS[row.language]
    return tuple(f"{i}:{m}" for i, ov in enumerate(row.params)
                 for m in (("mask", "bits") if "mask" in ov else ("keep",)))


def params_args(row: Binding, form: str, t: str, op, mask_text: dict) -> list[str]:
    """A parameter-list row's arguments in overload order (OP(k): tensor operand k)."""
    i, m = form.split(":")
    out = []
    for k in row.params[int(i)]:
        if k in TENSORS:
            out.append(op(POSITION[k]))
        else:
            out.append({"count": str(N), "repeat": str(REPEAT), "mask": mask_text.get(m, ""),
                        "elements": str(N), "repeats": str(REPEAT), "index": "false"
                        if row.language == "ascendc" else "False",
                        "scalar": "2.0" if t.startswith("f") else "2",
                        "order": str(ORDER[1] if row.language == "ascendc" else ORDER[2])}
                       .get(k) or str(stride_value(k)))
    return out


def params_statement(row: Binding, form: str, t: str, addr) -> str:
    i, m = form.split(":")
    overload = row.params[int(i)]
    ops = [f"@{addr(POSITION[k]):#x}" for k in overload if k in TENSORS]
    if "scalar" in overload:
        ops.append("2.0" if t.startswith("f") else "2")
    keys = []
    for k in overload:
        if k in ("count", "elements"):
            keys.append(f"count={N}")
        elif k in ("repeat", "repeats"):
            keys.append(f"{k}={REPEAT}")
        elif k == "index":
            keys.append("index=0")
        elif k == "mask":
            keys.append(f"mask={MASK}" if m == "mask" else f"mask_hi=0, mask_lo={LO:#x}")
        elif k == "order":
            keys.append(f"order={ORDER[0]}")
        elif k not in TENSORS and k != "scalar":
            keys.append(f"{k}={stride_value(k)}")
    return f"{row.statement}.{t} {', '.join(ops + keys)}"


def defn_of(statement: str):
    return TYPED_FORMS.get(statement) or INSTRUCTIONS[statement]


def shape_of(row: Binding) -> str:
    """The row's shape, TIK's older names (`vadd`, block strides given: `binary_blk`) as the
    shape they issue."""
    shape = row.shape.removesuffix("_blk")
    return AS_SHAPE.get(shape, shape)


def types_of(row: Binding, chip) -> tuple[str, str | None]:
    """(T, SRC) a row is tried with: its statement's first supported type (cast: f16 ← f32)."""
    if row.conv:  # a C-API conversion names its types
        return row.conv[0], row.conv[1]
    if shape_of(row) in ("cast", "conv"):
        return "f16", "f32"
    supported = chip.types.get(defn_of(row.statement).types, ())
    if shape_of(row) == "binary_cast":  # #27: the chip's first DST.SRC pair
        return tuple(supported[0].split("."))
    return next(t for t in PREFERRED if t in supported), None


def rows(language: str) -> list[Binding]:
    return [r for r in ROWS if r.language == language]


# -- the .vasm statement of a call ------------------------------------------------------------
def statement(row: Binding, form: str, t: str, src: str | None, addr) -> str:
    """The API statement written by hand; ADDR(k) is the byte address of operand k."""
    if row.params:
        return params_statement(row, form, t, addr)
    shape = shape_of(row)
    ops = [f"@{addr(k):#x}" for k in range(3 if shape in ("binary", "binary_cast") else 2)]
    if shape == "scalar":
        ops.append("2.0" if t.startswith("f") else "2")
    head = f"{row.statement}.{t}" + (f".{src}" if src else "")
    text = f"{head} {', '.join(ops)}"
    if shape in ("cast", "conv"):
        text += f", round={row.conv[2] if row.conv else 'none'}"
    if row.shape == "scalar_round" and row.language == "c_api":  # asc_shiftright_round
        text += ", round_en=1"
    if form == "count":
        return f"{text}, count={N}"
    text += f", repeat={REPEAT}, stride={STRIDES[shape]}"
    return {"keep": text, "mask": f"{text}, mask={MASK}",
            "bits": f"{text}, mask_hi=0, mask_lo={LO:#x}"}[form]


def decoded(chip: str, text: str) -> list[tuple]:
    program = assemble(f".chip {chip}\n    {text}\n", chip=chip)
    return [canonical(i) for s in program.statements for i in s.hw]


def canonical(i) -> tuple:
    """An instruction by what it does: mnemonic, types, fields, operands by address/value."""
    def value(o):
        v = o.addr if o.kind == "mem" else o.value
        return v.tobytes() if isinstance(v, np.ndarray) else v
    return (i.defn.name, i.op, i.dtype and i.dtype.name, i.src_dtype and i.src_dtype.name,
            tuple(sorted(i.fields.items())),
            tuple(sorted((r, o.kind, value(o)) for r, o in i.operands.items())))


# -- C++: one source, a kernel per language ----------------------------------------------------
def cpp_call(row: Binding, form: str, t: str, src: str | None) -> str:
    c_api = row.language == "c_api"
    T, S = CPP[t], CPP[src or t]
    var = {t: f"v_{t}", **({src: f"v_{src}"} if src else {})}

    def op(k: int, ty: str) -> str:
        if c_api:  # pointer arithmetic counts bytes for int4b_t (two elements a byte)
            return f"{var[ty]} + {OFFSETS[k] // 2 if ty == 's4' else OFFSETS[k]}"
        return f"{var[ty]}[{OFFSETS[k]}]"

    if row.params:
        args = params_args(row, form, t, lambda k: op(k, t), {"mask": str(MASK), "bits": "bits"})
        return f"{row.name}({', '.join(args)});"
    shape = shape_of(row)
    ops = [op(0, t), op(1, src or t)] + ([op(2, src or t)] if shape in ("binary", "binary_cast")
                                          else [])
    if shape == "scalar":
        ops.append(f"static_cast<{T}>(2.0f)")
    if row.shape == "cast" and not c_api:
        ops.append("AscendC::RoundMode::CAST_NONE")
    if form == "count":
        return f"{row.name}({', '.join(ops)}, {N});"
    if c_api:
        return f"{row.name}({', '.join(ops)}, {REPEAT}, {STRIDES[shape]});"
    params = "rp" if shape in ("binary", "binary_cast") else "cp" if row.shape == "copy" else "up"
    mask = {"mask": str(MASK), "bits": "bits", "keep": str(MASK)}[form]
    tmpl = "" if form != "keep" else (f"<{T}, {S}, false>" if shape in ("cast", "binary_cast")
                                      else f"<{T}, false>")
    return f"{row.name}{tmpl}({', '.join(ops)}, {mask}, {REPEAT}, {params});"


def cpp_source(cases: list) -> tuple[str, dict[int, tuple]]:
    """The program, and per call line its (row, form, T, SRC)."""
    lines = ['#include "kernel_operator.h"', '#include "c_api/asc_simd.h"',
             "using namespace AscendC;"]
    where: dict[int, tuple] = {}
    for language in ("ascendc", "c_api"):
        lines.append(f"__global__ __aicore__ void k_{language}() {{")
        if language == "ascendc":
            lines += ["    AscendC::TPipe pipe;",
                      "    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;",
                      "    pipe.InitBuffer(buf, 32768);",
                      "    AscendC::BinaryRepeatParams rp;",
                      "    AscendC::UnaryRepeatParams up;",
                      "    AscendC::CopyRepeatParams cp;",
                      f"    uint64_t bits[2] = {{{LO:#x}ull, 0}};"]
            lines += [f"    auto v_{t} = buf.Get<{c}>();" for t, c in CPP.items()]
        else:
            lines += [f'    auto& v_{t} = pipev::ubuf_array<{c}[4096 + 512]>("v_{t}");'
                      for t, c in CPP.items()]
        for case in cases:
            if case[0].language == language:
                lines.append("    " + cpp_call(*case))
                where[len(lines)] = case
        lines.append("}")
    lines += ['extern "C" int run_all() {',
              *(f"    k_{lang}<<<1, nullptr, nullptr>>>();" for lang in ("ascendc", "c_api")),
              "    return 0;", "}", ""]
    return "\n".join(lines), where


def on_chip(row: Binding, chip) -> bool:
    """A C-API conversion exists on the chips whose profile converts its pair in its mode
    (the C API targets ascend910b, where every one does); a row of a statement the chip has
    no types or pairs for (#27: ascend950's Ands, AddReluCast on ascend910) does not."""
    if row.conv and shape_of(row) == "cast":
        return row.conv[2] in chip.conversions.get(f"{row.conv[0]}.{row.conv[1]}", ())
    if shape_of(row) in ("cast", "conv"):
        return True
    if row.shape in ("scalar_flex", "shift_tensor"):  # h27c: ascend950 only; their calls run
        return chip.flexible_scalar  # in tests/cli/test_flex_scalar_kernels.py
    return bool(chip.types.get(defn_of(row.statement).types, ()))


def cases_of(chip) -> list[tuple]:
    out = []
    for language in ("ascendc", "c_api", "tik"):
        for row in rows(language):
            if not on_chip(row, chip):
                continue
            t, src = types_of(row, chip)
            for form in forms_of(row):
                out.append((row, form, t, src))
    return out


def replay_text(stream) -> str:
    return stream.vasm_text()


def run_cpp(tmp: Path, chip_name: str, cases: list) -> tuple[dict[int, list], dict]:
    """Per source line, the instructions the C++ calls issued; (language, type) → the address
    of the UB tensor of that type."""
    chip = get_chip(chip_name)
    text, _ = cpp_source(cases)
    src = tmp / "bindings.cpp"
    src.write_text(text)
    build = compile_source(src, npu_arch=chip.npu_arch, env={"PIPEV_CACHE_DIR": str(tmp)})
    lib = ctypes.CDLL(str(build.shared_object))
    streams: list[Stream] = []

    def factory(*args, **kwargs):
        streams.append(Stream(*args, **kwargs))
        return streams[-1]

    session = Session(chip, source=str(src), checks="off", timing=False, stream_factory=factory)
    lib.pipev_set_bridge(ctypes.c_void_p(ctypes.addressof(session.struct)))
    assert lib.run_all() == 0 and not session.failed, session.diagnostics
    by_line: dict[int, list] = {}
    addrs = {}
    for language, stream in zip(("ascendc", "c_api"), streams, strict=True):
        program = assemble(stream.vasm_text(), chip=chip_name)
        for s in program.statements:
            for i in s.hw:
                by_line.setdefault(i.line, []).append(canonical(i))
        addrs.update({(language, t.dtype.name): t.addr for t in stream.tensors.values()
                      if t.space == "ub"})
    return by_line, addrs


# -- TIK -------------------------------------------------------------------------------------
def tik_call(row: Binding, form: str, t: str, src: str | None) -> str:
    if row.params:
        args = params_args(row, form, t, lambda k: f"v_{t}[{OFFSETS[k]}]",
                           {"mask": str(MASK), "bits": f"[0, {LO:#x}]"})
        return f"tik_instance.{row.name}({', '.join(args)})"
    mask = {"mask": str(MASK), "bits": f"[0, {LO:#x}]"}[form]
    d, a = f"v_{t}[{OFFSETS[0]}]", f"v_{src or t}[{OFFSETS[1]}]"
    shape = shape_of(row)
    reps = "8, 8, 8" if shape == "binary" else "8, 8"
    if row.shape.endswith("_blk"):  # the older names: block strides before the repeat ones
        reps = ("1, 1, 1, " if shape == "binary" else "1, 1, ") + reps
    if shape == "conv":
        return f'tik_instance.{row.name}({mask}, "none", {d}, {a}, {REPEAT}, {reps})'
    ops = [d, a] + ([f"v_{t}[{OFFSETS[2]}]"] if shape == "binary" else [])
    if shape == "scalar":
        ops.append("2.0" if t.startswith("f") else "2")
    return f"tik_instance.{row.name}({mask}, {', '.join(ops)}, {REPEAT}, {reps})"


def run_tik(tmp: Path, chip_name: str, cases: list, monkeypatch):
    lines = ["from tbe import tik", "tik_instance = tik.Tik()"]
    lines += [f'v_{t} = tik_instance.Tensor("{TIK[t]}", (8192,), name="v_{t}", '
              "scope=tik.scope_ubuf)" for t in TIK]
    where = {}
    for case in cases:
        if case[0].language == "tik":
            lines.append(tik_call(*case))
            where[len(lines)] = case
    lines.append('out = tik_instance.Tensor("float16", (16,), name="out", scope=tik.scope_gm)')
    lines.append('tik_instance.BuildCCE(kernel_name="k", inputs=[], outputs=[out])')
    path = tmp / "bindings_tik.py"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.syspath_prepend(SHIM)
    monkeypatch.setitem(tik_module.SETTINGS, "chip", chip_name)
    try:
        tik = runpy.run_path(str(path))["tik_instance"]
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
            del sys.modules[name]
    by_line: dict[int, list] = {}
    for s in tik.program.statements:
        for i in s.hw:
            if i.defn.level != "scalar":
                by_line.setdefault(i.line, []).append(canonical(i))
    return by_line, {("tik", t.t.name): t.addr for t in tik.tensors.values()}, where


# -- the test ---------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=CHIPS)
def runs(request, tmp_path_factory):
    chip_name = request.param
    cases = cases_of(get_chip(chip_name))
    tmp = tmp_path_factory.mktemp(chip_name)
    cpp, cpp_addr = run_cpp(tmp, chip_name, cases)
    with pytest.MonkeyPatch.context() as mp:
        tik, tik_addr, tik_where = run_tik(tmp, chip_name, cases, mp)
    return chip_name, cases, (cpp, cpp_addr, cpp_source(cases)[1]), (tik, tik_addr, tik_where)


SIZE = {"f16": 2, "s16": 2, "u16": 2, "f32": 4, "s32": 4, "s64": 8, "bf16": 2, "s8": 1,
        "u8": 1}


def check(chip: str, results: dict, addrs: dict, where: dict) -> int:
    """Each call's instructions against its statement's; returns how many calls."""
    for line, (row, form, t, src) in where.items():
        def addr(k: int, row=row, t=t, src=src) -> int:
            ty = src if (k >= 1 and src) else t  # a binary_cast's sources are both SRC
            offset = OFFSETS[k] // 2 if ty == "s4" else OFFSETS[k] * SIZE[ty]  # s4: 2 a byte
            return addrs[(row.language, ty)] + offset

        text = statement(row, form, t, src, addr)
        assert results.get(line) == decoded(chip, text), (row, form, text)
    return len(where)


def test_every_binding_issues_its_vasm_statement(runs):
    chip, cases, (cpp, cpp_addr, cpp_where), (tik, tik_addr, tik_where) = runs
    # every row the chip has, in every form of its language; on ascend910b every row
    assert {c[0] for c in cases} == {r for r in ROWS if on_chip(r, get_chip(chip))}
    assert chip != "ascend910b" or {c[0] for c in cases} == {
        r for r in ROWS if r.statement not in ELSEWHERE and
        r.shape not in ("scalar_flex", "shift_tensor")}
    checked = check(chip, cpp, cpp_addr, cpp_where) + check(chip, tik, tik_addr, tik_where)
    assert checked == len(cases)


def test_a_row_added_at_run_time_is_callable_from_cpp_and_tik(tmp_path, monkeypatch):
    """A made-up binding (a second name for `max`) in each language: no header edited."""
    added = [Binding("ascendc", "MaxAgain", "max", "binary"),
             Binding("c_api", "asc_max_again", "max", "binary"),
             Binding("tik", "vec_max_again", "max", "binary")]
    with ROWS.added(*added):
        cases = [(row, form, "f16", None) for row in added for form in FORMS[row.language]]
        cpp, cpp_addr = run_cpp(tmp_path, "ascend910b", cases)
        tik, tik_addr, tik_where = run_tik(tmp_path, "ascend910b", cases, monkeypatch)
    assert not {r.name for r in ROWS} & {r.name for r in added}
    assert check("ascend910b", cpp, cpp_addr, cpp_source(cases)[1]) + \
        check("ascend910b", tik, tik_addr, tik_where) == len(cases)
