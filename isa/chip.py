"""Chip profiles (docs/machine.md §2): TOML data files, one per chip, loaded into an immutable
Chip."""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from isa.table import ROUND_MODES
from isa.table import type_families as table_type_families
from isa.types import TYPES

CHIP_DIR = Path(__file__).parent / "chips"
DEFAULT_CHIP = "ascend910b"


class ChipError(Exception):
    """A chip name that no profile provides, or a profile file that is malformed."""


@attrs.frozen
class Chip:
    name: str
    product: str
    ub_bytes: int
    scratch_bytes: int
    clock_mhz: float
    cmpmask_bits: int
    event_ids: int
    counter_mode: bool
    vsel_modes: tuple[int, ...]
    compare_to_cmpmask: bool
    flexible_scalar: bool
    zero_mask: str
    types: dict[str, tuple[str, ...]] = attrs.field(eq=False)
    bank: dict[str, Any] = attrs.field(eq=False)
    timing: dict[str, Any] = attrs.field(eq=False)
    path: str = ""
    npu_arch: int = 0  # __NPU_ARCH__ for AscendC kernels (pipev run FILE.cpp); 0: not given
    # __CCE_AICORE__, the device compiler's older architecture macro (220 on A2/A3, 310 on the 950:
    # the operator library's kernels test it); 0: not defined
    cce_aicore: int = 0
    # vconv/cast: "DST.SRC" -> the round modes that pair supports
    conversions: dict[str, tuple[str, ...]] = attrs.field(eq=False, factory=dict)
    vector_cores: int = 1  # vector cores a launch runs on at once; more blocks run in waves
    gm_bandwidth_gbps: float = 0.0  # aggregate GM (HBM/DDR) bandwidth, GB/s; 0: unlimited
    scalar_gm: bool = False  # the scalar unit loads and stores GM elements (ld/st, #29)
    # a block reduction's block with no active element: "keep" its dst element (A2/A3), or
    # write the operation's identity, 0 / -inf / +inf ("identity": 310B, 950)
    masked_block_reduce: str = "keep"
    # ReduceSum's first-n form: repeat sums added one after another ("sequential": A2/A3), or
    # reduced again by trees ("tree": the other chips, and every chip's high-dimensional form)
    reduce_sum_first_n: str = "tree"
    # GatherMask in counter mode: each of `repeat` repeats takes MASK_LO elements
    # ("per_repeat": the page's configuration one, A2/A3, 310B, 950) or MASK_LO elements in all
    # ("total": configuration two, the 310P AI Core)
    gathermask_counter: str = "per_repeat"
    # issue 34: the reg-based vector unit (RegTensor/MaskReg, ascend950) and its cost classes
    reg_vector: bool = False
    reg_timing: dict[str, Any] = attrs.field(eq=False, factory=dict)
    # the top bytes of UB reserved for the compiler's register spills (ascend950: 8 KB of 256 KB;
    # GetRuntimeUBSize gives the rest): C++ kernels may allocate them, with a warning
    spill_reserve_bytes: int = 0

    @property
    def gm_bytes_per_cycle(self) -> float:
        """The aggregate GM bandwidth in bytes per cycle of the core clock (0: unlimited)."""
        return self.gm_bandwidth_gbps * 1000.0 / self.clock_mhz

    @property
    def scratch_base(self) -> int:
        return self.ub_bytes - self.scratch_bytes

    def scratch_overlap(self, name: str, addr: int, nbytes: int) -> str | None:
        """The warning for a user tensor placed at ADDR that reaches into the API scratch area
        (the API expansions write there without asking), or None."""
        if addr + nbytes <= self.scratch_base:
            return None
        return (f"'{name}' at {addr:#x} reaches into the API scratch area "
                f"({self.scratch_base:#x}..{self.ub_bytes:#x})")

    @property
    def cmpmask_bytes(self) -> int:
        return self.cmpmask_bits // 8

    def select_mode_problem(self, name: str, mode: int, size: int, type_name: str) -> str | None:
        """Why this chip cannot run select/vsel MODE on a SIZE-byte type, or None (§2, §14.1)."""
        if mode not in self.vsel_modes:
            return (f"{name} mode {mode} is not supported on {self.name} (supports mode "
                    f"{', '.join(map(str, self.vsel_modes))} only)")
        if mode == 0 and size == 1 and self.cmpmask_bits < 256:
            others = " and ".join(str(m) for m in self.vsel_modes if m)
            return (f"8-bit {name} mode 0 needs a 256-bit CMPMASK ({self.name} has "
                    f"{self.cmpmask_bits}; supports modes {others} for {type_name})")
        return None


