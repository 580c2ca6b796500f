"""The Chrome trace rules real viewers need (issue 18), checked independently of the writer.

Perfetto drops a complete event that overlaps a sibling (`slice_drop_overlapping_complete_event`)
and re-parents slices whose end lands past the next one's start; speedscope builds a staircase
from slices that do not nest exactly; a flow end without `bp` binds to the "next slice", which
Perfetto takes to be one beginning strictly after it (the real UI: tests/viewers). So, per
thread: integer timestamps, slices that nest exactly or are disjoint, every flow matched, its
end `bp:"e"` binding to the innermost slice enclosing it, which begins at the flow's end and no
earlier than its start, instant events scoped to a thread, and pipev's own keys under otherData
only.
"""

import json
from pathlib import Path

import pytest

import simulator

ROOT = Path(__file__).resolve().parents[2] / "programs"
PROGRAMS = [ROOT / "tutorial" / "maximum.vasm", ROOT / "kernels" / "double_buffer.vasm",
            ROOT / "kernels" / "relu.vasm", ROOT / "kernels" / "multicore_relu.vasm"]


def nesting_problems(slices: list[dict]) -> list[str]:
    """Slices of one thread (in file order) that neither nest in nor follow the open ones."""
    order = sorted(range(len(slices)), key=lambda k: (slices[k]["ts"], -slices[k]["dur"], k))
    stack: list[dict] = []
    problems = []
    for k in order:
        e = slices[k]
        while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"] and not (
                stack[-1]["dur"] == 0 == e["dur"] and stack[-1]["ts"] == e["ts"]):
            stack.pop()
        if stack and e["ts"] + e["dur"] > stack[-1]["ts"] + stack[-1]["dur"]:
            problems.append(f"{e['name']} [{e['ts']}, +{e['dur']}] sticks out of "
                            f"{stack[-1]['name']} [{stack[-1]['ts']}, +{stack[-1]['dur']}]")
        stack.append(e)
    return problems


def check_viewer_rules(doc: dict) -> None:
    assert set(doc) == {"traceEvents", "otherData"}, set(doc)
    assert doc["otherData"]["time_unit"] in ("cycle", "ps")
    events = doc["traceEvents"]
    threads: dict[tuple[int, int], list[dict]] = {}
    for e in events:
        assert e["pid"] >= 1
        if "ts" in e:
            assert type(e["ts"]) is int and e["ts"] >= 0, e
        if e["ph"] == "X":
            assert type(e["dur"]) is int and e["dur"] >= 0, e
            threads.setdefault((e["pid"], e["tid"]), []).append(e)
        if e["ph"] in ("i", "I"):
            assert e.get("s") == "t", e
    for key, slices in threads.items():
        assert nesting_problems(slices) == [], key
    starts = [e for e in events if e["ph"] == "s"]
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    assert len(ends) == len(starts) == len({e["id"] for e in starts})
    for s in starts:
        f = ends[s["id"]]
        assert f.get("bp") == "e"
        enclosing_end = [e for e in threads[(f["pid"], f["tid"])]
                         if e["ts"] <= f["ts"] < e["ts"] + e["dur"]]
        bound = max(enclosing_end, key=lambda e: (e["ts"], -e["dur"]))  # the innermost
        assert bound["ts"] == f["ts"] >= s["ts"], (s, f, bound)
        enclosing = [e for e in threads[(s["pid"], s["tid"])]
                     if e["ts"] <= s["ts"] <= e["ts"] + e["dur"]]
        assert enclosing, s


@pytest.mark.parametrize("time,unit", [("cycles", "cycle"), ("real", "ps")])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_shipped_programs_traces_follow_the_viewer_rules(tmp_path, program, time, unit):
    out = tmp_path / "t.json"
    result = simulator.run(program, trace=out, trace_time=time)  # .json: Chrome
    doc = json.loads(out.read_text())
    check_viewer_rules(doc)
    instrs = [e for e in doc["traceEvents"] if e.get("cat") == "instr"]
    assert len(instrs) == result.instructions  # nothing dropped
    process = next(e for e in doc["traceEvents"] if e["name"] == "process_name")
    assert f"1 us on the axis = 1 {unit}" in process["args"]["name"]
    assert f"(shown as 1 us) is 1 {unit} of" in doc["otherData"]["time_note"]


