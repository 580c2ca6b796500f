"""`pipev run FILE.cpp|FILE.asc`: compiling against pipev's headers (cached), the ctypes bridge,
the worker process (crashes, exit status), kernel-only mode and host programs with `<<<>>>`.

The C++ files here use a stand-in for the AscendC headers (tests/data/ascendc/include), which
reaches every callback of pipev_bridge.h by hand. Compiled objects are cached across test runs
under .pytest_cache, so only the first run pays for the compiler.
"""

import ctypes
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from simulator.ascendc import build
from simulator.ascendc.bridge import PipevBridge, Session, gm_view, numbered
from simulator.ascendc.kernel_args import parse_arg
from simulator.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "ascendc"
FAKE_INCLUDE = DATA / "include"
HAVE_CXX = any(shutil.which(c) for c in build.COMPILERS)


def needs_cxx(test):
    """Marks a test that compiles C++: the machines have a compiler, so a missing one fails
    (test_a_cxx_compiler_is_installed) rather than skipping anything."""
    return test


def test_a_cxx_compiler_is_installed():
    assert HAVE_CXX, f"no C++ compiler on PATH (tried {', '.join(build.COMPILERS)}): install g++"


@pytest.fixture(scope="session")
def cache_dir(request, tmp_path_factory):
    cache = getattr(request.config, "cache", None)
    return cache.mkdir("pipev-ascendc") if cache is not None else tmp_path_factory.mktemp("c")


@pytest.fixture
def cpp(tmp_path, cache_dir, monkeypatch):
    """Run `pipev ARGS...` in TMP_PATH (the worker's output captured at the fd level)."""
    monkeypatch.setenv("PIPEV_CACHE_DIR", str(cache_dir))
    monkeypatch.chdir(tmp_path)

    def run(capfd, *args):
        try:
            main.main(["run", *map(str, args)], prog_name="pipev", standalone_mode=True)
            rc = 0
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 1
        out, err = capfd.readouterr()
        assert "Traceback" not in err, err
        return rc, out, err

    return run


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


COPY_KERNEL = r"""
#include "pipev_standin.h"

extern "C" __global__ __aicore__ void copy_kernel(GM_ADDR src, GM_ADDR dst, GM_ADDR n_) {
    uint32_t n = *reinterpret_cast<uint32_t *>(n_);
    uint64_t x = pipev::ub("x", "half", 0, n);
    pipev::issue("copy_gm_to_ub x[x1], src[x2], nburst=1, burst=x3", {x, 0, n / 16});
    pipev::issue("set_flag MTE2, MTE3, 0");
    pipev::issue("wait_flag MTE2, MTE3, 0");
    pipev::issue("copy_ub_to_gm dst[x2], x[x1], nburst=1, burst=x3", {x, 0, n / 16});
}
"""

# z = x > y ? x : y on 512 halves (the tutorial's maximum.vasm), one API call per statement
MAXIMUM_KERNEL = r"""
#include "pipev_standin.h"

extern "C" __global__ __aicore__ void maximum(GM_ADDR a, GM_ADDR b, GM_ADDR out) {
    pipev::ub("x", "half", 0, 512);
    pipev::ub("y", "half", 1024, 512);
    pipev::ub("m", "uint8_t", 2048, 64);
    pipev::ub("z", "half", 2560, 512);
    pipev::issue("copy_gm_to_ub x, a, nburst=1, burst=32");
    pipev::issue("copy_gm_to_ub y, b, nburst=1, burst=32");
    pipev::issue("set_flag MTE2, V, 0");
    pipev::issue("wait_flag MTE2, V, 0");
    pipev::issue("compare.gt.f16 m, x, y, count=512");
    pipev::issue("select.f16 z, m, x, y, mode=2, count=512");
    pipev::issue("set_flag V, MTE3, 0");
    pipev::issue("wait_flag V, MTE3, 0");
    pipev::issue("copy_ub_to_gm out, z, nburst=1, burst=32");
}
"""

