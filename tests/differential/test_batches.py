"""Consecutive lines run as one batch (simulator/batches.py, #33 item 1), against the fast loop
that runs them one at a time and against the reference loop.

An unrolled kernel's tile loop, written out, is a run of lines of one shape whose operands each
move by one step from line to line. The fast loop runs such a run (at least MIN_BATCH lines
not run before, none touching bytes another writes) as one operation: the family's body on
their decoding as one of that many repeats (`VectorOp.batched`), the timing stage booking each
line and the hazard checks taking them all (`ObserverPlan.batch`). Compared here: UB bytes,
outputs, diagnostics (init and race warnings at their lines, errors with their words),
cycles, statistics, hot lines and registers — on random runs of lines of one shape (steps of
every sign and size, operands meeting across lines, partial MASK, counter mode, DMA racing,
reads of unwritten bytes) on four chips under every check mode. The pieces the batch relies
on are checked against their one-line forms, and each comparison is shown to fail when the
batch skips what it must not.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.assembler import assemble
from isa.chip import get_chip
from isa.decode import decode_vector
from isa.diagnostics import AssemblyError
from simulator import batches
from simulator.decodings import _fits, _overlaps
from simulator.footprints import Footprint, Record, span_footprint
from simulator.timing.banks import bank_model
from tests.differential.test_fused import same_three_ways as three_ways
from tests.differential.test_rebased_lines import SETTINGS

SIZE = {"f32": 4, "f16": 2}
COUNT = 12288  # elements of each data tensor
SHAPES = (
    "vsel.{t} {d}, {a}, {b}",
    "vsel.{t} {d}, {a}, {m}, mode=1",
    "vadd.{t} {d}, {a}, {b}",
    "vmul.{t} {d}, {a}, {b}, stride=2,1,1,8,8,8",
    "vadds.{t} {d}, {a}, 2.5",
    "vmax.{t} {d}, {a}, {b}",
    "vrelu.{t} {d}, {a}",
    "vexp.{t} {d}, {a}",
    "vdiv.{t} {d}, {a}, {b}",
    "vsub.{t} {d}, {a}, {b}, stride=1,1,2,8,8,16",
    "vmla.{t} {d}, {a}, {b}",
)
STATE = ("set_vector_mask 0x0, 0xff00ff", "set_mask_count\n    set_vector_mask 0, 40",
         "set_mask_norm\n    set_vector_mask 0xffffffffffffffff, 0xffffffffffffffff",
         "copy_gm_to_ub y, g, nburst=1, burst=64", "set_flag MTE2, V, 0\n    wait_flag MTE2, V, 0",
         "copy_ub_to_gm g, z, nburst=1, burst=16")


def without_batches(self, learnt):
    """(FastLoop._batchable's stand-in: no shape batches)"""


def same_three_ways(text: str, checks: str = "error") -> tuple:
    """TEXT on the fast loop with batches, on the reference loop and on the fast loop without
    them: every field of the outcome equal. Returns it."""
    return three_ways(text, checks, {"_batchable": without_batches}, "batches")


def batched_lines(text: str) -> int:
    """How many lines of TEXT ran in batches."""
    ran = []
    real = batches.Batches.run

    def counting(self, i, room):
        nxt = real(self, i, room)
        if nxt is not None:
            ran.append(nxt - i)
        return nxt
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batches.Batches, "run", counting)
        simulator.run(text)
    return sum(ran)


def program(chip: str, t: str, body: list[str]) -> str:
    return (f".chip {chip}\n.gm g {t}[4096] = random(4)\n.ub x {t}[{COUNT}] = random(1)\n"
            f".ub y {t}[{COUNT}] = random(2)\n.ub z {t}[{COUNT}]\n.ub m u8[512] = random(3)\n"
            + "".join(f"    {ln}\n" for ln in body))


