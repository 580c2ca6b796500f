"""GatherMask (issue 28, 28b): vreducev2 and the gather_mask API statement against the
independent reference (tests/reference/gather.py), raw bytes compared, every type and pattern,
normal and counter mode, random programs; its RSVD_CNT (get_rsvd_cnt); its checks, timing,
trace and debugger. The C++ and TIK faces are in test_gather_mask_fronts.py."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipev
from tests.reference.gather import gather_mask

TYPES = {"f16": 2, "bf16": 2, "u16": 2, "s16": 2, "f32": 4, "u32": 4, "s32": 4}
SRC0, SRC1, DST = 0x0, 0x4000, 0x8000
AREA = 0x4000  # bytes of each region
# specials of both sizes: NaNs with payloads, infinities, -0, denormals (moved as raw bits)
SPECIALS = {2: [0x7E01, 0xFC00, 0x8000, 0x0001, 0xFFFF, 0x7FFF],
            4: [0x7FC00001, 0xFF800000, 0x80000000, 0x00000001, 0xFFFFFFFF, 0x7F800001]}


def initial_bytes(size: int, seed: int) -> bytes:
    """Random bytes with specials sprinkled in (every element some bit pattern of the type)."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 256, AREA, dtype=np.uint8)
    words = raw.view(np.uint16 if size == 2 else np.uint32)
    at = rng.choice(words.size, 64, replace=False)
    words[at] = rng.choice(SPECIALS[size], 64)
    return raw.tobytes()


def program(t: str, lines: list[str], seed: int) -> str:
    """SRC0 and SRC1 regions of random bytes, DST zeros; typed views over them."""
    size = TYPES[t]
    src = initial_bytes(size, seed)
    pat = np.random.default_rng(seed + 1).integers(0, 256, AREA, dtype=np.uint8).tobytes()
    ptype = "u16" if size == 2 else "u32"
    return "\n".join([
        ".chip ascend910b",
        f'.ub raw0 u8[{AREA}] @{SRC0:#x} = bits("{src.hex()}")',
        f'.ub raw1 u8[{AREA}] @{SRC1:#x} = bits("{pat.hex()}")',
        f".ub d u8[{AREA}] @{DST:#x} = zeros",
        f".ub a {t}[{AREA // size}] @{SRC0:#x}",
        f".ub p {ptype}[{AREA // size}] @{SRC1:#x}",
        f".ub o {t}[{AREA // size}] @{DST:#x}",
        *(f"    {x}" for x in lines), ""])


def expected(t: str, seed: int, calls: list[dict]) -> tuple[bytes, list[int]]:
    ub = bytearray(0x8000 + AREA)
    ub[SRC0:SRC0 + AREA] = initial_bytes(TYPES[t], seed)
    ub[SRC1:SRC1 + AREA] = np.random.default_rng(seed + 1).integers(
        0, 256, AREA, dtype=np.uint8).tobytes()
    counts = [gather_mask(ub, TYPES[t], DST, SRC0, SRC1, **c) for c in calls]
    return bytes(ub[DST:DST + AREA]), counts


def run_and_compare(t: str, seed: int, lines: list[str], calls: list[dict]) -> pipev.RunResult:
    result = pipev.run(program(t, lines, seed))
    want, counts = expected(t, seed, calls)
    assert result.ub[DST:DST + AREA].tobytes() == want
    assert list(result.registers[10:10 + len(counts)]) == counts
    return result


def hw(t: str, pattern: int, repeat: int, blk: int, rep: int, src1_rep: int,
       count: int | None = None) -> str:
    src1 = ", p" if pattern == 0 else ""
    return f"vreducev2.{t} o, a{src1}, repeat={repeat}, pattern={pattern}, " \
        f"stride={blk},{rep},{src1_rep}"


@pytest.mark.parametrize("t", list(TYPES))
@pytest.mark.parametrize("pattern", range(8))
def test_every_type_and_pattern_in_normal_mode(t, pattern):
    """Three repeats with gaps between src0's blocks and repeats, the pattern rows two blocks
    apart; MASK is ignored (a partial MASK is set first)."""
    call = dict(pattern=pattern, repeat=3, src0_blk=2, src0_rep=20, src1_rep=2)
    run_and_compare(t, pattern, ["set_vector_mask 0, 3", hw(t, pattern, 3, 2, 20, 2),
                                 "get_rsvd_cnt x10"], [call])


