"""Compile an AscendC source file with the host C++ compiler into a cached shared object.

The file (rewritten by `launch.rewrite`, lines kept) is compiled against pipev's clean-room
headers with `-std=c++17 -fPIC -shared -O0 -D__NPU_ARCH__=<chip>`, $PIPEV_CXXFLAGS and the
user's -D/-I. `main` keeps its name (and so its implicit `return 0`): the worker calls it through
dlsym on the object's own handle. The object
is cached under `$PIPEV_CACHE_DIR` (else `~/.cache/pipev`) in `ascendc/`, keyed by a content hash
of the source, every file it includes (the compiler's -MMD dependency list), the compiler's
version, the flags and pipev's headers: a manifest per (source, flags, compiler) lists the
included files with their hashes, and a rerun whose files all match loads the object it names.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import attrs

from isa.diagnostics import Diagnostic
from simulator.ascendc import aclrtlaunch, bindgen, launch, opdef
from simulator.ascendc.cachefile import write_text_atomically
from simulator.ascendc.includes import IncludeError, original_of, rewrite_includes
from simulator.bindings import ROWS

INCLUDE_DIR = Path(__file__).resolve().parent / "include"
COMPILERS = ("c++", "g++", "clang++")
# -O0 compiles fastest (0.6 s against 0.7 s at -O1 for a small TPipe kernel); the kernel's
# scalar code is not timed. $PIPEV_CXXFLAGS adds flags (e.g. -O2, -g) after these.
BASE_FLAGS = ("-std=c++17", "-fPIC", "-shared", "-O0", "-Wl,--no-undefined")
CACHE_FORMAT = 1  # bump when the cache layout or the flags' meaning changes
PRUNE_AFTER_DAYS = 30  # cache files not used for this long go when something new is compiled


class BuildError(Exception):
    """The build failed; `.text` is what to print on stderr (diagnostic lines), exit status 1.
    `.diagnostic`: pipev's own diagnostic at the user's line, to be rendered with its source
    line (a compiler's output is printed as the compiler wrote it)."""

    def __init__(self, text: str, diagnostic: Diagnostic | None = None):
        super().__init__(text)
        self.text = text.rstrip("\n")
        self.diagnostic = diagnostic

    @classmethod
    def at(cls, diagnostic: Diagnostic) -> BuildError:
        return cls(str(diagnostic), diagnostic)


@attrs.frozen
class Build:
    shared_object: Path
    cached: bool  # loaded from the cache (no compiler run)
    seconds: float  # wall time of this step (compile, or the cache check)
    compiler_output: str  # the compiler's warnings, replayed on a cache hit too
    command: tuple[str, ...] = ()


def find_compiler(env: dict[str, str] | None = None) -> list[str]:
    """The compiler command: $CXX (which may carry arguments, e.g. `ccache g++`), else the first
    of c++, g++, clang++ on PATH. Raises BuildError when there is none."""
    env = os.environ if env is None else env
    given = env.get("CXX", "").strip()
    if given:
        try:
            argv = shlex.split(given)
        except ValueError:
            argv = [given]
        path = shutil.which(argv[0], path=env.get("PATH"))
        if path is None:
            raise BuildError(f"error: the C++ compiler '{argv[0]}' ($CXX) was not found")
        return [path, *argv[1:]]
    for name in COMPILERS:
        path = shutil.which(name, path=env.get("PATH"))
        if path is not None:
            return [path]
    raise BuildError("error: no C++ compiler found (install g++ or clang++, or set CXX to one)")


def cache_root(env: dict[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    if env.get("PIPEV_CACHE_DIR"):
        return Path(env["PIPEV_CACHE_DIR"]).expanduser()
    base = env.get("XDG_CACHE_HOME") or str(Path("~/.cache").expanduser())
    return Path(base) / "pipev"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_sha(path: str) -> str | None:
    try:
        return _sha(Path(path).read_bytes())
    except OSError:
        return None


_versions: dict[tuple, str] = {}


def compiler_version(cxx: list[str]) -> str:
    """`CXX --version`, remembered per binary (path, size, mtime) for this process."""
    try:
        st = os.stat(cxx[0])
        key = (tuple(cxx), st.st_size, st.st_mtime_ns)
    except OSError:
        key = (tuple(cxx), 0, 0)
    if key not in _versions:
        try:
            proc = subprocess.run([*cxx, "--version"], capture_output=True, text=True,
                                  timeout=60, errors="replace")
        except (OSError, subprocess.SubprocessError) as e:
            raise BuildError(f"error: cannot run the C++ compiler {cxx[0]}: {e}") from None
        _versions[key] = proc.stdout
    return _versions[key]


def headers_hash() -> str:
    """One hash over pipev's headers (names and contents)."""
    h = hashlib.sha256()
    for p in sorted(INCLUDE_DIR.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(INCLUDE_DIR)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def parse_depfile(text: str) -> list[str]:
    """The prerequisites of a make rule as GCC/Clang -MD write them (escaped spaces, `$$`,
    continuation lines; phony targets of -MP ignored)."""
    text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    deps: list[str] = []
    for rule in text.splitlines():
        _, colon, rest = rule.partition(": ")
        if not colon:
            continue
        word, k = [], 0
        while k < len(rest):
            c = rest[k]
            if c == "\\" and k + 1 < len(rest) and rest[k + 1] in " #\\":
                word.append(rest[k + 1])
                k += 2
                continue
            if c == "$" and rest[k + 1:k + 2] == "$":
                word.append("$")
                k += 2
                continue
            if c.isspace():
                if word:
                    deps.append("".join(word))
                    word = []
            else:
                word.append(c)
            k += 1
        if word:
            deps.append("".join(word))
    return list(dict.fromkeys(deps))


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@attrs.frozen
class _Unit:
    """One translation unit: the file as the user named it and the text the compiler reads
    (its launches rewritten, its quoted includes of rewritten files pointing at their copies)."""
    display: str
    path: Path
    original: str
    text: str
    defines: tuple[str, ...] = ()  # its own -D macros (its CMake target's definitions)
    folders: tuple[str, ...] = ()  # the folders of the included files it reads as copies

    @property
    def rewritten(self) -> bool:
        return self.text != self.original


def _read(display: str, path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BuildError(f"{display}:1:1: error: the source is not UTF-8 text ({e.reason} at "
                         f"byte {e.start})") from None
    except OSError as e:
        raise BuildError(f"{display}:1:1: error: cannot read the source: "
                         f"{e.strerror or e}") from None


def compile_source(source: str | Path, *, npu_arch: int, cce_aicore: int = 0,
                   defines: tuple[str, ...] = (), includes: tuple[str, ...] = (),
                   kernel: str | None = None,
                   env: dict[str, str] | None = None) -> Build:
    """Compile SOURCE (as the user named it; diagnostics use that name) into a shared object,
    or return the cached one. KERNEL (kernel-only mode) appends the entry point of
    `launch.entry_trailer`. Raises BuildError with the lines to print."""
    return compile_sources((source,), npu_arch=npu_arch, cce_aicore=cce_aicore, defines=defines,
                           includes=includes, kernel=kernel, env=env)


def compile_sources(sources: tuple[str | Path, ...], *, npu_arch: int, cce_aicore: int = 0,
                    defines: tuple[str, ...] = (), includes: tuple[str, ...] = (),
                    kernel: str | None = None, env: dict[str, str] | None = None,
                    unit_defines: Mapping[str, tuple[str, ...]] | None = None) -> Build:
    """Compile and link the translation units SOURCES (one shared object; `main` in any of
    them), or return the cached object; UNIT_DEFINES: a source's own -D macros besides DEFINES
    (its CMake target's definitions). A launch or `__ubuf__` array in a file a unit
    `#include`s with quotes is rewritten in a copy of that file (`includes.rewrite_tree`)."""
    t0 = time.perf_counter()
    env_map = os.environ if env is None else env
    root = cache_root(env) / "ascendc"
    try:
        root.mkdir(parents=True, exist_ok=True)
        bindings = _extra_bindings(root)
    except OSError as e:
        raise BuildError(f"error: cannot use the compile cache {root} ({e.strerror or e}); set "
                         "PIPEV_CACHE_DIR to a writable directory") from None
    units = [_unit(str(s), root, includes, (unit_defines or {}).get(str(s), ()))
             for s in sources]
    first = units[0]
    if kernel is not None:
        text = first.text + ("" if first.text.endswith("\n") else "\n") + launch.entry_trailer(
            kernel, first.display, launch.definition_line(first.original, kernel))
        units[0] = first = attrs.evolve(first, text=text)
    cxx = find_compiler(env)
    try:
        extra = shlex.split(env_map.get("PIPEV_CXXFLAGS", ""))
    except ValueError as e:
        raise BuildError(f"error: cannot read $PIPEV_CXXFLAGS ({e})") from None
    # an msopgen project's DTYPE_ macros, from its OpDef (those the user did not define)
    defines = (*defines, *opdef.dtype_defines([(u.path, u.original) for u in units], includes,
                                              defines))
    flags = [*BASE_FLAGS, *extra, f"-I{INCLUDE_DIR}", f"-D__NPU_ARCH__={npu_arch}",
             *([f"-D__CCE_AICORE__={cce_aicore}"] if cce_aicore else []),
             *(f"-D{d}" for d in defines), *(f"-I{i}" for i in includes)]
    launchers = aclrtlaunch.write_headers([u.original for u in units], root)
    if launchers is not None:  # aclrtlaunch_KERNEL.h of the units' kernels
        flags.append(f"-I{launchers}")
    # a unit compiled from a copy in the cache, and a copy of a file it includes, find the
    # files beside their originals by -iquote
    for u in units:
        for folder in ((str(u.path.parent),) if u.rewritten else ()) + u.folders:
            if folder not in flags:
                flags += ["-iquote", folder]
    flags += bindings
    key_data = {"format": CACHE_FORMAT, "cxx": cxx, "version": compiler_version(cxx),
                "flags": flags, "headers": headers_hash(), "cwd": os.getcwd(),
                **({"source": first.text, "path": first.display} if len(units) == 1 else
                   {"units": [[u.display, u.text] for u in units]}),
                **({"unit_defines": [list(u.defines) for u in units]}
                   if any(u.defines for u in units) else {})}
    key = _sha(json.dumps(key_data, sort_keys=True).encode())
    manifest = root / f"{key}.json"
    hit = _lookup(root, manifest)
    if hit is None:
        with _compiling(root, key):  # one compile per key: a concurrent one waits for it
            hit = _lookup(root, manifest)
            if hit is None:
                try:
                    return _compile(root, key, manifest, cxx, flags, units, t0)
                except BuildError as e:
                    if kernel is not None and e.diagnostic is None:
                        _entry_failed(e.text, kernel, first.display, first.original)
                    raise
    so, output = hit
    return Build(so, True, time.perf_counter() - t0, output)


@contextlib.contextmanager
def _compiling(root: Path, key: str) -> Iterator[None]:
    """Hold KEY's compile lock (a sweep's workers building the same variant: the first
    compiles, the others then find its object); no lock where the system has none."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    try:
        fd = os.open(root / f"{key}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _unit(display: str, root: Path, includes: tuple[str, ...],
          defines: tuple[str, ...] = ()) -> _Unit:
    path = Path(display)
    original = _read(display, path)
    try:
        text = launch.rewrite(original)
    except launch.RewriteError as e:
        raise BuildError.at(Diagnostic("error", display, e.line, e.col, e.message)) from None
    try:
        text, folders = rewrite_includes(text, display, path, root / "src", includes)
    except IncludeError as e:
        raise BuildError.at(e.diagnostic) from None
    return _Unit(display, path, original, text, tuple(defines), folders)


def _entry_failed(output: str, kernel: str, display: str, original: str) -> None:
    """Raise pipev's own diagnostic when every compiler error is in the entry point appended
    for --kernel KERNEL (a file the user never wrote): the name is no kernel of the file, or a
    kernel that cannot be launched with one argument per parameter."""
    trailer = f"<pipev --kernel {launch.one_line(kernel)}>"
    errors = [x for x in output.splitlines() if ": error: " in x or ": fatal error: " in x]
    if not errors or not all(x.startswith(trailer + ":") for x in errors):
        return
    names = launch.kernel_names(original)
    where = f"kernels in the file: {', '.join(names)}" if names else \
        "the file defines no __global__ function"
    if launch.definition_line(original, kernel) == 1 and kernel not in names:
        message = f"--kernel {kernel}: no kernel named '{kernel}' ({where})"
    else:
        why = errors[0].split(": error: ", 1)[-1]
        message = f"--kernel {kernel}: pipev cannot launch it with one --arg per parameter " \
                  f"(the compiler: {why})"
    raise BuildError.at(Diagnostic("error", display, 1, 1, message)) from None


def _extra_bindings(root: Path) -> list[str]:
    """`-include` of the header of the binding rows added at run time (none: no flags), named
    by its content so that the cache key follows the rows."""
    text = bindgen.extra_header(ROWS)
    if text is None:
        return []
    header = root / "bindings" / f"{_sha(text.encode())[:32]}.h"
    if not header.is_file():
        header.parent.mkdir(exist_ok=True)
        write_text_atomically(header, text)
    return ["-include", str(header)]


def _lookup(root: Path, manifest: Path) -> tuple[Path, str] | None:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        so = root / data["object"]
        if not so.is_file():
            return None
        for dep, sha in data["deps"]:
            if _file_sha(dep) != sha:
                return None
        os.utime(so)  # in use: not pruned
        os.utime(manifest)
        return so, str(data.get("output", ""))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def prune(root: Path, days: float = PRUNE_AFTER_DAYS) -> None:
    """Remove cache files (objects, manifests, source copies) unused for DAYS days."""
    limit = time.time() - days * 86400
    for p in [*root.glob("*.so"), *root.glob("*.json"), *root.glob("*.lock"),
              *root.glob("src/*.cpp"), *root.glob("src/*/*")]:
        try:
            if p.stat().st_mtime < limit:
                p.unlink()
        except OSError:
            pass


def _compile(root: Path, key: str, manifest: Path, cxx: list[str], flags: list[str],
             units: list[_Unit], t0: float) -> Build:
    """One compiler run for one unit; one per unit (-c) and a link for several."""
    fd, tmp_so = tempfile.mkstemp(prefix=".build-", suffix=".so", dir=root)
    os.close(fd)
    temps = [Path(tmp_so)]
    outputs: list[str] = []
    deps: list[str] = []
    argv: list[str] = []
    try:
        objects = []
        for k, u in enumerate(units):
            compiled = _source_copy(root, key, k, u) if u.rewritten else str(u.path)
            out = tmp_so if len(units) == 1 else f"{tmp_so[:-3]}.{k}.o"
            depfile = f"{tmp_so[:-3]}.{k}.d"
            temps += [Path(depfile), Path(out)]
            argv = [*cxx, *flags, *(f"-D{d}" for d in u.defines),
                    *([] if len(units) == 1 else ["-c"]), "-MMD", "-MF", depfile,
                    "-o", out, "-x", "c++", compiled]
            outputs.append(_run(argv, cxx, u.display))
            objects.append(out)
            try:
                found = parse_depfile(Path(depfile).read_text(encoding="utf-8", errors="replace"))
            except OSError:
                found = []
            # the cache's copy of the unit is not a dependency: the key holds its text
            deps += [d for d in found if not u.rewritten
                     or Path(d).resolve() != Path(compiled).resolve()]
        if len(units) > 1:
            argv = [*cxx, *flags, "-o", tmp_so, *objects]
            outputs.append(_run(argv, cxx, units[0].display))
        output = "\n".join(o for o in outputs if o)
        hashed = [(str(Path(d).resolve()), _file_sha(d)) for d in dict.fromkeys(original_of(
            d) for d in deps)]
        so_name = _sha(json.dumps([key, hashed]).encode())[:32] + ".so"
        os.replace(tmp_so, root / so_name)
        tmp_manifest = manifest.with_name(f".{manifest.name}.{os.getpid()}")
        tmp_manifest.write_text(json.dumps({"object": so_name, "deps": hashed,
                                            "output": output}), encoding="utf-8")
        os.replace(tmp_manifest, manifest)
        prune(root)
        return Build(root / so_name, False, time.perf_counter() - t0, output, tuple(argv))
    finally:
        for p in temps:
            p.unlink(missing_ok=True)


def _source_copy(root: Path, key: str, k: int, u: _Unit) -> str:
    """The rewritten unit U written to the cache (`#line 1` names the user's file)."""
    src_dir = root / "src"
    src_dir.mkdir(exist_ok=True)
    copy = src_dir / (f"{key}.cpp" if k == 0 else f"{key}.{k}.cpp")
    write_text_atomically(copy, f"#line 1 {_c_string(u.display)}\n{u.text}")
    return str(copy)


def _run(argv: list[str], cxx: list[str], display: str) -> str:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, errors="replace")
    except OSError as e:
        raise BuildError(f"error: cannot run the C++ compiler {cxx[0]}: "
                         f"{e.strerror or e}") from None
    output = (proc.stdout + proc.stderr).rstrip("\n")
    if proc.returncode != 0:
        raise BuildError(output or f"{display}:1:1: error: the C++ compiler failed (exit "
                         f"status {proc.returncode}) without a message")
    return output
