"""Multi-core launches (simulator/cores.py, docs/cores.md): block_idx and block_num, .block_dim,
one machine per core over a shared GM, waves, the shared GM bandwidth, cross-core GM races,
per-core results and traces."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import simulator
from isa import assemble
from isa.chip import get_chip
from isa.diagnostics import AssemblyError
from simulator.errors import SimulationError
from simulator.timing.bandwidth import GmBandwidth
from simulator.timing.config import load_config

ROOT = Path(__file__).resolve().parents[2]
RELU = ROOT / "programs" / "kernels" / "multicore_relu.vasm"
PROFILE = ROOT / "isa" / "chips" / "ascend910b.toml"


def copy_kernel(cores: int, blocks: int, extra: str = "") -> str:
    """Each core copies its own slice of BLOCKS 32-byte blocks from a to out (DMA-bound)."""
    halves = blocks * 16
    return f"""
.block_dim {cores}
.gm a f16[{cores * halves}] input = random(1)
.gm out f16[{cores * halves}] output
.ub x f16[{halves}]
    mul x1, block_idx, {halves}
    copy_gm_to_ub x, a[x1], nburst=1, burst={blocks}
    set_flag MTE2, MTE3, 0
    wait_flag MTE2, MTE3, 0
    copy_ub_to_gm out[x1], x, nburst=1, burst={blocks}
{extra}"""


def chip_file(tmp_path: Path, **keys) -> Path:
    """ascend910b's profile with some top-level and [timing] keys replaced."""
    lines = PROFILE.read_text().splitlines()
    for key, value in keys.items():
        lines = [f"{key} = {value}" if ln.split("=")[0].strip() == key else ln for ln in lines]
    path = tmp_path / "chip.toml"
    path.write_text("\n".join(lines).replace('name = "ascend910b"', 'name = "testchip"') + "\n")
    return path


# -- registers and the directive ---------------------------------------------------------------
def test_block_registers_read_wherever_a_register_is():
    r = simulator.run(""".block_dim 3
.gm a s32[24] input
.gm out s32[24] output
.ub t s32[8]
    mul x1, block_idx, 8
    copy_gm_to_ub t, a[x1], nburst=1, burst=1
    set_flag MTE2, V, 0
    wait_flag MTE2, V, 0
    duplicate.s32 t, 7, count=block_num
    set_flag V, MTE3, 0
    wait_flag V, MTE3, 0
    copy_ub_to_gm out[x1], t, nburst=1, burst=1
    add x2, block_idx, block_num
""", timing=False, inputs={"a": np.arange(24, dtype=np.int32)})
    assert r.outputs["out"].tolist() == [7, 7, 7] + list(range(3, 8)) + [7, 7, 7] + \
        list(range(11, 16)) + [7, 7, 7] + list(range(19, 24))
    assert r.registers[2] == 2 + 3 and len(r.registers) == 32  # the last core's x2


@pytest.mark.parametrize("text, col, message", [
    ("    mov block_idx, x1", 9, "block_idx is read-only"),
    ("    li block_num, 3", 8, "block_num is read-only"),
    (".block_dim 0", 12, ".block_dim 0 is out of range (1..65535 cores)"),
    (".block_dim 65536", 12, "out of range"),
    (".block_dim 2\n.block_dim 2", 12, ".block_dim is given twice"),
    (".block_dim many", 12, ".block_dim takes the number of cores"),
    (".gm block_idx f16[16] input = zeros", 5, "'block_idx' is a register name"),
])
def test_register_and_directive_errors(text: str, col: int, message: str):
    with pytest.raises(AssemblyError) as e:
        assemble(text + "\n")
    d = e.value.diagnostics[0]
    assert message in d.message and d.column == col, d


def test_block_dim_argument_overrides_the_directive_with_a_note():
    r = simulator.run(copy_kernel(4, 2).replace("a f16[128]", "a f16[32]"), block_dim=1,
                      timing=False)
    note = [d for d in r.diagnostics if d.severity == "note"]
    assert [str(d) for d in note] == ["<string>:2:12: note: --block-dim 1 overrides "
                                      ".block_dim 4"]
    assert r.block_dim == 1 and not r.cores[1:]
    with pytest.raises(ValueError, match="block_dim"):
        simulator.run(copy_kernel(1, 2), block_dim=0)


