"""Trace writers (docs/format.md §11): jsonl, chrome, vcd and text, through the Python API and the
CLI.

Most tests run with a small in-order timing model defined here, so that the trace figures are
known independently of simulator/timing; the end-to-end tests at the bottom use the real one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from vcd.reader import TokenKind, tokenize

import simulator
import simulator.timing
from isa.decode import decode_vector
from simulator.cli import main
from simulator.events import Observer
from simulator.timing.records import InstrTiming, RepeatTiming
from simulator.trace.text import bucket_size, timeline_row

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "programs" / "quickstart.vasm"
TUTORIAL = ROOT / "programs" / "tutorial"
PIPES = ("S", "V", "MTE2", "MTE3")

FAILING = """\
.chip ascend910b
.gm  out f32[64] output
.ub  x   f32[64]
.ub  z   f32[64]
    vector_dup.f32 x, 1.0
    vcopy.f32      z, x
    li             x1, 0x40000
    vcopy.f32      @x1, x
    set_flag       V, MTE3, 0
    wait_flag      V, MTE3, 0
    copy_ub_to_gm  out, z, nburst=1, burst=8
"""

STRIDED = """\
.chip ascend910b
.ub  x  f16[2048]
.ub  y  f16[2048]
.ub  z  f16[2048]
.ub  m  u8[256] @0x6000
    set_vector_mask 0x00ff00000000ff00, 0x0f0f0f0f0000ffff
    vadd.f16  z, x, y, repeat=3, stride=2,1,1,16,8,8
    vcmpv.lt.f16 m, x, y, repeat=3
    set_mask_count
    set_vector_mask 0, 300
    vsel.f16  z, x, @0x6000, repeat=1, mode=1
    set_mask_norm
