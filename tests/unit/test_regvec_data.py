"""Issue 34 (h34a): the reg-based unit's unaligned loads and stores, Scatter / Gather,
ReduceDataBlock, PairReduceElem, MaskGenWithRegTensor and Move with a mask at the .vasm level,
raw bytes against tests/reference/regvec_data.py, and their checks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from isa.types import TYPES
from simulator.errors import SimulationError
from tests.reference import regvec_data as ref
from tests.reference.regvec_convert import mask_on

UB_IN = 0x0  # 2048 random bytes
OUT = 0x1000  # 4096 bytes of output, zero


def run(tmp_path, body: str, data: bytes, checks: str = "error"):
    np.save(tmp_path / "d.npy", np.frombuffer(data, np.uint8))
    text = (".chip ascend950\n"
            f".ub d u8[{len(data)}] @{UB_IN:#x} = file(\"d.npy\")\n"
            f".ub out u8[4096] @{OUT:#x}\n"
            '    vf_begin "t"\n    pset.u8 p7, ALL\n' + body + "\n    vf_end\n")
    src = tmp_path / "k.vasm"
    src.write_text(text)
    return simulator.run(src, checks=checks).ub


@settings(max_examples=20, deadline=None)
@given(start=st.integers(0, 200), counts=st.lists(st.integers(1, 64), min_size=1, max_size=4),
       post=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_unaligned_copy_through_the_unaligned_registers(tmp_path_factory, start, counts, post,
                                                        seed):
    """LoadUnAlign from any address, StoreUnAlign of N f32s a time at any 4-byte address, then
    (or not) StoreUnAlignPost: what the StoreUnAlign page says lands."""
    data = np.random.default_rng(seed).integers(0, 256, 2048, dtype=np.uint8).tobytes()
    src, dst = 4 * start + 1, 4 * start
    lines = [f"    li x1, {UB_IN + src}\n    li x2, {OUT + dst}\n    vldupre ul0, @x1"]
    stores, at = [], OUT + dst
    for n in counts:
        lines.append(f"    vldu.f32 v0, ul0, @x1, post=64\n    li x3, {n}\n"
                     f"    vstu.f32 @x2, v0, us1, x3, post={n}")
        stores.append((at, data[src:src + 4 * n]))
        src, at = src + 256, at + 4 * n
    if post:
        lines.append("    vstupost us1, @x2")
    ub = run(tmp_path_factory.mktemp("u"), "\n".join(lines), data)
    want = ref.store_unalign(bytearray(4096 + OUT), stores, post)
    assert ub[OUT:OUT + 4096].tobytes() == bytes(want[OUT:OUT + 4096])


def test_a_load_through_an_unready_register_and_a_store_that_does_not_continue(tmp_path):
    with pytest.raises(SimulationError, match="before LoadUnAlignPre"):
        run(tmp_path, "    li x1, 3\n    vldu.u8 v0, ul2, @x1", bytes(2048))
    with pytest.raises(SimulationError, match="call StoreUnAlignPost first"):
        run(tmp_path, "    li x1, 3\n    vldupre ul0, @x1\n    vldu.u8 v0, ul0, @x1\n"
                      "    li x2, 0x1001\n    li x3, 5\n    vstu.u8 @x2, v0, us0, x3\n"
                      "    li x2, 0x1100\n    vstu.u8 @x2, v0, us0, x3", bytes(2048))


@settings(max_examples=20, deadline=None)
@given(t=st.sampled_from(["u16", "f16", "s32", "f32", "u64"]), seed=st.integers(0, 2**32 - 1))
def test_scatter_gather_and_register_gather(tmp_path_factory, t, seed):
    size = TYPES[t].size
    n = 256 // size
    rng = np.random.default_rng(seed)
    data = bytearray(rng.integers(0, 256, 2048, dtype=np.uint8).tobytes())
    idx = rng.permutation(4 * n)[:n]  # distinct, inside 4 registers' worth
    data[256:512] = idx.astype(f"<u{size}").tobytes()
    body = (f"    vlds.u8 v0, d[0]\n    vlds.u8 v1, d[256]\n    plds p1, d[512]\n"
            f"    vsct.{t} out[0], v0, v1, p1\n"
            f"    vgth.{t} v2, d[1024], v1, p1\n    vsts.u8 out[1024], v2, p7\n")
    if size < 8:  # the register Gather's page: b8, b16, b32
        body += f"    vrgather.{t} v3, v0, v1\n    vsts.u8 out[1280], v3, p7"
    ub = run(tmp_path_factory.mktemp("s"), body, bytes(data))
    on = mask_on(bytes(data[512:544]), size, n)
    src = [bytes(data[k * size:(k + 1) * size]) for k in range(n)]
    want = ref.scatter(bytearray(1024), 0, src, list(map(int, idx)), on)
    assert ub[OUT:OUT + 1024].tobytes() == bytes(want)
    assert ub[OUT + 1024:OUT + 1280].tobytes() == ref.gather(bytes(data), 1024, size,
                                                             list(map(int, idx)), on)
    if size < 8:
        assert ub[OUT + 1280:OUT + 1536].tobytes() == ref.register_gather(src,
                                                                          list(map(int, idx)))


def test_a_scatter_with_a_repeated_index_is_an_overlap(tmp_path):
    with pytest.raises(SimulationError, match="Scatter's indices must differ"):
        run(tmp_path, "    vlds.u8 v0, d[0]\n    pset.u32 p1, ALL\n    vrdup.u32 v1, 3, p1\n"
                      "    vsct.u32 out[0], v0, v1, p1", bytes(2048))


F16_SPECIALS = np.array([0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x3C00, 0x7BFF, 0xFBFF, 0x0001,
                         0x8001, 0xBC00, 0x4000], np.uint16)


@pytest.mark.parametrize("t", ["f16", "s16", "u16", "s32", "u32", "f32"])
def test_reduce_data_block_and_pair_sum(tmp_path, t):
    dt = TYPES[t]
    rng = np.random.default_rng(5)
    raw = rng.integers(0, 256, 256, dtype=np.uint8)
    if t == "f16":  # finite halves of moderate size, then the specials
        raw = rng.integers(-300, 300, 128).astype(np.float16).view(np.uint8)
        raw.view(np.uint16)[:F16_SPECIALS.size] = F16_SPECIALS
    if t == "f32":
        raw = rng.normal(size=64).astype(np.float32).view(np.uint8)
    p = rng.integers(0, 256, 32, dtype=np.uint8)
    p[4:8] = 0  # a block with nothing enabled
    data = raw.tobytes() + p.tobytes()
    ops = [op for op in ("sum", "max", "min") if op != "sum" or t in ("f16", "s32", "u32", "f32")]
    body = ["    vlds.u8 v0, d[0]\n    plds p1, d[256]"]
    for k, op in enumerate(ops):
        body.append(f"    vredblk{op}.{t} v1, v0, p1\n    vsts.u8 out[{256 * k}], v1, p7")
    pair = t in ("f16", "f32")
    if pair:
        body.append(f"    vrpairsum.{t} v2, v0, p1\n    vsts.u8 out[1024], v2, p7")
    ub = run(tmp_path, "\n".join(body), data)
    x = raw.view(dt.raw).view(dt.numeric)
    on = mask_on(p.tobytes(), dt.size, x.size)
    for k, op in enumerate(ops):
        got = ub[OUT + 256 * k:OUT + 256 * (k + 1)].tobytes()
        assert got == ref.reduce_blocks(x, on, op).tobytes(), op
    if pair:
        assert ub[OUT + 1024:OUT + 1280].tobytes() == ref.pair_sum(x, on).tobytes()


@pytest.mark.parametrize("t,offset", [("u16", 0), ("f16", 15), ("s32", 0), ("f32", 31),
                                      ("u32", 7)])
def test_mask_from_a_register_and_move_with_it(tmp_path, t, offset):
    size = TYPES[t].size
    rng = np.random.default_rng(offset)
    data = rng.integers(0, 256, 768, dtype=np.uint8).tobytes()
    body = (f"    vlds.u8 v0, d[0]\n    vlds.u8 v1, d[256]\n    vlds.u8 v2, d[512]\n"
            f"    pgenv.{t} p1, v0, offset={offset}\n    psts out[0], p1\n"
            f"    vrmovm.{t} v2, v1, p1\n    vsts.u8 out[256], v2, p7")
    ub = run(tmp_path, body, data)
    bits = ref.mask_from_register(data[:256], size, offset)
    assert ub[OUT:OUT + 32].tobytes() == bits
    on = mask_on(bits, size, 256 // size)
    want = b"".join(data[256 + k * size:256 + (k + 1) * size] if on[k] else
                    data[512 + k * size:512 + (k + 1) * size] for k in range(256 // size))
    assert ub[OUT + 256:OUT + 512].tobytes() == want


@settings(max_examples=15, deadline=None)
@given(t=st.sampled_from(["s8", "u16", "f16", "s32", "f32"]), seed=st.integers(0, 2**32 - 1))
def test_squeeze_keeps_the_enabled_elements_in_order(tmp_path_factory, t, seed):
    size = TYPES[t].size
    data = np.random.default_rng(seed).integers(0, 256, 288, dtype=np.uint8).tobytes()
    ub = run(tmp_path_factory.mktemp("q"), f"    vlds.u8 v0, d[0]\n    plds p1, d[256]\n"
             f"    vrsqz.{t} v1, v0, p1\n    vsts.u8 out[0], v1, p7", data)
    on = mask_on(data[256:288], size, 256 // size)
    src = [data[k * size:(k + 1) * size] for k in range(256 // size)]
    assert ub[OUT:OUT + 256].tobytes() == ref.squeeze(src, on)


@settings(max_examples=15, deadline=None)
@given(t=st.sampled_from(["u8", "f16", "f32", "u64"]), seed=st.integers(0, 2**32 - 1))
def test_gatherb_takes_whole_blocks_by_byte_offsets(tmp_path_factory, t, seed):
    rng = np.random.default_rng(seed)
    data = bytearray(rng.integers(0, 256, 2048, dtype=np.uint8).tobytes())
    offs = (rng.integers(0, 32, 64) * 32).astype("<u4")  # 32-byte multiples inside d[0:1024]
    data[1024:1280] = offs.tobytes()
    body = ("    vlds.u8 v1, d[1024]\n    plds p1, d[1280]\n    vlds.u8 v2, d[1536]\n"
            f"    vgthb.{t} v2, d[0], v1, p1\n    vsts.u8 out[0], v2, p7")
    ub = run(tmp_path_factory.mktemp("gb"), body, bytes(data))
    live = mask_on(bytes(data[1280:1312]), 4, 64)[:8]  # the mask as b32: bits 0, 4, ..., 28
    assert ub[OUT:OUT + 256].tobytes() == ref.gather_blocks(
        bytes(data), 0, list(map(int, offs[:8])), live, bytes(data[1536:1792]))


@settings(max_examples=15, deadline=None)
@given(rounds=st.integers(1, 4), post=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_squeeze_store_reg_then_ar_form_stores(tmp_path_factory, rounds, post, seed):
    """ClearSpr(AR); per round Squeeze STORE_REG and an AR-form StoreUnAlign; StoreUnAlignPost:
    the kept elements of every round, back to back from the address."""
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, 256 * rounds + 32 * rounds, dtype=np.uint8).tobytes()
    body = ["    vclrar"]
    kept = []
    for r in range(rounds):
        body.append(f"    vlds.u8 v0, d[{256 * r}]\n    plds p1, d[{256 * rounds + 32 * r}]\n"
                    f"    vrsqz.f32 v1, v0, p1, ar=1\n    vstuar.f32 out[4], v1, us2")
        on = mask_on(data[256 * rounds + 32 * r:256 * rounds + 32 * (r + 1)], 4, 64)
        kept.append(b"".join(data[256 * r + 4 * k:256 * r + 4 * k + 4]
                             for k in range(64) if on[k]))
    if post:
        body.append("    vstupostar us2, out[4]")
    ub = run(tmp_path_factory.mktemp("ar"), "\n".join(body), data)
    want = ref.squeeze_stores(bytearray(4096), 4, kept, post)
    assert ub[OUT:OUT + 4096].tobytes() == bytes(want)


@pytest.mark.parametrize("half,cum", [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_histograms_count_into_the_bins(tmp_path, half, cum):
    rng = np.random.default_rng(half * 2 + cum)
    data = bytearray(rng.integers(0, 256, 544, dtype=np.uint8).tobytes())
    data[256:512] = rng.integers(0, 1 << 16, 128, dtype=np.uint16).astype("<u2").tobytes()
    data[0:8] = bytes([0, 127, 128, 255, 5, 5, 5, 200])
    words = ("lowest", "highest")
    body = (f"    vlds.u8 v0, d[0]\n    vlds.u8 v1, d[256]\n    plds p1, d[512]\n"
            f"    vrhist.u16.u8 v1, v0, p1, half={words[half]}, cum={cum}\n"
            f"    vsts.u8 out[0], v1, p7")
    ub = run(tmp_path, body, bytes(data))
    on = mask_on(bytes(data[512:544]), 1, 256)
    old = [int(v) for v in np.frombuffer(bytes(data[256:512]), "<u2")]
    assert ub[OUT:OUT + 256].tobytes() == ref.histogram(old, bytes(data[:256]), on, bool(half),
                                                        bool(cum))


def test_a_vf_that_ends_with_bytes_kept_in_a_store_register_warns(tmp_path):
    np.save(tmp_path / "d.npy", np.zeros(256, np.uint8))
    src = tmp_path / "k.vasm"
    src.write_text('.chip ascend950\n.ub d u8[256] @0x0 = file("d.npy")\n'
                   '.ub out u8[256] @0x100\n    vf_begin "t"\n    li x1, 0\n'
                   '    vldupre ul0, @x1\n    vldu.u8 v0, ul0, @x1\n'
                   '    li x2, 5\n    vstu.u8 out[0], v0, us1, x2\n    vf_end\n')
    result = simulator.run(src)
    warned = [str(d) for d in result.diagnostics if d.severity == "warning"]
    assert any("5 bytes kept in us1" in w and "k.vasm:10:" in w for w in warned), warned
