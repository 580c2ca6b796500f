"""#27 property tests: random programs of vaddreluconv, vsubreluconv and vmulconv (AddReluCast,
SubReluCast, MulCast) over their A2/A3 pairs and of the mixed forms vaxpy.f32.f16 and
vmla.f32.f16 (Axpy, MulAddDst half → float), with masks, mask modes, strides, repeats and the
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

    def mixed(self) -> None:
        """vaxpy.f32.f16 / vmla.f32.f16: 64 elements a repeat, f16 sources 4 blocks a repeat,
        the f32 dst (read and written) 8, its repeats apart."""
        self.new_state()
        name = self.draw(st.sampled_from(("vaxpy", "vmla")))
        repeat = self.repeats_field()
        r = self.effective_repeats(repeat, 64)
        self.used, self.dst_region = set(), None
        db, dr = 1, max(self.stride(r, True)[1], 8)  # dst's repeats apart (as the #27a ACC)
        dst = self.shared_dst_blocks("f32", r, db, dr, 8)
        n_src = 1 if name == "vaxpy" else 2
        srcs, strides = [], []
        for _ in range(n_src):
            b, rp = self.stride(r, False)
            srcs.append(self.operand("f16", self.extent(r, b, rp, 4))[0])
            strides.append((b, rp))
        if name == "vaxpy":
            srcs.append(self.scalar("f16"))
        flat = [db, *(b for b, _ in strides), dr, *(rp for _, rp in strides)]
        self.emit_vector(f"{name}.f32.f16", [dst, *srcs], repeat, flat)

    def program(self) -> str:
        for _ in range(self.draw(st.integers(1, 5))):
            kind = self.draw(st.sampled_from(("mask", "mode", "conv", "conv", "mixed", "mixed")))
            {"mask": self.mask, "mode": self.mask_mode, "conv": self.binary_cast,
             "mixed": self.mixed}[kind]()
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
