"""The reference loop: fetch, issue, take effect, notify (docs/machine.md §5–§7, §9).

Instructions come from a source — an assembled program (sources.ProgramSource) or a stream fed
one statement at a time (stream.Stream) — and take effect in order. Each family's semantics
decode and check an instruction (simulator/semantics); the policy turns problems into errors or
warnings; the body takes effect, all repeats of a vector instruction as one numpy operation
unless the overlap rule (or an observer that wants repeats) demands them one by one. Then the
timing stage times the event and the observers see it; with nobody listening no event is built.
Every instruction of every run can take this loop; the fast loop (simulator/fused.py), which the
run builder chooses when every observer offers a plan, repeats instructions this loop issued
through the same bodies and the observers' own plans.
"""

from __future__ import annotations

from collections.abc import Sequence

from isa.diagnostics import Diagnostic
from isa.program import Body, Instruction, RegExpr
from simulator.decodings import Decodings
from simulator.events import Event, Observer, RunInfo
from simulator.machine import Machine
from simulator.policy import Policy
from simulator.problems import Fault, Problem
from simulator.runaway import NEVER, LoopProbe
from simulator.semantics import BUILTIN, InstructionSet
from simulator.semantics.issued import Issued


class Executor:
    def __init__(self, machine: Machine, source, checks: str = "error",
                 observers: Sequence[Observer] = (), timing=None,
                 max_steps: int = 10_000_000, warnings: Sequence[Diagnostic] = (),
                 core: int = 0, isa: InstructionSet = BUILTIN,
                 decodings: Decodings | None = None):
        """DECODINGS: the store of decodings to use (a launch's runs of one program share
        one: simulator/decodings.py `kept`), else one of its own."""
        self.m = machine
        self.isa = isa  # the instruction set: each family's semantics
        self._issue = isa.issue
        self.core = core  # the block of a launch this executor runs (stamped on its events)
        self.chip = machine.chip
        self.source = source
        self.checks = checks
        self.policy = Policy(checks, machine, source, warnings)
        self.timing = timing  # the timing stage: times each event before observers see it
        self.observers = list(observers)
        self.max_steps = max_steps
        self.decodings = decodings if decodings is not None else Decodings(machine.ub.size)
        self.listening = timing is not None or bool(self.observers)
        # observers that may want repeats (a class attribute True or a property, asked per
        # instruction: the debugger wants them only while stepping inside an instruction)
        self._askers = tuple(ob for ob in self.observers
                             if type(ob).wants_repeats is not False)
        self.issued: Issued | None = None  # the instruction taking effect (the debugger re-runs
        # a bulk instruction's body repeat by repeat from it)
        self._before = [ob.before_write for ob in self.observers
                        if type(ob).before_write is not Observer.before_write]
        self.summarize = dict  # the run builder's: the summary observers get at the end
        self.steps = 0
        # a loop that never ends, found at steps 2^16, 2^17, … (simulator/runaway.py): the
        # step of the next look (a stream's statements have no loop of their own: never)
        self.probe = LoopProbe(machine, isa) if getattr(source, "program", None) is not None \
            else None
        self.probe_at = self.probe.next_at if self.probe is not None else NEVER
        self.started = False
        self.done = False
        self._static: dict[str, tuple[dict, dict]] = {}
        self._plans: dict[Body, tuple] = {}  # instruction body -> what resolve reads
        self.cmpmask = machine.cmpmask.tobytes()  # CMPMASK as events report it

    @property
    def split_repeats(self) -> bool:
        """Whether an observer asks for the instruction about to take effect repeat by repeat."""
        return any(ob.wants_repeats for ob in self._askers)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.policy.diagnostics

    # -- driving -----------------------------------------------------------------------------
    def start(self) -> None:
        """Tell the timing stage and the observers that the run begins (once)."""
        if self.started:
            return
        self.started = True
        info = RunInfo(self.chip, self.source.path, self.source.program,
                       self.source.initialised(), self._observer_warning, self.source.lines,
                       self.core)
        for ob in ([self.timing] if self.timing is not None else []) + self.observers:
            ob.on_start(info)

    def run(self) -> None:
        """Execute the source to its end (the loop of `step`, kept tight): the reference loop.
        The run builder may run a fast loop instead (simulator/fused.py), which drives `count`,
        `execute` and `fail` the same way."""
        self.start()
        fetch, execute = self.source.fetch, self.execute
        while not self.done:
            instr = fetch()
            if instr is None:
                break
            self.count(instr)
            try:
                execute(instr)
            except Fault as f:
                self.fail(instr, f.problem)
        self.finish()

    def step(self) -> Event | None:
        """Execute the source's next hardware instruction; return its event (None when nobody
        listens). The run finishes when the source has nothing more."""
        self.start()
        instr = self.source.fetch()
        if instr is None:
            self.finish()
            return None
        self.count(instr)
        try:
            ev = self.execute(instr)
        except Fault as f:
            self.fail(instr, f.problem)
        if self.source.at_end():
            self.finish()
        return ev

    def count(self, instr: Instruction) -> None:
        """One more step, at INSTR: past max_steps the run fails there; at a probe's step
        (`probed`), a loop that never ends fails at its branch."""
        self.steps += 1
        if self.steps > self.max_steps:
            self.fail(instr, Problem("steps", f"--max-steps {self.max_steps} reached: stopped a "
                                     "runaway loop at this instruction"))
        if self.steps >= self.probe_at:
            self.probed(instr, self.source.index, self.steps)

    def probed(self, instr: Instruction, index: int, step: int) -> None:
        """INSTR, at flat INDEX, about to run as step STEP, shown to the loop probe (at or
        past `probe_at`): the run fails at the loop's branch when the probe found a loop that
        never ends; else `probe_at` moves on to the step of the next look."""
        probe = self.probe
        problem = probe.at(instr, index, step)
        if problem is not None:
            self.fail(probe.closing or instr, problem)
        self.probe_at = probe.next_at

    @property
    def uncounted(self) -> int:
        """The steps a loop that counts its own (the fast loops) may have run before the next
        one needs the executor: past max_steps it fails (`count`), at `probe_at` the loop
        probe looks (`probed`)."""
        return min(self.max_steps, self.probe_at - 1)

    def release(self) -> None:
        """The run is over (`Run.release`): every stored decoding lets go of its memo (its
        bodies, accesses and costs, closures that refer back to it)."""
        self.decodings.release()

    def execute(self, instr: Instruction) -> Event | None:
        """Issue one hardware instruction, let it take effect and notify."""
        m = self.m
        iss: Issued = self._issue[instr.defn.family.name](self, instr)
        ev = None
        listening = self.listening
        if listening:
            mask, counter = (m.mask_hi, m.mask_lo), m.counter
        body = iss.body
        if body is not None:
            self.issued = iss
            if iss.repeats and (iss.sequential or self._askers and self.split_repeats):
                ev = self._event(instr, iss, mask, counter) if listening else None
                self._repeat_by_repeat(instr, iss, ev)
            else:
                for hook in self._before:
                    hook(instr, iss.op, None)
                body(m, iss.op, iss.arg, 0, iss.repeats)
        self.source.advance(iss.jump)
        if not listening:
            return None
        if ev is None:
            ev = self._event(instr, iss, mask, counter)
        else:
            ev.mask_after, ev.counter_after = m.mask, m.counter
            ev._cmpmask = self._cmpmask_after(instr)
        if self.timing is not None:
            ev.timing = self.timing.time(ev)
        for ob in self.observers:
            ob.on_event(ev)
        return ev

    def _repeat_by_repeat(self, instr: Instruction, iss: Issued, ev: Event | None) -> None:
        body, op, arg, m = iss.body, iss.op, iss.arg, self.m
        for i in range(iss.repeats):
            for hook in self._before:
                hook(instr, op, i)
            body(m, op, arg, i, i + 1)
            if ev is not None:
                for ob in self.observers:
                    ob.on_repeat(ev, i)

    def _event(self, instr: Instruction, iss: Issued, mask, counter) -> Event:
        m = self.m
        after = (m.mask_hi, m.mask_lo)
        ev = Event(self.steps - 1, instr, iss.pipe, iss.op, iss.uops, iss.flag, iss.taken,
                   mask, counter, mask if after == mask else after, m.counter,
                   self._cmpmask_after(instr), self.source)
        ev.core = self.core
        return ev

    def event_at(self, instr: Instruction, pipe: str, op, repeats: int, taken: bool = False,
                 before: tuple | None = None) -> Event:
        """The event of INSTR, just executed on PIPE with OP and REPEATS micro-ops, having
        left MASK/CTRL as they were, or found them as BEFORE ((MASK_HI, MASK_LO), counter) says
        (a MASK writer's) (a fast loop's plan builds one only when asked)."""
        m = self.m
        mask = (m.mask_hi, m.mask_lo)
        was, counter = before if before is not None else (mask, m.counter)
        ev = Event(self.steps - 1, instr, pipe, op, repeats, None, taken, was, counter, mask,
                   m.counter, self.cmpmask, self.source)
        ev.core = self.core
        return ev

    def _cmpmask_after(self, instr: Instruction) -> bytes:
        if instr.defn.family.writes_cmpmask:  # only these change it: read it again
            self.cmpmask = self.m.cmpmask.tobytes()
        return self.cmpmask

    def finish(self) -> None:
        if self.done:
            return
        self.done = True
        for (src, dst, eid), instr in self.m.flags.items():
            self.policy.report("warning", instr, Problem(
                "flag", f"flag {src}->{dst} id {eid} is still set when the program ends"))
        for mid, (pipe, instr) in self.m.mutexes.items():
            self.policy.report("warning", instr, Problem(
                "mutex", f"mutex {mid} is still locked by {pipe} when the program ends"))
        for instr, (what, n) in self.m.unknown.items():
            self.policy.report("warning", instr, Problem(
                "unknown", f"{instr.head}: {what} on {n} element{'s' if n != 1 else ''}: the "
                "docs call the result unknown (pipev gives its model's value; silicon computes "
                "an unspecified one)"))
        told = [ob for ob in self.observers if type(ob).on_finish is not Observer.on_finish]
        if told:  # the summary ranks every source line: only for observers that read it
            summary = self.summarize()
            for ob in told:
                ob.on_finish(summary)

    def fail(self, instr: Instruction, problem: Problem) -> None:
        d = self.policy.report("error", instr, problem)
        for ob in self.observers:
            ob.on_error(d, instr)
        raise Fault(problem)

    # -- what semantics ask ------------------------------------------------------------------
    def check(self, instr: Instruction, problem: Problem | None) -> None:
        self.policy.check(instr, problem)

    def warn(self, instr: Instruction, problem: Problem, once: str | None = None) -> None:
        self.policy.report("warning", instr, problem, once)

    def _observer_warning(self, instr: Instruction, message: str, role: str | None,
                          once: str | None) -> None:
        self.policy.report("warning", instr, Problem("observer", message, role=role), once)

    def resolve(self, instr: Instruction) -> tuple[dict[str, int], dict[str, int]]:
        """Addresses and numeric fields, register expressions read now (at issue)."""
        # a static instruction's text determines its operands (tensor names, indices, raw
        # addresses, fields), so identical statements share one resolution
        if instr.is_static:
            cached = self._static.get(instr.text)
            if cached is None:  # (no plan: an unrolled kernel's lines each run once, #33)
                cached = self._static[instr.text] = (
                    {r: o.addr for r, o in instr.operands.items() if o.kind == "mem"},
                    instr.fields)
            return cached
        # what to read, sorted out once per body (lines of identical text share one: a long
        # register-addressed program keeps one plan per distinct line, not per line)
        plan = self._plans.get(instr.body)
        if plan is None:
            plan = self._plans[instr.body] = (
                tuple((r, o.addr) for r, o in instr.operands.items() if o.kind == "mem"),
                {k: v for k, v in instr.fields.items() if not isinstance(v, RegExpr)},
                tuple((k, v, self.isa.keys.get(k)) for k, v in instr.fields.items()
                      if isinstance(v, RegExpr)))
        mem, fixed, regs = plan
        x = self.m.x
        addrs = {}
        for r, a in mem:
            if a.__class__ is RegExpr:
                v = x[a.reg]
                addrs[r] = (v - (1 << 64) if v >> 63 else v) * a.scale + a.offset
            else:
                addrs[r] = a
        fields = fixed
        if regs:
            fields = dict(instr.fields)  # keeps the key order of the instruction
            for k, rx, spec in regs:
                v = self.value(rx)
                if spec is not None and not spec.lo <= v <= spec.hi:
                    raise Fault(Problem("range", f"{k}={v} is out of range ({spec.lo}.."
                                        f"{spec.hi})", col=instr.cols.get(k)))
                fields[k] = v
        return addrs, fields

    def value(self, v) -> int:
        if isinstance(v, RegExpr):
            return self.m.signed(v.reg) * v.scale + v.offset
        return v

    def int_operand(self, instr: Instruction, role: str) -> int:
        v = instr.operands[role].value
        if not isinstance(v, RegExpr):
            return v
        x = self.m.x[v.reg]  # RegExpr's contract: x * scale + offset modulo 2^64 (#27 h27e)
        return x if (v.scale, v.offset) == (1, 0) else (x * v.scale + v.offset) & ((1 << 64) - 1)

