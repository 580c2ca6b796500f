"""docs/isa.md is generated from the instruction table; `pipev isa` prints its entries."""

from pathlib import Path

from click.testing import CliRunner

from isa.reference import document
from isa.table import INSTRUCTIONS
from simulator.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_checked_in_reference_is_up_to_date():
    on_disk = (ROOT / "docs" / "isa.md").read_text(encoding="utf-8")
    stale = "docs/isa.md is stale: run `python -m isa.reference > docs/isa.md`"
    assert on_disk == document(), stale


def test_every_mnemonic_has_an_entry():
    doc = document()
    for name in INSTRUCTIONS:
        assert f"### `{name}`" in doc


def test_pipev_isa_prints_one_entry_with_types_per_chip():
    out = CliRunner().invoke(main, ["isa", "vsel.f32"])
    assert out.exit_code == 0
    assert "vsel.T DST, SRC0, SRC1" in out.output
    assert "ascend950:" in out.output and "cost class: `vsel`" in out.output


def test_pipev_isa_unknown_mnemonic_is_a_usage_error():
    out = CliRunner().invoke(main, ["isa", "vfoo"])
    assert out.exit_code == 2
    assert "unknown mnemonic 'vfoo'" in out.output