@st.composite
def batched_programs(draw) -> str:
    """A program of unrolled loops, each a tile of one to three statements written out many
    times: each operand of each statement starting somewhere and moving by its own step from
    tile to tile (whole blocks, now and then off a block, backwards or none; a destination
    often onto a source, of its own statement or of another, maybe a tile on), between them
    state changes, DMA and reads of z (never written unless a line wrote it)."""
    chip = draw(st.sampled_from(("ascend910b", "ascend950", "ascend310p", "ascend910")))
    t = "f16" if chip == "ascend910" else draw(st.sampled_from(("f32", "f16")))
    size = SIZE[t]
    body = ["set_cmpmask m"]
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.integers(0, 2)) == 0:
            body.append(draw(st.sampled_from(STATE)))
        tile = [statement(draw, size) for _ in range(draw(st.sampled_from((1, 1, 2, 3))))]
        if len(tile) > 1 and draw(st.integers(0, 1)):  # a statement reads what another wrote
            src, dst = draw(st.sampled_from(tile)), draw(st.sampled_from(tile))
            tensor, start, step = src[1]["d"]
            dst[1]["a"] = (tensor, start + draw(st.sampled_from((0, 0, 256, -256))), step)
        for j in range(draw(st.integers(6, 24))):
            for shape, ops in tile:
                refs = {}
                for k, (tensor, start, step) in ops.items():
                    at = start + j * step
                    if at < 0:
                        at = start
                    refs[k] = f"{tensor}[{at // (1 if tensor == 'm' else size)}]"
                body.append(shape.format(t=t, **refs))
    return program(chip, t, body)


def statement(draw, size: int) -> tuple[str, dict]:
    """A statement's shape and, for each operand, (tensor, first byte, step)."""
    shape = draw(st.sampled_from(SHAPES))
    ops = {}
    for k, tensor in (("d", draw(st.sampled_from("xz"))), ("a", draw(st.sampled_from("xyz"))),
                      ("b", "y"), ("m", "m")):
        if k == "m":  # (a select mask's bytes: read whole, at a few places)
            ops[k] = (tensor, 32 * draw(st.integers(8, 12)), 32 * draw(st.integers(0, 1)))
            continue
        step = draw(st.sampled_from((0, 1, 1, 1, 2, -1))) * 256
        if draw(st.integers(0, 19)) == 0:
            step += 32
        # (indices of four digits: the assembler makes a shape per width of its digits)
        start = 2048 + draw(st.integers(0, 24)) * 256 + \
            (size if draw(st.integers(0, 99)) == 0 else 0)
        ops[k] = (tensor, start, step)
    if draw(st.integers(0, 3)) == 0:  # the destination onto a source, maybe a line on
        ops["d"] = (ops["a"][0], ops["a"][1] + draw(st.sampled_from((0, 0, 256))),
                    ops["a"][2])
    return shape, ops


@settings(SETTINGS, max_examples=200)
@given(batched_programs(), st.sampled_from(["error", "warn", "off"]))
def test_random_unrolled_loops(text, checks):
    try:
        same_three_ways(text, checks)
    except AssemblyError:  # a line past its tensor: nothing to run
        pass


@pytest.mark.parametrize("chip", ("ascend910b", "ascend950", "ascend310p", "ascend910"))
def test_a_tile_loop_written_out_runs_in_batches(chip):
    """x's tiles each selected against a row of y that moves every 40 lines, then z's tiles
    added: every line but the first few of each shape (and each row of y) in a batch."""
    t = "f16" if chip == "ascend910" else "f32"
    e = 256 // SIZE[t]
    body = ["set_cmpmask m"]
    body += [f"vsel.{t} x[{e * (i % 40)}], x[{e * (i % 40)}], y[{e * (i // 40)}]"
             for i in range(200)]
    body += [f"vadd.{t} z[{e * i}], x[{e * i}], y[{e * i}]" for i in range(60)]
    text = program(chip, t, body)
    assert same_three_ways(text)[0] == "ok"
    assert batched_lines(text) >= 200


@pytest.mark.parametrize("chip", ("ascend910b", "ascend950"))
def test_a_tile_of_statements_runs_statement_by_statement(chip):
    """Tiles of three statements — a select into x, an add reading what it wrote, a multiply
    into z reading y: each statement's lines run as one, and the tile's second statement
    still reads what its first wrote."""
    body = ["set_cmpmask m"]
    for i in range(40):
        a = 2048 + 64 * i
        body += [f"vsel.f32 x[{a}], x[{a}], y[{a}]", f"vadd.f32 z[{a}], x[{a}], y[{a}]",
                 f"vmul.f32 y[{a}], z[{a}], y[{a}]"]
    text = program(chip, "f32", body)
    assert same_three_ways(text)[0] == "ok"
    assert batched_lines(text) >= 90


