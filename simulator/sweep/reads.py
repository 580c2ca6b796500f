"""The files a variant's run reads, recorded while it runs (docs/sweep.md, "What the cache
key covers"): a cached row is served only while every file its run read is unchanged, so a
host program that builds its input's name at run time (`dir + "/x.bin"`) is covered as well as
one that names it in a literal (a `.vasm` program's `file("...")`: keys.named_files).

- a C++ variant runs in processes of its own (`pipev run K.cpp --json` and its worker): a small
  preloaded library (LD_PRELOAD, compiled once into pipev's cache by the C++ compiler the
  variant uses) notes every file opened for reading in a log;
- a TIK script runs in the worker's Python: an audit hook notes its `open` calls (numpy's
  `np.load` and `np.fromfile` go through them).

Only the user's files count: pipev's own, Python's, the compiler's and the system's
(/usr, /etc, /proc, ...) are left out, and so is a file the run itself created or wrote.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path

from simulator.ascendc.build import cache_root  # here, not in a worker thread: see below
from simulator.sweep.keys import file_digest

ROOT = Path(__file__).resolve().parents[2]
ABSENT = "absent"  # the digest of a file the run looked for and did not find
SYSTEM = ("/usr/", "/etc/", "/proc/", "/sys/", "/dev/", "/lib", "/bin/", "/opt/", "/run/",
          "/var/lib/", "/nix/")

# the preloaded library: open/openat/fopen (and their 64-bit names), noted `r PATH` (opened for
# reading), `w PATH` (for writing) or `- PATH` (a read that found no file: its appearing later
# changes the run too) a line in $PIPEV_READS_LOG (one write a line: processes share it)
SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int log_fd = -2;

static void note(const char* path, int flags, int opened) {
    if (path == NULL) return;
    if (log_fd == -2) {
        static int (*real_open)(const char*, int, ...);
        const char* name = getenv("PIPEV_READS_LOG");
        real_open = (int (*)(const char*, int, ...))dlsym(RTLD_NEXT, "open");
        log_fd = name && real_open ? real_open(name, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
    }
    if (log_fd < 0) return;
    char line[4100];
    size_t n = strlen(path);
    if (n >= sizeof line - 3) return;
    int reading = (flags & O_ACCMODE) == O_RDONLY && !(flags & (O_CREAT | O_TRUNC));
    if (!opened && !reading) return;
    line[0] = !opened ? '-' : reading ? 'r' : 'w';
    line[1] = ' ';
    memcpy(line + 2, path, n);
    line[n + 2] = '\n';
    (void)!write(log_fd, line, n + 3);
}

static int fopen_flags(const char* mode) {
    return mode && mode[0] == 'r' && !strchr(mode, '+') ? O_RDONLY : O_WRONLY;
}

#define OPEN(name)                                                                   \
    int name(const char* path, int flags, ...) {                                     \
        static int (*real)(const char*, int, ...);                                   \
        if (!real) real = (int (*)(const char*, int, ...))dlsym(RTLD_NEXT, #name);   \
        va_list ap;                                                                  \
        va_start(ap, flags);                                                         \
        int mode = va_arg(ap, int);                                                  \
        va_end(ap);                                                                  \
        int fd = real(path, flags, mode);                                            \
        note(path, flags, fd >= 0);                                                  \
        return fd;                                                                   \
    }
#define OPENAT(name)                                                                 \
    int name(int dir, const char* path, int flags, ...) {                            \
        static int (*real)(int, const char*, int, ...);                              \
        if (!real) real = (int (*)(int, const char*, int, ...))dlsym(RTLD_NEXT, #name); \
        va_list ap;                                                                  \
        va_start(ap, flags);                                                         \
        int mode = va_arg(ap, int);                                                  \
        va_end(ap);                                                                  \
        int fd = real(dir, path, flags, mode);                                       \
        if (dir == AT_FDCWD || (path && path[0] == '/')) note(path, flags, fd >= 0); \
        return fd;                                                                   \
    }
#define FOPEN(name)                                                                  \
    FILE* name(const char* path, const char* mode) {                                 \
        static FILE* (*real)(const char*, const char*);                              \
        if (!real) real = (FILE* (*)(const char*, const char*))dlsym(RTLD_NEXT, #name); \
        FILE* f = real(path, mode);                                                  \
        note(path, fopen_flags(mode), f != NULL);                                    \
        return f;                                                                    \
    }

extern "C" {
/* a warm runner's forked child (simulator/sweep/cppwarm.py): note its opens in the log its
   environment names now */
void pipev_reads_reset(void) {
    if (log_fd >= 0) close(log_fd);
    log_fd = -2;
}
OPEN(open)
OPEN(open64)
OPENAT(openat)
OPENAT(openat64)
FOPEN(fopen)
FOPEN(fopen64)
}
"""


