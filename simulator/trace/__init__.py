"""Trace writers (ISA.md §11) — placeholder until issue 8 lands."""

from __future__ import annotations

from pathlib import Path


def open_writer(fmt: str, path: Path, program, model):
    raise NotImplementedError("traces arrive with issue 8")