# -- functional results ------------------------------------------------------------------------
@pytest.mark.parametrize("cores", [1, 8, 48])
def test_grid_stride_relu_on_any_number_of_cores_matches_numpy(cores: int):
    r = simulator.run(RELU, block_dim=cores)
    x = simulator.run(RELU, block_dim=1, timing=False)  # the input: the program's INIT
    program = r.program
    init = program.tensors["x_gm"].init.data.view(np.float32)
    want = np.where(init > 0, init, np.float32(0))
    assert r.outputs["y_gm"].tobytes() == want.tobytes() == x.outputs["y_gm"].tobytes()
    assert len(r.cores) == cores and [c.block for c in r.cores] == list(range(cores))
    assert r.cycles == max(c.end for c in r.cores)
    assert r.instructions == sum(c.instructions for c in r.cores)
    assert r.pipes["V"] == sum(c.pipes["V"] for c in r.cores)
    assert not r.warnings or cores == 1 or all(d.severity == "note" for d in r.warnings)


def test_each_core_has_its_own_ub_registers_and_flags():
    """Core 1 does not see core 0's flag (core 0 alone leaves it set) and reads its own UB,
    which nothing wrote; the per-core checks say which core."""
    r = simulator.run(""".block_dim 2
.gm out f16[32] output
.ub x f16[16]
    bne block_idx, 0, later
    set_flag V, MTE3, 1
later:
    mul x4, block_idx, 16
    copy_ub_to_gm out[x4], x, nburst=1, burst=1
    li x3, 7
""")
    unwritten = ("copy_ub_to_gm src x reads byte 0x0, which was never written (uninitialised "
                 "UB: no INIT, DMA or instruction wrote it before this read)")
    assert [str(d) for d in r.diagnostics] == [
        f"<string>:8:28: warning: {unwritten} (x4 = 0) (core 0)",
        "<string>:5:5: warning: flag V->MTE3 id 1 is still set when the program ends (core 0)",
        f"<string>:8:28: warning: {unwritten} (x4 = 16) (core 1)"]
    assert r.registers[3] == 7 and r.registers[4] == 16


def test_a_warning_every_core_gives_is_reported_once():
    r = simulator.run(".block_dim 4\n    set_flag V, MTE3, 2\n")
    assert [str(d) for d in r.diagnostics] == [
        "<string>:2:5: warning: flag V->MTE3 id 2 is still set when the program ends "
        "(all 4 cores)"]


# -- timing: waves and the shared GM bandwidth -------------------------------------------------
def test_eight_dma_bound_cores_take_as_long_as_one_core_of_one_slice():
    one = simulator.run(copy_kernel(1, 2048))
    eight = simulator.run(copy_kernel(8, 2048))
    # 8 x 65536 bytes over 1434 cycles is 366 bytes/cycle, under ascend910b's 865
    assert eight.cycles == one.cycles == 2461
    assert all((c.start, c.end, c.gm_wait) == (0, one.cycles, 0) for c in eight.cores)


def test_48_dma_bound_cores_share_the_gm_bandwidth():
    chip = get_chip("ascend910b")
    eight = simulator.run(copy_kernel(8, 2048))
    many = simulator.run(copy_kernel(48, 2048))
    assert many.cycles == 7980  # the model's figure (benchmarks/multicore.py prints it)
    assert many.cycles > 3 * eight.cycles
    # no schedule moves 48 x 2 x 64 KiB through 1.6 TB/s faster than the bandwidth allows
    moved = 48 * 2 * 2048 * 32
    assert many.cycles >= moved / chip.gm_bytes_per_cycle
    assert many.cores[0].gm_wait == 0 and many.cores[-1].gm_wait > 0


def test_the_bandwidth_model_by_hand(tmp_path):
    """A chip whose DMA takes 1 cycle per block (no latency) and whose GM gives 48 bytes per
    cycle, 1.5 times one core's 32: three cores each move 400 blocks from cycle 1 (after the
    mul), alone in 400 cycles. Core 1 gets the 16 bytes/cycle core 0 leaves until 401, then 32
    (end 401 + 6400 / 32 = 601); core 2 gets nothing until 401, 16 until 601, then 32 (end
    601 + (12800 - 3200) / 32 = 901)."""
    path = chip_file(tmp_path, clock_mhz=1000, gm_bandwidth_gbps=48, mte2_latency=0,
                     mte2_cycles_per_block=1, mte2_min_cycles_per_block=1)
    text = """.block_dim 3
.gm a f16[19200] input = zeros
.ub x f16[6400]
    mul x1, block_idx, 6400
    copy_gm_to_ub x, a[x1], nburst=1, burst=400
"""
    r = simulator.run(text, chip=path)
    assert [(c.start, c.end, c.gm_wait) for c in r.cores] == \
        [(0, 401, 0), (0, 601, 200), (0, 901, 500)]
    cfg = load_config(get_chip(path))
    assert cfg.dma_cycles("mte2", 1, 400) == 400


