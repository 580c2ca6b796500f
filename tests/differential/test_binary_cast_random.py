"""#27 property tests: random programs of vaddreluconv, vsubreluconv and vmulconv (AddReluCast,
SubReluCast, MulCast) over their A2/A3 pairs, with masks, mask modes, strides, repeats and the
specials of the shared pools (±0, ±inf, NaN payloads, subnormals, extremes), run bit-exact
against tests/reference/binary_conv.py through the reference model."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.differential.test_random_programs import SETTINGS, SIZE, Gen, check
from tests.reference.binary_conv import PAIRS


class BinaryCastGen(Gen):
    def binary_cast(self) -> None:
        self.new_state()
        name = self.draw(st.sampled_from(sorted(PAIRS)))
        dst_t, src_t = self.draw(st.sampled_from(PAIRS[name]))
        wide = max(SIZE[dst_t], SIZE[src_t])
        n = 256 // wide
        repeat = self.repeats_field()
        r = self.effective_repeats(repeat, n)
        self.used, self.dst_region = set(), None
        (db, dr) = self.stride(r, True)
        dst = self.shared_dst_blocks(dst_t, r, db, dr, 8 * SIZE[dst_t] // wide)
        srcs, strides = [], []
        for _ in range(2):
            b, rp = self.stride(r, False)
            srcs.append(self.operand(src_t, self.extent(r, b, rp, 8 * SIZE[src_t] // wide))[0])
            strides.append((b, rp))
        (ab, ar), (bb, br) = strides
        self.emit_vector(f"{name}.{dst_t}.{src_t}", [dst, *srcs], repeat,
                         [db, ab, bb, dr, ar, br])

    def program(self) -> str:
        for _ in range(self.draw(st.integers(1, 5))):
            kind = self.draw(st.sampled_from(("mask", "mode", "conv", "conv", "conv")))
            {"mask": self.mask, "mode": self.mask_mode, "conv": self.binary_cast}[kind]()
        return "\n".join([".chip ascend910b", *self.decls, *self.lines]) + "\n"


@st.composite
def programs(draw, overlap: bool = False) -> str:
    return BinaryCastGen(draw, overlap).program()


@settings(SETTINGS, max_examples=200)
@given(programs())
def test_binary_cast_programs_bit_exact(text):
    check(text, "error")


@settings(SETTINGS, max_examples=60)
@given(programs(overlap=True))
def test_binary_cast_overlaps_follow_the_reference(text):
    check(text, "off")