def api_scratch_needed(flexible_scalar: bool) -> int:
    """Bytes of scratch the API decodings use at most (§8.1): an inverted select mask of
    255 repeats (255·32 bytes for 8-bit types) plus one 32-byte scalar slot."""
    return 255 * 32 + 32 if flexible_scalar else 32


def type_families() -> tuple[str, ...]:
    return table_type_families() + RESTRICTION_LISTS


_REQUIRED = ("name", "ub_bytes", "scratch_bytes", "clock_mhz", "cmpmask_bits", "event_ids",
             "counter_mode", "vsel_modes", "compare_to_cmpmask", "types", "timing")
# type families a profile lists: those the instruction table names (InstrDef.types), plus two
# restriction lists of the chip's own (compares other than eq; types only the API count form has)
RESTRICTION_LISTS = ("compare_eq_only", "api_count_only",
                     "shift_round")  # #27: the types vshr takes round_en=1 for
MAX_UB = 1 << 22  # 16x the largest real UB: room for made-up chips, not for a typo's 2^40
Check = Callable[[Any], str]  # a value -> '' or what it must be


def _integer(lo: int, hi: int, step: int = 1) -> Check:
    def check(v: Any) -> str:
        if type(v) is int and lo <= v <= hi and v % step == 0:
            return ""
        return f"must be an integer in {lo}..{hi}" + (f", a multiple of {step}" if step > 1
                                                       else "")
    return check


def _one_of(*allowed: Any) -> Check:
    def check(v: Any) -> str:  # type() too: TOML's true must not pass for 1
        if any(type(v) is type(a) and v == a for a in allowed):
            return ""
        return "must be " + " or ".join(show_value(a) for a in allowed)
    return check


def _boolean(v: Any) -> str:
    return "" if type(v) is bool else "must be true or false"


def _string(v: Any) -> str:
    return "" if isinstance(v, str) else "must be a string"


def _name(v: Any) -> str:
    return "" if isinstance(v, str) and v.strip() and len(v) <= 64 else \
        "must be a string of 1 to 64 characters"


def _clock(v: Any) -> str:
    ok = type(v) in (int, float) and 0 < v <= 1e6
    return "" if ok else "must be a number of MHz above 0, at most 1000000"


def _modes(v: Any) -> str:
    ok = isinstance(v, list) and v and all(type(m) is int and m in (0, 1, 2) for m in v) \
        and len(set(v)) == len(v)
    return "" if ok else "must be a non-empty subset of 0, 1, 2"


def _types(v: Any) -> str:
    if not isinstance(v, dict):
        return "must be a table of type lists"
    for family, names in v.items():
        if family not in type_families():
            return f"names {family}, which is not a type family ({', '.join(type_families())})"
        if not isinstance(names, list) or not all(isinstance(t, str) for t in names):
            return f"{family} must be a list of type names"
        # a two-type family's list names DST.SRC pairs (#27: relu_conv, mul_conv)
        bad = [t for t in names if not all(n in TYPES for n in t.split(".", 1))]
        if bad:
            return f"{family} names unknown types {', '.join(bad)}"
    return ""


def _conversions(v: Any) -> str:
    if not isinstance(v, dict):
        return "must be a table of \"DST.SRC\" = [round modes]"
    for pair, modes in v.items():
        names = pair.split(".")
        # a float to itself is the one same-type pair: rounding to an integral value (f32.f32)
        if len(names) != 2 or not all(n in TYPES for n in names) or \
                (names[0] == names[1] and not TYPES[names[0]].is_float):
            return f"names {pair}, which is not a pair DST.SRC of two different types (or of a " \
                "float type and itself)"
        if not isinstance(modes, list) or not modes or \
                not all(isinstance(m, str) and m in ROUND_MODES for m in modes):
            return f"{pair} must be a non-empty list of round modes ({', '.join(ROUND_MODES)})"
    return ""


def _bank(v: Any) -> str:  # the model's own keys are the timing model's (timing/config.py)
    ok = isinstance(v, dict) and isinstance(v.get("model", "none"), str)
    return "" if ok else "must be a table whose model is a string"


