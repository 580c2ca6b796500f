"""The `aclrtlaunch_KERNEL.h` headers the vendor's build generates for the kernels of an
ascendc_library, written by pipev for the kernels of the units it compiles: a host file that
does `#include "aclrtlaunch_add_custom.h"` and `ACLRT_LAUNCH_KERNEL(add_custom)(blockDim,
stream, x, y, z)` runs as it is (include/pipev/aclrt_launch.h).

Each header declares the kernel as its definition does (the parameter list copied, so a
kernel's parameter types must be ones the host file can name: GM_ADDR, integers, floats) and
makes `aclrtlaunch_KERNEL(blockDim, stream, args...)` a launch at the caller's line. Template
kernels get no header (the vendor's generated launcher names an instantiation; not read).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from simulator.ascendc import launch

_KERNEL = re.compile(
    r'(?P<extern>extern\s+"C"\s+)?(?:__global__|__aicore__|\s|inline)*__global__[\s\w]*?'
    r"\bvoid\s+(?P<name>[A-Za-z_]\w*)\s*\((?P<params>[^()]*)\)\s*\{")


def kernels(text: str) -> list[tuple[str, str, bool]]:
    """(name, parameter list as written, extern "C") of TEXT's non-template kernels."""
    b = launch.blank(text)
    found = []
    for m in re.finditer(r"\b__global__\b", b):
        start = b.rfind("\n", 0, m.start()) + 1
        head = b[max(0, start - 200):start]
        if re.search(r"template\s*<[^;{}]*>\s*$", head):
            continue  # a template kernel
        k = _KERNEL.match(b, start) or _KERNEL.match(b, m.start())
        if k is None:
            continue
        extern = bool(k.group("extern")) or 'extern "C"' in text[start:m.start()]
        params = " ".join(text[k.start("params"):k.end("params")].split())
        found.append((k.group("name"), params, extern))
    return list({n: (n, p, e) for n, p, e in found}.values())


def header(name: str, params: str, extern: bool) -> str:
    decl = ('extern "C" ' if extern else "") + f"__global__ __aicore__ void {name}({params});"
    return f"""// aclrtlaunch_{name}.h: written by pipev (simulator/ascendc/aclrtlaunch.py) for the
// kernel {name}, as the vendor's build generates it for an ascendc_library.
#ifndef PIPEV_ACLRTLAUNCH_{name.upper()}_H
#define PIPEV_ACLRTLAUNCH_{name.upper()}_H
#include "kernel_operator.h"
#include "acl/acl.h"
#include "pipev/aclrt_launch.h"
{decl}
#define aclrtlaunch_{name}(...) ::pipev::detail::aclrt_launch(__FILE__, __LINE__, "{name}", \\
    #__VA_ARGS__, {name}, __VA_ARGS__)
#endif
"""


def write_headers(texts: list[str], root: Path) -> Path | None:
    """The directory (under ROOT, named by its content) holding a header for every kernel of
    TEXTS, or None when they define none."""
    found = [k for t in texts for k in kernels(t)]
    if not found:
        return None
    files = {f"aclrtlaunch_{n}.h": header(n, p, e) for n, p, e in found}
    digest = hashlib.sha256("".join(k + v for k, v in sorted(files.items())).encode())
    out = root / "aclrtlaunch" / digest.hexdigest()[:32]
    for fname, text in files.items():
        path = out / fname
        if not path.is_file():
            out.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{fname}.{os.getpid()}")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
    return out
