"""The listing (`pipev asm`): every source line, its hardware instructions and their micro-ops.

Micro-ops depend on MASK and the mask mode at issue; the listing follows them through
straight-line code in program order (set_vector_mask / set_mask_count / set_mask_norm with
constant operands). Values only known at run time (registers, the CMPMASK address of vsel mode 2)
are shown symbolically.
"""

from __future__ import annotations

from typing import Any

from isa.decode import decode_vector
from isa.families import REGISTER, VECTOR
from isa.masks import MaskError, mask_after
from isa.program import Instruction, Program, RegExpr
from isa.table import INSTRUCTIONS, KEYS

ONES = (1 << 64) - 1
MAX_UOPS_SHOWN = 8


class _State:
    """MASK and the mask mode through straight-line code, by the semantics' own rules."""

    def __init__(self) -> None:
        self.mask: tuple[Any, Any] = (ONES, ONES)
        self.counter = False

    def apply(self, h: Instruction) -> None:
        if h.defn.family.kind != REGISTER:
            return
        try:
            self.mask, self.counter = mask_after(h, self.mask, self.counter,
                                                 lambda role: h.operands[role].value)
        except MaskError:
            pass  # the run reports it


def uop_lines(h: Instruction, state: _State) -> list[dict]:
    """The micro-ops of one hardware instruction as dicts (addresses in hex, active bits)."""
    fam = h.defn.family
    if fam.kind != VECTOR:
        return []
    if not h.is_static or any(isinstance(v, RegExpr) for v in state.mask):
        return [{"note": "decoded at run time (register operands or MASK)"}]
    addrs = {r: o.addr for r, o in h.operands.items() if o.kind == "mem"}
    from_cmpmask = fam.cmpmask_addr(h.fields)  # vsel mode 2: the mask address is run-time data
    vop = decode_vector(h, addrs, h.fields, state.mask, bool(state.counter))
    if vop.repeats > KEYS["repeat"].hi:  # a counter-mode count too large: no micro-ops to show
        return [{"note": f"counter mode count {state.mask[1] & 0xFFFFFFFF} needs {vop.repeats} "
                 f"repeats of {vop.n} elements (at most {KEYS['repeat'].hi}: the run rejects "
                 "it)"}]
    out = []
    for u in vop.uops():
        if u.index >= MAX_UOPS_SHOWN and u.index != vop.repeats - 1:
            if u.index == MAX_UOPS_SHOWN:
                out.append({"note": f"... {vop.repeats - MAX_UOPS_SHOWN - 1} more repeats"})
            continue
        d = {"repeat": u.index, "active": f"{u.active:#0{vop.n // 4 + 2}x}",
             "rows": {r: [f"{a:#x}" for a in rows] for r, rows in u.rows.items()}}
        if from_cmpmask:
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
            entry = {"text": h.text, "pipe": h.defn.family.issuing_pipe(h),
                     "uops": uop_lines(h, state)}
            if h.defn.family.bit_output and (h.fields.get("dst_blk", 1) != 1 or
                                             h.fields.get("dst_rep", 8) != 8):
                entry["note"] = "dst strides are ignored: the output is contiguous"
            hw.append(entry)
            state.apply(h)
        out.append({"pc": s.pc, "line": s.line, "source": s.source,
                    "api": s.defn.level == "api", "hw": hw})
    return out


def format_listing(program: Program) -> str:
    lines = [f"; {program.path} on {program.chip.name}"]
    for s in listing(program):
        lines.append(f"{s['line']:>5} {s['pc']:>4}  {s['source']}")
        for h in hardware_lines(lines, s, 70):
            if "note" in h:
                lines.append(f"{'':>16}; {h['note']}")
            for u in h["uops"]:
                if "note" in u:
                    lines.append(f"{'':>16}; {u['note']}")
                    continue
                rows = "  ".join(f"{r}={_rows(v)}" for r, v in u["rows"].items())
                lines.append(f"{'':>16}r{u['repeat']:<3} active={u['active']}  {rows}")
    return "\n".join(lines)


def hardware_lines(lines: list[str], statement: dict, width: int):
    """Each hardware instruction of a listed STATEMENT, after placing it in LINES: on a line of
    its own under an API statement (or one of several), else its pipe after the statement's
    line padded to WIDTH. A listing of .vasm and of C++ call sites share it."""
    hw = statement["hw"]
    for h in hw:
        if statement["api"] or len(hw) > 1:
            lines.append(f"{'':>12}-> {h['text']:<52} [{h['pipe']}]")
        else:
            lines[-1] = f"{lines[-1]:<{width}} [{h['pipe']}]"
        yield h


def _rows(rows: list[str]) -> str:
    if not rows:
        return "-"
    if len(rows) <= 3:
        return ",".join(rows)
    return f"{rows[0]}..{rows[-1]}({len(rows)} rows)"


__all__ = ["listing", "format_listing", "hardware_lines", "INSTRUCTIONS"]
