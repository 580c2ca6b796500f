"""TransDataTo5HD (vnchwconv, trans_data_5hd) (issue 28, 28b): address lists in UB, 8-, 16- and
32-bit, repeats and strides, against the reference (tests/reference/layout.py), raw bytes; its
checks over the blocks the lists name."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev
from tests.reference.layout import trans_data_5hd

SIZES = {"u8": 1, "s8": 1, "f16": 2, "s16": 2, "f32": 4, "s32": 4}
SRC, DST, LISTS, AREA = 0x0, 0x4000, 0x8000, 0x4000


def run(t, seed, dst_list, src_list, keys):
    raw = np.random.default_rng(seed).integers(0, 256, AREA, dtype=np.uint8)
    text = "\n".join([
        ".chip ascend910b",
        f'.ub raw u8[{AREA}] @{SRC:#x} = bits("{raw.tobytes().hex()}")',
        f".ub out u8[{AREA}] @{DST:#x} = zeros",
        f".ub dl u64[16] @{LISTS:#x} = [{', '.join(map(str, dst_list))}]",
        f".ub sl u64[16] @{LISTS + 128:#x} = [{', '.join(map(str, src_list))}]",
        f"    trans_data_5hd.{t} dl, sl, {keys}", ""])
    ub = bytearray(LISTS)
    ub[SRC:SRC + AREA] = raw.tobytes()
    return pipev.run(text), ub


@settings(max_examples=50, deadline=None)
@given(t=st.sampled_from(list(SIZES)), seed=st.integers(0, 1000), repeat=st.integers(1, 4),
       dst_rep=st.integers(0, 20), src_rep=st.integers(0, 20), high=st.integers(0, 3),
       data=st.data())
def test_random_lists_match_the_reference(t, seed, repeat, dst_rep, src_rep, high, data):
    """Any 16 distinct source blocks and 16 distinct destination blocks (strides keep every
    repeat's destination blocks apart from the others'), raw bytes compared."""
    blocks = st.lists(st.integers(0, 60), min_size=16, max_size=16, unique=True)
    src_list = [SRC + 32 * b for b in data.draw(blocks)]
    dst_list = [DST + 32 * 8 * b for b in range(16)]  # 8 blocks apart: room for 4 repeats
    dst_rep = min(dst_rep, 2)
    dh, sh = high & 1, high >> 1
    result, ub = run(t, seed, dst_list, src_list, f"repeat={repeat}, stride={dst_rep},"
                     f"{src_rep}, dst_high={dh}, src_high={sh}")
    trans_data_5hd(ub, SIZES[t], dst_list, src_list, repeat, dst_rep, src_rep, dh, sh)
    assert result.ub[DST:DST + AREA].tobytes() == bytes(ub[DST:DST + AREA])


def test_nchw_to_nc1hwc0_half():
    """The page's use: a (C=16, H·W=256) half plane to (H·W, C0=16): list entries the planes'
    starts, 16 repeats one block on in the source, 16 blocks on in the destination."""
    x = np.arange(16 * 256, dtype=np.float16)
    src_list = [SRC + c * 512 for c in range(16)]
    dst_list = [DST + k * 32 for k in range(16)]
    text = "\n".join([
        ".chip ascend910b",
        f".ub x f16[4096] @{SRC:#x} = bits(\"{x.tobytes().hex()}\")",
        f".ub y f16[4096] @{DST:#x}",
        f".ub dl u64[16] @{LISTS:#x} = [{', '.join(map(str, dst_list))}]",
        f".ub sl u64[16] @{LISTS + 128:#x} = [{', '.join(map(str, src_list))}]",
        "    trans_data_5hd.f16 dl, sl, repeat=16, stride=16,1", ""])
    result = pipev.run(text)
    y = result.ub[DST:DST + 8192].view(np.float16)
    assert np.array_equal(y.reshape(256, 16), x.reshape(16, 256).T)


def test_checks_name_the_list_entry():
    base = "\n".join([".chip ascend910b", ".ub a f16[256] = arange(0)", ".ub d f16[256]",
                      ".ub dl u64[16] = [{d}]", ".ub sl u64[16] = [{s}]",
                      "    trans_data_5hd.f16 dl, sl, repeat=1", ""])
    ok = [str(32 * k) for k in range(16)]
    with pytest.raises(pipev.SimulationError, match=r"vnchwconv.f16 src_list entry 3 = 0x62 is "
                       r"not 32-byte aligned"):
        pipev.run(base.format(d=", ".join(ok), s=", ".join(ok[:3] + ["98"] + ok[4:])))
    with pytest.raises(pipev.SimulationError, match="outside UB"):
        pipev.run(base.format(d=", ".join(ok[:15] + ["4194304"]), s=", ".join(ok)))
