"""The default trace: one JSON object per line (ISA.md §11, `jsonl`).

Lines are formatted by hand around cached per-instruction prefixes: `json.dumps` of a fresh dict
per event would cost more than executing a one-repeat instruction.
"""

from __future__ import annotations

import json

from isa.decode import VectorOp
from isa.diagnostics import Diagnostic
from isa.program import Instruction
from simulator.events import Event
from simulator.memo import IdentityMemo
from simulator.timing.records import InstrTiming
from simulator.trace.base import (
    SEP,
    TraceWriter,
    active_bits,
    jstr,
    repeat_rows,
    repeat_timing,
)

VERSION = 1


class JsonlWriter(TraceWriter):
    def __init__(self, path, program, model):
        self._cm_digits = program.chip.cmpmask_bits // 4
        self._prefix = IdentityMemo()  # instruction -> constant parts of its lines
        self._uops = IdentityMemo()  # decoding -> per-repeat addr/active fields
        super().__init__(path, program, model)

    def header(self) -> None:
        head = {"format": "pipev-trace", "version": VERSION, "chip": self.chip.name,
                "freq_mhz": self.freq_mhz, "program": self.program.path}
        self.f.write(json.dumps(head, separators=SEP) + "\n")

    def _prefixes(self, instr: Instruction) -> tuple[str, str]:
        """The constant parts of this instruction's `instr` and `repeat` lines."""
        hit = self._prefix.get((id(instr),))
        if hit is not None:
            return hit
        loc = f'"pc":{instr.pc},"line":{instr.line}'
        pre = f'{{"ev":"instr",{loc},"text":{jstr(instr.text)}'
        rep = f'{{"ev":"repeat",{loc}'
        return self._prefix.put((id(instr),), (pre, rep), (instr,))

    def event(self, ev: Event, t: InstrTiming) -> None:
        pre, rep = self._prefixes(ev.instr)
        vop = ev.vop
        uops = vop.repeats if vop is not None else 1
        out = [f'{pre},"pipe":"{ev.pipe}","issue":{t.issue},"start":{t.start},"end":{t.end},'
               f'"uops":{uops}}}\n']
        if vop is not None and vop.repeats:
            out.extend(self._repeats(ev, t, rep))
        if ev.flag is not None:
            src, dst, eid = ev.flag
            if ev.instr.name == "set_flag":
                op, cycle = "set", t.fire if t.fire is not None else t.end
            else:
                op, cycle = "wait", t.start + t.wait_flag
            out.append(f'{{"ev":"flag","op":"{op}","src":"{src}","dst":"{dst}","id":{eid},'
                       f'"pc":{ev.instr.pc},"line":{ev.instr.line},"cycle":{cycle}}}\n')
        self.f.write("".join(out))

    def _repeats(self, ev: Event, t: InstrTiming, rep: str) -> list[str]:
        hi, lo = ev.mask
        common = (f'"mask":["0x{hi:016x}","0x{lo:016x}"],'
                  f'"mask_mode":"{"count" if ev.counter else "norm"}",'
                  f'"cmpmask":"0x{self.executor.m.cmpmask_int():0{self._cm_digits}x}"}}\n')
        reps = t.repeats
        out = []
        for i, fields in enumerate(self._uop_fields(ev.vop)):
            r = reps[i] if i < len(reps) and reps[i].index == i else repeat_timing(t, i)
            out.append(f'{rep},"repeat":{i},"start":{r.start},"end":{r.end},'
                       f'"bank_beats":{r.bank_beats},{fields},{common}')
        return out

    def _uop_fields(self, vop: VectorOp) -> list[str]:
        """Per repeat, the `addr` and `active` fields. They depend only on the operands' access
        patterns and the active row, objects the executor shares between executions of the same
        text under the same MASK and CTRL; cached on their identity."""
        key = (id(vop.operands), id(vop.row), vop.repeats, vop.last, vop.n)
        hit = self._uops.get(key)
        if hit is not None:
            return hit
        digits = vop.n // 4
        fields = []
        for rows, bits in zip(repeat_rows(vop), active_bits(vop), strict=True):
            addr = ",".join(f'"{role}":[{",".join(map(str, a))}]' for role, a in rows.items())
            fields.append(f'"addr":{{{addr}}},"active":"0x{bits:0{digits}x}"')
        return self._uops.put(key, fields, (vop.operands, vop.row))

    def finish(self, summary: dict) -> None:
        self.f.write(json.dumps({"ev": "summary", **summary}, separators=SEP) + "\n")

    def error(self, diagnostic: Diagnostic, pc: int | None) -> None:
        self.f.write(json.dumps({"ev": "error", "message": diagnostic.message, "pc": pc,
                                 "line": diagnostic.line, "col": diagnostic.column,
                                 "diagnostic": str(diagnostic)}, separators=SEP) + "\n")
