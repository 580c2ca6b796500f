"""The VCD trace read back by an independent third-party parser (vcdvcd, not pyvcd which
writes it): the signals GTKWave would show and per-pipe busy time equal to the model's."""

from pathlib import Path

import vcdvcd

import simulator

QUICKSTART = Path(__file__).resolve().parents[2] / "programs" / "quickstart.vasm"


def busy_cycles(tv: list[tuple[int, str]], end: int) -> int:
    total, since = 0, None
    for t, v in tv + [(end, "0")]:
        if v == "1" and since is None:
            since = t
        elif v != "1" and since is not None:
            total, since = total + t - since, None
    return total


def test_vcd_parses_with_an_independent_reader(tmp_path):
    out = tmp_path / "q.vcd"
    result = simulator.run(QUICKSTART, trace=out, trace_format="vcd")
    vcd = vcdvcd.VCDVCD(str(out))
    names = set(vcd.signals)
    assert {"pipev.registers.MASK_HI", "pipev.registers.MASK_LO", "pipev.V.CMPMASK",
            "pipev.registers.mask_mode", "pipev.V.MASK_LO", "pipev.V.mask_mode"} <= names
    ps = 1_000_000 / result.chip.clock_mhz  # the dump is in picoseconds of the chip clock
    for pipe in ("S", "V", "MTE2", "MTE3"):
        assert {f"pipev.{pipe}.busy", f"pipev.{pipe}.line", f"pipev.{pipe}.instr"} <= names
        cycles = [(round(t / ps), v) for t, v in vcd[f"pipev.{pipe}.busy"].tv]
        assert busy_cycles(cycles, result.cycles) == result.pipes[pipe]
    times = [t for s in vcd.signals for t, _ in vcd[s].tv]
    assert max(times) <= round(result.cycles * ps)
    # counter mode is on from the select's set_mask_count until its set_mask_norm
    assert [v for _, v in vcd["pipev.registers.mask_mode"].tv] == ["0", "1", "0"]