"""


class FakeModel:
    """An in-order model with round figures: S issues one instruction per cycle; each queue runs
    in order; a vector instruction pays a head of 1 when its pipe was idle, then 2 cycles per
    repeat; a DMA 5 cycles per block; a set_flag fires at its end; a wait_flag ends one cycle
    after its release."""

    def __init__(self, chip=None):
        self.s = 0
        self.free = dict.fromkeys(PIPES, 0)
        self.fired: dict = {}
        self.busy = dict.fromkeys(PIPES, 0)
        self.total_cycles = 0
        self.last: InstrTiming | None = None
        self.records: list[InstrTiming] = []

    def on_start(self, run) -> None:
        pass

    def snapshot(self) -> None:
        return None

    def time(self, ev) -> InstrTiming:
        issue, pipe = self.s, ev.pipe
        self.s += 1
        start = max(issue, self.free[pipe])
        wait = head = 0
        reps: tuple = ()
        fire = None
        if ev.instr.name == "wait_flag":
            wait = max(start, self.fired.pop(ev.flag, 0)) - start
            occ, busy = wait + 1, 1
        elif ev.vop is not None:
            head = 1 if self.free[pipe] < start else 0
            reps = tuple(RepeatTiming(i, start + head + 2 * i, start + head + 2 * i + 2, 2)
                         for i in range(ev.vop.repeats))
            occ = busy = head + 2 * ev.vop.repeats
        elif ev.dma is not None:
            occ = busy = 5 * ev.dma.blocks
        else:
            occ = busy = 1
        end = start + occ
        if ev.instr.name == "set_flag":
            fire = self.fired[ev.flag] = end
        self.free[pipe] = end
        self.busy[pipe] += busy
        self.total_cycles = max(self.total_cycles, end)
        self.last = InstrTiming(pipe, issue, start, end, busy, wait, start - issue, head, reps,
                                fire)
        self.records.append(self.last)
        return self.last


@pytest.fixture
def fake(monkeypatch):
    """Run with FakeModel as the timing model; yields the list of models created."""
    made: list[FakeModel] = []

    def make(chip):
        made.append(FakeModel(chip))
        return made[-1]

    monkeypatch.setattr(simulator.timing, "TimingModel", make)
    return made


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def leftovers(directory: Path) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.startswith(".")]


# -- jsonl ---------------------------------------------------------------------------------------
def test_jsonl_header_instr_and_flag_events(tmp_path, fake):
    out = tmp_path / "t.jsonl"
    result = simulator.run(QUICKSTART, trace=out)
    lines = read_jsonl(out)
    model = fake[0]
    assert lines[0] == {"format": "pipev-trace", "version": 1, "chip": "ascend910b",
                        "freq_mhz": 1850.0, "program": str(QUICKSTART)}
    instrs = [e for e in lines[1:] if e["ev"] == "instr"]
    assert len(instrs) == 17 == result.instructions == len(model.records)
    flat = [h for s in result.program.statements for h in s.hw]
    for e, h, t in zip(instrs, flat, model.records, strict=True):
        assert (e["pc"], e["line"], e["text"], e["pipe"]) == (h.pc, h.line, h.text, t.pipe)
        assert (e["issue"], e["start"], e["end"]) == (t.issue, t.start, t.end)
        assert set(e) == {"ev", "pc", "line", "text", "pipe", "issue", "start", "end", "uops"}
    # the select statement expands to 9 hardware instructions, all with its pc and line
    select = [e for e in instrs if e["line"] == 17]
    assert len(select) == 9 and {e["pc"] for e in select} == {5}
    assert [e["uops"] for e in instrs if e["text"].startswith("vcmpv")] == [4]
    flags = [e for e in lines[1:] if e["ev"] == "flag"]
    assert [(f["op"], f["src"], f["dst"], f["id"]) for f in flags] == [
        ("set", "MTE2", "V", 0), ("wait", "MTE2", "V", 0),
        ("set", "V", "MTE3", 0), ("wait", "V", "MTE3", 0)]
    rec = {t.issue: t for t in model.records}
    set_rec, wait_rec = rec[2], rec[3]
    assert flags[0]["cycle"] == set_rec.fire == 2 * 160 + 1  # two 32-block DMAs, then the flag
    assert flags[1]["cycle"] == wait_rec.start + wait_rec.wait_flag == set_rec.fire
    assert (flags[1]["pc"], flags[1]["line"]) == (3, 15)


def test_jsonl_repeat_events(tmp_path, fake):
    out = tmp_path / "t.jsonl"
    simulator.run(QUICKSTART, trace=out)
    lines = read_jsonl(out)
    reps = [e for e in lines[1:] if e["ev"] == "repeat"]
    # vcmpv 4 repeats, vector_dup 1, vsel (count 256 -> 4 repeats)
    assert [(e["line"], e["repeat"]) for e in reps] == (
        [(16, i) for i in range(4)] + [(17, 0)] + [(17, i) for i in range(4)])
    cmp = reps[0]
    assert set(cmp) == {"ev", "pc", "line", "repeat", "start", "end", "bank_beats", "addr",
                        "active", "mask", "mask_mode", "cmpmask"}
    # x @0, y @1024, m @2048, z @2080 (docs/timing.md §T6); f32: 8 rows per repeat
    for i, e in enumerate(reps[:4]):
        assert e["addr"] == {"dst": [2048 + 8 * i],
                             "src0": [256 * i + 32 * j for j in range(8)],
                             "src1": [1024 + 256 * i + 32 * j for j in range(8)]}
        assert e["active"] == "0x" + "f" * 16
        assert e["mask"] == ["0x" + "f" * 16] * 2 and e["mask_mode"] == "norm"
        assert (e["start"], e["end"], e["bank_beats"]) == (
            reps[0]["start"] + 2 * i, reps[0]["start"] + 2 * i + 2, 2)
    dup = reps[4]
    assert dup["active"] == "0x00000000000000ff"  # set_vector_mask 0, 0xff before it
    assert dup["mask"] == ["0x0000000000000000", "0x00000000000000ff"]
    sel = reps[5:]
    assert all(e["mask_mode"] == "count" for e in sel)
    assert all(e["mask"] == ["0x0000000000000000", "0x0000000000000100"] for e in sel)
    # mode 2: CMPMASK[31:0] holds the select-mask address (m @2048), set by set_cmpmask
    # (vector_dup wrote 0x800 to 8 words, set_cmpmask loaded 16 bytes of them)
    assert all(e["cmpmask"] == "0x" + "00000800" * 4 for e in sel)
    assert [e["addr"]["sel"] for e in sel] == [[2048 + 8 * i] for i in range(4)]
    assert [e["addr"]["dst"] for e in sel] == [[2080 + 256 * i + 32 * j for j in range(8)]
                                               for i in range(4)]


def test_jsonl_rows_and_active_bits_match_the_decoder(tmp_path, fake):
    """Masked, strided and counter-mode instructions: rows and active bits as VectorOp.uops()
    gives them (bit-stream operands: the first byte address, docs/format.md §11)."""
    out = tmp_path / "t.jsonl"
    result = simulator.run(STRIDED, trace=out)
    reps = [e for e in read_jsonl(out)[1:] if e["ev"] == "repeat"]
    assert len(reps) == 3 + 3 + 3  # vsel f16 counter 300 -> 3 repeats
    flat = [h for s in result.program.statements for h in s.hw]
    vadd, vcmpv, vsel = flat[1], flat[2], flat[5]
    hi, lo = 0x00ff00000000ff00, 0x0f0f0f0f0000ffff
    ub = {t: result.program.tensors[t].addr for t in "xyzm"}
    cases = [(vadd, {"dst": ub["z"], "src0": ub["x"], "src1": ub["y"]},
              {"repeat": 3, "dst_blk": 2, "src0_blk": 1, "src1_blk": 1, "dst_rep": 16,
               "src0_rep": 8, "src1_rep": 8}, (hi, lo), False),
             (vcmpv, {"dst": ub["m"], "src0": ub["x"], "src1": ub["y"]}, {"repeat": 3},
              (hi, lo), False),
             (vsel, {"dst": ub["z"], "src0": ub["x"], "src1": ub["m"]}, {"repeat": 1,
                                                                        "mode": 1},
              (0, 300), True)]
    got = iter(reps)
    for instr, addrs, fields, mask, counter in cases:
        vop = decode_vector(instr, addrs, fields, mask, counter)
        for u in vop.uops():
            e = next(got)
            assert e["active"] == f"0x{u.active:032x}"
            for acc in vop.operands:
                if acc.kind == "bits":
                    assert e["addr"][acc.role] == [acc.base + u.index * vop.n // 8]
                else:
                    assert e["addr"][acc.role] == u.rows[acc.role]
    assert reps[0]["active"] == "0x00ff00000000ff000f0f0f0f0000ffff"
    assert reps[3]["active"] == "0x" + "f" * 32  # vcmpv ignores MASK
    assert reps[-1]["active"] == "0x" + "0" * 21 + "f" * 11  # 300 - 2*128 = 44 elements


def test_jsonl_summary_has_the_run_json_keys(tmp_path, fake):
    out = tmp_path / "t.jsonl"
    trace_dir = tmp_path / "o"
    r = CliRunner().invoke(main, ["run", str(QUICKSTART), "--trace", str(out), "--json",
                                  "--output-dir", str(trace_dir)])
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)
    assert printed.pop("ok") is True  # --json says ok true, or ok false with the diagnostics
    summary = read_jsonl(out)[-1]
    assert summary.pop("ev") == "summary"
    assert set(summary) == set(printed)
    for key in ("chip", "cycles", "time_us", "instructions", "uops", "pipes", "warnings"):
        assert summary[key] == printed[key]
    assert summary["instructions"] == 17 and summary["uops"] == 23
    assert summary["cycles"] == fake[0].total_cycles > 0


def test_jsonl_without_timing_writes_zero_cycles(tmp_path):
    out = tmp_path / "t.jsonl"
    simulator.run(QUICKSTART, trace=out, timing=False)
    lines = read_jsonl(out)
    assert all(e["start"] == e["end"] == 0 for e in lines[1:] if e["ev"] in ("instr", "repeat"))
    assert lines[-1]["ev"] == "summary" and lines[-1]["cycles"] == 0


# -- chrome --------------------------------------------------------------------------------------
def check_chrome(doc: dict, freq: float) -> dict[int, list[dict]]:
    """Structure every chrome trace must have; returns the instruction slices per tid."""
    real = doc["otherData"]["time_unit"] == "ps"
    assert doc["otherData"]["freq_mhz"] == freq
    assert "displayTimeUnit" not in doc
    events = doc["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    assert names == {1: "S", 2: "V", 3: "MTE2", 4: "MTE3"}
    assert all(e["pid"] == 1 for e in events)
    # integers: 1 unit = 1 cycle, or 1 ps
    assert all(type(e["ts"]) is int and type(e.get("dur", 0)) is int for e in events
               if "ts" in e)
    eps = 1e-9
    per_tid: dict[int, list[dict]] = {}
    top: dict[int, list[dict]] = {}  # slices that nest in nothing: instructions, S issue/stall
    for e in events:
        if e["ph"] == "X" and e["cat"] == "instr":
            per_tid.setdefault(e["tid"], []).append(e)
            if real:
                assert e["ts"] == round(e["args"]["start"] * 1e6 / freq)
                assert e["ts"] + e["dur"] == round(e["args"]["end"] * 1e6 / freq)
            else:
                assert (e["ts"], e["ts"] + e["dur"]) == (e["args"]["start"], e["args"]["end"])
        if e["ph"] == "X" and e["cat"] in ("instr", "issue", "stall"):
            top.setdefault(e["tid"], []).append(e)
            assert e["cat"] == "instr" or e["tid"] == 1
    for slices in top.values():
        slices.sort(key=lambda e: e["ts"])
        for a, b in zip(slices, slices[1:], strict=False):
            assert a["ts"] + a["dur"] <= b["ts"] + eps, (a, b)
    for e in events:
        if e["ph"] == "X" and e["cat"] not in ("instr", "issue", "stall"):
            parents = [p for p in per_tid[e["tid"]]
                       if p["ts"] - eps <= e["ts"] and e["ts"] + e["dur"] <= p["ts"] + p["dur"]
                       + eps and p["args"]["line"] == e["args"]["line"]]
            assert parents, e
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    finishes = {e["id"]: e for e in events if e["ph"] == "f"}
    assert set(finishes) <= set(starts)
    for fid, f in finishes.items():
        assert f["bp"] == "e" and starts[fid]["ts"] <= f["ts"] and starts[fid]["name"] == f["name"]
    return per_tid


def test_chrome_structure(tmp_path, fake):
    out = tmp_path / "t.json"
    simulator.run(QUICKSTART, trace=out, trace_format="chrome")
    doc = json.loads(out.read_text())
    per_tid = check_chrome(doc, 1850.0)
    assert sum(len(v) for v in per_tid.values()) == 17
    assert len(per_tid[3]) == 3 and len(per_tid[4]) == 2  # MTE2: 2 DMAs + set_flag
    events = doc["traceEvents"]
    reps = [e for e in events if e.get("cat") == "repeat"]
    assert len(reps) == 9 and {e["tid"] for e in reps} == {2}
    waits = [e for e in events if e.get("cat") == "wait_flag"]
    assert [e["name"] for e in waits] == ["wait for flag MTE2->V 0", "wait for flag V->MTE3 0"]
    assert all(e["dur"] > 0 for e in waits)
    flows = [(e["ph"], e["tid"]) for e in events if e["ph"] in "sf"]
    assert flows == [("s", 3), ("f", 2), ("s", 2), ("f", 4)]
    assert doc["otherData"]["pipevSummary"]["instructions"] == 17
    vcmp = next(e for e in events if e.get("name") == "vcmpv.lt.f32")
    assert vcmp["args"]["source"] == "compare.lt.f32 m, x, y, count=256        ; m = x < y (bits)"
    assert vcmp["args"]["line"] == 16 and vcmp["args"]["uops"] == 4


def test_chrome_microsecond_rounding_never_breaks_nesting(tmp_path, fake):
    """At 1850 MHz most cycle counts are not exact in µs; nested slices must still fit."""
    lines = [".chip ascend910b", ".ub x f32[4096]", ".ub y f32[4096]", ".ub z f32[4096]"]
    lines += [f"    vadd.f32 z, x, y, repeat={r}" for r in (1, 3, 7, 11, 13, 17, 63)]
    out = tmp_path / "t.json"
    simulator.run("\n".join(lines) + "\n", trace=out, trace_format="chrome", trace_time="real")
    check_chrome(json.loads(out.read_text()), 1850.0)


# -- vcd -----------------------------------------------------------------------------------------
def read_vcd(path: Path) -> tuple[dict[str, str], dict[str, int], list[tuple[int, str, object]]]:
    """(full signal name -> id, header keywords present, [(time, id, value)]) via pyvcd."""
    scopes: list[str] = []
    ids: dict[str, str] = {}
    header: dict[str, str] = {}
    changes = []
    now = 0
    with open(path, "rb") as f:
        for tok in tokenize(f):
            k = tok.kind
            if k is TokenKind.SCOPE:
                scopes.append(tok.data.ident)
            elif k is TokenKind.UPSCOPE:
                scopes.pop()
            elif k is TokenKind.VAR:
                ids[".".join([*scopes, tok.data.reference])] = tok.data.id_code
            elif k in (TokenKind.TIMESCALE, TokenKind.COMMENT):
                header.setdefault(k.name, str(tok.data))
            elif k is TokenKind.CHANGE_TIME:
                assert tok.data >= now
                now = tok.data
            elif k in (TokenKind.CHANGE_SCALAR, TokenKind.CHANGE_VECTOR):
                changes.append((now, tok.data.id_code, tok.data.value))
    return ids, header, changes


def check_busy(history, records: list[InstrTiming], total: int, issue: int) -> None:
    """Each pipe's busy signal is 1 in exactly the cycles one of its instructions executes (and,
    for S, issues a queued instruction)."""
    for pipe in PIPES:
        expected = np.zeros(total + 1, int)
        for t in records:
            if t.pipe == pipe:
                expected[t.start + t.wait_flag:t.end] = 1
            elif pipe == "S":
                expected[t.issue:t.issue + issue] = 1
        got = np.zeros(total + 1, int)
        for cycle, value in history(f"pipev.{pipe}.busy"):
            got[cycle:] = int(value)
        assert got.tolist() == expected.tolist(), pipe


PS = 1_000_000 / 1850  # picoseconds per cycle at 1850 MHz


def test_vcd_signals_and_time_order(tmp_path, fake):
    out = tmp_path / "t.vcd"
    result = simulator.run(QUICKSTART, trace=out, trace_format="vcd")
    ids, header, changes = read_vcd(out)
    expected = {f"pipev.registers.{r}" for r in ("MASK_HI", "MASK_LO", "mask_mode")}
    expected |= {f"pipev.V.{r}" for r in ("MASK_HI", "MASK_LO", "mask_mode", "CMPMASK")}
    expected |= {f"pipev.{p}.{s}" for p in PIPES for s in ("busy", "line", "instr", "wait")}
    assert set(ids) == expected
    assert "1850 MHz" in header["COMMENT"] and "$timescale 1 ps $end" in out.read_text()
    times = [t for t, _, _ in changes]
    assert times == sorted(times)
    model = fake[0]

    def history(name):  # (cycle, value): the dump's picoseconds back to cycles
        return [(round(t / PS), v) for t, i, v in changes if i == ids[name]]

    assert all(t == round(round(t / PS) * PS) for t in times)  # every change is on a cycle
    check_busy(history, model.records, model.total_cycles,
               result.program.chip.timing["scalar_issue"])
    # the V pipe waits for MTE2's flag from its start until the firing cycle
    wait = next(t for t in model.records if t.pipe == "V" and t.wait_flag)
    assert history("pipev.V.wait")[-2:] == [(wait.start, "1"),
                                            (wait.start + wait.wait_flag, "0")]
    modes = history("pipev.registers.mask_mode")
    assert [v for _, v in modes] == ["0", "1", "0"]  # norm, count (select), norm
    cmp = history("pipev.V.CMPMASK")[-1][1]
    scratch = result.program.chip.scratch_base
    assert cmp == int.from_bytes(result.ub[scratch:scratch + 16].tobytes(), "little")
    assert cmp & 0xFFFFFFFF == 2048
    assert history("pipev.registers.MASK_LO")[-1][1] == (1 << 64) - 1
    mte3_lines = [v for _, v in history("pipev.MTE3.line") if v]
    assert mte3_lines == [19, 20]  # wait_flag and copy_ub_to_gm
    assert all(v != "x" for _, _, v in changes)  # no X for idle


def test_vcd_v_scope_shows_the_mask_the_vsel_ran_with(tmp_path):
    """The tutorial's select runs in counter mode with 512 elements; by the time V executes
    it S has long set MASK back to norm/all ones."""
    out = tmp_path / "t.vcd"
    simulator.run(TUTORIAL / "maximum.vasm", trace=out)
    ids, _, changes = read_vcd(out)

    def at(name, ps):
        value = None
        for t, i, v in changes:
            if i == ids[name] and t <= ps:
                value = v
        return value

    start, now = None, 0  # when V starts the vsel (string changes: read from the text)
    for ln in out.read_text().splitlines():
        if ln.startswith("#"):
            now = int(ln[1:])
        elif ln.startswith("svsel.f16(") and ln.endswith(" " + ids["pipev.V.instr"]):
            start = now
    assert start is not None
    assert (at("pipev.V.mask_mode", start), at("pipev.V.MASK_LO", start)) == ("1", 512)
    assert at("pipev.registers.mask_mode", start) == "0"  # S's view: back to norm
    assert at("pipev.registers.MASK_LO", start) == (1 << 64) - 1


# -- text ----------------------------------------------------------------------------------------
def test_timeline_row_states():
    # issued at 2, waits for the pipe until 5, for a flag until 7, executes until 10
    assert timeline_row(2, 5, 10, 2, 1, 12) == "  I..ww===  "
    assert timeline_row(0, 0, 3, 0, 1, 4) == "=== "
    assert timeline_row(4, 4, 4, 0, 1, 6) == "    I "  # zero occupancy: issue only
    # buckets of 4 cycles: executing beats waiting beats issue beats pipe wait
    assert timeline_row(1, 6, 9, 2, 4, 3) == "Iw="
    assert bucket_size(59) == 1 and bucket_size(60) == 2 and bucket_size(663) == 12


def test_text_timeline_rows(tmp_path, fake):
    out = tmp_path / "t.txt"
    simulator.run(QUICKSTART, trace=out, trace_format="text")
    text = out.read_text()
    assert "legend:" in text and "= executing" in text and "w waiting for a flag" in text
    rows = [ln for ln in text.splitlines() if ln[:6].strip().isdigit()]
    assert len(rows) == 17
    assert all(len(r) <= 120 for r in text.splitlines())
    bars = [r[r.index("[") + 1:r.index("]")] for r in rows]
    assert len({len(b) for b in bars}) == 1
    records = fake[0].records
    width = len(bars[0])
    bucket = bucket_size(max(t.end for t in records))
    assert width == max(t.end for t in records) // bucket + 1
    for bar, t in zip(bars, records, strict=True):
        assert bar == timeline_row(t.issue, t.start, t.end, t.wait_flag, bucket, width)
    assert "w" in bars[3] and "=" in bars[4] and "." in bars[1]  # wait_flag; vcmpv; 2nd DMA
    assert rows[4].split()[1:3] == ["16", "V"] and rows[4].endswith("vcmpv.lt.f32 m, x, y, "
                                                                     "repeat=4")
    assert text.rstrip().splitlines()[-1].startswith("summary: ")


# -- CLI, failures, costs -------------------------------------------------------------------------
def check_any(fmt: str, path: Path) -> None:
    data = path.read_text()
    if fmt == "jsonl":
        lines = [json.loads(x) for x in data.splitlines()]
        assert lines[0]["format"] == "pipev-trace" and lines[-1]["ev"] == "summary"
    elif fmt == "chrome":
        check_chrome(json.loads(data), 1850.0)
    elif fmt == "vcd":
        ids, _, changes = read_vcd(path)
        assert "pipev.V.busy" in ids and changes
    else:
        assert "legend:" in data and data.rstrip().splitlines()[-1].startswith("summary: ")


@pytest.mark.parametrize("fmt", ["jsonl", "chrome", "vcd", "text"])
def test_cli_writes_each_format(tmp_path, fmt):
    out = tmp_path / f"trace.{fmt}"
    r = CliRunner().invoke(main, ["run", str(QUICKSTART), "--trace", str(out),
                                  "--trace-format", fmt, "--quiet",
                                  "--output-dir", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    check_any(fmt, out)
    assert (tmp_path / "o" / "out.npy").is_file()
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("fmt", ["jsonl", "chrome", "vcd", "text"])
def test_failed_run_leaves_a_complete_trace_and_no_outputs(tmp_path, fmt):
    prog = tmp_path / "fail.vasm"
    prog.write_text(FAILING)
    out = tmp_path / f"t.{fmt}"
    r = CliRunner().invoke(main, ["run", str(prog), "--trace", str(out), "--trace-format", fmt,
                                  "--output-dir", str(tmp_path / "o")])
    assert r.exit_code == 1
    assert "fail.vasm:8:20: error: vcopy.f32 dst touches byte 0x40000 outside UB" in r.stderr
    assert "Traceback" not in r.output
    assert not (tmp_path / "o").exists()
    assert leftovers(tmp_path) == []
    data = out.read_text()
    if fmt == "jsonl":
        lines = [json.loads(x) for x in data.splitlines()]
        assert [e["ev"] for e in lines[1:]] == ["instr", "repeat", "instr", "repeat", "instr",
                                                "error"]
        assert lines[-1]["message"].startswith("vcopy.f32 dst touches byte 0x40000 outside UB")
        assert (lines[-1]["pc"], lines[-1]["line"], lines[-1]["col"]) == (3, 8, 20)
    elif fmt == "chrome":
        doc = json.loads(data)
        other = doc["otherData"]
        assert other["pipevError"]["line"] == 8 and "pipevSummary" not in other
        assert doc["traceEvents"][-1]["name"] == "error"
    elif fmt == "vcd":
        read_vcd(out)
        assert any(ln.startswith("$comment error: ") and "0x40000" in ln
                   for ln in data.splitlines()[-2:])
    else:
        assert data.rstrip().splitlines()[-1].startswith("error: ")
        assert len([ln for ln in data.splitlines() if ln[:6].strip().isdigit()]) == 3


def test_unwritable_trace_path_is_a_clean_error(tmp_path):
    bad = tmp_path / "missing" / "t.jsonl"
    r = CliRunner().invoke(main, ["run", str(QUICKSTART), "--trace", str(bad),
                                  "--output-dir", str(tmp_path / "o")])
    assert r.exit_code == 1
    assert f"error: cannot write trace {bad}: No such file or directory" in r.stderr
    assert "Traceback" not in r.output and not (tmp_path / "o").exists()
    with pytest.raises(simulator.SimulationError, match="it is a directory"):
        simulator.run(QUICKSTART, trace=tmp_path, trace_format="jsonl")
    assert leftovers(tmp_path) == []


def test_existing_trace_is_replaced_only_at_the_end(tmp_path):
    out = tmp_path / "t.jsonl"
    out.write_text("old\n")
    seen = []

    class Peek(Observer):
        def on_event(self, ev):
            seen.append(out.read_text())

    simulator.run(QUICKSTART, trace=out, observers=[Peek()])
    assert set(seen) == {"old\n"}
    assert read_jsonl(out)[-1]["ev"] == "summary"


def test_no_trace_means_no_writer_imported():
    code = ("import sys, simulator; simulator.run(sys.argv[1]); "
            "print(sorted(m for m in sys.modules if m.startswith('simulator.trace')))")
    out = subprocess.run([sys.executable, "-c", code, str(QUICKSTART)], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- end to end with the real timing model --------------------------------------------------------
TILED = """\
.chip ascend910b
.gm  a    f32[1024] input = random(1)
.gm  out  f32[1024] output
.ub  x    f32[256]
.ub  z    f32[256]
.ub  m    u8[32]
    li   x1, 0
    set_flag MTE3, MTE2, 1
