"""Property tests: random hardware-level programs run bit-exact against tests/reference/model.py.

Hypothesis writes `.vasm` text (ascend910b): `.ub` declarations at random 32-byte aligned
addresses initialised with `random(SEED)` or `bits("HEX")` (NaN payloads, -0.0, ±inf, repeated
values so that compares hit), then a sequence of MASK / mask-mode / CMPMASK instructions, vsel
(modes 0/1/2), compares, arithmetic, vector_dup, vcopy and copy_ub_to_ub with random masks,
strides (0 included on sources), repeats 0..255 and counter mode; vconv in every ascend910b
pair and round mode (per-operand sizes and strides), vabs, vnot, vand and vor. The simulator's
final UB must equal the reference's byte for byte; a program the reference rejects must be
rejected by the simulator at the same line for one of the same documented reasons (§9.2–§9.3).
"""

from __future__ import annotations

import re

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simulator
from isa.diagnostics import AssemblyError
from simulator.errors import SimulationError
from tests.reference import UB_BYTES, RefError, run_reference

LIMIT = UB_BYTES - 8192  # below scratch
OPS = ("eq", "ne", "lt", "gt", "le", "ge")
SIZE = {"f16": 2, "f32": 4, "s16": 2, "s32": 4, "u16": 2, "u32": 4, "u8": 1, "s8": 1,
        "bf16": 2, "s64": 8}
BITWISE = ("s16", "u16")
# vconv DST.SRC pairs of ascend910b with their round modes (isa/chips/ascend910b.toml)
ALL_MODES = ("none", "rint", "floor", "ceil", "round", "trunc", "odd")
DIRECTED = ("rint", "floor", "ceil", "round", "trunc")
CONVERSIONS = {("f16", "f32"): ALL_MODES, ("f32", "f16"): ("none",), ("s32", "f32"): DIRECTED,
               ("f32", "s32"): ("none",) + DIRECTED, ("bf16", "f32"): DIRECTED,
               ("f32", "bf16"): ("none",), ("s32", "f16"): DIRECTED, ("s16", "f16"): DIRECTED,
               ("f16", "s16"): ("none",) + DIRECTED, ("s8", "f16"): ("none",) + DIRECTED,
               ("u8", "f16"): ("none",) + DIRECTED, ("f16", "s8"): ("none",),
               ("f16", "u8"): ("none",),
               # the pairs issue #27 added (A2/A3 table)
               ("f32", "s16"): ("none",), ("s32", "bf16"): DIRECTED, ("s16", "s32"): ("none",),
               ("s64", "s32"): ("none",), ("s16", "f32"): DIRECTED, ("f32", "f32"): DIRECTED,
               ("s64", "f32"): DIRECTED, ("s32", "s64"): ("none",), ("f32", "s64"): DIRECTED}
ARITH = ("f16", "f32", "s16", "s32")
MOVE = ("s16", "u16", "f16", "s32", "u32", "f32")
FLOAT_POOL = {
    "f16": [0x0000, 0x8000, 0x3C00, 0xBC00, 0x4100, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE55,
            0x7D23, 0x0001, 0x57D0],
    "f32": [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x40200000, 0x7F800000,
            0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC12345, 0x7FA00000, 0x00000001,
            0x42C80000],
}
SCALAR_TEXT = {"f": ["0.0", "-0.0", "1.0", "-1.0", "2.5", "inf", "-inf", "nan", "100.0",
                     "-3.75", "0.5"],
               "i": ["0", "1", "-1", "7", "-100", "100", "0x7f"]}
# the words of the simulator's messages for each rule of the reference
RULE_WORDS = {"bounds": r"outside UB", "footprint": r"needs \d+ bytes, tensor has|before the "
              r"tensor", "overlap": r"overlap", "align": r"aligned", "count": r"at most 255",
              "dst_blk0": r"dst block stride 0"}

_STATS = {"programs": 0, "rejected": 0}