def test_a_read_of_bytes_the_tile_writes_later_still_warns():
    """Each tile reads z before its own later statement writes it (z never written before):
    every read is of unwritten bytes — the init warning at the first such line, as one line
    at a time gives it; with the statements the other way round, no warning and a batch."""
    for order, warns in ((0, True), (1, False)):
        body = ["set_cmpmask m"]
        for i in range(30):
            a = 2048 + 64 * i
            tile = [f"vmul.f32 y[{a}], z[{a}], x[{a}]", f"vadd.f32 z[{a}], x[{a}], x[{a}]"]
            body += tile[::-1] if order else tile
        text = program("ascend910b", "f32", body)
        got = same_three_ways(text, "warn")
        assert any("never written" in d.message for d in got[3]) == warns
        if not warns:
            assert batched_lines(text) >= 40


def test_a_statement_reading_the_next_tile_keeps_its_order():
    """Each tile adds into x's tile and multiplies the NEXT tile of x into z: running the adds
    first would feed the multiplies the new values. The batch is cut where a line meets a
    later statement's line of an earlier tile; the outcome is the program's."""
    body = ["set_cmpmask m"]
    for i in range(40):
        a = 2048 + 64 * i
        body += [f"vadd.f32 x[{a}], y[{a}], y[{a}]", f"vmul.f32 z[{a}], x[{a + 64}], y[{a}]"]
    text = program("ascend910b", "f32", body)
    same_three_ways(text)
    assert batched_lines(text) == 0
    body = ["set_cmpmask m"]  # the previous tile instead: in order either way
    for i in range(1, 41):
        a = 2048 + 64 * i
        body += [f"vadd.f32 x[{a}], y[{a}], y[{a}]", f"vmul.f32 z[{a}], x[{a - 64}], y[{a}]"]
    text = program("ascend910b", "f32", body)
    same_three_ways(text)
    assert batched_lines(text) >= 60


def test_lines_that_meet_are_cut_where_they_meet():
    """Each line adds into the tile the next one reads (a chain): the batch would read what an
    earlier line had not yet written. Cut there, the chain runs one line at a time; lines
    apart run in batches."""
    chain = [f"vadd.f32 x[{64 * (i + 1)}], x[{64 * i}], y[0]" for i in range(30)]
    apart = [f"vadd.f32 z[{64 * i}], x[{64 * i}], y[0]" for i in range(30)]
    text = program("ascend910b", "f32", ["set_cmpmask m", *chain])
    same_three_ways(text)
    assert batched_lines(text) == 0
    text = program("ascend910b", "f32", ["set_cmpmask m", *apart])
    same_three_ways(text)
    assert batched_lines(text) >= 20


def test_warnings_and_errors_at_their_lines():
    """An unordered DMA into y while the lines read it (a race), lines reading z before
    anything wrote it (init), and a run whose last lines reach past x (the footprint rule):
    the same words at the same lines."""
    body = ["set_cmpmask m", "copy_gm_to_ub y, g, nburst=1, burst=64"]
    body += [f"vsel.f32 x[{64 * i}], x[{64 * i}], y[{64 * (i % 3)}]" for i in range(20)]
    body += ["set_flag MTE2, V, 0", "wait_flag MTE2, V, 0"]
    body += [f"vadd.f32 x[{64 * i}], z[{64 * i}], y[{64 * i}]" for i in range(20)]
    got = same_three_ways(program("ascend910b", "f32", body), "warn")
    words = [d.message for d in got[3]]
    assert any("race" in w for w in words) and any("never written" in w for w in words)
    body = [f"vadd.f32 w[{64 * i}], x[{7808 + 32 * i}], y[0]" for i in range(140)]
    got = same_three_ways(program("ascend910b", "f32", body).replace(
        ".ub m", ".ub w f32[9216]\n.ub m"))
    assert got[0] == "error" and "x" in got[1][0].message


