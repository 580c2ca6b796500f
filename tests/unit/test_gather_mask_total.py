"""GatherMask's counter mode on a chip with the page's configuration two (issue 28 item 6): the
310P AI Core (`gathermask_counter = "total"`) takes MASK elements in all, 256 bytes a repeat,
whatever `repeat` says; against the reference (tests/reference/gather.py), raw bytes and
RSVD_CNT."""

from __future__ import annotations

import pytest

import pipev
from isa.chip import get_chip
from tests.reference.gather import gather_mask
from tests.unit.test_gather_mask import DST, SRC0, SRC1, TYPES, expected, hw, program


@pytest.mark.parametrize("t", ["f16", "s32"])
@pytest.mark.parametrize("count", [1, 7, 70, 129, 300, 1000])
def test_counter_mode_takes_count_elements_in_all(t, count):
    calls = [dict(pattern=0, repeat=2, src0_blk=1, src0_rep=8, src1_rep=1, count=count,
                  total=True),
             dict(pattern=5, repeat=2, src0_blk=1, src0_rep=8, src1_rep=1, count=count,
                  total=True)]
    lines = ["set_mask_count", f"set_vector_mask 0, {count}", hw(t, 0, 2, 1, 8, 1),
             "get_rsvd_cnt x10", hw(t, 5, 2, 1, 8, 1), "get_rsvd_cnt x11", "set_mask_norm"]
    text = program(t, lines, count).replace(".chip ascend910b", ".chip ascend310p")
    result = pipev.run(text)
    want, counts = expected(t, count, calls)
    assert result.ub[DST:DST + 0x4000].tobytes() == want
    assert list(result.registers[10:12]) == counts


def test_the_chips_say_which_configuration():
    assert get_chip("ascend310p").gathermask_counter == "total"
    for chip in ("ascend910b", "ascend310b", "ascend950"):
        assert get_chip(chip).gathermask_counter == "per_repeat"
    # count=70, repeat=2, every element kept: 2 × 70 on A2/A3, 70 on the 310P
    text = "\n".join([".chip ascend910b", ".ub a f16[512] = arange(0)", ".ub d f16[512]",
                       "    gather_mask.f16 d, a, pattern=7, count=70, repeat=2",
                       "    get_rsvd_cnt x1", ""])
    assert pipev.run(text).registers[1] == 140
    assert pipev.run(text.replace("ascend910b", "ascend310p")).registers[1] == 70
    ub = bytearray(0x8000 + 0x4000)
    assert gather_mask(ub, TYPES["f16"], DST, SRC0, SRC1, 7, 2, 1, 8, 1, count=70,
                       total=True) == 70
