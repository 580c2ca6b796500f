"""Kernel-only runs (`pipev run k.cpp --kernel NAME --arg ...`): the arguments, bound to the
kernel's parameters in order, and the outputs saved as .npy files.

`--arg NAME=FILE.npy` passes the array's bytes, `--arg NAME=FILE.bin` a raw file's bytes,
`--arg NAME=out:TYPE[COUNT]` a zeroed buffer of COUNT elements saved afterwards as
OUTPUT_DIR/NAME.npy. Each buffer is a GM buffer called NAME. Outputs are written all or
nothing by simulator/outputs.py, the writer of every run.
"""

from __future__ import annotations

import ctypes
import json
import re
import sys
from pathlib import Path

import attrs
import numpy as np

from isa.types import TYPES, lookup, to_npy

_OUT = re.compile(r"out:(?P<type>\w+)\[(?P<count>\d+)\]")
ALIGN = 64


@attrs.frozen
class ArgSpec:
    name: str
    kind: str  # "npy" | "bin" | "out"
    path: str = ""
    type: str = "u8"
    count: int = 0

    def to_json(self) -> dict:
        return attrs.asdict(self)


def parse_arg(text: str) -> ArgSpec:
    """One --arg value; raises ValueError with the usage message."""
    name, sep, value = text.partition("=")
    if not sep or not re.fullmatch(r"[A-Za-z_]\w*", name) or not value:
        raise ValueError(f"--arg takes NAME=FILE.npy, NAME=FILE.bin or NAME=out:TYPE[COUNT], "
                         f"got '{text}'")
    if value.startswith("out:"):
        m = _OUT.fullmatch(value)
        if m is None:
            raise ValueError(f"--arg {name}: write an output as out:TYPE[COUNT], e.g. "
                             f"out:f16[1024], not '{value}'")
        t = lookup(m.group("type"))
        if t is None:
            raise ValueError(f"--arg {name}: unknown type '{m.group('type')}' (pipev types: "
                             f"{', '.join(TYPES)}, or C names such as half, float, uint8_t)")
        count = int(m.group("count"))
        if count < 1 or count * t.size > 1 << 31:
            raise ValueError(f"--arg {name}: COUNT must be between 1 and {(1 << 31) // t.size}")
        return ArgSpec(name, "out", type=t.name, count=count)
    if value.endswith(".npy"):
        return ArgSpec(name, "npy", path=value)
    if value.endswith(".bin"):
        return ArgSpec(name, "bin", path=value)
    raise ValueError(f"--arg {name}: '{value}' is not a .npy file, a .bin file or "
                     "out:TYPE[COUNT]")


_NPY_TYPES = {np.dtype(t.npy): t.name for t in TYPES.values()
              if t.name not in ("bf16", "c32") and t.npy == t.numeric}


def _aligned(nbytes: int) -> np.ndarray:
    """NBYTES zeroed bytes whose address is a multiple of ALIGN."""
    raw = np.zeros(nbytes + ALIGN, np.uint8)
    off = (-raw.ctypes.data) % ALIGN
    return raw[off:off + nbytes]


def load_args(specs: list[ArgSpec], source: str) -> tuple[list[tuple[str, np.ndarray]],
                                                          list[str]]:
    """Each argument's (type, bytes) and the errors (diagnostic lines) of the ones that fail."""
    buffers, errors = [], []
    for a in specs:
        where = f"{source}:1:1: error: --arg {a.name}"
        if a.kind == "out":
            buffers.append((a.type, _aligned(TYPES[a.type].nbytes(a.count))))
            continue
        try:
            if a.kind == "npy":
                arr = np.load(a.path, allow_pickle=False)
                dtype = _NPY_TYPES.get(arr.dtype, "u8")
                data = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
            else:
                dtype, data = "u8", np.fromfile(a.path, np.uint8)
        except (OSError, ValueError, EOFError) as e:
            errors.append(f"{where}: cannot read {a.path}: {getattr(e, 'strerror', None) or e}")
            buffers.append(("u8", _aligned(0)))
            continue
        buf = _aligned(data.size)
        buf[:] = data
        buffers.append((dtype, buf))
    return buffers, errors


def run_kernel(lib, session, reporter, config: dict, *, has_bridge: bool) -> int:
    """Bind the arguments, launch the kernel, save the outputs; the exit status."""
    source = config["source"]
    kernel = config["kernel"]
    specs = [ArgSpec(**a) for a in config.get("args", [])]
    if not has_bridge:
        print(f"{source}:1:1: error: the file defines no pipev_set_bridge: include "
              "kernel_operator.h (pipev's AscendC headers)", file=sys.stderr)
        return 1
    arity = lib["pipev_kernel_arity"]
    arity.restype = ctypes.c_int
    n = int(arity())
    if n != len(specs):
        print(f"{source}:1:1: error: kernel {kernel} takes {n} parameter"
              f"{'' if n == 1 else 's'}, {len(specs)} --arg given (bound in order)",
              file=sys.stderr)
        return 1
    buffers, errors = load_args(specs, source)
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    declared = _gm_declared_hook(lib)
    for a, (dtype, buf) in zip(specs, buffers, strict=True):
        session.declare_gm(a.name, dtype, buf, file=source, line=1)
        if declared is not None:  # the headers name GlobalTensors over it after it
            declared(a.name.encode(), dtype.encode(), buf.ctypes.data, buf.size)
    ptrs = (ctypes.c_void_p * max(1, len(buffers)))(*[b.ctypes.data for _, b in buffers])
    entry = lib["pipev_kernel_entry"]
    entry.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
    entry.restype = None
    entry(ptrs, int(config.get("block_dim", 1)))
    if not reporter.ok or not session.launches:
        if not session.launches and reporter.ok:
            print(f"{source}:1:1: error: kernel {kernel} ran without a launch (pipev::launch "
                  "did not call the bridge)", file=sys.stderr)
        return 1
    outputs = {a.name: to_npy(TYPES[a.type], buf) for a, (_, buf) in zip(specs, buffers,
                                                                          strict=True)
               if a.kind == "out"}
    reporter.kernel_outputs = outputs
    if config.get("mode", "run") != "run" or config.get("result"):
        return 0  # check, asm and the Python API write no outputs
    out_dir = Path(config.get("output_dir") or "pipev-out")
    from simulator.outputs import write_outputs

    try:
        paths = write_outputs(out_dir, outputs)
    except OSError as e:
        target = e.filename or out_dir
        print(f"{source}:1:1: error: cannot write output {target}: {e.strerror or e}; no "
              "output was changed", file=sys.stderr)
        return 1
    if config.get("json"):
        from simulator.ascendc.report import launch_dict

        summary = {"ok": True, **launch_dict(session.launches[-1])}
        summary["outputs"] = paths
        summary["warnings"] = [str(d) for d in session.diagnostics if d.severity != "error"]
        sys.stdout.write(json.dumps(summary) + "\n")
    elif not config.get("quiet"):
        for name, path in paths.items():
            sys.stderr.write(f"  output {name} -> {path}\n")
    return 0


def _gm_declared_hook(lib):
    """The headers' `pipev_gm_declared(name, type, host, bytes)`: tells them about a GM buffer
    pipev declared itself, so SetGlobalBuffer and C-API pointers into it find its name (None
    for a header set without it)."""
    try:
        hook = lib["pipev_gm_declared"]
    except AttributeError:
        return None
    hook.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_uint64]
    hook.restype = None
    return hook
