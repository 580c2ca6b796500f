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
import re
from pathlib import Path

from simulator.ascendc import launch
from simulator.ascendc.cachefile import write_text_atomically

_KERNEL = re.compile(
    r'(?:extern\s+"C"\s+)?(?:__global__|__aicore__|\s|inline)*__global__[\s\w]*?'
    r"\bvoid\s+(?P<name>[A-Za-z_]\w*)\s*\((?P<params>[^()]*)\)\s*\{")


def kernels(text: str) -> list[tuple[str, str]]:
    """(name, parameter list as written) of TEXT's non-template kernels."""
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
        params = " ".join(text[k.start("params"):k.end("params")].split())
        found.append((k.group("name"), params))
    return list(dict(found).items())


def header(name: str, params: str) -> str:
    # (no `extern "C"`: the build drops it from every kernel, launch.py)
    decl = f"__global__ __aicore__ void {name}({params});"
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
    files = {f"aclrtlaunch_{n}.h": header(n, p) for n, p in found}
    digest = hashlib.sha256("".join(k + v for k, v in sorted(files.items())).encode())
    out = root / "aclrtlaunch" / digest.hexdigest()[:32]
    for fname, text in files.items():
        path = out / fname
        if not path.is_file():
            out.mkdir(parents=True, exist_ok=True)
            write_text_atomically(path, text)
    return out
