"""Summary views of a timed run, like llvm-mca's (`pipev run --view resources|bottleneck`).

- resources: per source line, the cycles each pipe was busy with its instructions (S's count
  includes issuing to the queues), and the line's share of the total.
- bottleneck: the chain of waits that set the total cycle count, walked back from the
  instruction that finished last: each link is why an instruction could not start earlier — a
  flag it waited for (then the set_flag that released it), its pipe still busy with the
  previous instruction there, or S issuing it late (a full queue, a barrier, or S's own work
  before it).

Both are observers over the timing model's records; they never change a run.
"""

from __future__ import annotations

import attrs

from isa.families import SET_FLAG, WAIT_FLAG
from isa.table import PIPES
from simulator.events import Event, Observer

VIEWS = ("resources", "bottleneck")


@attrs.define
class _Record:
    seq: int
    pipe: str
    line: int
    text: str
    issue: int
    start: int
    end: int
    wait_flag: int
    wait_pipe: int
    wait_issue: int
    kind: str
    flag: tuple | None
    released_by: int | None = None  # seq of the set_flag that released a wait_flag


class Views(Observer):
    def __init__(self) -> None:
        self.records: list[_Record] = []
        self.last_on_pipe: dict[str, int] = {}
        self.prev_on_pipe: dict[int, int] = {}  # seq → seq of the previous one on its pipe
        self.pending: dict[tuple, int] = {}  # set flag → seq of its (first) set_flag
        self.lines: dict[tuple[int, str], list] = {}  # line → [text, {pipe: busy}]

    def on_event(self, ev: Event) -> None:
        t = ev.timing
        if t is None:
            return
        r = _Record(ev.seq, t.pipe, ev.line, ev.text, t.issue, t.start, t.end,
                    t.wait_flag, t.wait_pipe, t.wait_issue, ev.kind, ev.flag)
        if r.kind == SET_FLAG:
            self.pending.setdefault(ev.flag, len(self.records))
        elif r.kind == WAIT_FLAG:
            r.released_by = self.pending.pop(ev.flag, None)
        if t.pipe in self.last_on_pipe:
            self.prev_on_pipe[len(self.records)] = self.last_on_pipe[t.pipe]
        self.last_on_pipe[t.pipe] = len(self.records)
        self.records.append(r)
        row = self.lines.setdefault((ev.line, ev.file), [ev.statement, dict.fromkeys(PIPES, 0)])
        row[1][t.pipe] += t.busy
        if t.issue_cost:
            row[1]["S"] += t.issue_cost

    # -- resources ---------------------------------------------------------------------------
    def resources(self, total: int, span: int | None = None) -> str:
        """SPAN: the cycles the shares are of (a launch of several cores: their cycles summed,
        as its utilisation; else TOTAL)."""
        span = span or total
        head = f"  {'line':>5}  " + "".join(f"{p:>7}" for p in PIPES) + "   share  statement"
        out = ["resource pressure per source line (busy cycles per pipe)", head]
        for (line, _), (text, busy) in sorted(self.lines.items()):
            share = max(busy.values()) / span if span else 0.0
            text = text if len(text) <= 60 else text[:57] + "..."
            out.append(f"  {line:>5}  " + "".join(f"{busy[p]:>7}" for p in PIPES) +
                       f"  {100 * share:5.1f}%  {text}")
        return "\n".join(out)

    # -- bottleneck --------------------------------------------------------------------------
    def chain(self) -> list[str]:
        """Why the last instruction ended when it did, link by link, newest first."""
        if not self.records:
            return []
        k = max(range(len(self.records)), key=lambda i: (self.records[i].end, -i))
        out, seen = [], set()
        while k is not None and k not in seen and len(out) < 50:
            seen.add(k)
            r = self.records[k]
            where = f"line {r.line:>4} {r.pipe:<4} [{r.start:>6}, {r.end:>6})  {r.text}"
            if r.wait_flag > 0 and r.released_by is not None:
                src, dst, eid = r.flag
                out.append(f"{where}\n      waited {r.wait_flag} cycles for flag {src}->{dst} "
                           f"{eid}, released by")
                k = r.released_by
            elif r.wait_pipe > 0 and k in self.prev_on_pipe:
                out.append(f"{where}\n      waited {r.wait_pipe} cycles for {r.pipe} to finish")
                k = self.prev_on_pipe[k]
            elif r.wait_issue > 0:
                why = "a barrier" if r.pipe == "S" else "a full queue"
                out.append(f"{where}\n      S stalled {r.wait_issue} cycles on {why} before "
                           "issuing it")
                k = None
            else:
                out.append(f"{where}\n      started when issued (cycle {r.issue})")
                k = None
        return out

    def bottleneck(self, total: int) -> str:
        return "\n".join([f"what set the total of {total} cycles (from the last to finish, "
                          "backwards)", *("  " + c for c in self.chain())])


def shown(view: Views, name: str, result) -> str:
    """View NAME of RESULT's run (a launch of several cores: busy cycles summed over them,
    shares of their summed cycles, as the summary's utilisation)."""
    if name == "resources":
        return view.resources(result.cycles, sum(c.cycles for c in result.cores) or None)
    return view.bottleneck(result.cycles)
