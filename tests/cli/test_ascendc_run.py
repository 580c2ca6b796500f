"""`pipev run` on AscendC C++ with pipev's real headers, end to end: the Select page's Template
Sample unchanged (kernel-only mode), one clean diagnostic at the right .cpp line for a misaligned
operand, a missing SetFlag/WaitFlag, a DeQue of an empty queue and a compile error; the summary,
--trace in every format, and --save-vasm recordings that replay with the same bytes and cycles
and name the C++ lines (.loc). The programs under programs/ascendc/ are checked against numpy in
tests/cli/test_programs.py.

Each run is `python -m simulator.cli run ...` in its own directory, with the compile cache under
pytest's cache (a rerun of the suite compiles nothing).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_ascendc_headers import template_sample  # our kernel in the vendor samples' layout

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "tests" / "data" / "ascendc" / "run"
PROGRAMS = ROOT / "programs" / "ascendc"
DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning): "
                  r"(?P<msg>.*)$", re.M)


def line_of(path: Path, needle: str) -> int:
    return next(n for n, text in enumerate(path.read_text().splitlines(), 1) if needle in text)


def diagnostics(stderr: str) -> list[re.Match]:
    return list(DIAG.finditer(stderr))


def test_select_template_sample_unchanged_kernel_only(pipev, tmp_path):
    sample = template_sample()
    rng = np.random.default_rng(7)
    a = rng.standard_normal(256).astype(np.float32)
    b = rng.standard_normal(256).astype(np.float32)
    sel = rng.integers(0, 256, 128, dtype=np.uint8)
    for name, arr in (("a", a), ("b", b), ("sel", sel)):
        np.save(tmp_path / f"{name}.npy", arr)
    proc = pipev("run", sample, "--kernel", "select_cmpmask_demo", "--arg", "src0Gm=a.npy",
                 "--arg", "src1Gm=b.npy", "--arg", "selGm=sel.npy", "--arg",
                 "dstGm=out:f32[256]", "--output-dir", "out", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["kernel"] == "select_cmpmask_demo" and summary["cycles"] > 0
    # mode 0 (VSEL_CMPMASK_SPR): the first 64 sel bits choose in every repeat of 64 floats
    bits = np.unpackbits(sel[:8], bitorder="little").astype(bool)
    want = np.where(np.tile(bits, 4), a, b)
    assert np.load(tmp_path / "out" / "dstGm.npy").tobytes() == want.tobytes()


def test_misaligned_select_destination(pipev):
    src = RUN / "misaligned.cpp"
    proc = pipev("run", src)
    assert proc.returncode == 1
    errors = [d for d in diagnostics(proc.stderr) if d["sev"] == "error"]
    assert len(errors) == 1, proc.stderr
    d = errors[0]
    assert (Path(d["file"]), int(d["line"]), int(d["col"])) == \
        (src, line_of(src, "Select(dstLocal[1]"), 5)
    assert "not 32-byte aligned" in d["msg"] and "0x404" in d["msg"]


@pytest.mark.parametrize("json_out", [False, True])
def test_a_failed_launch_ends_the_host_program(pipev, json_out):
    # misaligned.cpp's main prints "after the launch" after ICPU_RUN_KF: a kernel that failed
    # ends the program there, as a kernel fault does on the device (nor do its outputs follow)
    proc = pipev("run", RUN / "misaligned.cpp", *(["--json"] if json_out else []))
    assert proc.returncode == 1
    assert "after the launch" not in proc.stdout + proc.stderr, proc.stdout
    assert len([d for d in diagnostics(proc.stderr) if d["sev"] == "error"]) == 1, proc.stderr
    if json_out:
        assert json.loads(proc.stdout)["ok"] is False


def test_an_api_call_outside_a_launch_ends_the_program_with_one_error(pipev, tmp_path):
    (tmp_path / "outside.cpp").write_text(
        '#include "tikicpulib.h"\n#include <cstdio>\n\nint main()\n{\n'
        "    AscendC::TPipe pipe;\n    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;\n"
        "    pipe.InitBuffer(buf, 4096);\n"
        "    AscendC::LocalTensor<float> src = buf.Get<float>();\n"
        '    std::printf("after the call\\n");\n    return 0;\n}\n')
    proc = pipev("run", "outside.cpp")
    assert proc.returncode == 1
    [d] = diagnostics(proc.stderr)  # once, and no crash report (it was twice, then SIGABRT)
    assert (d["sev"], int(d["line"])) == ("error", 9) and "outside a kernel launch" in d["msg"]
    assert "crashed" not in proc.stderr and "after the call" not in proc.stdout


def test_debugging_a_kernel_that_fails_a_check_reports_it_once(pipev):
    src = RUN / "misaligned.cpp"
    proc = pipev("debug", "--batch", src)
    assert proc.returncode == 1
    [d] = diagnostics(proc.stderr)  # the run's report at the C++ line, not the recording's too
    assert (d["sev"], int(d["line"])) == ("error", line_of(src, "Select(dstLocal[1]"))
    assert "not 32-byte aligned" in d["msg"], proc.stderr


def test_missing_flag_between_datacopy_and_vector_op(pipev):
    src = RUN / "missing_flag.cpp"
    proc = pipev("run", src, "--quiet")
    assert proc.returncode == 0, proc.stderr
    [d] = diagnostics(proc.stderr)
    assert (d["sev"], Path(d["file"]), int(d["line"])) == \
        ("warning", src, line_of(src, "AscendC::Muls"))
    assert d["msg"].startswith("race: vmuls.f32 on V") and "copy_gm_to_ub on MTE2" in d["msg"]
    proc = pipev("run", src, "--quiet", "--werror")
    assert proc.returncode == 1
    [d] = diagnostics(proc.stderr)
    assert (d["sev"], int(d["line"])) == ("error", line_of(src, "AscendC::Muls"))


def test_deque_of_an_empty_queue(pipev):
    src = RUN / "deque_empty.cpp"
    proc = pipev("run", src)
    assert proc.returncode == 1
    [d] = diagnostics(proc.stderr)
    assert (d["sev"], Path(d["file"]), int(d["line"])) == \
        ("error", src, line_of(src, "inQueue.DeQue"))
    assert "DeQue on an empty queue" in d["msg"] and "EnQue" in d["msg"]
    assert "deadlock" in d["msg"]


def test_a_dequeued_tensor_may_be_queued_again(pipev, tmp_path):
    """An accumulator kept in its queue: DeQue, Add, EnQue again (a third-party LogSumExp's
    loop) runs, its flags paired as every EnQue's are."""
    x = np.arange(256, dtype=np.float32) - 100.5
    np.save(tmp_path / "x.npy", x)
    proc = pipev("run", RUN / "requeue.cpp", "--kernel", "requeue", "--arg",
                 f"x={tmp_path / 'x.npy'}", "--arg", "y=out:f32[256]", "--output-dir",
                 tmp_path / "out", "--werror")
    assert proc.returncode == 0, proc.stderr
    y = np.load(tmp_path / "out" / "y.npy")
    assert y.tobytes() == (x + x + x).tobytes()


