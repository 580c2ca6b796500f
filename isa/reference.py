"""The ISA reference, generated from the instruction table and the chip profiles.

`pipev isa [MNEMONIC]` prints it; `python -m isa.reference > docs/isa.md` regenerates the checked-in
copy (a test fails when that copy is stale).
"""

from __future__ import annotations

import sys

from isa.chip import chip_names, get_chip
from isa.families import SYNC_KINDS
from isa.table import COMPARE_OPS, KEYS, InstrDef, all_defs

KIND_TEXT = {
    "vec": "UB vector operand (NAME, NAME[I] or @ADDR; 32-byte aligned)",
    "elemaddr": "UB address a gather reads from, plus its offsets (NAME, NAME[I] or @ADDR; "
    "aligned to the element size)",
    "bits": "UB bit mask (unsigned tensor or @ADDR; 32-byte aligned)",
    "cmpaddr": "UB address, 16-byte aligned",
    "ub": "UB operand (32-byte aligned)", "gm": "GM tensor NAME or NAME[I]",
    "scalar": "scalar immediate of type T",
    "value": "integer or register xN", "pipe": "pipe S, V, MTE2 or MTE3",
    "bpipe": "V, MTE2, MTE3 or ALL", "event": "event id", "mutex": "mutex id 0..31",
    "xreg": "register x0..x31 (a source may be block_idx or block_num)",
    "xsrc": "register or immediate", "imm": "64-bit immediate",
    "text": "text in double quotes", "label": "label",
    "elem": "UB tensor element NAME[I]",
    "vec_or_cmpmask": "UB bit destination, or the word cmpmask",
    "scalar_or_vec": "UB vector operand, or (mode 1) a scalar",
    "deqsrc": "register or 64-bit immediate, or a UB address NAME[I] / @ADDR (32-byte aligned: "
    "the vdeq table)",
}


def syntax(d: InstrDef) -> str:
    head = d.name + (".OP" if d.has_op else "") + (
        ".DST.SRC" if d.src_typed else ".T" if d.typed else "")
    ops = ", ".join(role.upper() for role, _ in d.operands)
    keys = [f"{k}=" for k in d.keys]
    if d.strides:
        keys.append("stride=" + ",".join(d.stride_names))
    tail = "".join(f" [, {k}]" for k in keys)
    return f"{head} {ops}{tail}".strip()


def _conversions_per_chip() -> list[str]:
    rows = []
    for name in chip_names():
        conv = get_chip(name).conversions
        pairs = "; ".join(f"{p} ({' '.join(m)})" for p, m in conv.items())
        rows.append(f"  - {name}: {pairs or 'none'}")
    return rows


def _types_per_chip(d: InstrDef) -> list[str]:
    if not d.types:
        return []
    if d.src_typed and d.types == "conv":
        return _conversions_per_chip()
    rows = []
    for name in chip_names():
        c = get_chip(name)
        types = c.types.get(d.types, ())
        note = ""
        if d.has_op and c.types.get("compare_eq_only"):
            note = f" ({', '.join(c.types['compare_eq_only'])}: eq only)"
        only = [t for t in types if t in c.types.get("api_count_only", ())]
        if d.level == "api" and only:
            note += f" ({', '.join(only)}: count= only)"
        rows.append(f"  - {name}: {', '.join(types) or 'none'}{note}")
    return rows


def _key_line(d: InstrDef, k: str) -> str:
    spec = KEYS[k]
    hi = spec.hi
    if d.strides and k.endswith(("_blk", "_rep")):
        hi = d.stride_layout.blk_max if k.endswith("_blk") else max(spec.hi,
                                                                     d.stride_layout.rep_max)
    default = "" if spec.default is None or d.level == "api" else f", default {spec.default}"
    reg = ", register allowed" if spec.register else ""
    if spec.words:
        return f"  - `{k}`: {spec.doc}, default {spec.words[spec.default or 0]}"
    if spec.scalar:
        return f"  - `{k}`: {spec.doc}"
    doc = spec.doc
    if d.family.byte_bursts and k.endswith("_gap"):
        gm = (k == "src_gap") == (d.operands[1][1] == "gm")
        doc = "gap between bursts in " + ("bytes (GM side)" if gm else "32-byte blocks (UB side)")
    return f"  - `{k}`: {doc}, {spec.lo}..{hi}{default}{reg}"


def entry(d: InstrDef) -> str:
    lines = [f"### `{d.name}`", "", d.doc + ".", "", f"- syntax: `{syntax(d)}`",
             f"- level: {d.level}; pipe: "
             f"{d.pipe if d.family.kind not in SYNC_KINDS else 'named by operand'}"
             + (f"; cost class: `{d.family.cost}`" if d.family.cost else "")]
    if d.has_op:
        lines.append(f"- OP: {' '.join(COMPARE_OPS)} (src0 OP src1)")
    if d.operands:
        lines.append("- operands:")
        lines += [f"  - {role.upper()}: {KIND_TEXT.get(kind, kind)}" for role, kind in d.operands]
    keys = list(d.keys)
    if keys or d.strides:
        lines.append("- keyword fields:")
        lines += [_key_line(d, k) for k in keys]
        if d.strides and d.src_typed:
            lines.append(f"  - `stride=`{','.join(d.stride_names)} (default contiguous: block "
                         "stride 1, repeat stride the blocks each operand covers, 8 for the "
                         "wider type and 8·size/wider size for the other); single overrides "
                         f"`{'=`, `'.join(d.stride_names)}=`")
        elif d.strides:
            default = ",".join(map(str, d.stride_default))
            lines.append(f"  - `stride=`{','.join(d.stride_names)} (default {default}); single "
                         f"overrides `{'=`, `'.join(d.stride_names)}=`")
    types = _types_per_chip(d)
    if types and d.src_typed and d.types == "conv":
        lines.append("- DST.SRC pairs (round modes) per chip, from the vendor's AscendC Cast "
                     "pages (hiascend.com …/ascendcopapi/atlasascendc_api_07_0073.html):")
        lines += types
    elif types:  # a two-type composite's list is of DST.SRC pairs (#27)
        lines.append("- DST.SRC pairs per chip:" if d.src_typed else "- types per chip:")
        lines += types
    return "\n".join(lines) + "\n"


def document() -> str:
    parts = ["# pipev ISA reference", "",
             "Generated from `isa/table.py` and the chip profiles by `python -m isa.reference`; "
             "do not edit by hand. The semantics are specified in [semantics.md](semantics.md); "
             "`pipev isa MNEMONIC` prints one entry.", ""]
    for level, title in (("hw", "Hardware-level instructions"), ("api", "API-level instructions"),
                         ("scalar", "Scalar unit")):
        parts += [f"## {title}", ""]
        parts += [entry(d) for d in all_defs() if d.level == level]
    return "\n".join(parts)


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(document())