def _bandwidth(v: Any) -> str:
    ok = type(v) in (int, float) and 0 <= v <= 1e6
    return "" if ok else "must be a number of GB/s in 0..1000000 (0: unlimited)"


def _table(v: Any) -> str:
    return "" if isinstance(v, dict) else "must be a table"


# every key a profile may have, with its rule (docs/machine.md §2; the [timing] table's own keys are
# checked by simulator/timing/config.py when a run times the program)
SCHEMA: dict[str, Check] = {
    "name": _name, "product": _string, "ub_bytes": _integer(32, MAX_UB, 32),
    "scratch_bytes": _integer(0, MAX_UB, 32), "clock_mhz": _clock,
    "spill_reserve_bytes": _integer(0, MAX_UB, 32),
    "cmpmask_bits": _one_of(128, 256), "event_ids": _integer(1, 256),
    "counter_mode": _boolean, "vsel_modes": _modes, "compare_to_cmpmask": _boolean,
    "flexible_scalar": _boolean, "zero_mask": _one_of("warning", "error"), "types": _types,
    "bank": _bank, "timing": _table, "npu_arch": _integer(0, 99999),
    "cce_aicore": _integer(0, 9999),
    "conversions": _conversions,
    "vector_cores": _integer(1, 65535), "gm_bandwidth_gbps": _bandwidth,
    "scalar_gm": _boolean,
    "masked_block_reduce": _one_of("keep", "identity"),
    "reduce_sum_first_n": _one_of("sequential", "tree"),
    "gathermask_counter": _one_of("per_repeat", "total"),
    "reg_vector": _boolean, "reg_timing": _table,  # issue 34
}


def show_value(v: Any) -> str:
    """A value as the TOML file spells it, shortened."""
    text = ("true" if v else "false") if type(v) is bool else \
        f'"{v}"' if isinstance(v, str) else repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def load_chip_file(path: Path) -> Chip:
    """Read one profile; raise ChipError naming the file and the missing or bad key."""
    stamp = _stamp(path) if path.parent == CHIP_DIR else None  # before reading: see _keep
    data = _cached(path, stamp)
    if data is None:
        data = _parse(path)
        _keep(path, stamp, data)
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise ChipError(f"{path}: chip profile lacks {', '.join(missing)}")
    problem = _check_keys(data) or _validate(data)
    if problem:
        raise ChipError(f"{path}: malformed chip profile: {problem}")
    return Chip(
        name=data["name"], product=data.get("product", ""), ub_bytes=data["ub_bytes"],
        scratch_bytes=data["scratch_bytes"], clock_mhz=float(data["clock_mhz"]),
        cmpmask_bits=data["cmpmask_bits"], event_ids=data["event_ids"],
        counter_mode=data["counter_mode"], vsel_modes=tuple(data["vsel_modes"]),
        compare_to_cmpmask=data["compare_to_cmpmask"],
        flexible_scalar=data.get("flexible_scalar", False),
        zero_mask=data.get("zero_mask", "warning"),
        types={k: tuple(v) for k, v in data["types"].items()},
        bank=dict(data.get("bank", {"model": "none"})), timing=dict(data["timing"]),
        path=str(path), npu_arch=data.get("npu_arch", 0), cce_aicore=data.get("cce_aicore", 0),
        conversions={k: tuple(v) for k, v in data.get("conversions", {}).items()},
        vector_cores=data.get("vector_cores", 1),
        gm_bandwidth_gbps=float(data.get("gm_bandwidth_gbps", 0)),
        scalar_gm=data.get("scalar_gm", False),
        masked_block_reduce=data.get("masked_block_reduce", "keep"),
        reduce_sum_first_n=data.get("reduce_sum_first_n", "tree"),
        gathermask_counter=data.get("gathermask_counter", "per_repeat"),
        reg_vector=data.get("reg_vector", False), reg_timing=dict(data.get("reg_timing", {})),
        spill_reserve_bytes=data.get("spill_reserve_bytes", 0),
    )


def _parse(path: Path) -> dict:
    import tomllib  # here: a profile read from its cache needs no TOML parser

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ChipError(f"{path}: cannot read chip profile: {exc}") from None


