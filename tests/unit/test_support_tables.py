"""The issue-28 support tables (docs/ascendc.md, docs/tik.md) against what runs (h28): every
call a row names is one the headers or the TIK class define, every statement is in the
instruction table, and the types a row lists are the chip profile's for that statement."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from isa.chip import get_chip
from isa.table import INSTRUCTIONS
from simulator.bindings import ROWS
from simulator.tik.tik import Tik

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "simulator" / "ascendc" / "include"
C_NAMES = {"half": "f16", "float": "f32", "bfloat16_t": "bf16", "int8_t": "s8", "uint8_t": "u8",
           "int16_t": "s16", "uint16_t": "u16", "int32_t": "s32", "uint32_t": "u32"}
TIK_NAMES = {"float16": "f16", "float32": "f32", "bfloat16": "bf16", "int8": "s8", "uint8": "u8",
             "int16": "s16", "uint16": "u16", "int32": "s32", "uint32": "u32"}


def table(doc: str, heading: str) -> list[list[list[str]]]:
    """The rows of the table under HEADING: each cell's backticked words."""
    text = (ROOT / "docs" / doc).read_text()
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        if not line.startswith("| ") or line.startswith("|---"):
            continue
        cells = line.strip("|").split(" | ")
        rows.append([" ".join(re.findall(r"`([^`]*)`", c)).split() for c in cells])
    return rows[1:]  # the header row


ASCENDC = table("ascendc.md", "### What is supported, per API and type (issue 28")
TIK = table("tik.md", "### What is supported, per call and type (issue 28")
HEADERS = "\n".join(p.read_text() for p in INCLUDE.rglob("*.h"))


def _profile_types(statements: list[str]) -> set[str] | None:
    chip = get_chip("ascend910b")
    found = set()
    for name in statements:
        defn = INSTRUCTIONS[name]  # a KeyError: the row names no statement
        if defn.types:
            found |= set(chip.types.get(defn.types, ()))
    return found or None


def _defined_in_headers(name: str) -> bool:
    """A function NAME( or a macro's NAME argument (PIPEV_REDUCE_CNT(NAME, T))."""
    return re.search(rf"\b{re.escape(name)}\s*[(,]", HEADERS) is not None


def test_the_tables_have_the_apis_of_issue_28():
    names = {n for row in ASCENDC for n in row[0]}
    for api in ("WholeReduceMax", "BlockReduceSum", "PairReduceSum", "ReduceSum", "GatherMask",
                "Gather", "Gatherb", "Brcb", "CreateVecIndex", "Duplicate", "Transpose",
                "TransDataTo5HD", "GetRsvdCnt", "RepeatReduceSum"):
        assert api in names
    assert {n for row in TIK for n in row[0]} >= {"vcadd", "vec_reduce_add", "vcpadd",
                                                  "vreduce", "vgather", "vec_trans"}


@pytest.mark.parametrize("row", ASCENDC, ids=lambda r: r[0][0])
def test_ascendc_row(row):
    ascendc, statements, types, c_api, tik = row
    want = _profile_types(statements)
    assert ({C_NAMES[t] for t in types} or None) == want
    for name in ascendc + c_api:
        assert _defined_in_headers(name), name
    for name in tik:
        assert hasattr(Tik, name) or ROWS.find("tik", name), name


@pytest.mark.parametrize("row", TIK, ids=lambda r: r[0][0])
def test_tik_row(row):
    calls, statements, types = row
    assert {TIK_NAMES[t] for t in types} == _profile_types(statements)
    for name in calls:
        assert hasattr(Tik, name) or ROWS.find("tik", name), name