@pytest.mark.parametrize("t", ["f16", "s32"])
@pytest.mark.parametrize("count", [1, 7, 70, 129, 300])
def test_counter_mode_takes_count_elements_a_repeat(t, count):
    """A2/A3's counter mode: each of `repeat` repeats takes COUNT elements, more than a
    repeat's 256 bytes or fewer, the pattern bits consumed on within the repeat."""
    calls = [dict(pattern=0, repeat=2, src0_blk=1, src0_rep=4, src1_rep=0, count=count),
             dict(pattern=5, repeat=2, src0_blk=1, src0_rep=4, src1_rep=0, count=count)]
    run_and_compare(t, count, [
        "set_mask_count", f"set_vector_mask 0, {count}", hw(t, 0, 2, 1, 4, 0),
        "get_rsvd_cnt x10", hw(t, 5, 2, 1, 4, 0), "get_rsvd_cnt x11", "set_mask_norm"], calls)


def test_the_api_statement_takes_either_mode_and_leaves_the_mode_normal():
    calls = [dict(pattern=0, repeat=2, src0_blk=1, src0_rep=4, src1_rep=0, count=70),
             dict(pattern=2, repeat=1, src0_blk=1, src0_rep=8, src1_rep=1)]
    result = run_and_compare("u32", 3, [
        "gather_mask.u32 o, a, p, count=70, repeat=2, stride=1,4,0", "get_rsvd_cnt x10",
        "gather_mask.u32 o, a, pattern=2, repeat=1", "get_rsvd_cnt x11"], calls)
    heads = [i.text.split()[0] for s in result.program.statements for i in s.hw]
    assert heads[:5] == ["set_mask_count", "set_vector_mask", "vreducev2.u32", "set_mask_norm",
                         "set_vector_mask"]


@settings(max_examples=60, deadline=None)
@given(t=st.sampled_from(list(TYPES)), seed=st.integers(0, 1000),
       calls=st.lists(st.fixed_dictionaries({
           "pattern": st.integers(0, 7), "repeat": st.integers(1, 4),
           "src0_blk": st.integers(0, 3), "src0_rep": st.integers(0, 24),
           "src1_rep": st.integers(0, 3),
           "count": st.one_of(st.none(), st.integers(1, 200))}), min_size=1, max_size=3))
def test_random_programs_match_the_reference(t, seed, calls):
    """Random sequences (each call overwrites dst from its start, so later calls see earlier
    ones' bytes where they keep fewer elements)."""
    lines = []
    for k, c in enumerate(calls):
        if c["count"] is not None:
            lines += ["set_mask_count", f"set_vector_mask 0, {c['count']}"]
        lines.append(hw(t, c["pattern"], c["repeat"], c["src0_blk"], c["src0_rep"],
                        c["src1_rep"]))
        lines.append(f"get_rsvd_cnt x{10 + k}")
        if c["count"] is not None:
            lines.append("set_mask_norm")
    run_and_compare(t, seed, lines, calls)


# -- checks, timing, traces, the debugger --------------------------------------------------------
BASE = """\
.chip ascend910b
.ub a f32[128] = arange(0)
.ub p u32[8] = fill(0x80000001)
.ub d f32[16]
"""


def test_footprint_counts_the_elements_actually_written():
    """Pattern 3 keeps 16 of 64: d (16 elements) holds one repeat's, not two."""
    pipev.run(BASE + "    vreducev2.f32 d, a, pattern=3, repeat=1\n")
    with pytest.raises(pipev.SimulationError) as e:
        pipev.run(BASE + "    vreducev2.f32 d, a, pattern=3, repeat=2\n")
    assert str(e.value.diagnostics[-1]) == "<string>:5:19: error: vreducev2.f32 dst d needs " \
        "128 bytes, tensor has 64 (repeat 0, block 2)"


def test_a_user_pattern_decides_how_much_is_written():
    """Bits 0 and 31 of each u32: two of every 32 elements; four repeats keep 16."""
    result = pipev.run(BASE + "    vreducev2.f32 d, a, p, repeat=2, stride=1,8,0\n"
                       "    get_rsvd_cnt x3\n")
    d = result.program.tensors["d"]
    got = result.ub[d.addr:d.addr + 64].view(np.float32).tolist()
    assert got[:8] == [0, 31, 32, 63, 64, 95, 96, 127] and result.registers[3] == 8