# -- the parsed profiles pipev ships, cached as Python caches bytecode ---------------------------
# (docs/decisions.md): in __pycache__ beside them (or under PYTHONPYCACHEPREFIX), written unless
# PYTHONDONTWRITEBYTECODE, valid while the profile's size and mtime are those recorded
CACHE_FORMAT = 1


def cache_file(path: Path) -> Path | None:
    """Where the parsed form of profile PATH is kept (None: this Python has no cache tag)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    name = f"{path.name}.{tag}.marshal"
    if sys.pycache_prefix:
        return Path(sys.pycache_prefix, *path.resolve().parent.parts[1:], name)
    return path.parent / "__pycache__" / name


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return CACHE_FORMAT, st.st_size, st.st_mtime_ns


def _cached(path: Path, stamp) -> dict | None:
    """The cached parse of PATH when it was made from the file STAMP describes, else None."""
    target = cache_file(path) if stamp is not None else None
    if target is None:
        return None
    try:
        kept, data = marshal.loads(target.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):  # none yet, or not one of ours
        return None
    return data if kept == stamp and isinstance(data, dict) else None


def _keep(path: Path, stamp, data: dict) -> None:
    """Cache DATA, the parse of PATH as STAMP describes it (the stamp taken before reading, so
    an edit while it was read makes the cache stale, not wrong); silently not in a read-only
    directory."""
    target = cache_file(path) if stamp is not None else None
    if target is None or sys.dont_write_bytecode:
        return
    staged = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staged.write_bytes(marshal.dumps((stamp, data)))
        os.replace(staged, target)  # whole or not at all: parallel runs read it
    except (OSError, ValueError):  # ValueError: a value marshal cannot hold (a TOML date)
        staged.unlink(missing_ok=True)


def _check_keys(data: dict) -> str:
    """The first key that is unknown or of the wrong type or range, as a message, or ''."""
    for key, value in data.items():
        check = SCHEMA.get(key)
        if check is None:
            return f"unknown key '{key}' (known: {', '.join(SCHEMA)})"
        problem = check(value)
        if problem:
            shown = f"[{key}]" if isinstance(value, dict) else f"{key} = {show_value(value)}"
            return f"{shown} {problem}"
    return ""


def _validate(data: dict) -> str:
    """The first inconsistency between keys, or ''. Keeps a bad TOML from failing mid-run."""
    ub, scratch = data["ub_bytes"], data["scratch_bytes"]
    if scratch >= ub:
        return f"scratch_bytes = {scratch} must be a multiple of 32 below ub_bytes"
    if data.get("spill_reserve_bytes", 0) >= ub:
        return "spill_reserve_bytes must be below ub_bytes"
    need = api_scratch_needed(data.get("flexible_scalar", False))
    if need > scratch:
        return f"scratch_bytes = {scratch} is below the {need} bytes the API-level " \
               "instructions use"
    if not isinstance(data["timing"].get("classes"), dict):
        return "[timing.classes] is missing"
    return ""


_cache: dict[str, Chip] = {}


def chip_names() -> list[str]:
    return sorted(p.stem for p in CHIP_DIR.glob("*.toml"))


def get_chip(name: str | Path | Chip | None = None) -> Chip:
    """The profile called NAME, or the profile file at NAME when it is a Path or a string
    ending in .toml (a chip of your own: no code change needed); the default chip for None."""
    if isinstance(name, Chip):
        return name
    name = name or DEFAULT_CHIP
    if isinstance(name, Path) or str(name).endswith(".toml"):
        try:
            path = Path(name).expanduser().resolve()
        except (OSError, RuntimeError):
            raise ChipError(f"no chip profile file '{str(name)[:200]}'") from None
        if not _is_file(path):
            raise ChipError(f"no chip profile file '{str(name)[:200]}'")
        try:
            key = f"{path}@{path.stat().st_mtime_ns}"  # an edited profile is read again
        except OSError:
            key = str(path)
        if key not in _cache:
            _cache[key] = load_chip_file(path)
        return _cache[key]
    if name not in _cache:
        path = CHIP_DIR / f"{name}.toml"
        if "/" in name or "\\" in name or not _is_file(path):
            raise ChipError(f"unknown chip '{name[:200]}' (known: {', '.join(chip_names())}; "
                            "or give the path of a .toml profile)")
        _cache[name] = load_chip_file(path)
    return _cache[name]


def _is_file(path: Path) -> bool:
    """Path.is_file() that treats an impossible path (too long, bad bytes) as absent."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False