# an .asc program in the samples' style: a host main that reads and writes files
HOST_PROGRAM = r"""
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "pipev_standin.h"

__global__ __aicore__ void double_up(GM_ADDR in, GM_ADDR out, uint32_t n) {
    __ubuf__ uint16_t scratch[16];  // a UB array of the C API
    scratch[0] = 7;
    uint64_t x = pipev::ub("x", "uint16_t", 0, n);
    pipev::issue("copy_gm_to_ub x, in, nburst=1, burst=x1", {n / 16});
    pipev::issue("set_flag MTE2, MTE3, 0");
    pipev::issue("wait_flag MTE2, MTE3, 0");
    pipev::issue("copy_ub_to_gm out, x, nburst=1, burst=x1", {n / 16});
    pipev::issue("copy_ub_to_gm out[x2], x, nburst=1, burst=x1", {n / 16, n});
    if (scratch[0] != 7) abort();
    (void)x;
}

int main(int argc, char **argv) {
    const uint32_t n = 64;
    uint16_t in[n], out[2 * n];
    FILE *f = fopen(argc > 1 ? argv[1] : "input.bin", "rb");
    if (!f || fread(in, 2, n, f) != n) { printf("cannot read input\n"); return 3; }
    fclose(f);
    memset(out, 0, sizeof out);
    pipev::gm("in", "uint16_t", in, sizeof in);
    pipev::gm("out", "uint16_t", out, sizeof out);
    double_up<<<1, nullptr, nullptr>>>((GM_ADDR)in, (GM_ADDR)out, n);
    f = fopen("output.bin", "wb");
    fwrite(out, 2, 2 * n, f);
    fclose(f);
    printf("done %u\n", out[1]);
}
"""


# -- compile and cache ------------------------------------------------------------------------

