"""The default trace: one JSON object per line (docs/format.md §11, `jsonl`).

Lines are formatted by hand around cached per-instruction prefixes: `json.dumps` of a fresh dict
per event would cost more than executing a one-repeat instruction.
"""

from __future__ import annotations

import json

from isa.decode import VectorOp
from isa.diagnostics import Diagnostic
from isa.families import SET_FLAG
from isa.program import Instruction
from simulator.events import Event
from simulator.instr_timing import InstrTiming
from simulator.trace.base import (
    SEP,
    TraceWriter,
    active_bits,
    jstr,
    repeat_rows,
    repeat_timing,
)

VERSION = 1
PREFIXES = 1 << 12  # instructions whose line prefixes are kept (~300 bytes each)


class JsonlWriter(TraceWriter):
    def __init__(self, path, chip, name, timed, cores=1):
        self._cm_digits = chip.cmpmask_bits // 4
        self._prefix: dict[Instruction, tuple[str, str]] = {}  # constant parts of its lines
        super().__init__(path, chip, name, timed, cores)

    def header(self) -> None:
        head = {"format": "pipev-trace", "version": VERSION, "chip": self.chip.name,
                "freq_mhz": self.freq_mhz, "program": self.name}
        self.f.write(json.dumps(head, separators=SEP) + "\n")

    def _prefixes(self, instr: Instruction) -> tuple[str, str]:
        """The constant parts of this instruction's `instr` and `repeat` lines."""
        hit = self._prefix.get(instr)
        if hit is None:
            if len(self._prefix) > PREFIXES:  # a loop body hits; straight-line code only
                self._prefix.clear()  # churns, so a long program keeps few of its lines
            loc = f'"pc":{instr.pc},"line":{instr.line}'
            if instr.file:  # a streamed or .loc statement: the producer's file
                loc += f',"file":{jstr(instr.file)}'
            hit = self._prefix[instr] = (f'{{"ev":"instr",{loc},"text":{jstr(instr.text)}',
                                         f'{{"ev":"repeat",{loc}')
        return hit

    def event(self, ev: Event, t: InstrTiming) -> None:
        pre, rep = self._prefixes(ev.instr)
        if self.cores > 1:  # a launch of several cores: every line says which
            core = f',"core":{ev.core}'
            pre, rep = pre + core, rep + core
        vop = ev.vop
        uops = vop.repeats if vop is not None else 1
        out = [f'{pre},"pipe":"{ev.pipe}","issue":{t.issue},"start":{t.start},"end":{t.end},'
               f'"uops":{uops}}}\n']
        if vop is not None and vop.repeats:
            out.extend(self._repeats(ev, t, rep))
        if ev.flag is not None:
            src, dst, eid = ev.flag
            if ev.kind == SET_FLAG:
                op, cycle = "set", t.fire if t.fire is not None else t.end
            else:
                op, cycle = "wait", t.start + t.wait_flag
            out.append(f'{{"ev":"flag","op":"{op}","src":"{src}","dst":"{dst}","id":{eid},'
                       f'"pc":{ev.instr.pc},"line":{ev.instr.line},'
                       + (f'"core":{ev.core},' if self.cores > 1 else "")
                       + f'"cycle":{cycle}}}\n')
        self.f.write("".join(out))

    def _repeats(self, ev: Event, t: InstrTiming, rep: str) -> list[str]:
        hi, lo = ev.mask
        common = (f'"mask":["0x{hi:016x}","0x{lo:016x}"],'
                  f'"mask_mode":"{"count" if ev.counter else "norm"}",'
                  f'"cmpmask":"0x{ev.cmpmask:0{self._cm_digits}x}"}}\n')
        reps = t.repeats
        out = []
        for i, fields in enumerate(self._uop_fields(ev.vop)):
            r = reps[i] if i < len(reps) and reps[i].index == i else repeat_timing(t, i)
            out.append(f'{rep},"repeat":{i},"start":{r.start},"end":{r.end},'
                       f'"bank_beats":{r.bank_beats},{fields},{common}')
        return out

    def _uop_fields(self, vop: VectorOp) -> list[str]:
        """Per repeat, the `addr` and `active` fields, computed once per decoding."""
        return vop.derived("jsonl_uops", _uop_fields)


    def finish(self, summary: dict) -> None:
        self.f.write(json.dumps({"ev": "summary", **summary}, separators=SEP) + "\n")

    def error(self, diagnostic: Diagnostic, pc: int | None) -> None:
        core = {"core": self.core} if self.cores > 1 else {}
        self.f.write(json.dumps({"ev": "error", **core, "message": diagnostic.message, "pc": pc,
                                 "line": diagnostic.line, "col": diagnostic.column,
                                 "diagnostic": str(diagnostic)}, separators=SEP) + "\n")


def _uop_fields(vop: VectorOp) -> list[str]:
    digits = vop.n // 4
    fields = []
    for rows, bits in zip(repeat_rows(vop), active_bits(vop), strict=True):
        addr = ",".join(f'"{role}":[{",".join(map(str, a))}]' for role, a in rows.items())
        fields.append(f'"addr":{{{addr}}},"active":"0x{bits:0{digits}x}"')
    return fields
