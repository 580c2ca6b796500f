"""The DTYPE_<NAME> macros of an msopgen operator project, from its OpDef.

The vendor's build compiles an operator's `op_kernel` once per data-type combination of its
definition (`op_host/NAME.cpp`: `this->Input("x").DataType({ge::DT_FLOAT16, ...})`, the k-th
entry of every input and output making the k-th binary) and defines, for each input and
output, `DTYPE_X` (the element type: `half`) and `ORIG_DTYPE_X` (its data type code's name:
`DT_FLOAT16`, which kernels test in `#if ORIG_DTYPE_X == DT_FLOAT16`; the codes are
pipev/data_types.h's macros). A program that compiles the kernel file itself — a host main that
`#include`s `op_kernel/NAME.cpp`, or the file given with `--kernel` — gets the first
combination's macros, unless it defines that macro itself (`-D DTYPE_X=float` chooses another,
and its `ORIG_DTYPE_X` follows; docs/ascendc.md, "A custom-operator project").
"""

from __future__ import annotations

import re
from pathlib import Path

from simulator.ascendc.includes import QUOTED_INCLUDE

# one input or output of the definition: its name and its chain of calls up to the statement's end
_PARAM = re.compile(r'\bthis\s*->\s*(?:Input|Output)\s*\(\s*"(?P<name>[^"]+)"\s*\)(?P<chain>[^;]*)')
_TYPES = re.compile(r'\.\s*DataType(?:List)?\s*\(\s*\{(?P<list>[^}]*)\}')
_DT = re.compile(r"\bDT_[A-Z0-9_]+\b")
C_TYPES = {"DT_FLOAT16": "half", "DT_FLOAT": "float", "DT_BF16": "bfloat16_t",
           "DT_DOUBLE": "double", "DT_INT8": "int8_t", "DT_UINT8": "uint8_t",
           "DT_INT16": "int16_t", "DT_UINT16": "uint16_t", "DT_INT32": "int32_t",
           "DT_UINT32": "uint32_t", "DT_INT64": "int64_t", "DT_UINT64": "uint64_t",
           "DT_BOOL": "bool"}
CODES = {c_type: code for code, c_type in C_TYPES.items()}  # an element type's code name


def dtype_defines(units: list[tuple[Path, str]], includes: tuple[str, ...],
                  given: tuple[str, ...]) -> tuple[str, ...]:
    """The DTYPE_ / ORIG_DTYPE_ macros (NAME=VALUE) of the operator projects whose op_kernel
    files UNITS (each a path and its text) are or `#include`, for those not among GIVEN; one of
    a pair the user gave decides the other (`DTYPE_X=float` makes `ORIG_DTYPE_X=DT_FLOAT`)."""
    taken = dict(d.split("=", 1) if "=" in d else (d, "") for d in given)
    out: dict[str, str] = {}
    for project in _projects(units, includes):
        for name, code in first_combination(project).items():
            c_type, orig = f"DTYPE_{name}", f"ORIG_DTYPE_{name}"
            if c_type in taken:  # the user's type: its code, when it has one
                code = CODES.get(taken[c_type].strip())
            elif orig in taken:
                code = taken[orig].strip()
            if code is None or code not in C_TYPES:
                continue
            for macro, value in ((c_type, C_TYPES[code]), (orig, code)):
                if macro not in taken:
                    out.setdefault(macro, value)
    return tuple(f"{k}={v}" for k, v in out.items())


def _projects(units: list[tuple[Path, str]], includes: tuple[str, ...]) -> list[Path]:
    """The op_host folders beside the op_kernel folder of each unit or of a file it includes."""
    kernels = []
    for path, text in units:
        kernels.append(path)
        for m in QUOTED_INCLUDE.finditer(text):
            for base in (path.parent, *map(Path, includes)):
                cand = base / m.group("name")
                if cand.is_file():
                    kernels.append(cand)
                    break
    found: list[Path] = []
    for k in kernels:
        k = k.resolve()
        host = k.parent.parent / "op_host"
        if k.parent.name == "op_kernel" and host.is_dir() and host not in found:
            found.append(host)
    return found


def first_combination(host: Path) -> dict[str, str]:
    """NAME (upper case) -> the data type code's name (`DT_FLOAT16`) of the first entry of its
    DataType list, for every input and output an OpDef in HOST's .cpp files declares with a
    list of known types."""
    out: dict[str, str] = {}
    for src in sorted(host.glob("*.cpp")):
        try:
            text = src.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "OpDef" not in text:
            continue
        for m in _PARAM.finditer(_without_comments(text)):
            types = _TYPES.search(m.group("chain"))
            first = _DT.search(types.group("list")) if types else None
            if first is not None and first.group() in C_TYPES:
                out.setdefault(m.group("name").upper(), first.group())
    return out


def _without_comments(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
