"""Cache keys: a hash of everything a variant's row depends on — the program text and the files
it includes, the parameters, the inputs, the chip profile, and pipev itself (its version and a
hash of its code and data, so a changed simulator never serves an old row)."""

from __future__ import annotations

import functools
import hashlib
import json
import re
from importlib import metadata
from pathlib import Path

import numpy as np

FORMAT = 1  # bump when a row's columns change meaning
PACKAGES = ("isa", "simulator", "pipev")
CODE_SUFFIXES = {".py", ".toml", ".h"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# a quoted string (C++, Python, .vasm's file("...")) or a .vasm `.chip PROFILE.toml`: the
# names a program can open its data by
LITERAL = re.compile(r'"([^"\\\n]{1,4096})"|\'([^\'\\\n]{2,4096})\'|^[ \t]*\.chip[ \t]+(\S+)',
                     re.M)


@functools.cache
def pipev_fingerprint() -> str:
    """pipev's version and a hash of its source files (computed once per process)."""
    try:
        version = metadata.version("pipev")
    except metadata.PackageNotFoundError:
        version = "unknown"
    root = Path(__file__).resolve().parents[2]
    h = hashlib.sha256(version.encode())
    for package in PACKAGES:
        for p in sorted((root / package).rglob("*")):
            if p.suffix in CODE_SUFFIXES and "__pycache__" not in p.parts and p.is_file():
                h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return f"{version}+{h.hexdigest()[:16]}"


def included_files(source: Path, includes: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The quoted #include files a C++ source reaches (transitively), with their hashes: a
    changed header gives new keys. System headers (<...>) and pipev's own are not followed
    (pipev's are in its fingerprint)."""
    seen: dict[Path, str] = {}
    todo = [source.resolve()]
    dirs = [Path(d).resolve() for d in includes]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue
        seen[path] = hashlib.sha256(data).hexdigest()
        for name in INCLUDE.findall(data.decode("utf-8", "replace")):
            for base in (path.parent, *dirs):
                candidate = (base / name).resolve()
                if candidate.is_file():
                    todo.append(candidate)
                    break
    return sorted((str(p), sha) for p, sha in seen.items())


def named_files(texts: list[str], bases: list[Path]) -> list[tuple[str, str]]:
    """The data a .vasm program reads by name (#31 03): every quoted string in TEXTS that
    names a regular file under one of BASES (its folder), with the file's hash: a changed,
    added or removed input file gives new keys. (A C++ host or a TIK script computes names at
    run time: the files its run read are recorded instead, simulator/sweep/reads.py.)"""
    found: dict[str, str] = {}
    for text in texts:
        for m in LITERAL.finditer(text):
            name = next(g for g in m.groups() if g is not None)
            for base in bases:
                path = base / name
                key = f"{base}|{name}"
                if key not in found and _regular(path):
                    digest = file_digest(path)
                    if digest is not None:
                        found[key] = digest
    return sorted(found.items())


def _regular(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long, or with a NUL: not a file
        return False


def file_digest(path: Path) -> str | None:
    """The sha256 of the file at PATH, read in chunks; None when it cannot be read."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def array_digest(array: np.ndarray) -> str:
    a = np.ascontiguousarray(array)
    return hashlib.sha256(f"{a.dtype.str}{a.shape}".encode() + a.tobytes()).hexdigest()


def variant_key(program: dict, params: dict, inputs: dict[str, str], chip: str,
                block_dim: int | None, options: dict) -> str:
    """The key of one variant. PROGRAM: its text / included files; INPUTS: name -> digest;
    CHIP: the profile's text (or "" for the program's own .chip); OPTIONS: checks, max_steps,
    kernel arguments."""
    data = {"format": FORMAT, "pipev": pipev_fingerprint(), "program": program,
            "params": sorted(params.items()), "inputs": sorted(inputs.items()), "chip": chip,
            "block_dim": block_dim, "options": options}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()