loop:
    wait_flag MTE3, MTE2, 1
    copy_gm_to_ub  x, a[x1], nburst=1, burst=32
    set_flag       MTE2, V, 0
    wait_flag      MTE2, V, 0
.rept 40
    vadds.f32      z, x, 1.0, repeat=4
.endr
    vcmpv.lt.f32   m, x, z, repeat=4
    pipe_barrier   V
    set_flag       V, MTE3, 0
    wait_flag      V, MTE3, 0
    copy_ub_to_gm  out[x1], z, nburst=1, burst=32
    set_flag       MTE3, MTE2, 1
    add  x1, x1, 256
    blt  x1, 1024, loop
    wait_flag MTE3, MTE2, 1
    set_flag V, S, 2
    wait_flag V, S, 2
    pipe_barrier ALL
    nop
"""


class Recorder(Observer):
    """Keeps the real timing model's record of every event (published in the event)."""

    def __init__(self):
        self.records: list[InstrTiming] = []

    def on_event(self, ev):
        self.records.append(ev.timing)


def test_real_model_quickstart_figures_in_every_format(tmp_path):
    """docs/timing.md §T6: the worked example's issue/start/end figures reach the traces."""
    table = [(0, 0, 242), (1, 242, 484), (2, 484, 485), (3, 3, 486), (4, 486, 494),
             (7, 494, 497), (8, 497, 498), (11, 498, 506), (14, 506, 507), (15, 15, 508),
             (16, 508, 664)]
    out = tmp_path / "t.jsonl"
    result = simulator.run(QUICKSTART, trace=out)
    lines = read_jsonl(out)
    instrs = [e for e in lines[1:] if e["ev"] == "instr"]
    assert [(e["issue"], e["start"], e["end"]) for e in instrs if e["pipe"] != "S"] == table
    flags = [(e["op"], e["cycle"]) for e in lines[1:] if e["ev"] == "flag"]
    assert flags == [("set", 485), ("wait", 485), ("set", 507), ("wait", 507)]
    reps = [e for e in lines[1:] if e["ev"] == "repeat" and e["line"] == 16]
    assert [(e["start"], e["end"], e["bank_beats"]) for e in reps] == [
        (486 + 2 * i, 488 + 2 * i, 2) for i in range(4)]
    summary = lines[-1]
    assert summary["cycles"] == 664 == result.cycles
    assert {p: v["busy"] for p, v in summary["pipes"].items()} == {
        "S": 17, "V": 22, "MTE2": 485, "MTE3": 157}
    from simulator.summary import summary_dict
    assert summary == {"ev": "summary", **summary_dict(result)}
    chrome = tmp_path / "t.json"
    simulator.run(QUICKSTART, trace=chrome, trace_format="chrome")
    doc = json.loads(chrome.read_text())
    per_tid = check_chrome(doc, 1850.0)
    mte3 = per_tid[4][-1]
    assert (mte3["ts"], mte3["dur"]) == (508, 156)  # cycles
    simulator.run(QUICKSTART, trace=chrome, trace_format="chrome", trace_time="real")
    real = json.loads(chrome.read_text())
    check_chrome(real, 1850.0)
    mte3 = [e for e in real["traceEvents"] if e.get("cat") == "instr" and e["tid"] == 4][-1]
    assert (mte3["ts"], mte3["dur"]) == (274595, 358919 - 274595)  # ps: 508 and 664 cycles
    text = tmp_path / "t.txt"
    simulator.run(QUICKSTART, trace=text, trace_format="text")
    assert "cycles 0..664, 1 column = 12 cycles" in text.read_text()