def test_overlap_is_an_error_unless_a_compaction_in_place():
    """dst over the pattern is refused; over src0 it must be a compaction in place — every kept
    element written at or before where it is read, as a kernel compacting rows of a padded
    tensor into their own start does (src0 repeat stride beyond a repeat's elements)."""
    with pytest.raises(pipev.SimulationError, match=r"vreducev2.f32 dst and src1 p overlap "
                       r"at byte 0x[0-9a-f]+ \(a GatherMask's dst may not overlap its pattern"):
        pipev.run(BASE + "    vreducev2.f32 @0x200, a, p, repeat=1\n")
    with pytest.raises(pipev.SimulationError, match=r"dst a and src0 a overlap: kept element 0 "
                       r"is written at 0x20, after 0x0 where it is read"):
        pipev.run(BASE + "    vreducev2.f32 a[8], a, pattern=1, repeat=1\n")
    result = pipev.run(BASE + "    vreducev2.f32 a, a, pattern=1, repeat=2\n")
    a = result.program.tensors["a"]
    assert result.ub[a.addr:a.addr + 256].view(np.float32)[:64].tolist() == \
        list(range(0, 128, 2))
    # rows of 48 in a 64-element pitch, the first 40 of each kept, compacted in place
    rows = pipev.run(BASE + "    set_mask_count\n    set_vector_mask 0, 40\n"
                     "    vreducev2.f32 a, a, pattern=7, repeat=2, stride=1,8,0\n")
    got = rows.ub[a.addr:a.addr + 320].view(np.float32).tolist()
    assert got == list(range(40)) + list(range(64, 104))


def test_register_address_alignment_and_bounds_are_checked_at_run_time():
    with pytest.raises(pipev.SimulationError, match=r"<string>:6:19: error: vreducev2.f32 dst "
                       r"address 0x[0-9a-f]+ \(x1 = 0x[0-9a-f]+\) is not 32-byte aligned"):
        pipev.run(BASE + "    addr x1, d[1]\n    vreducev2.f32 @x1, a, pattern=7, repeat=1\n")
    with pytest.raises(pipev.SimulationError, match=r"vreducev2.f32 src0 a touches byte "
                       r"0x31ce0 outside UB \(196608 bytes\) \(repeat 25, block 0\)"):
        pipev.run(BASE + "    vreducev2.f32 d, a, pattern=7, repeat=255, stride=1,255,0\n")


def test_the_cost_is_the_profiles_gathermask_class():
    """2 cycles a repeat (GatherMask: 64 16-bit / 32 32-bit elements a cycle), 3 at least."""
    one = pipev.run(BASE + "    vreducev2.f32 d, a, pattern=3, repeat=1\n")
    two = pipev.run(BASE + "    vreducev2.f32 @0x2000, a, pattern=7, repeat=1\n"
                    "    vreducev2.f32 @0x4000, a, pattern=7, repeat=2\n")
    assert one.pipes["V"] == 3 and two.pipes["V"] == 3 + 4


def test_traces_name_its_rows_and_the_debugger_undoes_it(tmp_path):
    text = BASE + "    vreducev2.f32 d, a, p, repeat=2, stride=1,8,0\n    get_rsvd_cnt x3\n"
    pipev.run(text, trace=tmp_path / "t.jsonl")
    events = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
    instr = [e for e in events if e.get("ev") == "instr" and "vreducev2" in e["text"]]
    assert len(instr) == 1
    d = pipev.debug(text)
    assert d.execute("print d[0:4]") == [f"d[0:4] = {np.zeros(4, np.float32)}"]
    d.execute("step")
    d.execute("step")
    assert d.execute("print $x3") == ["$x3 = 8"]
    assert d.execute("print d[0:6]") == [
        f"d[0:6] = {np.array([0, 31, 32, 63, 64, 95], np.float32)}"]
    d.execute("back")
    d.execute("back")
    assert d.execute("print d[0:4]") == [f"d[0:4] = {np.zeros(4, np.float32)}"]
    d.execute("stepr 1")  # its first repeat: its four elements, RSVD_CNT 4 so far
    assert d.execute("print d[0:6]") == [
        f"d[0:6] = {np.array([0, 31, 32, 63, 0, 0], np.float32)}"]


def test_check_says_a_data_pattern_leaves_the_destination_to_run(tmp_path):
    from click.testing import CliRunner

    from simulator.cli import main

    src = tmp_path / "g.vasm"
    src.write_text(".chip ascend910b\n.gm x u32[8] input\n.ub a f32[64] = zeros\n"
                   ".ub p u32[8]\n.ub d f32[64]\n    copy_gm_to_ub p, x, burst=1\n"
                   "    set_flag MTE2, V, 0\n    wait_flag MTE2, V, 0\n"
                   "    vreducev2.f32 d, a, p, repeat=1\n")
    out = CliRunner().invoke(main, ["check", str(src)]).output
    assert "note: 4 checks need run-time values: the bytes 1 gather instruction(s) (line 9) " \
        "touch follow a pattern or offsets loaded from input data" in out


def test_chips_without_it_say_so():
    with pytest.raises(pipev.AssemblyError, match="vreducev2"):
        pipev.run(BASE.replace("ascend910b", "ascend910") +
                  "    vreducev2.f32 d, a, pattern=1, repeat=1\n")