def test_a_race_with_a_batched_line_names_that_line():
    """A DMA out of x, unordered after a batch wrote x: the race names the batch's last line
    to write the bytes it reads — the batch's records are each line's."""
    body = ["set_cmpmask m"] + [f"vadd.f32 x[{64 * i}], y[{64 * i}], y[{64 * i}]"
                                for i in range(40)]
    body += ["copy_ub_to_gm g, x[2048], nburst=1, burst=8"]
    text = program("ascend910b", "f32", body)
    got = same_three_ways(text, "warn")
    assert batched_lines(text) >= 30
    race = [d for d in got[3] if "race" in d.message]
    assert race and "line 40" in race[0].message  # x[2048] is line 33's tile: 7 header lines


@pytest.mark.parametrize("ahead", (2, -2))
def test_a_race_with_a_batched_read_names_the_last_reader(ahead):
    """Each line reads y's tile through both sources, one of them AHEAD tiles on (so a tile is
    read by two lines, through two operands); then a DMA writes y's tile 30 unordered: the
    write-after-read names the last line that read it (whichever operand read it)."""
    body = ["set_cmpmask m"] + [f"vadd.f32 z[{64 * i}], y[{64 * i}], y[{64 * (i + ahead)}]"
                                for i in range(2, 42)]
    body += ["copy_gm_to_ub y[1920], g, nburst=1, burst=8"]
    text = program("ascend910b", "f32", body)
    got = same_three_ways(text, "warn")
    assert batched_lines(text) >= 30
    race = [d for d in got[3] if "race" in d.message]
    last = max(30, 30 - ahead) - 2 + 8  # (line 8 is i = 2's)
    assert race and "write-after-read" in race[0].message
    assert f"line {last} " in race[0].message


def test_a_batch_that_skips_what_it_must_not_is_caught(monkeypatch):
    """The comparisons fail when a batch ignores lines that meet (a chain read before it is
    written) or leaves the hazard records unfilled (the race names another line)."""
    chain = program("ascend910b", "f32", ["set_cmpmask m"] + [
        f"vadd.f32 x[{64 * (i + 1)}], x[{64 * i}], y[0]" for i in range(30)])
    race = program("ascend910b", "f32", ["set_cmpmask m"] + [
        f"vadd.f32 x[{64 * i}], y[{64 * i}], y[{64 * i}]" for i in range(40)] + [
        "copy_ub_to_gm g, x[2048], nburst=1, burst=8"])
    with monkeypatch.context() as mp:
        mp.setattr(batches, "_independent", lambda bases, spans, writes: len(bases))
        with pytest.raises(AssertionError):
            same_three_ways(chain)
    ahead = program("ascend910b", "f32", ["set_cmpmask m"] + [
        ln for i in range(40) for ln in (f"vadd.f32 x[{2048 + 64 * i}], y[0], y[0]",
                                         f"vmul.f32 z[{2048 + 64 * i}], x[{2112 + 64 * i}], y[0]")])
    with monkeypatch.context() as mp:
        mp.setattr(batches, "_crossing", lambda early, late, n: n)
        with pytest.raises(AssertionError):
            same_three_ways(ahead)
    with monkeypatch.context() as mp:
        mp.setattr(Record, "fill_rows", lambda self, *args: None)
        with pytest.raises(AssertionError):
            same_three_ways(race, "warn")


def test_the_debugger_steps_back_over_every_line_of_a_batchable_run():
    """A session's loop records every execution (it makes no batches): after `continue` to the
    end, stepping back line by line restores UB as each line left it."""
    from simulator.debugger import Commands, Session
    text = program("ascend910b", "f32", ["set_cmpmask m"] + [
        f"vadd.f32 x[{64 * i}], x[{64 * i}], y[{64 * i}]" for i in range(30)])
    assert batched_lines(text) >= 20

    def ub(s):
        s.sync()
        return s.machine.ub.tobytes()
    stepped = Session(assemble(text))
    states = [ub(stepped)]
    while not stepped.finished:
        Commands(stepped).execute("step")
        states.append(ub(stepped))
    ran = Session(assemble(text))
    Commands(ran).execute("continue")
    assert ub(ran) == states[-1]
    for want in reversed(states[:-1]):
        Commands(ran).execute("back")
        assert ub(ran) == want


# -- the pieces, against their one-line forms --------------------------------------------------

@SETTINGS
@given(st.lists(st.lists(st.integers(0, 40), min_size=3, max_size=3), min_size=1, max_size=12),
       st.data())