def test_ledger_books_what_is_left():
    gm = GmBandwidth(48.0)
    assert gm.book(0, 400, 12800) == 400
    gm.commit()
    assert gm.book(100, 400, 12800) == 100 + 300 + 250  # 16/cycle to 400, then 32
    assert GmBandwidth(0).book(5, 10, 99) == 15  # 0: unlimited


def test_blocks_beyond_the_vector_cores_run_in_waves(tmp_path):
    path = chip_file(tmp_path, vector_cores=2)
    r = simulator.run(copy_kernel(5, 64), chip=path)
    placed = [(c.block, c.slot, c.wave) for c in r.cores]
    assert placed == [(0, 0, 0), (1, 1, 0), (2, 0, 1), (3, 1, 1), (4, 0, 2)]
    for later, earlier in ((2, 0), (3, 1), (4, 2)):
        assert r.cores[later].start == r.cores[earlier].end
    assert r.vector_cores == 2 and r.cycles == r.cores[4].end
    for fmt in ("vcd", "chrome", "text", "jsonl"):  # later waves' times interleave: still valid
        trace = tmp_path / f"t.{fmt}"
        assert simulator.run(copy_kernel(5, 64), chip=path, trace=trace,
                             trace_format=fmt).cycles == r.cycles
        assert trace.stat().st_size > 0
    vcd = (tmp_path / "t.vcd").read_text()
    times = [int(ln[1:]) for ln in vcd.splitlines() if ln.startswith("#")]
    ps = 1_000_000 / r.chip.clock_mhz  # the VCD is in picoseconds of the chip clock
    assert times == sorted(times) and times[-1] == round(r.cycles * ps)


# -- cross-core GM races -----------------------------------------------------------------------
def test_two_cores_writing_the_same_gm_bytes_warn_naming_both():
    text = copy_kernel(2, 2).replace("copy_ub_to_gm out[x1]", "copy_ub_to_gm out[16]")
    r = simulator.run(text)
    races = [d for d in r.warnings if "multi-core stomping" in d.message]
    assert [str(d) for d in races] == [
        "<string>:10:19: warning: core 1 writes GM out bytes that core 0 also writes (line 10), "
        "first byte 0x20: the result depends on which core writes last (multi-core stomping: "
        "cores are not ordered)"]


def test_a_core_reading_what_another_writes_warns():
    text = copy_kernel(2, 1).replace("copy_gm_to_ub x, a[x1]", "copy_gm_to_ub x, out[16]")
    r = simulator.run(text, inputs={"a": np.zeros(32, np.float16)})
    races = [d.message for d in r.warnings if "stomping" in d.message]
    assert races == ["core 1 writes GM out bytes that core 0 reads (line 7), first byte 0x20: "
                     "what is read depends on which core runs first (multi-core stomping: "
                     "cores are not ordered) (x1 = 16)"]


def test_many_cores_racing_the_same_way_give_one_warning_listing_them(monkeypatch):
    """Every core storing the same bytes is a race per core pair: one warning names the cores
    (#31 21), and merging them is linear: each diagnostic is looked up once, the check's
    messages are never scanned per diagnostic."""
    import simulator.crosscore as crosscore

    class Unscannable(dict):
        def __iter__(self):
            raise AssertionError("the race messages scanned (quadratic in the cores)")

    lookups = []
    real_init, real_race_of = crosscore.CrossCoreRaces.__init__, crosscore.CrossCoreRaces.race_of

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        self.reported = Unscannable()

    def race_of(self, message):
        lookups.append(message)
        return real_race_of(self, message)

    monkeypatch.setattr(crosscore.CrossCoreRaces, "__init__", init)
    monkeypatch.setattr(crosscore.CrossCoreRaces, "race_of", race_of)
    n = 40
    text = copy_kernel(n, 2).replace("copy_ub_to_gm out[x1]", "copy_ub_to_gm out[16]")
    races = [d for d in simulator.run(text).warnings if "stomping" in d.message]
    assert [str(d) for d in races] == [
        f"<string>:10:19: warning: {n - 1} cores (1, 2, 3, 4, 5, 6, 7, 8 and {n - 9} more) "
        "write GM out bytes that another core also writes (line 10); core 1 with core 0 from "
        "byte 0x20: the result depends on which core writes last (multi-core stomping: cores "
        "are not ordered)"]
    assert len(lookups) <= 3 * n


