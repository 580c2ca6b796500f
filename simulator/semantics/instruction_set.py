"""An instruction set a run executes: the table the assembler reads (isa.table.Table) plus the
semantics of each family in it. It is an object handed to a run (`pipev.run(isa=…)`, `Stream`,
`assemble`), never a registry a module keeps: `extended` builds a new set, and every set stays as
it was built. `BUILTIN` (simulator/semantics/__init__.py) holds pipev's own instructions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from isa.table import InstrDef, Key, Table
from simulator.semantics.vector import issue as vector_issue

Issue = Callable  # issue(context, instr) -> Issued (simulator/semantics/context.py)
Body = Callable  # body(machine, vop, scalar, lo, hi): repeats [lo, hi) of a vector family
Prepare = Callable  # prepare(vop, ub_bytes) -> a body for that decoding, or None


class InstructionSet(Table):
    """The rows of a Table, and by family name: `issue`, the semantics every hardware family
    has; `bodies`, the body of each repeat-driven vector family (issued by the one vector
    path, semantics/vector.py); `prepare`, a vector family's body specialised to a decoding
    (optional: the family's body is the fallback). The maps are read-only by convention (plain
    dicts: the executor reads `issue` once an instruction)."""

    __slots__ = ("issue", "bodies", "prepare")

    def __init__(self, instructions: Mapping[str, InstrDef],
                 typed_forms: Mapping[str, InstrDef], keys: Mapping[str, Key], *,
                 issue: Mapping[str, Issue], bodies: Mapping[str, Body],
                 prepare: Mapping[str, Prepare]):
        super().__init__(instructions, typed_forms, keys)
        self.bodies = dict(bodies)
        self.prepare = {k: v for k, v in prepare.items() if k in self.bodies}
        self.issue = {**issue, **dict.fromkeys(self.bodies, vector_issue)}
        missing = [f"{d.name} (family {d.family.name})" for d in self.all_defs()
                   if d.level != "api" and d.family.name not in self.issue]
        if missing:
            raise ValueError(f"no semantics for {', '.join(missing)}: give the family an "
                             "issue function (semantics=) or a vector body (vector=)")

    def extended(self, *defs: InstrDef, keys: Iterable[Key] = (),
                 semantics: Mapping[str, Issue] | None = None,
                 vector: Mapping[str, Body] | None = None) -> InstructionSet:
        """This set plus the table rows DEFS, the keyword fields KEYS they name beyond this
        set's, and their families' semantics: SEMANTICS maps a family name to
        issue(context, instr) -> Issued, VECTOR a repeat-driven vector family's name to its
        body(machine, vop, scalar, lo, hi). A family given again replaces this set's (its
        prepared body dropped: it would bypass the new body)."""
        vector = dict(vector or {})
        semantics = dict(semantics or {})
        bodies = {k: v for k, v in {**self.bodies, **vector}.items() if k not in semantics}
        issue = {k: v for k, v in self.issue.items() if k not in vector}
        prepare = {k: v for k, v in self.prepare.items() if k not in vector}
        return InstructionSet(*self._extended_parts(defs, keys), issue={**issue, **semantics},
                              bodies=bodies, prepare=prepare)
