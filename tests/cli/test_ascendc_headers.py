"""The clean-room AscendC headers (simulator/ascendc/include, docs/ascendc.md).

Our own AscendC-style kernels (tests/data/ascendc/kernels/) are compiled with g++ against the
headers and a recording bridge (tests/data/ascendc/kernels/record_bridge.cpp) that prints every
bridge call. The statement stream of each launch must assemble with pipev's assembler (and run),
report the kernels' own
lines, and carry what each `// => X` comment in the sources names at that line. Compiled programs
are cached under the temp directory, keyed by a hash of the sources, headers, flags and compiler.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import simulator
from isa import assemble
from isa.diagnostics import AssemblyError
from isa.types import lookup

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "simulator" / "ascendc" / "include"
SRC = ROOT / "tests" / "data" / "ascendc" / "kernels"
CACHE = Path(tempfile.gettempdir()) / "pipev-ascendc-headers-tests"
CXXFLAGS = ["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O0"]
CHIPS = {1001: "ascend910", 2201: "ascend910b", 3510: "ascend950"}

# program name: (sources, __NPU_ARCH__)
PROGRAMS = {
    "select_modes": (["select_modes.cpp"], 2201),
    "compare_ops": (["compare_ops.cpp"], 2201),
    "tiled_add_cpu": (["tiled_add_kernel.cpp", "tiled_add_cpu.cpp"], 2201),
    "tiled_add_acl": (["tiled_add_kernel.cpp", "tiled_add_acl.cpp"], 2201),
    "c_api_compare": (["c_api_compare.cpp"], 2201),
    "select_sample": (["select_sample.cpp"], 2201),
    "queue_errors": (["queue_errors.cpp"], 2201),
    "convert_pad": (["convert_pad.cpp"], 2201),
    "flex950": (["flex950.cpp"], 3510),
    "ascend910": (["ascend910.cpp"], 1001),
    "kernel_only": (["kernel_only.cpp"], 2201),
    # Cast pairs and round modes (issue #27)
    "cast_pairs": (["cast_pairs.cpp"], 2201),
    "c_api_cast": (["c_api_cast.cpp"], 2201),
    "atomic_add": (["atomic_add.cpp"], 2201),  # GM atomics (issue #27)
    "types_copy": (["types_copy.cpp"], 2201),  # int64 uint64 double bool tensors (issue #27)
    "scalar_helpers": (["scalar_helpers.cpp"], 2201),  # scalar helpers (issue #27)
    "reductions": (["reductions.cpp"], 2201),
    "int4": (["int4.cpp"], 2201),  # int4b_t: AscendC and the C API (issue #27)
    "copy_ub": (["copy_ub.cpp"], 2201),  # Copy, UB to UB
}
QUEUE_ERRORS = ["deque_empty", "alloc_beyond", "free_twice", "init_beyond_ub",
                "enque_beyond_depth", "no_init_buffer", "assert_fails"]


def gxx() -> str:
    path = shutil.which("g++")
    if path is None:
        pytest.fail("g++ is needed to compile AscendC kernels against pipev's headers "
                    "(apt-get install g++)")
    return path


def _digest(paths: list[Path], extra: list[str]) -> str:
    h = hashlib.sha256()
    for part in extra:
        h.update(part.encode() + b"\0")
    for p in paths:
        h.update(str(p).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:20]


def _compiler() -> tuple[str, str]:
    compiler = gxx()
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout
    return compiler, version


def compile_object(source: Path, arch: int) -> Path:
    """SOURCE compiled to an object file (cached by sources, headers, flags and compiler)."""
    compiler, version = _compiler()
    flags = CXXFLAGS + [f"-D__NPU_ARCH__={arch}", f"-I{INCLUDE}", f"-I{SRC}"]
    deps = [source, *sorted(INCLUDE.rglob("*.h")), *sorted(SRC.glob("*.h"))]
    obj = CACHE / _digest(deps, flags + [version]) / (source.stem + ".o")
    if not obj.exists():
        obj.parent.mkdir(parents=True, exist_ok=True)
        tmp = obj.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
        r = subprocess.run([compiler, *flags, "-c", str(source), "-o", str(tmp)],
                           capture_output=True, text=True)
        assert r.returncode == 0 and not r.stderr, f"g++ failed for {source.name}:\n{r.stderr}"
        tmp.replace(obj)
    return obj


def build(name: str, sources: list[Path], arch: int, pool: ThreadPoolExecutor) -> Path:
    """SOURCES and the recording bridge linked into an executable (cached)."""
    objs = [f.result() for f in [pool.submit(compile_object, s, arch)
                                 for s in sources + [SRC / "record_bridge.cpp"]]]
    exe = CACHE / _digest(objs, [name]) / name
    if not exe.exists():
        exe.parent.mkdir(parents=True, exist_ok=True)
        tmp = exe.with_suffix(f".tmp{os.getpid()}")
        r = subprocess.run([_compiler()[0], *map(str, objs), "-o", str(tmp)],
                           capture_output=True, text=True)
        assert r.returncode == 0, f"linking {name} failed:\n{r.stderr}"
        tmp.replace(exe)
    return exe


def template_sample() -> Path:
    """A Select kernel of our own in the layout of the vendor's samples (a kernel class, TQue
    stages, an extern "C" entry): it must compile and run as written, naming no pipev header."""
    return SRC / "select_template.cpp"


@pytest.fixture(scope="session")
def programs() -> dict[str, Path]:
    jobs = {name: ([SRC / s for s in srcs], arch) for name, (srcs, arch) in PROGRAMS.items()}
    jobs["template_sample"] = ([template_sample(), SRC / "template_sample_main.cpp"], 2201)
    # objects first (two compilers at a time), each program links once its objects exist
    units = {(s, arch) for srcs, arch in jobs.values() for s in srcs + [SRC / "record_bridge.cpp"]}
    with ThreadPoolExecutor(2) as pool:
        for s, arch in sorted(units):
            pool.submit(compile_object, s, arch)
    with ThreadPoolExecutor(2) as pool:
        return {name: build(name, srcs, arch, pool) for name, (srcs, arch) in jobs.items()}


def arch_of(name: str) -> int:
    return PROGRAMS.get(name, ([], 2201))[1]


def run(programs, name: str, *args: str) -> list[list[str]]:
    env = dict(os.environ, PIPEV_NPU_ARCH=str(arch_of(name)))
    r = subprocess.run([str(programs[name]), *args], capture_output=True, text=True, env=env,
                       timeout=60)
    assert r.returncode == 0, f"{name} {args} exited {r.returncode}:\n{r.stderr}"
    return [line.split("\t") for line in r.stdout.splitlines()]


def launches(records: list[list[str]]) -> list[list[list[str]]]:
    """The records of each launch (launch ... launch_end); GM buffers declared outside a launch
    (pipev's own, in kernel-only runs) belong to every launch."""
    out: list[list[list[str]]] = []
    outside: list[list[str]] = []
    inside = False
    for rec in records:
        if rec[0] == "launch":
            out.append([rec, *outside])
            inside = True
        elif inside:
            out[-1].append(rec)
            inside = rec[0] != "launch_end"
        elif rec[0] == "gm":
            outside.append(rec)
    return out


def program_text(launch: list[list[str]], chip: str) -> tuple[str, list[tuple[str, int]]]:
    """A .vasm program of one launch: its tensors, then each statement after `li`s of its
    registers. Returns the text and, per program line, the (file, line) that issued it."""
    decls, body = [f".chip {chip}"], []
    where: list[tuple[str, int]] = [("", 0)]
    for rec in launch:
        if rec[0] == "ub":
            decls.append(f".ub {rec[3]} {rec[4]}[{rec[6]}] @{rec[5]}")
        elif rec[0] == "gm":
            count = int(rec[5]) // lookup(rec[4]).size
            decls.append(f".gm {rec[3]} {rec[4]}[{count}] inout = zeros")
        elif rec[0] == "issue":
            for kv in rec[4].split():
                body.append(("li " + kv.replace("=", ", "), (rec[1], int(rec[2]))))
            body.append((rec[3], (rec[1], int(rec[2]))))
    where += [("", 0)] * (len(decls) - 1) + [w for _, w in body]
    return "\n".join(decls + [t for t, _ in body]) + "\n", where


def expectations(paths: list[Path]) -> list[tuple[Path, int, str]]:
    """(file, line, expectation) of every `// => A | B` comment."""
    out = []
    for path in paths:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if "// =>" in line and not line.lstrip().startswith("//"):
                for exp in line.split("// =>", 1)[1].split(" | "):
                    out.append((path, n, exp.strip()))
    return out


def matches(rec: list[str], exp: str) -> bool:
    kind = rec[0]
    if exp.startswith("launch "):
        return kind == "launch" and rec[3] == exp[7:]
    if exp.startswith(("ub ", "gm ")):
        return kind == exp[:2] and rec[3] == exp[3:]
    if exp == "access":
        return kind == "access"
    for prefix, severity in (("error: ", "2"), ("warning: ", "1"), ("print: ", "-1")):
        if exp.startswith(prefix):
            return kind == "message" and rec[3] == severity and exp[len(prefix):] in rec[4]
    if kind != "issue":
        return False
    return rec[3] == exp[:-1] if exp.endswith("$") else rec[3].startswith(exp)


def check_expectations(records: list[list[str]], sources: list[Path]) -> None:
    missing = []
    for path, line, exp in expectations(sources):
        at = [r for r in records if len(r) > 2 and r[1] == str(path) and r[2] == str(line)]
        if not any(matches(r, exp) for r in at):
            got = "\n    ".join("\t".join(r) for r in at) or "(nothing)"
            missing.append(f"{path.name}:{line}: expected {exp!r}, got:\n    {got}")
    assert not missing, "\n".join(missing)


def check_kernel_lines(records: list[list[str]], sources: list[Path]) -> None:
    """Every position reported is a line of the kernel's own sources, never a header's."""
    files = {str(p) for p in sources}
    for rec in records:
        if rec[0] in ("issue", "ub", "gm", "access", "message", "launch"):
            assert rec[1] in files, f"{rec[0]} reported at {rec[1]}:{rec[2]}, not a kernel line"
            assert int(rec[2]) > 0


def assemble_launch(launch: list[list[str]], chip: str):
    text, where = program_text(launch, chip)
    try:
        return assemble(text, chip=chip), text
    except AssemblyError as e:
        lines = [f"{d}  <- {where[d.line][0]}:{where[d.line][1]}" if d.line < len(where) else str(d)
                 for d in e.diagnostics]
        raise AssertionError("the statement stream does not assemble:\n" + "\n".join(lines)) \
            from None


def sources_of(name: str) -> list[Path]:
    srcs, _ = PROGRAMS[name]
    return [SRC / s for s in srcs]


STREAM_RUNS = {
    "select_modes": [()],
    "compare_ops": [()],
    "tiled_add_cpu": [()],
    "tiled_add_acl": [()],
    "c_api_compare": [()],
    "select_sample": [()],
    "flex950": [()],
    "ascend910": [()],
    "convert_pad": [(), ("pad",), ("cast",)],
    "kernel_only": [()],
    "cast_pairs": [()],
    "c_api_cast": [()],
    "types_copy": [()],
    "reductions": [()],
    "int4": [()],
    "copy_ub": [()],
}


@pytest.mark.parametrize("name", sorted(STREAM_RUNS))
def test_statement_streams_assemble_and_run(programs, name):
    """Each launch's statements, declared tensors and `li`s of their registers make a program
    pipev assembles and runs without a warning (races, flags left set, uninitialised reads)."""
    chip = CHIPS[arch_of(name)]
    for args in STREAM_RUNS[name]:
        records = run(programs, name, *args)
        check_kernel_lines(records, sources_of(name))
        runs = launches(records)
        assert runs and all(r[-1] == ["launch_end"] for r in runs), records[-3:]
        for launch in runs:
            assert not [r for r in launch if r[0] == "message" and r[3] in ("1", "2")], launch
            program, text = assemble_launch(launch, chip)
            result = simulator.run(program)
            bad = [str(d) for d in result.diagnostics if d.severity != "note"]
            assert not bad, "\n".join(bad)


RUN_ARGS = {"queue_errors": [(c,) for c in QUEUE_ERRORS], "tiled_add_cpu": [(), ("multicore",)],
            "convert_pad": [(), ("pad",), ("cast",)], "int4": [(), ("split",), ("odd",)]}
SOURCES = sorted({s for srcs, _ in PROGRAMS.values() for s in srcs})


@pytest.mark.parametrize("source", SOURCES)
def test_kernel_lines_carry_the_expected_statements(programs, source):
    """Every `// => X` of a source holds in some run of the programs built from it."""
    records = []
    for name, (srcs, _) in PROGRAMS.items():
        if source in srcs:
            for args in RUN_ARGS.get(name, [()]):
                recs = run(programs, name, *args)
                check_kernel_lines(recs, sources_of(name))
                records += recs
    check_expectations(records, [SRC / source])


def test_statement_text_is_fixed_per_call_site(programs):
    """Values that change between loop iterations travel in registers, not in the text: in the
    double-buffered add each call site issues one text per statement and buffer (2 buffers)."""
    launch = launches(run(programs, "tiled_add_cpu"))[1]
    texts: dict[tuple[str, str, str], set[str]] = {}
    for rec in launch:
        if rec[0] == "issue" and not rec[3].startswith(("set_flag", "wait_flag")):
            texts.setdefault((rec[1], rec[2], rec[3].split()[0]), set()).add(rec[3])
    assert texts and max(len(t) for t in texts.values()) == 2
    copies = [r for r in launch if r[0] == "issue" and r[3].startswith("copy_gm_to_ub")]
    assert len(copies) == 16 and len({(r[2], r[4]) for r in copies}) == 16  # 8 tiles of x, y


def inline_registers(launch: list[list[str]]) -> list[list[str]]:
    """The launch with register values written into the texts (no `li`s: timing as in pipev,
    which loads the registers without modelling instructions)."""
    out = []
    for rec in launch:
        if rec[0] == "issue" and rec[4]:
            regs = dict(kv.split("=") for kv in rec[4].split())
            text = re.sub(r"\bx\d+\b", lambda m, regs=regs: regs[m.group(0)], rec[3])
            rec = rec[:3] + [text, ""]
        out.append(rec)
    return out


def test_double_buffering_overlaps_in_the_timing(programs):
    """The queue flags let MTE2, V and MTE3 overlap (the add is DMA bound: copy-out overlaps
    copy-in), and two buffers per queue take fewer cycles than one."""
    single, double = launches(run(programs, "tiled_add_cpu"))
    results = [simulator.run(assemble_launch(inline_registers(r), "ascend910b")[0])
               for r in (single, double)]
    busy = sum(results[1].pipes[p] for p in ("V", "MTE2", "MTE3"))
    assert results[1].cycles < results[0].cycles and results[1].cycles < 0.8 * busy


@pytest.mark.parametrize("case", QUEUE_ERRORS)
def test_queue_rules_stop_the_run_at_the_kernel_line(programs, case):
    records = run(programs, "queue_errors", case)
    errors = [i for i, r in enumerate(records) if r[0] == "message" and r[3] == "2"]
    assert len(errors) == 1, records
    after = records[errors[0] + 1:]
    assert [r[0] for r in after] == ["launch_end"], after  # nothing more is issued
    lines = (SRC / "queue_errors.cpp").read_text().splitlines()
    start = next(n for n, t in enumerate(lines, 1) if f"void {case}(" in t)
    end = next(n for n, t in enumerate(lines, 1) if n > start and t == "}")
    line = int(records[errors[0]][2])
    assert start < line < end and "// => error:" in lines[line - 1], (case, line)


def test_multicore_launch_runs_the_body_once_per_block(programs):
    """blockDim 2: the kernel body runs for block 0, then block 1 (each its own UB tensors and
    queues), the same statements as one block's launch twice over, and no error."""
    records = run(programs, "tiled_add_cpu", "multicore")
    assert records[0][0] == "launch" and records[0][4] == "2"
    assert not [r for r in records if r[0] == "message" and r[3] == "2"]
    single = launches(run(programs, "tiled_add_cpu"))[1]
    issued = [r[3] for r in records if r[0] == "issue"]
    one = [r[3] for r in single if r[0] == "issue"]
    assert issued == one + one and records[-1] == ["launch_end"]


def test_cast_and_pad_statements_match_pipev_syntax(programs):
    """Cast, Abs, And, Or, Not and DataCopyPad issue statements pipev assembles and runs; the
    padded round trip writes back exactly the 4 rows of 31 floats it read."""
    launch = launches(run(programs, "convert_pad", "cast"))[0]
    issued = [r[3] for r in launch if r[0] == "issue"]
    for mn in ("cast.f16.f32", "abs.f16", "and.s16", "or.s16", "not.s16"):
        assert any(t.startswith(mn) for t in issued), issued
    launch = launches(run(programs, "convert_pad", "pad"))[0]
    program, _ = assemble_launch(launch, "ascend910b")
    x = next(t for t in program.gm.values() if t.name.endswith("x"))
    data = np.arange(x.nbytes // 4, dtype=np.float32).view(np.uint8)
    result = simulator.run(program, inputs={x.name: data.view(x.dtype.npy)})
    y = next(v for k, v in result.outputs.items() if k.endswith("y"))
    assert y.view(np.uint8)[:496].tobytes() == data[:496].tobytes()


def test_select_template_sample_compiles_unchanged(programs):
    records = run(programs, "template_sample")
    sample = template_sample()
    check_kernel_lines(records, [sample, SRC / "template_sample_main.cpp"])
    launch = launches(records)[0]
    program, _ = assemble_launch(launch, "ascend910b")
    simulator.run(program)
    lines = sample.read_text().splitlines()
    select_line = next(n for n, t in enumerate(lines, 1) if "AscendC::Select(" in t)
    selects = [r for r in launch if r[0] == "issue" and r[2] == str(select_line)]
    assert len(selects) == 1 and selects[0][3].startswith("select.f32 ") \
        and "mode=0, count=x5" in selects[0][3] and selects[0][4].endswith("x5=256")


def test_headers_compile_alone_warning_free():
    """Each public header compiles on its own (and twice) with -Wall -Wextra."""
    headers = ["kernel_operator.h", "tikicpulib.h", "acl/acl.h", "c_api/asc_simd.h",
               "kernel_tiling/kernel_tiling.h", "ascendc/host_api/tiling/template_argument.h"]
    compiler, version = _compiler()
    stamp = CACHE / _digest(sorted(INCLUDE.rglob("*.h")), CXXFLAGS + [version]) / "headers.ok"
    if stamp.exists():
        return
    stamp.parent.mkdir(parents=True, exist_ok=True)
    units = []
    for i, h in enumerate(headers):
        unit = stamp.parent / f"unit{i}.cpp"
        unit.write_text(f'#include "{h}"\n#include "{h}"\n')
        units.append(str(unit))
    r = subprocess.run([compiler, *CXXFLAGS, "-fsyntax-only", f"-I{INCLUDE}", *units],
                       capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr
    stamp.write_text("ok\n")


def test_datacopy_moves_64_bit_double_and_bool_tensors(programs):
    """DataCopy of int64_t, uint64_t, double and bool tensors declares them in their own types
    (bool: one byte a value) and round-trips their bytes."""
    launch = launches(run(programs, "types_copy"))[0]
    assert [r[4] for r in launch if r[0] == "ub"] == ["s64", "u64", "f64", "bool"]
    program, _ = assemble_launch(launch, "ascend910b")
    x = next(t for t in program.gm.values() if t.name.endswith("x"))
    data = np.arange(x.nbytes, dtype=np.uint8) % 2
    result = simulator.run(program, inputs={x.name: data.view(x.dtype.npy)})
    y = next(v for k, v in result.outputs.items() if k.endswith("y"))
    copied = 256  # GmAlloc(256): the recording's 32 bytes after it are the runtime's slack
    assert y.view(np.uint8)[:copied].tobytes() == data[:copied].tobytes()


def test_copy_moves_what_its_forms_name(programs):
    """Copy's count form, its contiguous-mask form (CopyRepeatParams as a braced list) and its
    bitwise-mask form (blocks and repeats apart) write the elements the Copy page names,
    element by element, and nothing else; a queue buffer of 400 bytes takes DataCopyPad's 416
    (InitBuffer pads its length to whole blocks)."""
    launch = launches(run(programs, "copy_ub"))[0]
    program, _ = assemble_launch(launch, "ascend910b")
    x = next(t for t in program.gm.values() if t.name.endswith("x"))
    data = np.arange(1, x.nbytes // 4 + 1, dtype=np.float32)  # (the runtime's slack after it)
    result = simulator.run(program, inputs={x.name: data.view(x.dtype.npy)})
    y = next(v for k, v in result.outputs.items() if k.endswith("y")).view(np.float32)
    want = np.zeros(2048, np.float32)
    want[:100] = data[:100]
    want[256:384] = data[256:384]
    for r in range(2):
        for k in range(64):
            if (0xF0F0F0F0F0F0F0F0 >> k) & 1:
                b, e = divmod(k, 8)
                want[1024 + (16 * r + 2 * b) * 8 + e] = data[512 + (8 * r + b) * 8 + e]
    want[1536:1636] = data[:100]
    assert y[:2048].tobytes() == want.tobytes()


def test_scalar_helpers_match_the_reference(programs):
    """GetBitCount ... scalar Cast and the C API's scalar calls, run in the kernel's C++ code,
    against tests/reference/scalar.py (issue #27)."""
    from tests.reference import scalar as R

    texts = [r[4].replace("\\n", " ").strip() for r in run(programs, "scalar_helpers")
             if r[0] == "message"]
    seen = {"bits": 0, "float": 0, "bf16": 0, "ceil": 0}
    for line in texts:
        kind, *vals = line.split()
        seen[kind] += 1
        if kind == "bits":
            b = int(vals[0], 16)
            s = b - (1 << 64) if b >> 63 else b
            want = [R.bit_count(b, True), R.bit_count(b, False), R.leading_zeros(b),
                    R.same_as_sign(s), R.first_from_lsb(b, 1), R.first_from_lsb(b, 0),
                    R.bit_count(b, True), R.first_from_lsb(b, 0), R.same_as_sign(s)]
            assert [int(v) for v in vals[1:]] == want, line
        elif kind == "float":
            f = int(vals[0], 16)
            want = [R.to_half_odd(f), R.to_int32(f, "rint"), R.to_int32(f, "round"),
                    R.to_int32(f, "floor"), R.to_int32(f, "ceil"), R.to_int32(f, "round")]
            assert [int(vals[1], 16)] + [int(v) for v in vals[2:]] == want, line
        elif kind == "bf16":
            assert int(vals[1], 16) == R.bf16_round_trip(int(vals[0], 16)), line
        else:
            assert [int(v) for v in vals] == [R.ceil_division(5000, 4096), 1, 1, 0]
    assert seen == {"bits": 9, "float": 18, "bf16": 18, "ceil": 1}, seen

