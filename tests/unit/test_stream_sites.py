"""`Stream.site` (simulator/stream.py): a call site's issuer, the C++ bridge's entry, does what
`Stream.issue` does for the same calls — the statement looked up once, again after a
redeclaration; the scratch check at every call; a failed stream refused; a subclass's own
`issue` and a recording's log still seeing every call."""

from __future__ import annotations

import pytest

from simulator.errors import SimulationError
from simulator.stream import Stream

UB = (("a", "f32", 2048, 0), ("b", "f32", 2048, 0x2000), ("d", "u8", 1024, 0x6000),
      ("d16", "u16", 512, 0x6000))
INIT = ("duplicate.f32 a, 1.5, count=2048", "duplicate.f32 b, 2.5, count=1024",
        "duplicate.u16 d16, 0x5a5a, count=512")
COUNT_FORM = "compare.lt.f32 d[x1], a[x2], b[x3], count=x4"
CALLS = [(9, COUNT_FORM, (32 * (k % 3), 64 * (k % 3), 64 * (k % 2), (256, 100, 7)[k % 3]))
         for k in range(12)] + [(10, "duplicate.f32 a[x1], -0.0, count=x2", (64 * k, 64))
                                for k in range(3)]


def _stream(**options) -> Stream:
    s = Stream("ascend910b", name="s", **{"record_gm": False, **options})  # (as the bridge's)
    for name, dtype, count, addr in UB:
        s.declare_ub(name, dtype, count, addr)
    for k, text in enumerate(INIT):
        s.issue(text, file="k.cpp", line=1 + k)
    return s


def _outcome(s: Stream) -> tuple:
    r = s.finish()
    return (bytes(r.ub), r.diagnostics, r.cycles, r.pipes, r.instructions, r.uops, r.stalls,
            r.hot_lines, r.timing, r.registers, s.executor.steps, s.issued)


def _by_sites(s: Stream, calls) -> None:
    sites = {}
    for line, text, regs in calls:
        issuer = sites.get((line, text))
        if issuer is None:
            issuer = sites[(line, text)] = s.site(text, file="k.cpp", line=line, col=5)
        issuer(regs)


def _by_issue(s: Stream, calls) -> None:
    for line, text, regs in calls:
        s.issue(text, file="k.cpp", line=line, col=5, regs=regs)


@pytest.mark.parametrize("fast", [True, False])
def test_a_sites_issuer_leaves_what_issue_leaves(fast):
    """The same calls through issuers and through `issue`: UB, diagnostics, cycles, counts,
    hot lines, registers and steps are the same (plans or the reference path)."""
    a, b = _stream(fast=fast), _stream(fast=fast)
    _by_sites(a, CALLS * 2)
    _by_issue(b, CALLS * 2)
    assert _outcome(a) == _outcome(b)


def test_an_issuer_follows_a_redeclaration():
    """A redeclared tensor (another address) empties the assembled statements: the issuer
    made before looks its statement up again and writes the tensor where it now is."""
    text = "duplicate.f32 z[x1], 3.0, count=x2"
    outcomes = []
    for run in (_by_sites, _by_issue):
        s = _stream()
        s.declare_ub("z", "f32", 64, 0x4000)
        calls = [(11, text, (0, 64))] * 3
        run(s, calls)
        s.declare_ub("z", "f32", 64, 0x5000)
        if run is _by_sites:  # the same issuer, kept by its site
            issuer = s.site(text, file="k.cpp", line=11, col=5)
            issuer((0, 64))
            s.declare_ub("z", "f32", 64, 0x4800)
            issuer((0, 64))
        else:
            run(s, [(11, text, (0, 64))])
            s.declare_ub("z", "f32", 64, 0x4800)
            run(s, [(11, text, (0, 64))])
        ub = s.machine.ub
        assert ub[0x5000:0x5100].view("<f4").tolist() == [3.0] * 64
        assert ub[0x4800:0x4900].view("<f4").tolist() == [3.0] * 64
        outcomes.append(_outcome(s))
    assert outcomes[0] == outcomes[1]


def _scratch_error(run) -> list:
    s = Stream("ascend910b", name="s", scratch_on_use=True, record_gm=False)
    s.declare_ub("a", "f16", 256, 0)
    s.declare_ub("m", "u16", 32, 512)
    s.declare_ub("m8", "u8", 64, 512)
    s.declare_ub("d", "f16", 256, 1024)
    s.issue("duplicate.f16 a, 1.0, count=256", file="k.cpp", line=1)
    s.issue("duplicate.u16 m, 0x5555, count=32", file="k.cpp", line=2)
    calls = [(3, "select.f16 d[x1], m8[x2], a[x3], a[x3], mode=2, count=x4", (0, 0, 0, 256))]
    run(s, calls * 3)  # its expansion writes pipev's scratch area: nothing there yet
    s.declare_ub("keep", "f16", 256, s.chip.scratch_base, file="k.cpp", line=4)
    with pytest.raises(SimulationError) as e:
        run(s, calls)
    return e.value.diagnostics


def test_an_issuers_scratch_check_sees_a_tensor_declared_later():
    """A statement whose expansion uses the scratch area is checked at every call: a tensor
    declared there after its first calls is an error at the next, as through `issue`."""
    got = _scratch_error(_by_sites)
    assert got == _scratch_error(_by_issue)
    assert [(d.severity, d.line, d.column) for d in got] == [("error", 3, 5)], got
    assert "scratch area" in got[0].message


def test_a_failed_stream_refuses_its_issuers():
    """After an error, an issuer raises the stream's diagnostics, as `issue` does."""
    s = _stream()
    issuer = s.site(COUNT_FORM, file="k.cpp", line=9)
    with pytest.raises(SimulationError):
        issuer((0, 0, 1 << 20, 64))  # b's operand far outside UB
    with pytest.raises(SimulationError) as e:
        issuer((0, 0, 0, 64))
    assert e.value.diagnostics == s.diagnostics


def test_a_subclass_and_a_recording_see_every_call_through_issue():
    """A subclass's own `issue` (the listing's) gets each issuer call; a recording stream
    (`record_gm`) logs each, so its replay program holds them all."""
    seen = []

    class Listed(Stream):
        def issue(self, text, **kw):
            seen.append((text, kw["regs"]))
            super().issue(text, **kw)

    s = Listed("ascend910b", name="s", record_gm=False)
    for name, dtype, count, addr in UB:
        s.declare_ub(name, dtype, count, addr)
    _by_sites(s, CALLS)
    assert seen == [(text, regs) for _, text, regs in CALLS]
    texts = []
    for run in (_by_sites, _by_issue):
        recorded = _stream(record_gm=True)
        run(recorded, CALLS)
        texts.append(recorded.vasm_text())
    assert texts[0] == texts[1]
    assert texts[0].count('.loc "k.cpp" 9 5') == 1 and texts[0].count("-0.0") == 3
