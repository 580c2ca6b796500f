"""The C++ headers generated from the binding rows are the checked-in ones, and no front end
keeps a copy of an API's expansion (isa/api.py has the only one)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulator.ascendc.bindgen import HEADERS, extra_header, header
from simulator.ascendc.build import INCLUDE_DIR
from simulator.bindings import BUILTIN, ROWS, Binding, Bindings

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("language", sorted(HEADERS))
def test_regenerating_the_headers_changes_nothing(language):
    on_disk = (INCLUDE_DIR / HEADERS[language]).read_text(encoding="utf-8")
    assert on_disk == header(language), \
        "stale: run `python scripts/generate_bindings.py` after editing simulator/bindings.py"


def test_every_row_is_in_its_header():
    """A shape row is its macro's invocation; a row with parameter lists is one function per
    overload, issuing its statement."""
    for row in BUILTIN:
        if row.language not in HEADERS:
            continue
        text = header(row.language)
        if row.params:
            assert text.count(f"void {row.name}(") == len(row.params), row
            assert f'head<T>("{row.statement}")' in text, row
        else:
            assert f'({row.name}, "{row.statement}")' in text, row


def test_no_front_end_expands_a_count_form():
    """The counter-mode sequence and the ascend910 chunks (isa/api.py's _first_n) appear in no
    header and no TIK module: set_mask_count is issued only by SetMaskCount itself."""
    files = [*INCLUDE_DIR.rglob("*.h"), *(ROOT / "simulator" / "tik").glob("*.py")]
    loop = re.compile(r"\bfirst_n\b|_counted|set_vector_mask 0, |per_repeat\b.*\b255|255\b.*per")
    found = [f"{p.relative_to(ROOT)}:{k}" for p in files
             for k, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if loop.search(line) or ("set_mask_count" in line and "SetMaskCount" not in line
                                      and "asc_set_mask_count" not in line)]
    assert found == []


def test_rows_added_at_run_time_get_a_header_and_go_again():
    rows = Bindings()
    assert extra_header(rows) is None
    made_up = Binding("ascendc", "Foo", "add", "binary")
    with rows.added(made_up):
        assert 'PIPEV_ASCENDC_BINARY(Foo, "add")' in extra_header(rows)
        assert rows.find("ascendc", "Foo") == made_up
    assert rows.find("ascendc", "Foo") is None and extra_header(ROWS) is None


def test_a_row_of_an_unknown_shape_is_refused():
    with pytest.raises(ValueError, match="has no shape 'ternary'"):
        Binding("tik", "vec_foo", "foo", "ternary")