def test_real_model_loop_with_stalls_barriers_and_flags(tmp_path):
    """A tiled loop: queue-full stalls, pipe barriers, S as a flag destination. Chrome slices
    stay nested and apart; the VCD's busy signals match the model's records cycle for cycle."""
    rec = Recorder()
    chrome = tmp_path / "t.json"
    result = simulator.run(TILED, trace=chrome, trace_format="chrome", observers=[rec])
    summary = {"stalls": result.stalls}
    assert summary["stalls"]["queue_full"] > 0 and summary["stalls"]["barrier"] > 0
    doc = json.loads(chrome.read_text())
    per_tid = check_chrome(doc, 1850.0)
    assert sum(len(v) for v in per_tid.values()) == result.instructions == 215
    cats = {e["cat"] for e in doc["traceEvents"] if e["ph"] == "X"}
    assert cats == {"instr", "issue", "stall", "repeat", "wait_flag", "released"}
    flows = [e for e in doc["traceEvents"] if e["ph"] in "sf"]
    assert len(flows) == 2 * (4 * 3 + 1 + 1)  # per tile 3 pairs; the first and the S wait
    vcd = tmp_path / "t.vcd"
    rec2 = Recorder()
    simulator.run(TILED, trace=vcd, trace_format="vcd", observers=[rec2])
    ids, _, changes = read_vcd(vcd)

    def history(name):
        return [(round(t / PS), v) for t, i, v in changes if i == ids[name]]

    check_busy(history, rec2.records, result.cycles, result.program.chip.timing["scalar_issue"])
    assert [t for t, _, _ in changes] == sorted(t for t, _, _ in changes)


