"""Chip profiles (ISA.md §2): TOML data files, one per chip, loaded into an immutable Chip."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import attrs

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

    @property
    def scratch_base(self) -> int:
        return self.ub_bytes - self.scratch_bytes

    @property
    def cmpmask_bytes(self) -> int:
        return self.cmpmask_bits // 8

    @property
    def api_scratch_needed(self) -> int:
        """Bytes of scratch the API decodings use at most (§8.1): an inverted select mask of
        255 repeats (255·32 bytes for 8-bit types) plus one 32-byte scalar slot."""
        return 255 * 32 + 32 if self.flexible_scalar else 32

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


_REQUIRED = ("name", "ub_bytes", "scratch_bytes", "clock_mhz", "cmpmask_bits", "event_ids",
             "counter_mode", "vsel_modes", "compare_to_cmpmask", "types", "timing")
# type families a profile lists: those the instruction table names (InstrDef.types), plus two
# restriction lists of the chip's own (compares other than eq; types only the API count form has)
RESTRICTION_LISTS = ("compare_eq_only", "api_count_only")


def type_families() -> tuple[str, ...]:
    return table_type_families() + RESTRICTION_LISTS


def load_chip_file(path: Path) -> Chip:
    """Read one profile; raise ChipError naming the file and the missing or bad key."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ChipError(f"{path}: cannot read chip profile: {exc}") from None
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise ChipError(f"{path}: chip profile lacks {', '.join(missing)}")
    try:
        chip = Chip(
            name=str(data["name"]), product=str(data.get("product", "")),
            ub_bytes=int(data["ub_bytes"]), scratch_bytes=int(data["scratch_bytes"]),
            clock_mhz=float(data["clock_mhz"]), cmpmask_bits=int(data["cmpmask_bits"]),
            event_ids=int(data["event_ids"]), counter_mode=bool(data["counter_mode"]),
            vsel_modes=tuple(int(m) for m in data["vsel_modes"]),
            compare_to_cmpmask=bool(data["compare_to_cmpmask"]),
            flexible_scalar=bool(data.get("flexible_scalar", False)),
            zero_mask=str(data.get("zero_mask", "warning")),
            types={k: tuple(str(t) for t in v) for k, v in data["types"].items()},
            bank=dict(data.get("bank", {"model": "none"})), timing=dict(data["timing"]),
            path=str(path), npu_arch=int(data.get("npu_arch", 0)),
        )
    except (TypeError, ValueError, AttributeError) as exc:
        raise ChipError(f"{path}: malformed chip profile: {exc}") from None
    problem = _validate(chip)
    if problem:
        raise ChipError(f"{path}: malformed chip profile: {problem}")
    return chip


def _validate(c: Chip) -> str:
    """The first inconsistency of a profile, or ''. Keeps a bad TOML from failing mid-run."""
    if c.ub_bytes <= 0 or c.ub_bytes % 32:
        return f"ub_bytes = {c.ub_bytes} must be a positive multiple of 32"
    if not 0 <= c.scratch_bytes < c.ub_bytes or c.scratch_bytes % 32:
        return f"scratch_bytes = {c.scratch_bytes} must be a multiple of 32 below ub_bytes"
    if c.api_scratch_needed > c.scratch_bytes:
        return f"scratch_bytes = {c.scratch_bytes} is below the {c.api_scratch_needed} bytes " \
               "the API-level instructions use"
    if c.clock_mhz <= 0:
        return f"clock_mhz = {c.clock_mhz} must be positive"
    if c.cmpmask_bits not in (128, 256):
        return f"cmpmask_bits = {c.cmpmask_bits} must be 128 or 256"
    if c.npu_arch < 0:
        return f"npu_arch = {c.npu_arch} must not be negative (__NPU_ARCH__; 0: not given)"
    if c.event_ids < 1:
        return f"event_ids = {c.event_ids} must be at least 1"
    if not c.vsel_modes or not set(c.vsel_modes) <= {0, 1, 2}:
        return f"vsel_modes = {list(c.vsel_modes)} must be a non-empty subset of 0, 1, 2"
    if c.zero_mask not in ("warning", "error"):
        return f"zero_mask = {c.zero_mask!r} must be \"warning\" or \"error\""
    for family, names in c.types.items():
        if family not in type_families():
            return f"[types] {family} is not a type family ({', '.join(type_families())})"
        bad = [t for t in names if t not in TYPES]
        if bad:
            return f"[types] {family} names unknown types {', '.join(bad)}"
    if not isinstance(c.timing.get("classes"), dict):
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