def test_compile_error_is_the_compilers_diagnostic(pipev):
    src = RUN / "compile_error.cpp"
    proc = pipev("run", src)
    assert proc.returncode == 1
    errors = [d for d in diagnostics(proc.stderr) if d["sev"] == "error"]
    assert len(errors) == 1, proc.stderr
    assert (Path(errors[0]["file"]), int(errors[0]["line"])) == \
        (src, line_of(src, "Selekt"))


@pytest.fixture(scope="module")
def recorded(env, tmp_path_factory):
    """select_count.cpp run once with --save-vasm and a trace in each format."""
    cwd = tmp_path_factory.mktemp("recorded")
    args = [sys.executable, "-m", "simulator.cli", "run", str(PROGRAMS / "select_count.cpp"),
            "--save-vasm", "rec.vasm", "--trace", "t.jsonl"]
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    traces = {}
    for fmt in ("chrome", "vcd", "text"):
        traces[fmt] = subprocess.run(
            [*args[:5], "--trace", f"t.{fmt}", "--trace-format", fmt], cwd=cwd, env=env,
            capture_output=True, text=True, timeout=120)
    return proc, traces, cwd


def test_cpp_run_summary_and_traces(recorded):
    proc, traces, cwd = recorded
    assert proc.returncode == 0, proc.stderr
    src = str(PROGRAMS / "select_count.cpp")
    launch = line_of(PROGRAMS / "select_count.cpp", "ICPU_RUN_KF(select_count")
    head = proc.stderr.splitlines()[0]
    assert head.startswith(f"{src}:{launch} select_count on ascend910b: ")
    assert re.search(r"^  cycles \d+ ", proc.stderr, re.M)
    assert "scalar C++ code is not timed" in proc.stderr
    hot = re.findall(r"^  hot  (.+?):\s+(\d+)", proc.stderr, re.M)
    assert hot and all(f == src for f, _ in hot)
    events = [json.loads(x) for x in (cwd / "t.jsonl").read_text().splitlines()]
    assert any(e.get("file") == src for e in events), events[:3]
    for fmt, p in traces.items():
        assert p.returncode == 0, p.stderr
        text = (cwd / f"t.{fmt}").read_text()
        assert text and ("select_count.cpp" in text or fmt == "vcd"), fmt


