"""Chip profiles (ISA.md §2): TOML data files, one per chip, loaded into an immutable Chip."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import attrs

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

    @property
    def scratch_base(self) -> int:
        return self.ub_bytes - self.scratch_bytes

    @property
    def cmpmask_bytes(self) -> int:
        return self.cmpmask_bits // 8

    def supports(self, family: str, type_name: str) -> bool:
        return type_name in self.types.get(family, ())


_REQUIRED = ("name", "ub_bytes", "scratch_bytes", "clock_mhz", "cmpmask_bits", "event_ids",
             "counter_mode", "vsel_modes", "compare_to_cmpmask", "types", "timing")


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
        return Chip(
            name=str(data["name"]), product=str(data.get("product", "")),
            ub_bytes=int(data["ub_bytes"]), scratch_bytes=int(data["scratch_bytes"]),
            clock_mhz=float(data["clock_mhz"]), cmpmask_bits=int(data["cmpmask_bits"]),
            event_ids=int(data["event_ids"]), counter_mode=bool(data["counter_mode"]),
            vsel_modes=tuple(int(m) for m in data["vsel_modes"]),
            compare_to_cmpmask=bool(data["compare_to_cmpmask"]),
            flexible_scalar=bool(data.get("flexible_scalar", False)),
            zero_mask=str(data.get("zero_mask", "warning")),
            types={k: tuple(v) for k, v in data["types"].items()},
            bank=dict(data.get("bank", {"model": "none"})), timing=dict(data["timing"]),
            path=str(path),
        )
    except (TypeError, ValueError) as exc:
        raise ChipError(f"{path}: malformed chip profile: {exc}") from None


_cache: dict[str, Chip] = {}


def chip_names() -> list[str]:
    return sorted(p.stem for p in CHIP_DIR.glob("*.toml"))


def get_chip(name: str | Chip | None = None) -> Chip:
    """The profile called NAME (or a path to a .toml profile); the default chip for None."""
    if isinstance(name, Chip):
        return name
    name = name or DEFAULT_CHIP
    if name not in _cache:
        path = Path(name) if name.endswith(".toml") else CHIP_DIR / f"{name}.toml"
        if not path.is_file():
            raise ChipError(f"unknown chip '{name}' (known: {', '.join(chip_names())})")
        _cache[name] = load_chip_file(path)
    return _cache[name]