@needs_cxx
def test_second_compile_is_a_cache_hit(tmp_path, cache_dir, monkeypatch):
    monkeypatch.setenv("PIPEV_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "inc.h", "#define VALUE 1\n")
    src = write(tmp_path / "k.cpp", '#include "inc.h"\n#include "pipev_bridge.h"\n'
                "extern \"C\" int value() { return VALUE; }\n")
    cold = build.compile_source("k.cpp", npu_arch=2201)
    warm = build.compile_source("k.cpp", npu_arch=2201)
    print(f"\ncold compile {cold.seconds:.3f} s, cache hit {warm.seconds * 1e3:.2f} ms")
    assert not cold.cached and warm.cached and warm.shared_object == cold.shared_object
    assert ctypes.CDLL(str(warm.shared_object)).value() == 1
    write(tmp_path / "inc.h", "#define VALUE 2\n")  # an included file changed: compile again
    again = build.compile_source("k.cpp", npu_arch=2201)
    assert not again.cached and ctypes.CDLL(str(again.shared_object)).value() == 2
    other = build.compile_source(src.name, npu_arch=3510)  # other flags, other object
    assert not other.cached and other.shared_object != again.shared_object


@needs_cxx
def test_npu_arch_reaches_the_compiler(tmp_path, monkeypatch):
    monkeypatch.setenv("PIPEV_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.cpp", 'extern "C" int arch() { return __NPU_ARCH__; }\n'
          'extern "C" int mine() { return MINE; }\n')
    so = build.compile_source("a.cpp", npu_arch=3510, defines=("MINE=42",)).shared_object
    lib = ctypes.CDLL(str(so))
    assert (lib.arch(), lib.mine()) == (3510, 42)


@needs_cxx
def test_struct_layout_matches_the_header(tmp_path, monkeypatch):
    monkeypatch.setenv("PIPEV_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    fields = [f for f, _ in PipevBridge._fields_]
    write(tmp_path / "layout.cpp", '#include <cstddef>\n#include "pipev_bridge.h"\n'
          'extern "C" void layout(size_t *out) {\n'
          + "".join(f"    out[{i}] = offsetof(pipev_bridge, {f});\n"
                    for i, f in enumerate(fields))
          + f"    out[{len(fields)}] = sizeof(pipev_bridge);\n}}\n")
    lib = ctypes.CDLL(str(build.compile_source("layout.cpp", npu_arch=2201).shared_object))
    out = (ctypes.c_size_t * (len(fields) + 1))()
    lib.layout(out)
    assert list(out) == [getattr(PipevBridge, f).offset for f in fields] + \
        [ctypes.sizeof(PipevBridge)]


def test_no_compiler_is_one_line(tmp_path):
    with pytest.raises(build.BuildError) as e:
        build.find_compiler({"PATH": str(tmp_path)})
    assert e.value.text == ("error: no C++ compiler found (install g++ or clang++, or set CXX "
                            "to one)")
    with pytest.raises(build.BuildError) as e:
        build.find_compiler({"PATH": str(tmp_path), "CXX": "nosuch-c++"})
    assert e.value.text == "error: the C++ compiler 'nosuch-c++' ($CXX) was not found"


def test_no_compiler_through_the_command_line(tmp_path):
    write(tmp_path / "k.cpp", "int main() {}\n")
    env = {"PATH": str(tmp_path), "PIPEV_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run([sys.executable, "-m", "simulator.cli", "run", "k.cpp"], cwd=tmp_path,
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr == ("error: no C++ compiler found (install g++ or clang++, or set CXX to "
                           "one)\n")


@needs_cxx
def test_compiler_errors_are_the_compilers_own(cpp, tmp_path, capfd):
    write(tmp_path / "bad.cpp", '#include "pipev_standin.h"\n__global__ void k(int) {}\n'
          "int main() {\n    k<<<1, nullptr, nullptr>>>(1);\n    undeclared = 2;\n}\n")
    rc, out, err = cpp(capfd, "bad.cpp", "-I", FAKE_INCLUDE)
    assert rc == 1 and out == ""
    assert "bad.cpp:5:5: error: " in err and "undeclared" in err
    assert "pipev-ascendc" not in err  # the rewritten copy is not what the user sees


@needs_cxx
def test_an_unparseable_launch_is_a_diagnostic(cpp, tmp_path, capfd):
    write(tmp_path / "bad.asc", "int main() {\n  f(1) <<<1, 0, 0>>>(2);\n}\n")
    rc, _, err = cpp(capfd, "bad.asc")
    assert rc == 1
    assert err == ("bad.asc:2:8: error: cannot parse this kernel launch (no kernel name before "
                   "<<<)\n"
                   "    2 |   f(1) <<<1, 0, 0>>>(2);\n"
                   "      |        ^\n")  # pipev's own diagnostic quotes the line (render.py)
    _, _, err = cpp(capfd, "--no-source", "bad.asc")
    assert err.count("\n") == 1


def test_usage_errors_exit_2(cpp, tmp_path, capfd):
    write(tmp_path / "k.cpp", "int main() {}\n")
    for args in (["--arg", "x=a.npy"], ["--kernel", "k", "--arg", "x"],
                 ["--kernel", "k", "--arg", "x=out:f99[4]"], ["--chip", "nochip"],
                 ["--kernel", "k", "--arg", "x=out:f16[4]", "--arg", "x=out:f16[4]"]):
        rc, _, err = cpp(capfd, "k.cpp", *args)
        assert rc == 2, (args, err)


@needs_cxx
def test_an_unknown_kernel_name_is_pipevs_diagnostic(cpp, tmp_path, capfd):
    # #31 24: the compiler's errors about the generated entry point were printed instead
    write(tmp_path / "copy.cpp", COPY_KERNEL + "void helper(int) {}\nvoid helper(float) {}\n")
    args = ["--arg", "s=out:f16[64]", "--arg", "d=out:f16[64]", "--arg", "n=out:u32[1]"]
    rc, _, err = cpp(capfd, "copy.cpp", "-I", FAKE_INCLUDE, "--kernel", "copy_kernl", *args)
    assert (rc, err) == (1, "copy.cpp:1:1: error: --kernel copy_kernl: no kernel named "
                            "'copy_kernl' (kernels in the file: copy_kernel)\n")
    rc, _, err = cpp(capfd, "copy.cpp", "-I", FAKE_INCLUDE, "--kernel", "helper", *args)
    assert rc == 1 and err.startswith("copy.cpp:1:1: error: --kernel helper: pipev cannot "
                                      "launch it"), err
    assert "<pipev --kernel" not in err

def test_arg_forms():
    assert parse_arg("x=in.npy").kind == "npy"
    assert parse_arg("t=tiling.bin").kind == "bin"
    a = parse_arg("z=out:half[1024]")
    assert (a.kind, a.type, a.count) == ("out", "f16", 1024)
    for bad in ("x", "=a.npy", "x=a.txt", "x=out:f16", "x=out:f16[0]"):
        with pytest.raises(ValueError):
            parse_arg(bad)


def test_which_run_a_command_line_means():
    from simulator.group import wants

    assert wants(["k.cpp"]) and wants(["--chip", "ascend950", "K.ASC", "-DX=1"])
    assert wants(["-I", "inc", "-D", "N=4", "k.cc"])
    assert not wants(["k.vasm"]) and not wants(["--trace", "t.cpp", "k.vasm"])
    assert not wants(["--", "k.cpp"]) and not wants([])


def test_numbered_files():
    assert numbered("t.json", 0, 0) == "t.json"
    assert numbered("d/t.json", 1, 0) == "d/t.1.json"
    assert numbered("t.json", 0, 2) == "t.0.2.json"
    assert numbered(None, 3, 1) is None


# -- the bridge's callbacks, driven from Python ------------------------------------------------

class FakeStream:
    def __init__(self, chip, *, name, trace, **options):
        self.ub = np.zeros(chip.ub_bytes, np.uint8)
        self.issued, self.gm = [], {}

    def declare_gm(self, name, dtype, buffer, *, file, line):
        self.gm[name] = buffer

    def declare_ub(self, name, dtype, count, addr, *, file, line):
        pass

    def issue(self, text, *, file, line, col=0, regs=()):
        if text == "boom":
            raise ZeroDivisionError("a bug in pipev")
        self.issued.append((text, file, line, regs))

    def host_access(self, addr, nbytes, write, *, file, line, col=1):
        pass

    def finish(self, outputs=True):
        return "result"


def _session(**kw):
    from isa.chip import get_chip

    return Session(get_chip("ascend910b"), source="k.cpp", stream_factory=FakeStream, **kw)


def test_callbacks_reach_the_stream_and_exceptions_become_diagnostics():
    emitted, ended = [], []
    s = _session(emit=emitted.append, on_launch_end=ended.append)
    b = s.struct
    regs = (ctypes.c_uint64 * 2)(5, 7)
    assert b.issue(b"k.cpp", 3, 0, b"nop", regs, 2) == 1  # outside a launch: an error
    assert "outside a kernel launch" in emitted[0].message
    s = _session(emit=emitted.append, on_launch_end=ended.append)
    b = s.struct
    assert b.launch(b"k.cpp", 10, b"k", 1) == 0
    assert b.ub == s.stream.ub.ctypes.data and b.block_num == 1
    assert b.issue(b"k.cpp", 11, 0, b"copy x[x1], y[x2]", regs, 2) == 0
    assert s.stream.issued == [("copy x[x1], y[x2]", "k.cpp", 11, (5, 7))]
    host = (ctypes.c_uint8 * 64)()
    assert b.gm_buffer(b"k.cpp", 12, b"g", b"half", ctypes.addressof(host), 64) == 0
    s.stream.gm["g"][3] = 9  # a view of the host bytes, not a copy
    assert host[3] == 9
    assert b.gm_buffer(b"k.cpp", 13, b"h", b"nonsense", ctypes.addressof(host), 64) == 1
    assert emitted[-1].message == "GM buffer h: unknown type 'nonsense'"
    assert s.stopped and b.issue(b"k.cpp", 14, 0, b"nop", regs, 0) == 1  # stopped: at once
    s = _session(emit=emitted.append, on_launch_end=ended.append)
    b = s.struct
    b.launch(b"k.cpp", 20, b"k", 1)
    assert b.issue(b"k.cpp", 21, 0, b"boom", regs, 0) == 1
    assert str(emitted[-1]) == ("k.cpp:21:1: error: internal error in pipev's issue callback: "
                                "ZeroDivisionError: a bug in pipev")
    assert b.launch_end() == 1 and s.launch is None and not ended


def test_cores_of_a_launch_get_their_own_stream():
    ended = []
    s = _session(on_launch_end=ended.append)
    b = s.struct
    b.launch(b"k.cpp", 1, b"k", 2)
    first = s.stream
    b.issue(b"k.cpp", 2, 0, b"nop", None, 0)
    b.block_idx = 1  # the headers' launch helper starts core 1
    b.issue(b"k.cpp", 2, 0, b"nop", None, 0)
    assert s.stream is not first and b.ub == s.stream.ub.ctypes.data
    assert b.launch_end() == 0
    assert [c.core for c in ended[0].cores] == [0, 1]


def test_printf_and_messages():
    printed, emitted = [], []
    s = _session(on_print=printed.append, emit=emitted.append)
    b = s.struct
    assert b.message(b"k.cpp", 4, 0, -1, b"hello\n") == 0 and printed == ["hello\n"]
    assert b.message(b"k.cpp", 5, 0, 1, b"careful") == 0
    assert str(emitted[-1]) == "k.cpp:5:1: warning: careful"
    assert b.message(b"k.cpp", 6, 0, 2, b"bad queue") == 1 and s.failed


def test_gm_view_aliases_host_memory():
    buf = (ctypes.c_uint8 * 8)(*range(8))
    v = gm_view(ctypes.addressof(buf), 8)
    assert list(v) == list(range(8))
    v[0] = 100
    assert buf[0] == 100 and gm_view(0, 0).size == 0


# -- end to end ------------------------------------------------------------------------------

@needs_cxx
def test_kernel_only_mode_is_byte_exact(cpp, tmp_path, capfd):
    write(tmp_path / "maximum.cpp", MAXIMUM_KERNEL)
    rng = np.random.default_rng(1)
    a = rng.standard_normal(512).astype(np.float16)
    b = rng.standard_normal(512).astype(np.float16)
    a[:4] = [np.nan, -0.0, np.inf, 1]
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    t0 = time.perf_counter()
    rc, out, err = cpp(capfd, "maximum.cpp", "-I", FAKE_INCLUDE, "--kernel", "maximum",
                       "--arg", "a=a.npy", "--arg", "b=b.npy", "--arg", "out=out:f16[512]",
                       "--output-dir", "res")
    first = time.perf_counter() - t0
    assert rc == 0, err
    got = np.load(tmp_path / "res" / "out.npy")
    want = np.where(a > b, a, b)
    assert got.dtype == np.float16 and got.view(np.uint16).tobytes() == \
        want.view(np.uint16).tobytes()
    assert "maximum" in err and "cycles" in err
    t0 = time.perf_counter()
    rc, out, err = cpp(capfd, "maximum.cpp", "-I", FAKE_INCLUDE, "--kernel", "maximum",
                       "--arg", "a=a.npy", "--arg", "b=b.npy", "--arg", "out=out:f16[512]",
                       "--output-dir", "res", "--json")
    print(f"\nkernel-only run: {first:.2f} s, again (cache hit) {time.perf_counter() - t0:.2f} s")
    assert rc == 0, err
    import json

    summary = json.loads(out)
    assert summary["kernel"] == "maximum" and summary["cycles"] > 0
    assert summary["outputs"] == {"out": str((tmp_path / "res" / "out.npy").resolve())}


@needs_cxx
def test_kernel_only_outputs_all_or_nothing_with_the_umasks_mode(cpp, tmp_path, capfd):
    # #31 09: kernel-only mode had its own writer: the first output replaced, a .tmp left
    # behind when the second could not be written, every output mode 0600
    write(tmp_path / "maximum.cpp", MAXIMUM_KERNEL)
    np.save(tmp_path / "a.npy", np.ones(512, np.float16))
    np.save(tmp_path / "b.npy", np.zeros(512, np.float16))
    (tmp_path / "res" / "b.npy").mkdir(parents=True)  # the second output cannot be written
    (tmp_path / "res" / "a.npy").write_text("OLD")
    args = ["maximum.cpp", "-I", FAKE_INCLUDE, "--kernel", "maximum", "--arg", "a=out:f16[512]",
            "--arg", "b=out:f16[512]", "--arg", "out=out:f16[512]", "--output-dir", "res",
            "--quiet"]
    rc, _, err = cpp(capfd, *args)
    assert rc == 1 and "cannot write output res/b.npy: Is a directory" in err, err
    assert sorted(p.name for p in (tmp_path / "res").iterdir()) == ["a.npy", "b.npy"]
    assert (tmp_path / "res" / "a.npy").read_text() == "OLD"
    (tmp_path / "res" / "b.npy").rmdir()
    old = os.umask(0o022)
    try:
        rc, _, err = cpp(capfd, *args)
    finally:
        os.umask(old)
    assert rc == 0, err
    assert (tmp_path / "res" / "out.npy").stat().st_mode & 0o777 == 0o644

@needs_cxx
def test_kernel_only_failures_write_nothing(cpp, tmp_path, capfd):
    write(tmp_path / "copy.cpp", COPY_KERNEL)
    np.save(tmp_path / "x.npy", np.arange(64, dtype=np.float16))
    (tmp_path / "n.bin").write_bytes(np.uint32(64).tobytes())
    rc, _, err = cpp(capfd, "copy.cpp", "-I", FAKE_INCLUDE, "--kernel", "copy_kernel",
                     "--arg", "src=x.npy", "--arg", "dst=out:f16[64]")
    assert rc == 1 and "kernel copy_kernel takes 3 parameters, 2 --arg given" in err
    rc, _, err = cpp(capfd, "copy.cpp", "-I", FAKE_INCLUDE, "--kernel", "copy_kernel",
                     "--arg", "src=missing.npy", "--arg", "dst=out:f16[64]",
                     "--arg", "n=n.bin")
    assert rc == 1 and "copy.cpp:1:1: error: --arg src: cannot read missing.npy" in err
    assert not (tmp_path / "pipev-out").exists()
    rc, _, err = cpp(capfd, "copy.cpp", "-I", FAKE_INCLUDE, "--kernel", "copy_kernel",
                     "--arg", "src=x.npy", "--arg", "dst=out:f16[64]", "--arg", "n=n.bin")
    assert rc == 0, err
    assert np.array_equal(np.load(tmp_path / "pipev-out" / "dst.npy"),
                          np.arange(64, dtype=np.float16))


@needs_cxx
def test_host_program_with_a_launch_and_files(cpp, tmp_path, capfd):
    write(tmp_path / "double.asc", HOST_PROGRAM)
    data = np.arange(64, dtype=np.uint16) * 3
    data.tofile(tmp_path / "input.bin")
    rc, out, err = cpp(capfd, "double.asc", "-I", FAKE_INCLUDE)
    assert rc == 0, err
    assert out == "done 3\n"
    got = np.fromfile(tmp_path / "output.bin", np.uint16)
    assert np.array_equal(got, np.concatenate([data, data]))
    assert "double.asc:29 double_up" in err  # the launch's summary, on stderr
    rc, out, err = cpp(capfd, "double.asc", "-I", FAKE_INCLUDE, "--quiet", "--", "nosuch.bin")
    assert (rc, out, err) == (3, "cannot read input\n", "")  # the program's own status


CRASHER = r"""
#include <cstdlib>
#include "pipev_standin.h"

__global__ __aicore__ void k(int mode) {
    pipev::issue("set_flag MTE2, V, 0");
    pipev::issue("wait_flag MTE2, V, 0");
    if (mode == 0) *(volatile int *)nullptr = 1;
    if (mode == 1) exit(5);
    if (mode == 2) pipev::say(2, "queue misuse");
}

int main(int argc, char **argv) {
    int mode = atoi(argv[1]);
    k<<<1, nullptr, nullptr>>>(mode);
    if (mode == 3) abort();
    return mode == 4 ? 9 : 0;
}
"""


@needs_cxx
@pytest.mark.parametrize("mode, rc, message", [
    # #31 23: crash reports are diagnostics as any other: a column and the quoted line
    (0, 1, "crash.cpp:7:5: error: the kernel crashed (SIGSEGV) after this call\n"
           '    7 |     pipev::issue("wait_flag MTE2, V, 0");\n'
           "      |     ^\n"),
    (1, 1, "crash.cpp:7:5: error: the kernel exited the program (exit status 5) after this "
           "call\n"
           '    7 |     pipev::issue("wait_flag MTE2, V, 0");\n'
           "      |     ^\n"),
    (2, 1, "crash.cpp:10:5: error: queue misuse\n"
           '   10 |     if (mode == 2) pipev::say(2, "queue misuse");\n'
           "      |     ^\n"),
    (3, 1, "crash.cpp:15:5: error: the program crashed (SIGABRT) after this kernel launch\n"
           "   15 |     k<<<1, nullptr, nullptr>>>(mode);\n"
           "      |     ^\n"),
    (4, 9, ""),
])
def test_crashes_exits_and_errors(cpp, tmp_path, capfd, mode, rc, message):
    write(tmp_path / "crash.cpp", CRASHER)
    got_rc, _, err = cpp(capfd, "crash.cpp", "-I", FAKE_INCLUDE, "--quiet", "--", mode)
    assert (got_rc, err) == (rc, message)
    got_rc, out, err = cpp(capfd, "crash.cpp", "-I", FAKE_INCLUDE, "--json", "--", mode)
    if rc == 1:  # under --json the failure object is on stdout, crashes included
        assert (got_rc, json.loads(out)["ok"]) == (1, False)
        assert json.loads(out)["diagnostics"][0]["text"] == message.split("\n")[0]


def test_pipev_cache_dir_and_default(monkeypatch):
    assert build.cache_root({"PIPEV_CACHE_DIR": "/x/y"}) == Path("/x/y")
    assert build.cache_root({"XDG_CACHE_HOME": "/c"}) == Path("/c/pipev")
    assert build.cache_root({}) == Path(os.path.expanduser("~/.cache/pipev"))


TWO_LAUNCHES = r"""
#include <cstdint>
#include "pipev_standin.h"

__global__ __aicore__ void fill(int warn) {
    pipev::ub("x", "half", 0, 128);
    pipev::issue("duplicate.f16 x, raw(0x3c00), count=128");
    if (warn) pipev::say(1, "a warning of the headers");
}

int main() {
    fill<<<1, nullptr, nullptr>>>(0);
    fill<<<1, nullptr, nullptr>>>(1);
}
"""


@needs_cxx
def test_werror_save_vasm_and_traces_per_launch(cpp, tmp_path, capfd):
    write(tmp_path / "two.cpp", TWO_LAUNCHES)
    rc, _, err = cpp(capfd, "two.cpp", "-I", FAKE_INCLUDE, "--save-vasm", "run.vasm", "--trace",
                     "t.jsonl")
    assert rc == 0, err
    assert err.count(" fill on ascend910b: ") == 2  # one summary per launch
    assert "two.cpp:8:5: warning: a warning of the headers" in err
    for name in ("run.vasm", "run.1.vasm", "t.jsonl", "t.1.jsonl"):
        assert (tmp_path / name).is_file(), name
    assert "duplicate.f16 x, raw(0x3c00), count=128" in (tmp_path / "run.1.vasm").read_text()
    rc, out, err = cpp(capfd, "run.vasm", "--quiet", "--output-dir", "o")  # the replay runs
    assert rc == 0, err
    rc, _, err = cpp(capfd, "two.cpp", "-I", FAKE_INCLUDE, "--werror", "--quiet")
    assert rc == 1
    assert err == ("two.cpp:8:5: error: a warning of the headers\n"
                   '    8 |     if (warn) pipev::say(1, "a warning of the headers");\n'
                   "      |     ^\n")
    rc, _, err = cpp(capfd, "--no-source", "two.cpp", "-I", FAKE_INCLUDE, "--werror", "--quiet")
    assert (rc, err) == (1, "two.cpp:8:5: error: a warning of the headers\n")


WARN_THEN_WRITE = r"""
#include <cstdio>
#include "pipev_standin.h"

__global__ __aicore__ void fill(int warn) {
    pipev::ub("x", "half", 0, 128);
    pipev::issue("duplicate.f16 x, raw(0x3c00), count=128");
    if (warn) pipev::say(1, "a warning of the headers");
}

int main() {
    fill<<<1, nullptr, nullptr>>>(1);
    std::FILE* f = std::fopen("y.bin", "wb");
    std::fputs("the failed run's data", f);
    std::fclose(f);
    fill<<<1, nullptr, nullptr>>>(0);
}
"""


@needs_cxx
def test_under_werror_a_warning_ends_the_host_program_as_an_error_does(cpp, tmp_path, capfd):
    # #31 08: the program went on after the launch and its write replaced the user's file
    write(tmp_path / "w.cpp", WARN_THEN_WRITE)
    (tmp_path / "y.bin").write_text("PRECIOUS")
    rc, _, err = cpp(capfd, "--no-source", "w.cpp", "-I", FAKE_INCLUDE, "--werror")
    assert (rc, err) == (1, "w.cpp:8:5: error: a warning of the headers\n")
    assert (tmp_path / "y.bin").read_text() == "PRECIOUS"
    rc, _, err = cpp(capfd, "w.cpp", "-I", FAKE_INCLUDE, "--quiet")  # without --werror it runs
    assert rc == 0 and err.count("warning: a warning of the headers") == 1
    assert (tmp_path / "y.bin").read_text() == "the failed run's data"

def test_chip_profiles_give_npu_arch():
    from isa.chip import chip_names, get_chip

    arch = {n: get_chip(n).npu_arch for n in chip_names()}
    assert arch["ascend910b"] == 2201 and arch["ascend950"] == 3510
    assert all(arch.values())