def test_save_vasm_replays_with_the_same_bytes_cycles_and_cpp_lines(recorded, pipev):
    proc, _, cwd = recorded
    cycles = int(re.search(r"^  cycles (\d+)", proc.stderr, re.M)[1])
    text = (cwd / "rec.vasm").read_text()
    src = PROGRAMS / "select_count.cpp"
    select_line = line_of(src, "static_cast<half>(0.5f), mode, N)")
    assert f'.loc "{src}" {select_line} 13\n    select.f16 ' in text
    replay = pipev("run", "rec.vasm", "--output-dir", "out", "--json", cwd=cwd)
    assert replay.returncode == 0, replay.stderr
    summary = json.loads(replay.stdout)
    assert summary["cycles"] == cycles
    assert all(h["file"] == str(src) for h in summary["hot_lines"])
    outputs = b"".join((cwd / f"select_count_out_mode{m}.bin").read_bytes() for m in range(3))
    # the buffer GmAlloc made holds the runtime's slack too (32 bytes, recorded), but the
    # recording marks the data before it: the replay's output is the program's, byte for byte
    assert "inout data(" in text
    assert np.load(cwd / "out" / "gm_out.npy").tobytes() == outputs


def test_debug_a_cpp_program_at_its_lines(pipev, tmp_path):
    src = PROGRAMS / "select_count.cpp"
    line = line_of(src, "static_cast<half>(0.5f), mode, N)")
    (tmp_path / "cmds").write_text(f"break select_count.cpp:{line}\ncontinue\nwatch que3_0[0:4]\n"
                                   "continue\nprint que3_0[0:4]\nback\nprint que3_0[0:4]\n"
                                   "list\n")
    proc = pipev("debug", "--commands", "cmds", src)  # options before the file too
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"pipev debug: {src} on ascend910b" in out
    assert f"breakpoint 1 at line {line}" in out
    assert f"{src}:{line}: AscendC::Select(dst, sel, a, static_cast<half>(0.5f), mode, N);" in out
    assert "watchpoint 2 (que3_0[0:4]) written by line" in out
    after, before = re.findall(r"^que3_0\[0:4\] = (.*)$", out, re.M)
    assert after == "[0.5 0.5 0.5 0.5]" and before != after  # stepped back over the write
    assert re.search(rf"^b=>\s+{line}\s+AscendC::Select", out, re.M)
    gdb = pipev("debug", "--ex", f"break {line}", "--ex", "continue", "--ex", "print $pc",
                "--batch", src)  # --ex takes a value: the file is still found
    assert gdb.returncode == 0, gdb.stderr
    assert f"breakpoint 1, line {line}" in gdb.stdout and "$pc = " in gdb.stdout


def test_debugging_a_recording_shows_the_cpp_source(recorded, pipev):
    _, _, cwd = recorded
    src = PROGRAMS / "select_count.cpp"
    (cwd / "cmds").write_text("list\n")
    proc = pipev("debug", "rec.vasm", "--commands", "cmds", cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    first = line_of(src, "AscendC::DataCopy(aLocal, aGm, N)")
    assert f"{src}:{first}: AscendC::DataCopy(aLocal, aGm, N);" in proc.stdout


def test_listing_a_recording_names_the_cpp_lines(recorded, pipev):
    _, _, cwd = recorded
    src = PROGRAMS / "select_count.cpp"
    proc = pipev("asm", "rec.vasm", cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == f"; {src} on ascend910b"
    first = line_of(src, "AscendC::DataCopy(aLocal, aGm, N)")
    assert re.match(rf"\s+{first}\s+0\s+copy_gm_to_ub que0_0\[\(0\)\], gm_a", lines[1])