class _Full:
    """A file whose every write fails as on a full disk."""

    def write(self, data):
        raise OSError(28, "No space left on device")

    def close(self):
        pass


def test_write_failure_and_interruption_leave_no_files(tmp_path, monkeypatch):
    from simulator.trace.base import TraceWriter

    started = TraceWriter.on_start

    def fill_disk(writer, run):  # the disk fills up once the header is written
        started(writer, run)
        writer.f.close()
        writer.f = _Full()

    out = tmp_path / "t.jsonl"
    with monkeypatch.context() as m:
        m.setattr(TraceWriter, "on_start", fill_disk)
        with pytest.raises(simulator.SimulationError,
                           match=f"cannot write trace {out}: No space left on device"):
            simulator.run(QUICKSTART, trace=out)
        prog = tmp_path / "fail.vasm"
        prog.write_text(FAILING)
        with pytest.raises(simulator.SimulationError) as err:  # a failed run on a full disk
            simulator.run(prog, trace=out)
    assert [d.line for d in err.value.diagnostics] == [8, 1]

    class Interrupt(Observer):
        def on_event(self, ev):
            raise KeyboardInterrupt

    for fmt in ("jsonl", "text"):
        with pytest.raises(KeyboardInterrupt):
            simulator.run(QUICKSTART, trace=out, trace_format=fmt, observers=[Interrupt()])
    assert not out.exists() and leftovers(tmp_path) == []
