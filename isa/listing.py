"""The listing (`pipev asm`): every source line, its hardware instructions and their micro-ops.

Micro-ops depend on MASK and the mask mode at issue; the listing follows them through
straight-line code in program order (set_vector_mask / set_mask_count / set_mask_norm with
constant operands). Values only known at run time (registers, the CMPMASK address of vsel mode 2)
are shown symbolically.
"""

from __future__ import annotations

from typing import Any

from isa.api import contiguous_mask
from isa.decode import decode_vector
from isa.program import Instruction, Program, RegExpr
from isa.table import INSTRUCTIONS

ONES = (1 << 64) - 1
# repeat-driven vector instructions are the hardware ones with block/repeat strides
VECTOR_FAMILIES = frozenset(d.family for d in INSTRUCTIONS.values()
                            if d.level == "hw" and d.strides)
MAX_UOPS_SHOWN = 8


class _State:
    def __init__(self) -> None:
        self.mask: tuple[Any, Any] = (ONES, ONES)
        self.counter = False

    def apply(self, h: Instruction) -> None:
        if h.name == "set_vector_mask":
            self.mask = (h.operands["hi"].value, h.operands["lo"].value)
        elif h.name == "set_mask_count":
            self.counter = True
        elif h.name == "set_mask_norm":
            self.counter = False
        elif h.name == "set_mask" and isinstance(h.operands["len"].value, int):
            n = h.operands["len"].value
            self.mask = (0, n) if self.counter else contiguous_mask(n, h.dtype)
        elif h.name == "set_mask":  # set_mask.T xN: MASK known only at run time
            self.mask = (h.operands["len"].value, h.operands["len"].value)


def uop_lines(h: Instruction, state: _State) -> list[dict]:
    """The micro-ops of one hardware instruction as dicts (addresses in hex, active bits)."""
    if h.defn.family not in VECTOR_FAMILIES:
        return []
    if not h.is_static or any(isinstance(v, RegExpr) for v in state.mask):
        return [{"note": "decoded at run time (register operands or MASK)"}]
    addrs = {r: o.addr for r, o in h.operands.items() if o.kind == "mem"}
    if h.name == "vsel" and h.fields.get("mode", 0) == 2:
        addrs["sel"] = None
    if addrs.get("sel", 0) is None:
        addrs.pop("sel")
    vop = decode_vector(h, addrs, h.fields, state.mask, bool(state.counter))
    out = []
    for u in vop.uops():
        if u.index >= MAX_UOPS_SHOWN and u.index != vop.repeats - 1:
            if u.index == MAX_UOPS_SHOWN:
                out.append({"note": f"... {vop.repeats - MAX_UOPS_SHOWN - 1} more repeats"})
            continue
        d = {"repeat": u.index, "active": f"{u.active:#0{vop.n // 4 + 2}x}",
             "rows": {r: [f"{a:#x}" for a in rows] for r, rows in u.rows.items()}}
        if h.name == "vsel" and h.fields.get("mode", 0) == 2:
            d["sel"] = "address from CMPMASK[31:0]"
        out.append(d)
    if not out:
        out.append({"note": "no repeats (no-op)"})
    return out


def listing(program: Program) -> list[dict]:
    """Statements with their hardware instructions and micro-ops, as plain data."""
    state = _State()
    out = []
    for s in program.statements:
        hw = []
        for h in s.hw:
            entry = {"text": h.text, "pipe": _pipe(h), "uops": uop_lines(h, state)}
            if h.name in ("vcmpv", "vcmpvs") and (h.fields.get("dst_blk", 1) != 1 or
                                                  h.fields.get("dst_rep", 8) != 8):
                entry["note"] = "dst strides are ignored: the output is contiguous"
            hw.append(entry)
            state.apply(h)
        out.append({"pc": s.pc, "line": s.line, "source": s.source,
                    "api": s.defn.level == "api", "hw": hw})
    return out


def _pipe(h: Instruction) -> str:
    if h.defn.pipe != "flag":
        return h.defn.pipe
    o = h.operands
    if h.name == "set_flag":
        return o["src"].value
    if h.name == "wait_flag":
        return o["dst"].value
    return "S" if o["pipe"].value == "ALL" else o["pipe"].value


def format_listing(program: Program) -> str:
    lines = [f"; {program.path} on {program.chip.name}"]
    for s in listing(program):
        lines.append(f"{s['line']:>5} {s['pc']:>4}  {s['source']}")
        for h in s["hw"]:
            if s["api"] or len(s["hw"]) > 1:
                lines.append(f"{'':>12}-> {h['text']:<52} [{h['pipe']}]")
            else:
                lines[-1] = f"{lines[-1]:<70} [{h['pipe']}]"
            if "note" in h:
                lines.append(f"{'':>16}; {h['note']}")
            for u in h["uops"]:
                if "note" in u:
                    lines.append(f"{'':>16}; {u['note']}")
                    continue
                rows = "  ".join(f"{r}={_rows(v)}" for r, v in u["rows"].items())
                lines.append(f"{'':>16}r{u['repeat']:<3} active={u['active']}  {rows}")
    return "\n".join(lines)


def _rows(rows: list[str]) -> str:
    if not rows:
        return "-"
    if len(rows) <= 3:
        return ",".join(rows)
    return f"{rows[0]}..{rows[-1]}({len(rows)} rows)"


__all__ = ["listing", "format_listing", "INSTRUCTIONS"]