class Gen:
    """Draws one program; keeps the mask state it sets so extents can be bounded."""

    def __init__(self, draw, overlap: bool):
        self.draw = draw
        self.overlap = overlap
        self.rare = 6 if overlap else 40  # 1 in rare+1: past UB, too small a tensor, count
        self.next = draw(st.integers(0, 64)) * 32
        self.decls: list[str] = []
        self.lines: list[str] = []
        self.regions: list[tuple[str, str, int, int]] = []  # name, type, addr, nbytes
        self.counter = False
        self.count = 0  # MASK_LO in counter mode
        self.used: set[str] = set()  # regions taken by the current instruction
        self.dst_region: tuple[str, str, int, int] | None = None

    # -- data -----------------------------------------------------------------------------------
    def data_hex(self, t: str, count: int) -> str:
        size = SIZE[t]
        seed = self.draw(st.integers(0, 2**32 - 1))
        rng = np.random.default_rng(seed)
        raw = rng.integers(0, 256, count * size, dtype=np.uint8)
        if t in FLOAT_POOL:
            pool = np.array(FLOAT_POOL[t], dtype=np.uint16 if size == 2 else np.uint32)
            pick = rng.random(count) < 0.6
            vals = raw.view(pool.dtype).copy()
            vals[pick] = rng.choice(pool, int(pick.sum()))
            raw = vals.view(np.uint8)
        elif t in ("s16", "s32"):
            small = rng.integers(-3, 4, count).astype(np.int16 if size == 2 else np.int32)
            vals = raw.view(small.dtype).copy()
            pick = rng.random(count) < 0.5
            vals[pick] = small[pick]
            raw = vals.view(np.uint8)
        return raw.tobytes().hex()

    def region(self, nbytes: int, t: str | None = None) -> tuple[str, str, int, int]:
        """A new tensor of at least nbytes at a random 32-byte aligned address."""
        t = t or self.draw(st.sampled_from(("f16", "f32", "s16", "s32", "u8")))
        size = SIZE[t]
        nbytes = max(32, -(-nbytes // 32) * 32 + self.draw(st.integers(0, 2)) * 32)
        addr = self.next + self.draw(st.integers(0, 3)) * 32
        if addr + nbytes > LIMIT:
            addr = self.draw(st.integers(0, (LIMIT - nbytes) // 32)) * 32 if nbytes < LIMIT \
                else 0
        self.next = max(self.next, addr + nbytes)
        name = f"r{len(self.regions)}"
        count = nbytes // size
        init = self.draw(st.sampled_from(("bits", "bits", "random", "none")))
        if init == "bits":
            text = f' = bits("{self.data_hex(t, count)}")'
        elif init == "random":
            text = f" = random({self.draw(st.integers(0, 1000))})"
        else:
            text = ""
        self.decls.append(f".ub {name} {t}[{count}] @{addr:#x}{text}")
        r = (name, t, addr, nbytes)
        self.regions.append(r)
        return r

    def operand(self, t: str, extent: int, kind: str = "vec") -> tuple[str, int]:
        """An operand whose accesses reach `extent` bytes past its start: an existing region
        when one is big enough (data flows between instructions), else a new one; written as
        the tensor name (when the type rules allow) or as a raw @ADDR."""
        fits = [r for r in self.regions if r[3] >= extent and r[0] not in self.used]
        small = [r for r in self.regions if r[3] < extent and r[0] not in self.used]
        if self.overlap and self.dst_region and self.draw(st.integers(0, 2)) == 2:
            r = self.dst_region  # overlapping programs: often read the destination's region
        elif small and self.draw(st.integers(0, self.rare)) == self.rare:
            r = self.draw(st.sampled_from(small))  # footprint past the tensor when named
        elif fits and self.draw(st.booleans()):
            r = self.draw(st.sampled_from(fits))
        else:
            r = self.region(extent, t if kind == "vec" and self.draw(st.booleans()) else None)
        self.used.add(r[0])
        name, rt, addr, nbytes = r
        slack = (nbytes - extent) // 32
        off = self.draw(st.integers(0, max(slack, 0))) * 32 if slack > 0 else 0
        typed_ok = (SIZE[rt] == SIZE[t]) if kind == "vec" else rt in ("u8", "u16", "u32")
        if typed_ok and self.draw(st.booleans()):
            idx = off // SIZE[rt]
            return (f"{name}[{idx}]" if idx else name), addr + off
        if self.draw(st.integers(0, 2 * self.rare)) == 2 * self.rare:  # past the end of UB
            return f"@{UB_BYTES - 32 * self.draw(st.integers(1, 8)):#x}", -1
        if self.overlap and self.draw(st.integers(0, self.rare)) == self.rare:
            off += self.draw(st.sampled_from((2, 4, 1, 16)))  # misaligned (checks=off runs it)
        return f"@{addr + off:#x}", addr + off

    # -- shapes ----------------------------------------------------------------------------------
    def repeats_field(self) -> int:
        if self.draw(st.integers(0, 11)) == 11:
            return self.draw(st.sampled_from((255, 64, 200)))
        return self.draw(st.sampled_from((1, 2, 3, 1, 0, 4, 5, 8, 12)))

    def effective_repeats(self, repeat: int, n: int, ignores_mask: bool = False) -> int:
        if self.counter:
            return -(-self.count // n)
        return repeat

    def stride(self, r: int, dst: bool) -> tuple[int, int]:
        lo = 0 if not dst or (self.overlap and self.draw(st.integers(0, 9)) == 9) else 1
        blk = self.draw(st.sampled_from((1, 1, 1, 2, 0, 3, 8))) if not dst else \
            self.draw(st.sampled_from((1, 1, 2, 3, lo)))
        cap = max(1, 12000 // (32 * max(r - 1, 1)))
        rep = self.draw(st.sampled_from((8, 8, 0, 1, 16, 4, 9))) if not dst else \
            self.draw(st.sampled_from((8, 8, 16, 9, 0 if self.overlap else 8)))
        if r > 40:
            rep = min(rep, cap, 16)
        return blk, rep

    @staticmethod
    def extent(r: int, blk: int, rep: int, blocks: int = 8) -> int:
        return max(r - 1, 0) * rep * 32 + (blocks - 1) * blk * 32 + 32

    # -- instructions ---------------------------------------------------------------------------
    def mask(self) -> None:
        if self.counter:
            n = self.draw(st.sampled_from((0, 1, 63, 64, 65, 127, 128, 129, 200, 256, 300)))
            if self.draw(st.integers(0, self.rare)) == self.rare:
                n = 255 * 128 + self.draw(st.integers(1, 64))  # too many repeats for f16
            self.count = n
            self.lines.append(f"set_vector_mask 0, {n}")
            return
        kind = self.draw(st.sampled_from(("bits", "contig", "bits", "contig", "zero", "ones")))
        if kind == "contig":
            length = self.draw(st.integers(1, 128))
            hi, lo = (1 << max(length - 64, 0)) - 1, (1 << min(length, 64)) - 1
        elif kind == "bits":
            hi, lo = self.draw(st.integers(0, 2**64 - 1)), self.draw(st.integers(0, 2**64 - 1))
        elif kind == "zero":
            hi, lo = 0, 0
        else:
            hi = lo = 2**64 - 1
        self.lines.append(f"set_vector_mask {hi:#x}, {lo:#x}")

    def mask_mode(self) -> None:
        self.counter = not self.counter
        self.lines.append("set_mask_count" if self.counter else "set_mask_norm")
        self.mask()

    def scalar(self, t: str) -> str:
        pool = SCALAR_TEXT["f" if t[0] == "f" else "i"]
        if t[0] == "u":
            pool = [v for v in pool if not v.startswith("-")]
        return self.draw(st.sampled_from(pool))

    def binary_like(self, name: str, t: str, ignores_mask: bool = False) -> tuple[list, str]:
        n = 256 // SIZE[t]
        repeat = self.repeats_field()
        r = self.effective_repeats(repeat, n, ignores_mask)
        strides = [self.stride(r, dst=role == "dst") for role in ("dst", "src0", "src1")]
        return [repeat, r, n, strides], name

    def emit_vector(self, head: str, operands: list[str], repeat: int, strides: list[int]
                    ) -> None:
        keys = [f"repeat={repeat}"]
        default = [1, 1, 1, 8, 8, 8] if len(strides) == 6 else [1, 1, 8, 8]
        if self.draw(st.booleans()) or strides != default:
            keys.append("stride=" + ",".join(map(str, strides)))
        self.lines.append(f"{head} {', '.join(operands + keys)}")

    def new_state(self) -> None:
        """Most vector instructions get a fresh MASK (and now and then a mask-mode switch)."""
        k = self.draw(st.integers(0, 7))
        if k == 7:
            self.mask_mode()
        elif k >= 3:
            self.mask()

    def binary(self) -> None:
        self.new_state()
        name = self.draw(st.sampled_from(("vsel", "vcmpv", "vcmp", "vsel", "vadd", "vsub",
                                          "vmul", "vmax", "vmin", "vsel", "vcmp", "vand",
                                          "vor")))
        if name in ("vand", "vor"):
            t = self.draw(st.sampled_from(BITWISE))
        elif name == "vsel":
            t = self.draw(st.sampled_from(("f16", "f32")))
        elif name in ("vcmpv", "vcmp"):
            t = self.draw(st.sampled_from(("f16", "f32", "s32")))
        else:
            t = self.draw(st.sampled_from(ARITH))
        op = ""
        if name in ("vcmpv", "vcmp"):
            op = "." + ("eq" if t == "s32" else self.draw(st.sampled_from(OPS)))
        n = 256 // SIZE[t]
        repeat = self.repeats_field()
        r = 1 if name == "vcmp" else self.effective_repeats(repeat, n)
        (db, dr), (ab, ar), (bb, br) = (self.stride(r, True), self.stride(r, False),
                                         self.stride(r, False))
        mode = self.draw(st.sampled_from((0, 1, 2))) if name == "vsel" else 0
        self.used, self.dst_region = set(), None
        if mode == 2:
            self.load_mode2(t, n, r)
        elif name == "vsel" and self.draw(st.booleans()):
            self.load_cmpmask()
        ops = []
        if name in ("vcmpv",):
            ops.append(self.operand(t, max(r, 1) * n // 8, "bits")[0])
        elif name != "vcmp":
            ops.append(self.shared_dst(t, r, db, dr))
        if len(ops) and name not in ("vcmpv",) and self.draw(st.integers(0, 4)) == 4:
            ops.append(ops[0])  # in place: src0 is dst with the same strides (a 100% overlap)
            ab, ar = db, dr
        else:
            ops.append(self.operand(t, self.extent(r, ab, ar))[0])
        if mode == 1:
            ops.append(self.operand(t, max(r, 1) * n // 8, "bits")[0])
        else:
            ops.append(self.operand(t, self.extent(r, bb, br))[0])
        if name == "vcmp":
            self.lines.append(f"vcmp{op}.{t} {ops[0]}, {ops[1]}, repeat={repeat}, "
                              f"stride={db},{ab},{bb},{dr},{ar},{br}")
            return
        head = f"{name}{op}.{t}"
        if name == "vsel":
            self.emit_vector(head, ops, repeat, [db, ab, bb, dr, ar, br])
            if mode or self.draw(st.booleans()):
                self.lines[-1] += f", mode={mode}"
            return
        self.emit_vector(head, ops, repeat, [db, ab, bb, dr, ar, br])

    def shared_dst(self, t: str, r: int, blk: int, rep: int) -> str:
        """The destination; with the overlap flag, sometimes a source region (in place)."""
        ext = self.extent(r, blk, rep)
        if self.overlap and self.regions and self.draw(st.integers(0, 2)) == 2:
            self.dst_region = self.draw(st.sampled_from(self.regions))
            return f"@{self.dst_region[2] + 32 * self.draw(st.integers(0, 2)):#x}"
        text = self.operand(t, ext)[0]
        self.dst_region = next(r for r in self.regions if r[0] in self.used)
        return text

    def load_cmpmask(self) -> None:
        """set_cmpmask from random bits (the scalar of mode 1, the selection bits of mode 0)."""
        name = self.region(32, "u8")[0]
        self.lines.append(f"set_cmpmask {name}")

    def load_mode2(self, t: str, n: int, r: int) -> None:
        """CMPMASK[31:0] = the address of a select mask (the LOAD(2) sequence of §8.1)."""
        _, _, addr, _ = self.region(max(r, 1) * n // 8, "u8")
        if self.draw(st.integers(0, 15)) == 15:
            addr += 16  # misaligned on purpose
        was_counter = self.counter
        self.lines += ["set_mask_norm", "set_vector_mask 0, 0xff"]
        scratch = UB_BYTES - 8192
        self.lines.append(f"vector_dup.u32 @{scratch:#x}, {addr}, repeat=1")
        self.lines.append(f"set_cmpmask @{scratch:#x}")
        if was_counter:
            self.lines.append("set_mask_count")
            self.lines.append(f"set_vector_mask 0, {self.count}")
        else:
            self.mask()

    def unary(self) -> None:
        self.new_state()
        name = self.draw(st.sampled_from(("vadds", "vmuls", "vmaxs", "vmins", "vcopy",
                                          "vector_dup", "vcmpvs", "vabs", "vnot")))
        if name == "vabs":
            t = self.draw(st.sampled_from(("f16", "f32")))
        elif name == "vnot":
            t = self.draw(st.sampled_from(BITWISE))
        elif name == "vcmpvs":
            t = self.draw(st.sampled_from(("f16", "f32", "s32")))
        elif name in ("vcopy", "vector_dup"):
            t = self.draw(st.sampled_from(MOVE))
        else:
            t = self.draw(st.sampled_from(ARITH))
        op = ""
        if name == "vcmpvs":
            op = "." + ("eq" if t == "s32" else self.draw(st.sampled_from(OPS)))
        n = 256 // SIZE[t]
        repeat = self.repeats_field()
        r = self.effective_repeats(repeat, n)
        (db, dr), (sb, sr) = self.stride(r, True), self.stride(r, False)
        self.used, self.dst_region = set(), None
        if name == "vcmpvs":
            ops = [self.operand(t, max(r, 1) * n // 8, "bits")[0]]
        else:
            ops = [self.shared_dst(t, r, db, dr)]
        if name in ("vadds", "vmuls", "vmaxs", "vmins", "vcopy", "vabs", "vnot") and \
                self.draw(st.integers(0, 4)) == 4:
            ops.append(ops[0])  # in place
            sb, sr = db, dr
        elif name != "vector_dup":
            ops.append(self.operand(t, self.extent(r, sb, sr))[0])
        if name not in ("vcopy", "vabs", "vnot"):
            ops.append(self.scalar(t))
        self.emit_vector(f"{name}{op}.{t}", ops, repeat, [db, sb, dr, sr])

    def conv(self) -> None:
        """vconv.DST.SRC: each side covers its own blocks a repeat (N = 256 bytes of the
        wider type), in a random round mode the pair supports."""
        self.new_state()
        dst_t, src_t = self.draw(st.sampled_from(sorted(CONVERSIONS)))
        mode = self.draw(st.sampled_from(CONVERSIONS[(dst_t, src_t)]))
        wide = max(SIZE[dst_t], SIZE[src_t])
        n = 256 // wide
        repeat = self.repeats_field()
        r = self.effective_repeats(repeat, n)
        (db, dr), (sb, sr) = self.stride(r, True), self.stride(r, False)
        self.used, self.dst_region = set(), None
        dst = self.shared_dst_blocks(dst_t, r, db, dr, 8 * SIZE[dst_t] // wide)
        src = self.operand(src_t, self.extent(r, sb, sr, 8 * SIZE[src_t] // wide))[0]
        self.emit_vector(f"vconv.{dst_t}.{src_t}", [dst, src], repeat, [db, sb, dr, sr])
        if mode != "none" or self.draw(st.booleans()):
            self.lines[-1] += f", round={mode}"

    def shared_dst_blocks(self, t: str, r: int, blk: int, rep: int, blocks: int) -> str:
        text = self.operand(t, self.extent(r, blk, rep, blocks))[0]
        self.dst_region = next(x for x in self.regions if x[0] in self.used)
        return text

    def cmpmask_move(self) -> None:
        name = self.draw(st.sampled_from(("set_cmpmask", "get_cmpmask")))
        _, _, addr, _ = self.region(32, "u8") if not self.regions or self.draw(
            st.booleans()) else self.draw(st.sampled_from(self.regions))
        self.lines.append(f"{name} @{addr + 16 * self.draw(st.integers(0, 1)):#x}")

    def dma(self) -> None:
        nburst, burst = self.draw(st.integers(1, 3)), self.draw(st.integers(1, 4))
        gs, gd = self.draw(st.integers(0, 2)), self.draw(st.integers(0, 2))
        self.used, self.dst_region = set(), None
        src = self.operand("u8", nburst * (burst + gs) * 32, "bits")[0]
        dst = self.region(nburst * (burst + gd) * 32, "u8")[0]
        self.lines.append(f"copy_ub_to_ub {dst}, {src}, nburst={nburst}, burst={burst}, "
                          f"src_gap={gs}, dst_gap={gd}")

    def program(self) -> str:
        steps = self.draw(st.integers(1, 7))
        for _ in range(steps):
            kind = self.draw(st.sampled_from(("mask", "mode", "cmp", "bin", "bin", "bin",
                                              "un", "un", "dma", "conv")))
            {"mask": self.mask, "mode": self.mask_mode, "cmp": self.cmpmask_move,
             "bin": self.binary, "un": self.unary, "dma": self.dma, "conv": self.conv}[kind]()
        self.lines.append(f"get_cmpmask @{UB_BYTES - 8192 + 64:#x}")  # CMPMASK observable
        return "\n".join([".chip ascend910b", *self.decls, *self.lines]) + "\n"


@st.composite
def programs(draw, overlap: bool = False) -> str:
    return Gen(draw, overlap).program()


def _first_error(e) -> tuple[int, str]:
    d = next(d for d in e.diagnostics if d.severity == "error")
    return d.line, d.message


def check(text: str, checks: str = "error") -> None:
    """Run text through the reference and the simulator; compare bytes or rejections."""
    _STATS["programs"] += 1
    try:
        ref, ref_err = run_reference(text, checks), None
    except RefError as e:
        ref, ref_err = None, e
    try:
        res, err = simulator.run(text, checks=checks), None
    except (SimulationError, AssemblyError) as e:
        res, err = None, e
    if ref_err is not None:
        _STATS["rejected"] += 1
        assert err is not None, f"simulator accepted a program the reference rejects " \
                                f"({ref_err}):\n{text}"
        line, msg = _first_error(err)
        assert line == ref_err.line, f"error at line {line} ({msg}), expected {ref_err}\n{text}"
        assert any(re.search(RULE_WORDS[r], msg) for r in ref_err.rules), \
            f"error '{msg}' is not one of {sorted(ref_err.rules)}\n{text}"
        return
    assert err is None, f"simulator rejected a legal program: {_first_error(err)}\n{text}"
    got, want = bytes(res.ub), bytes(ref.ub)
    if got != want:
        diff = next(i for i in range(len(got)) if got[i] != want[i])
        raise AssertionError(f"UB differs first at byte {diff:#x}: simulator "
                             f"{got[diff:diff + 8].hex()} reference {want[diff:diff + 8].hex()}"
                             f"\n{text}")


SETTINGS = settings(max_examples=400, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(programs())
def test_random_programs_bit_exact(text):
    check(text, "error")


@settings(SETTINGS, max_examples=200)
@given(programs(overlap=True))
def test_overlapping_programs_follow_sequential_model_with_checks_off(text):
    check(text, "off")


@settings(SETTINGS, max_examples=150)
@given(programs(overlap=True))
def test_overlapping_programs_rejected_for_the_documented_rule(text):
    check(text, "error")


@st.composite
def nan_payloads(draw) -> tuple[str, bytes, bytes]:
    """Two 256-byte operands of NaN payloads (signalling and quiet, either sign) of f16/f32."""
    t = draw(st.sampled_from(("f16", "f32")))
    size = SIZE[t]
    exp = 0x7C00 if size == 2 else 0x7F800000
    frac = exp - 1 if size == 2 else 0x7FFFFF
    frac &= (1 << (10 if size == 2 else 23)) - 1
    sign = 1 << (8 * size - 1)
    vals = draw(st.lists(st.tuples(st.booleans(), st.integers(1, frac)), min_size=256 // size,
                         max_size=256 // size))
    a = b"".join((exp | f | (sign if s else 0)).to_bytes(size, "little") for s, f in vals)
    return t, a, a[::-1]


@settings(SETTINGS, max_examples=40)
@given(nan_payloads(), st.integers(0, 2**64 - 1))
def test_nan_payloads_survive_vsel_and_copies(case, selbits):
    t, a, b = case
    text = f""".chip ascend910b
.ub a {t}[{256 // SIZE[t]}] @0x0 = bits("{a.hex()}")
.ub b {t}[{256 // SIZE[t]}] @0x100 = bits("{b.hex()}")
.ub m u64[4] @0x200 = [{selbits}, {selbits ^ (2**64 - 1)}, {selbits}, 0]
.ub ptr u32[8] @0x220 = [0x200, 0, 0, 0, 0, 0, 0, 0]
set_cmpmask m
vsel.{t} @0x300, a, b, mode=0
vsel.{t} @0x400, a, m, mode=1
set_cmpmask ptr
vsel.{t} @0x500, a, b, mode=2
vcopy.{t} @0x600, a
copy_ub_to_ub @0x700, b, nburst=1, burst=8
"""
    res = simulator.run(text)
    ub = bytes(res.ub)
    n, size = 256 // SIZE[t], SIZE[t]
    bits = [(int.from_bytes(ub[0x200:0x210], "little") >> k) & 1 for k in range(n)]
    el = [slice(k * size, (k + 1) * size) for k in range(n)]
    mode0 = b"".join(a[s] if bit else b[s] for bit, s in zip(bits, el, strict=True))
    scalar = ub[0x200:0x200 + size]  # mode 1: CMPMASK's low bits, read as T
    mode1 = b"".join(a[s] if bit else scalar for bit, s in zip(bits, el, strict=True))
    assert ub[0x300:0x400] == mode0
    assert ub[0x400:0x500] == mode1
    assert ub[0x500:0x600] == mode0  # mode 2: the mask at CMPMASK[31:0] = 0x200
    assert ub[0x600:0x700] == a and ub[0x700:0x800] == b
    assert ub == bytes(run_reference(text).ub)


# -- ascend950: API-level select, flexible scalar position, strides, register counts ----------
UB_950 = 262144 - 8192  # below scratch
SIZE_950 = {"f16": 2, "bf16": 2, "s16": 2, "u16": 2, "f32": 4, "s32": 4, "u32": 4}
IMMEDIATE = {"f": ["0.0", "-0.0", "2.5", "-3.75", "inf", "nan", "100.0"],
             "s": ["0", "-1", "7", "-100"], "u": ["0", "1", "7", "100"]}


class Gen950:
    """One `select` on ascend950 over tensors sized exactly to what their strides reach, so a
    decoding that reads an operand with another operand's strides fails on data or footprint."""

    def __init__(self, draw):
        self.draw = draw
        self.t = draw(st.sampled_from(tuple(SIZE_950)))
        self.size = SIZE_950[self.t]
        self.n = 256 // self.size
        self.next = 0
        self.decls: list[str] = [".chip ascend950"]

    def tensor(self, name: str, t: str, nbytes: int, init: bool = True) -> None:
        nbytes = max(32, -(-nbytes // 32) * 32)
        self.next += self.draw(st.integers(0, 2)) * 32
        count = nbytes // SIZE_950.get(t, 1)
        hexs = np.random.default_rng(self.draw(st.integers(0, 2**32 - 1))).integers(
            0, 256, nbytes, dtype=np.uint8).tobytes().hex()
        self.decls.append(f".ub {name} {t}[{count}] @{self.next:#x}" +
                          (f' = bits("{hexs}")' if init else " = zeros"))
        self.next += nbytes

    def scalar(self) -> str:
        if self.draw(st.booleans()):
            self.tensor("s", self.t, 32)
            return f"scalar(s[{self.draw(st.integers(0, 32 // self.size - 1))}])"
        return self.draw(st.sampled_from(IMMEDIATE[self.t[0] if self.t != "bf16" else "f"]))

    def mask(self) -> tuple[str, list[bool]]:
        n = self.n
        if self.draw(st.booleans()):
            length = self.draw(st.integers(1, n))
            return f"mask={length}", [k < length for k in range(n)]
        lo = self.draw(st.integers(0, 2**64 - 1)) if n == 128 else self.draw(
            st.integers(0, 2**64 - 1))
        hi = self.draw(st.integers(0, 2**64 - 1)) if n == 128 else 0
        bits = [bool((lo >> k) & 1 if k < 64 else (hi >> (k - 64)) & 1) for k in range(n)]
        return f"mask_lo={lo:#x}" + (f", mask_hi={hi:#x}" if n == 128 else ""), bits

    def extent(self, repeat: int, blk: int, rep: int, row: list[bool]) -> int:
        """Bytes from the base to the end of the last active element (docs/machine.md §5)."""
        per_block = 32 // self.size
        ends = [((i * rep + k // per_block * blk) * 32 + (k % per_block + 1) * self.size)
                for i in range(repeat) for k in range(self.n) if row[k]]
        return max(ends, default=32)

    def program(self) -> str:
        d = self.draw
        mode = d(st.sampled_from((1, 1, 1, 0, 2)))
        scalar_at = d(st.sampled_from(("src0", "src0", "src1"))) if mode == 1 else None
        register = d(st.booleans())
        ops = {r: self.scalar() if r == scalar_at else r for r in ("src0", "src1")}
        if d(st.integers(0, 3)):  # high-dimensional form
            repeat = d(st.integers(1, 4))
            strides = {"dst": (d(st.integers(1, 4)), d(st.sampled_from((0, 1, 8, 9, 16))))}
            for r in ("src0", "src1"):
                strides[r] = (d(st.integers(0, 255)), d(st.integers(0, 255))) if r == \
                    scalar_at else (d(st.integers(0, 4)), d(st.sampled_from((0, 1, 8, 9, 16))))
            mask, row = self.mask()
            sizes = {r: self.extent(repeat, *strides[r], row) for r in ("dst", "src0", "src1")}
            order = ("dst", "src0", "src1")
            stride = ",".join(str(strides[r][0]) for r in order) + "," + \
                ",".join(str(strides[r][1]) for r in order)
            tail = f"repeat={'x1' if register else repeat}, {mask}, stride={stride}"
            sel_bits, value = (repeat * self.n if mode else self.n), repeat
        else:
            count = d(st.integers(1, 3 * self.n))
            sizes = dict.fromkeys(("dst", "src0", "src1"), count * self.size)
            tail = f"count={'x1' if register else count}"
            sel_bits, value = (-(-count // self.n) * self.n if mode else self.n), count
        self.tensor("m", "u8", sel_bits // 8)
        self.tensor("d", self.t, sizes["dst"], init=False)
        for r in ("src0", "src1"):
            if ops[r] == r:
                self.tensor(r, self.t, sizes[r])
        lines = self.decls + ([f"    li x1, {value}"] if register else [])
        lines.append(f"    select.{self.t} d, m, {ops['src0']}, {ops['src1']}, mode={mode}, "
                     f"{tail}")
        return "\n".join(lines) + "\n"


@st.composite
def selects_950(draw) -> str:
    return Gen950(draw).program()


@settings(SETTINGS, max_examples=300)
@given(selects_950())
def test_950_select_forms_bit_exact(text):
    """Scalar first or second (immediate or scalar(NAME[I])), modes 0/1/2, count= and repeat=
    forms with random strides and masks, constant or register counts, against the reference's
    element-by-element §8.1 semantics (UB below scratch, byte for byte)."""
    want = run_reference(text).ub[:UB_950]
    got = simulator.run(text).ub[:UB_950].tobytes()
    if got != bytes(want):
        diff = next(i for i in range(len(got)) if got[i] != want[i])
        raise AssertionError(f"UB differs first at byte {diff:#x}: simulator "
                             f"{got[diff:diff + 8].hex()} reference {want[diff:diff + 8].hex()}"
                             f"\n{text}")