def test_record_rows_fill_as_fills_one_after_another(rows, data):
    nblk = 48
    split = data.draw(st.lists(st.integers(0, nblk * 32 - 1), max_size=5))
    values = np.arange(1, len(rows) + 1, dtype=np.int64) * 7
    want, got = Record(nblk * 32, -1), Record(nblk * 32, -1)
    for rec in (want, got):  # some blocks split into bytes first
        for b in split:
            rec.fill(span_footprint(b, b + 1), 3)
    for row, v in zip(rows, values, strict=True):
        for blk in row:
            want.fill(Footprint(slice(blk, blk + 1), None, None), int(v))
    got.fill_rows(np.array(rows, np.int64), values)
    assert (want.values(0, nblk * 32, None) == got.values(0, nblk * 32, None)).all()


@SETTINGS
@given(st.lists(st.tuples(st.integers(-8, 8), st.integers(0, 96), st.booleans()), min_size=1,
                max_size=3),
       st.integers(2, 12), st.integers(0, 3))
def test_lines_that_meet_counted_as_byte_sets_count_them(ops, n, width):
    """`_independent` against the lines' byte sets: the first line touching a byte an earlier
    one writes, or writing one an earlier one touches."""
    spans = tuple((0, 32 * (width + 1) - 1) for _ in ops)
    bases = np.array([[start * 32 + j * step * 32 for step, start, _ in ops] for j in range(n)],
                     np.int64)
    writes = [w for *_, w in ops]
    want = n
    for line in range(n):
        mine = [set(range(b, b + 32 * (width + 1))) for b in bases[line]]
        for earlier in range(line):
            theirs = [set(range(b, b + 32 * (width + 1))) for b in bases[earlier]]
            if any((writes[p] or writes[q]) and mine[p] & theirs[q]
                   for p in range(len(ops)) for q in range(len(ops))):
                want = min(want, line)
    assert batches._independent(bases, spans, writes) == want


@SETTINGS
@given(st.lists(st.integers(0, 64), min_size=3, max_size=3),
       st.lists(st.lists(st.integers(-64, 64), min_size=3, max_size=3), min_size=1, max_size=6))
def test_fits_says_for_each_line_what_it_says_for_one(start, moves):
    spans = ((0, 255, 0, 40000), (0, 255, 512, 30000), (0, 127, 0, 20000))
    bases = [b * 32 for b in start]
    overlaps = _overlaps(bases, spans)
    lines = np.array([[b + 32 * d for b, d in zip(bases, move, strict=True)] for move in moves],
                     np.int64)
    many = _fits(lines.T, spans, overlaps)
    assert [bool(x) for x in many] == [bool(_fits(list(map(int, row)), spans, overlaps))
                                       for row in lines]


@SETTINGS
@given(st.sampled_from(("ascend910b", "ascend950", "ascend310p")), st.integers(0, 1),
       st.lists(st.integers(0, 4095), min_size=3, max_size=3),
       st.lists(st.lists(st.integers(-2048, 2048), min_size=3, max_size=3), min_size=1,
                max_size=8))
def test_lines_of_one_layout_group_have_one_bank_key(chip, blk, rows, moves):
    """`layout_groups`: lines in one group have one `layout_key`, as their own decodings say."""
    prog = assemble(f".chip {chip}\n    vadd.f32 @0x0, @0x100, @0x200, "
                    f"stride={blk + 1},1,1,8,8,8\n")
    instr = prog.flat()[0][0]
    roles = [role for role, o in instr.operands.items() if o.kind == "mem"]
    ones = (1 << 64) - 1
    origin = decode_vector(instr, dict(zip(roles, [32 * r for r in rows], strict=True)),
                           instr.fields, (ones, ones), False)
    shifts = np.array([[max(32 * d, -32 * r) for d, r in zip(move, rows, strict=True)]
                       for move in moves], np.int64)
    banks = bank_model(get_chip(chip).bank)
    group, first = banks.layout_groups(origin, shifts)
    keys = [banks.layout_key(origin.moved(instr, tuple(map(int, s)))) for s in shifts]
    for j, g in enumerate(group):
        assert keys[j] == keys[int(first[g])]