def test_the_race_check_keeps_every_core_on_the_fast_path(monkeypatch):
    """The race check looks at DMA alone, so vector loops between a launch's copies run on the
    fast loop on every core (#33 5): the reference path issues each loop line twice a core (the
    second makes the plan), and the race after the loop is still found, with the same UB."""
    from simulator.executor import Executor

    loop = ("    li x2, 0\nloop:\n    vadd.f16 x, x, x\n    add x2, x2, 1\n"
            "    blt x2, 50, loop\n")
    text = copy_kernel(4, 8).replace("    set_flag MTE2, MTE3, 0\n",
                                     "    set_flag MTE2, V, 0\n    wait_flag MTE2, V, 0\n" + loop +
                                     "    set_flag V, MTE3, 0\n").replace(
        "wait_flag MTE2, MTE3, 0", "wait_flag V, MTE3, 0").replace(
        "copy_ub_to_gm out[x1]", "copy_ub_to_gm out[16]")
    calls: list[int] = []
    real = Executor.execute

    def spy(self, instr):
        calls.append(instr.line)
        return real(self, instr)

    monkeypatch.setattr(Executor, "execute", spy)
    fast = simulator.run(text)
    vadd = next(i for i, ln in enumerate(text.splitlines(), 1) if "vadd" in ln)
    assert calls.count(vadd) == 2 * 4
    assert sum("stomping" in d.message for d in fast.warnings) == 1
    slow = simulator.run(text, fast=False)
    assert bytes(fast.outputs["out"]) == bytes(slow.outputs["out"])
    assert [str(d) for d in fast.diagnostics] == [str(d) for d in slow.diagnostics]


def test_disjoint_slices_and_checks_off_report_no_race():
    assert not simulator.run(copy_kernel(8, 4)).warnings
    text = copy_kernel(2, 2).replace("copy_ub_to_gm out[x1]", "copy_ub_to_gm out[16]")
    assert not simulator.run(text, checks="off").warnings


def test_an_error_names_its_core():
    text = copy_kernel(3, 2).replace("mul x1, block_idx, 32", "mul x1, block_idx, 40")
    with pytest.raises(SimulationError) as e:
        simulator.run(text)
    assert "(core 2)" in str(e.value) and "outside GM tensor a" in str(e.value)


# -- traces ------------------------------------------------------------------------------------
def test_chrome_trace_has_one_process_per_core(tmp_path):
    trace = tmp_path / "t.json"
    simulator.run(copy_kernel(3, 2), trace=trace, trace_format="chrome")
    events = json.loads(trace.read_text())["traceEvents"]
    names = {e["pid"]: e["args"]["name"] for e in events if e.get("name") == "process_name"}
    assert names == {k + 1: f"core {k} (ascend910b, 1850 MHz; 1 us on the axis = 1 cycle)"
                     for k in range(3)}  # core K is pid K + 1 (viewers keep pid 0 for idle)
    slices = [e for e in events if e.get("ph") == "X" and e["cat"] == "instr"]
    assert sorted({e["pid"] for e in slices}) == [1, 2, 3] and len(slices) == 15
    flows = [e for e in events if e.get("cat") == "flag"]
    assert sorted(e["pid"] for e in flows) == [1, 1, 2, 2, 3, 3]


