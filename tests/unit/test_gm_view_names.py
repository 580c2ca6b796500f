"""The variable a `SetGlobalBuffer` call sets, from the call's source line
(simulator/ascendc/views.py): the forms kernels write it in."""

from __future__ import annotations

from simulator.ascendc.views import GmView, Namer, load_views, save_views

LINES = [
    "        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, this->tileLength);",
    "        this->yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + this->blockLength * idx, n);",
    "    a.SetGlobalBuffer((__gm__ half*)p); b.SetGlobalBuffer((__gm__ half*)q, 8);",
    "    gms[i].SetGlobalBuffer((__gm__ float*)p, 8);",
    "    c.SetGlobalBuffer((__gm__ float*)p); gms[1].SetGlobalBuffer((__gm__ float*)q);",
    "    ptr->outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), n);",
    "    AscendC::DataCopy(xLocal, xGm, n);",
]


def test_the_name_is_the_object_of_the_call(tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text("\n".join(LINES) + "\n")
    namer = Namer()
    f = str(src)
    assert namer.name(f, 1) == "xGm"
    assert namer.name(f, 2) == "yGm"  # this->yGm
    # two calls on a line: the k-th call is the line's k-th name, round again in a loop
    assert [namer.name(f, 3) for _ in range(3)] == ["a", "b", "a"]
    assert namer.name(f, 4) is None  # an element of an array: no variable name
    assert namer.name(f, 5) is None  # a line that mixes both: which call is which is unknown
    assert namer.name(f, 6) == "outGm"
    assert namer.name(f, 7) is None and namer.name(f, 99) is None
    assert namer.name(str(tmp_path / "gone.cpp"), 1) is None
    namer.reset()  # the next core counts the line's calls anew
    assert namer.name(f, 3) == "a"


def test_views_round_trip_beside_their_recording(tmp_path):
    rec = tmp_path / "rec.0.1.vasm"
    views = [GmView("xGm", "f16", "gm_x", 512, 256, 3, "k.cpp", 20),
             GmView(None, None, "gm_t", 0, 0, 0, "k.cpp", 9)]
    assert save_views(rec, views) == tmp_path / "rec.0.1.views.json"
    assert load_views(rec) == views
    assert save_views(tmp_path / "none.vasm", []) is None and load_views(tmp_path / "none.vasm") \
        == []
    (tmp_path / "bad.views.json").write_text("[{\"name\": 1}]")
    assert load_views(tmp_path / "bad.vasm") == []  # a broken file: DMA-partner typing