def test_the_validator_catches_what_viewers_reject():
    a = {"name": "a", "ts": 0, "dur": 10}
    assert nesting_problems([a, {"name": "b", "ts": 5, "dur": 10}])  # overlapping siblings
    assert nesting_problems([a, {"name": "c", "ts": 2, "dur": 3}]) == []  # exact nesting
    assert nesting_problems([a, {"name": "d", "ts": 10, "dur": 1}]) == []  # touching


def test_an_error_marker_is_thread_scoped_on_the_pipe_at_fault(tmp_path):
    out = tmp_path / "t.json"
    with pytest.raises(simulator.SimulationError):
        simulator.run(ROOT / "tutorial" / "overlap_bug.vasm", trace=out)
    doc = json.loads(out.read_text())
    marker = doc["traceEvents"][-1]
    assert (marker["name"], marker["s"], marker["tid"]) == ("error", "t", 2)  # V
    assert doc["otherData"]["pipevError"]["line"] == 16
    check_viewer_rules(doc)


def test_the_format_follows_the_extension_and_an_unknown_one_lists_them(tmp_path):
    from click.testing import CliRunner

    from simulator.cli import main

    prog = str(ROOT / "tutorial" / "maximum.vasm")
    for name, first in (("t.jsonl", '{"format":"pipev-trace"'), ("t.json", '{"traceEvents"'),
                        ("t.vcd", "$"), ("t.txt", "")):
        r = CliRunner().invoke(main, ["run", prog, "--trace", str(tmp_path / name), "--quiet",
                                      "--output-dir", str(tmp_path / "o")])
        assert r.exit_code == 0, r.output
        assert (tmp_path / name).read_text().startswith(first), name
    forced = tmp_path / "forced.vcd"
    CliRunner().invoke(main, ["run", prog, "--trace", str(forced), "--trace-format", "jsonl",
                              "--quiet", "--output-dir", str(tmp_path / "o")])
    assert forced.read_text().startswith('{"format":"pipev-trace"')
    r = CliRunner().invoke(main, ["run", prog, "--trace", str(tmp_path / "t.trace"),
                                  "--output-dir", str(tmp_path / "o")])
    assert r.exit_code == 2 and not (tmp_path / "t.trace").exists()
    assert ".jsonl (jsonl), .json (chrome), .vcd (vcd), .txt (text)" in r.output


def test_text_timeline_width_and_range(tmp_path):
    out = tmp_path / "t.txt"
    simulator.run(ROOT / "tutorial" / "maximum.vasm", trace=out,
                  trace_options={"width": 20, "cycles": (480, 520)})
    lines = out.read_text().splitlines()
    assert lines[1].startswith("17 instructions, cycles 480..519 (of the run's 0..664), "
                               "1 column = 2 cycles")
    rows = [ln for ln in lines if ln[:6].strip().isdigit()]
    assert all(len(ln.split("[")[1].split("]")[0]) == 20 for ln in rows)
    shown = {int(ln.split()[1]) for ln in rows}  # source lines with work in 480..519
    assert shown == {12, 13, 14, 15, 16, 17, 18, 19}
    wide = tmp_path / "w.txt"
    simulator.run(ROOT / "tutorial" / "maximum.vasm", trace=wide, trace_options={"width": 200})
    assert "1 column = 4 cycles" in wide.read_text().splitlines()[1]


def test_timeline_options_belong_to_the_text_format(tmp_path):
    from click.testing import CliRunner

    from simulator.cli import main

    prog = str(ROOT / "tutorial" / "maximum.vasm")
    for args in (["--trace", str(tmp_path / "t.json"), "--timeline-width", "30"],
                 ["--trace", str(tmp_path / "t.txt"), "--timeline-range", "9:3"]):
        r = CliRunner().invoke(main, ["run", prog, *args, "--output-dir", str(tmp_path)])
        assert r.exit_code == 2, r.output
