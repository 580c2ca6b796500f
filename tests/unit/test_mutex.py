"""Issue 34: ascend950's Mutex (`mutex_lock PIPE, ID` / `mutex_unlock PIPE, ID`, AscendC's
Mutex::Lock / Unlock): a lock by another pipe waits for the id's last unlock (timing), orders
the accesses before that unlock before the ones after the lock (race check), pairs are checked,
and other chips refuse the instructions."""

from __future__ import annotations

import numpy as np
import pytest

import isa
import simulator
from isa.diagnostics import DiagnosticError
from simulator.events import Observer

DECLS = """.chip ascend950
.gm x f32[64] input
.gm y f32[64] output
.ub a f32[64]
"""
X = {"x": np.arange(64, dtype=np.float32) - 20}


class Rows(Observer):
    def __init__(self) -> None:
        self.rows = []

    def on_event(self, event) -> None:
        self.rows.append((event.instr.head, event.pipe, event.timing))


def run(body: str, checks: str = "warn"):
    rows = Rows()
    text = DECLS + "\n".join("    " + ln.strip() for ln in body.strip().splitlines()) + "\n"
    return simulator.run(text, inputs=X, checks=checks, observers=[rows]), rows.rows


PIPELINE = """
    mutex_lock MTE2, 3
    copy_gm_to_ub a[0], x[0], nburst=1, burst=8
    mutex_unlock MTE2, 3
    mutex_lock V, 3
    adds.f32 a[0], a[0], raw(0x3f800000), count=64
    mutex_unlock V, 3
    mutex_lock MTE3, 3
    copy_ub_to_gm y[0], a[0], nburst=1, burst=8
    mutex_unlock MTE3, 3
"""


def test_a_lock_waits_for_the_other_pipe_s_unlock_and_orders_the_accesses():
    result, rows = run(PIPELINE, checks="error")
    assert result.outputs["y"].tobytes() == (X["x"] + np.float32(1)).tobytes()
    assert not result.warnings
    timing = {(head, pipe): t for head, pipe, t in rows}
    copy_in = timing[("copy_gm_to_ub", "MTE2")]
    lock_v = next(t for head, pipe, t in rows if head == "mutex_lock" and pipe == "V")
    vec = next(t for head, pipe, t in rows if pipe == "V" and head.startswith("vadds"))
    assert lock_v.wait_flag > 0 and vec.start >= copy_in.end  # V waited for the copy in
    copy_out = timing[("copy_ub_to_gm", "MTE3")]
    assert copy_out.start >= vec.end


def test_without_the_lock_the_race_check_reports_the_unordered_write():
    body = PIPELINE.replace("mutex_lock V, 3", "")
    result, _ = run(body)
    text = "\n".join(d.message for d in result.warnings)
    assert "race" in text and "copy_gm_to_ub on MTE2" in text
    assert "Unlock<V> of mutex 3, which is not locked" in text


def test_pairs_are_checked():
    result, _ = run("""
        mutex_lock V, 1
        mutex_lock V, 1
        mutex_unlock V, 1
    """)
    text = "\n".join(d.message for d in result.warnings)
    assert "mutex 1 is locked again before its Unlock" in text
    result, _ = run("mutex_lock MTE2, 2")
    assert any("mutex 2 is still locked by MTE2 when the program ends" in d.message
               for d in result.warnings)
    result, _ = run("""
        mutex_lock MTE2, 4
        mutex_unlock V, 4
    """)
    assert any("Unlock<V> of mutex 4, which is locked by MTE2" in d.message
               for d in result.warnings)


@pytest.mark.parametrize(("line", "message"), [
    ("mutex_lock V, 32", "mutex id 32 is out of range (0..31)"),
    ("mutex_lock ALL, 0", "expected a pipe"),
])
def test_bad_operands_are_assembly_errors(line, message):
    with pytest.raises(DiagnosticError) as e:
        isa.assemble(DECLS + f"    {line}\n")
    assert message in str(e.value)


def test_other_chips_refuse_the_mutex():
    with pytest.raises(DiagnosticError) as e:
        isa.assemble(".chip ascend910b\n    mutex_lock V, 0\n")
    assert "Mutex Lock/Unlock is not supported on ascend910b" in str(e.value)