def test_jsonl_vcd_and_text_traces_per_core(tmp_path):
    jsonl = tmp_path / "t.jsonl"
    r = simulator.run(copy_kernel(2, 2), trace=jsonl)
    lines = [json.loads(ln) for ln in jsonl.read_text().splitlines()[1:]]
    body = [ln for ln in lines if ln["ev"] != "summary"]
    assert [ln["core"] for ln in body if ln["ev"] == "instr"] == [0] * 5 + [1] * 5
    assert all("core" in ln for ln in body)
    summary = lines[-1]
    assert summary["ev"] == "summary" and summary["cycles"] == r.cycles
    assert [c["block"] for c in summary["cores"]] == [0, 1]
    vcd = tmp_path / "t.vcd"
    simulator.run(copy_kernel(2, 2), trace=vcd, trace_format="vcd")
    text = vcd.read_text()
    assert "$scope module core0 $end" in text and "$scope module core1 $end" in text
    txt = tmp_path / "t.txt"
    simulator.run(copy_kernel(2, 2), trace=txt, trace_format="text")
    assert [ln.strip() for ln in txt.read_text().splitlines() if ln.strip().startswith("core ")] \
        == ["core 0", "core 1"]
    simulator.run(copy_kernel(2, 2), trace=txt, trace_format="text", trace_core=1)
    rows = [ln for ln in txt.read_text().splitlines() if "copy_gm_to_ub" in ln]
    assert len(rows) == 1 and "core 1" in txt.read_text() and "core 0" not in txt.read_text()
    with pytest.raises(SimulationError, match="--core 2: the launch runs cores 0..1"):
        simulator.run(copy_kernel(2, 2), trace=txt, trace_format="text", trace_core=2)


def test_observers_see_the_core_of_each_event():
    from simulator.events import Observer

    class Cores(Observer):
        def __init__(self):
            self.starts, self.seen = [], []

        def on_start(self, run):
            self.starts.append(run.core)

        def on_event(self, event):
            self.seen.append(event.core)

    ob = Cores()
    simulator.run(copy_kernel(3, 1), observers=[ob], timing=False)
    assert ob.starts == [0, 1, 2] and ob.seen == [0] * 5 + [1] * 5 + [2] * 5


def test_chip_profiles_give_vector_cores_and_gm_bandwidth():
    for name, cores in (("ascend910b", 48), ("ascend910", 32), ("ascend310p", 8)):
        chip = get_chip(name)
        assert chip.vector_cores == cores and chip.gm_bandwidth_gbps > 0
    assert round(get_chip("ascend910b").gm_bytes_per_cycle, 3) == round(1600e9 / 1850e6, 3)


# -- the debugger --------------------------------------------------------------------------------
def test_debugger_breaks_per_core_switches_cores_and_lists_them():
    import pipev

    d = pipev.debug(RELU, block_dim=3)
    assert d.execute("info cores") == ["* core 0: at line 12, pc 0, cycle 0 (inspected)",
                                       "  core 1: not started", "  core 2: not started"]
    assert d.execute("break 17 core 2") == ["breakpoint 1 on core 2 at line 17, pc 4"]
    assert d.execute("continue")[0] == "breakpoint 1, line 17 on core 2"
    assert d.execute("print x1") == ["x1 = 2 (0x2)"]
    cores = d.execute("info cores")
    assert cores[0].startswith("  core 0: finished at cycle ") and \
        cores[2] == "* core 2: at line 17, pc 4, cycle 280 (inspected)"
    assert d.execute("core 1")[0] == "core 1 of 3"  # an earlier core: the launch restarts
    assert d.execute("print x1") == ["x1 = 0 (0x0)"] and d.registers[32:] == (1, 3)
    assert d.execute("back")[0].startswith("reached the start of core 1")
    assert d.execute("break 17")[0] == "breakpoint 2 at line 17, pc 4"
    assert d.execute("continue")[0] == "breakpoint 2, line 17"  # every core: core 1's own
    assert d.execute("core 9") == ["core 9 does not exist (the launch runs cores 0..2)"]
    d.execute("delete")
    d.execute("core 0")
    assert d.execute("break 17 core 1 if $x1 > 10")[0] == \
        "breakpoint 3 on core 1 at line 17, pc 4; stops only if $x1 > 10"
    assert d.execute("continue")[0] == "breakpoint 3, line 17 on core 1"
    assert d.execute("print x1") == ["x1 = 13 (0xd)"]  # core 1's slices: 1, 4, 7, 10, 13
    d.execute("delete")
    out = d.execute("continue")
    assert out[0].startswith("program finished on all 3 cores") and d.finished
    one = simulator.run(RELU, block_dim=3)
    assert d.execute("print y_gm[0:4]") == \
        [f"y_gm[0:4] = {np.array2string(one.outputs['y_gm'][:4])}"]