def shim(cxx: list[str], cache: Path) -> Path | None:
    """The preloaded library, compiled once per compiler into CACHE; None when it cannot be
    built (the variant then runs unrecorded and its row is not cached)."""
    tag = hashlib.sha256(SHIM.encode() + " ".join(cxx).encode()).hexdigest()[:16]
    target = cache / f"pipev-reads-{tag}.so"
    if target.is_file():
        return target
    try:
        cache.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}")
        source = tmp.with_suffix(".cpp")
        source.write_text(SHIM, encoding="utf-8")
        proc = subprocess.run([*cxx, "-shared", "-fPIC", "-O1", "-x", "c++", str(source),
                               "-o", str(tmp), "-ldl"], capture_output=True, timeout=120)
        source.unlink(missing_ok=True)
        if proc.returncode != 0:
            tmp.unlink(missing_ok=True)
            return None
        os.replace(tmp, target)
    except (OSError, subprocess.SubprocessError):
        return None
    return target


def user_files(paths: Iterable[str], cwd: str, written: Iterable[str] = ()) -> list[tuple[str,
                                                                                          str]]:
    """(absolute path, sha256) of each regular file in PATHS (relative ones under CWD) that is
    the user's: not pipev's, Python's, the compiler's or the system's, and not WRITTEN."""
    skip = {str(Path(p).resolve()) for p in written}
    prefixes = _system_prefixes()
    found: dict[str, str] = {}
    for p in paths:
        full = os.path.normpath(os.path.join(cwd, p))
        if full in found or full.startswith(prefixes):
            continue
        try:
            real = str(Path(full).resolve())
            if real.startswith(prefixes) or real in skip or not Path(real).is_file():
                continue
        except (OSError, ValueError):
            continue
        digest = file_digest(Path(real))
        if digest is not None:
            found[full] = digest
    return sorted(found.items())


def from_log(log: Path, cwd: str) -> list[tuple[str, str]]:
    """The user's files a C++ run read, from the preloaded library's log."""
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    read = [ln[2:] for ln in lines if ln.startswith("r ")]
    written = [os.path.join(cwd, ln[2:]) for ln in lines if ln.startswith("w ")]
    missing = {os.path.normpath(os.path.join(cwd, ln[2:])) for ln in lines
               if ln.startswith("- ")}
    absent = [(p, ABSENT) for p in sorted(missing) if _users(p) and not os.path.lexists(p)]
    return sorted([*user_files(read, cwd, written), *absent])


def python_reads(seen: PythonReads, cwd: str) -> list[tuple[str, str]]:
    """The user's files Python code opened for reading (an audit event comes before the open:
    a file that was not there is recorded as ABSENT)."""
    tried = {os.path.normpath(os.path.join(cwd, p)) for p in seen.paths}
    absent = [(p, ABSENT) for p in sorted(tried) if _users(p) and not os.path.lexists(p)]
    return sorted([*user_files(seen.paths, cwd, seen.written), *absent])


def _users(path: str) -> bool:
    return not path.startswith(_system_prefixes())


def _system_prefixes() -> tuple[str, ...]:
    """Where pipev's, Python's, the system's files and pipev's caches and temporaries are."""
    return tuple({*SYSTEM, str(ROOT) + "/", sys.prefix + "/", sys.base_prefix + "/",
                  str(Path(sys.executable).resolve().parent.parent) + "/",
                  str(cache_root().expanduser().resolve()) + "/",
                  os.path.join(tempfile.gettempdir(), "pipev-")})


def unchanged(reads: Iterable) -> bool:
    """Whether every (path, sha256) recorded is still that file (ABSENT: still no file)."""
    return all(isinstance(r, list | tuple) and len(r) == 2 and isinstance(r[0], str)
               and (not os.path.lexists(r[0]) if r[1] == ABSENT
                    else file_digest(Path(r[0])) == r[1]) for r in reads)


# -- TIK: an audit hook, on for the thread running a variant ----------------------------------
# (nothing is imported while a variant runs: a TIK build in another thread walks sys.modules)
_local = threading.local()
_hooked = False


class PythonReads:
    """`with PythonReads() as reads:` — the files Python code opens for reading meanwhile in
    this thread (`reads.paths`), and those it opens to write (`reads.written`)."""

    def __enter__(self) -> PythonReads:
        global _hooked
        if not _hooked:
            sys.addaudithook(_audit)
            _hooked = True
        self.paths: list[str] = []
        self.written: list[str] = []
        _local.active = self
        return self

    def __exit__(self, *exc) -> None:
        _local.active = None


def _audit(event: str, args: tuple) -> None:
    if event != "open":
        return
    active = getattr(_local, "active", None)
    if active is None or not isinstance(args[0], str | bytes | os.PathLike):
        return
    path, mode, flags = args
    path = os.fsdecode(path)
    writing = any(c in mode for c in "wax+") if isinstance(mode, str) else \
        bool(isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR))
    (active.written if writing else active.paths).append(path)
