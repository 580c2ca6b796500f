"""TIK's `vec_*_high_preci` calls (TIK's pages: "a higher precision than vec_rec" / "than
vec_ln", a work tensor the caller sizes by a formula the pages give). pipev's reciprocal,
reciprocal square root and natural logarithm are already correctly rounded (docs/semantics.md
§6.4.1), so the precise calls compute the same bits as the plain ones; what they add is the work
tensor, checked here."""

from __future__ import annotations

from simulator.tik.errors import TikError, api, caller
from simulator.tik.expr import LowerError, as_expr
from simulator.tik.values import Tensor

# the work tensor, in units of the rounded-up source extent, per source dtype (the pages:
# vec_rec_high_preci 4 / 2; vec_rsqrt_high_preci 5 / 3 on the training and inference
# products, 6 / 4 on Atlas 200/300/500 — pipev asks the larger; vec_ln_high_preci 10, float16
# only)
WORK_UNITS = {"vec_rec_high_preci": {"float16": 4, "float32": 2},
              "vec_rsqrt_high_preci": {"float16": 6, "float32": 4},
              "vec_ln_high_preci": {"float16": 10}}
PLAIN = {"vec_rec_high_preci": "vec_rec", "vec_rsqrt_high_preci": "vec_rsqrt",
         "vec_ln_high_preci": "vec_ln"}
# the work tensor's dtype: float32 for the reciprocals; the source's for vec_ln_high_preci
# (the pages: "dst/src/work_tensor have the same dtype")
WORK_DTYPE = {"vec_ln_high_preci": "float16"}


def _known(v) -> int | None:
    try:
        return as_expr(v).constant()
    except LowerError:
        return None


def _mask_len(mask) -> int | None:
    """The pages' mask_len: a contiguous mask's value, a bitwise one's highest set bit + 1."""
    if isinstance(mask, (list, tuple)):
        hi, lo = (_known(m) for m in mask)
        if hi is None or lo is None:
            return None
        return (hi << 64 | lo).bit_length()
    return _known(mask)


def work_elements(name: str, dtype: str, mask, repeat_times, src_rep_stride) -> int | None:
    """The float32 elements the work tensor needs (None: not known when the kernel is built)."""
    mask_len, repeat, stride = _mask_len(mask), _known(repeat_times), _known(src_rep_stride)
    if None in (mask_len, repeat, stride):
        return None
    block = 16 if dtype == "float16" else 8
    extent = (repeat - 1) * stride * block + mask_len
    unit = (extent + block - 1) // block * block
    return WORK_UNITS[name][dtype] * unit


class Precise:
    """Mixed into Tik."""

    def _precise(self, name: str, mask, dst, src, work_tensor, repeat_times, dst_rep_stride,
                 src_rep_stride) -> None:
        loc = caller()
        work_t = WORK_DTYPE.get(name, "float32")
        if not isinstance(work_tensor, Tensor) or work_tensor.dtype != work_t or \
                not work_tensor.is_ub:
            raise TikError.at(loc, f"{name}: work_tensor must be a {work_t} Tensor in "
                              "scope_ubuf")
        if isinstance(src, Tensor) and src.dtype not in WORK_UNITS[name]:
            raise TikError.at(loc, f"{name}: src is {src.dtype}; the pages allow "
                              f"{' and '.join(WORK_UNITS[name])} only")
        if isinstance(src, Tensor) and src.dtype in WORK_UNITS[name]:
            need = work_elements(name, src.dtype, mask, repeat_times, src_rep_stride)
            have = work_tensor.root.size - (_known(work_tensor.offset) or 0)
            if need is not None and have < need:
                raise TikError.at(loc, f"{name}: work_tensor '{work_tensor.name}' has {have} "
                                  f"{work_t} elements from its start; the pages' formula asks "
                                  f"{need} for this {src.dtype} mask, repeat_times and "
                                  "src_rep_stride")
        getattr(self, PLAIN[name])(mask, dst, src, repeat_times, dst_rep_stride,
                                   src_rep_stride)

    @api
    def vec_rec_high_preci(self, mask, dst, src, work_tensor, repeat_times, dst_rep_stride,
                           src_rep_stride) -> None:
        self._precise("vec_rec_high_preci", mask, dst, src, work_tensor, repeat_times,
                      dst_rep_stride, src_rep_stride)

    @api
    def vec_rsqrt_high_preci(self, mask, dst, src, work_tensor, repeat_times, dst_rep_stride,
                             src_rep_stride) -> None:
        self._precise("vec_rsqrt_high_preci", mask, dst, src, work_tensor, repeat_times,
                      dst_rep_stride, src_rep_stride)

    @api
    def vec_ln_high_preci(self, mask, dst, src, work_tensor, repeat_times, dst_rep_stride,
                          src_rep_stride) -> None:
        self._precise("vec_ln_high_preci", mask, dst, src, work_tensor, repeat_times,
                      dst_rep_stride, src_rep_stride)

    # -- vec_expm1_high_preci: an expansion of float32 instructions, exhaustively checked ----
    @api
    def vec_expm1_high_preci(self, mask, dst, src, work_tensor, repeat_times, dst_rep_stride,
                             src_rep_stride) -> None:
        """e^x − 1, correctly rounded to float16 for every float16 input: pipev's expansion
        (the vendor's is not published) of correctly rounded float32 instructions over the
        work tensor — with u = e^x, x·((u − 1) / ln u) for |x| < 0.25, else
        (u − 1) + u·(x − ln u); x where u = 1; u − 1 where |x| >= 88; +inf from 65520 up —
        which the tests check against the exact value for all 65,536 float16 inputs
        (docs/decisions.md)."""
        loc = caller()
        name = "vec_expm1_high_preci"
        for role, t in (("dst", dst), ("src", src), ("work_tensor", work_tensor)):
            if not isinstance(t, Tensor) or t.dtype != "float16" or not t.is_ub:
                raise TikError.at(loc, f"{name}: {role} must be a float16 Tensor in scope_ubuf "
                                  "(the pages: float16 only)")
        repeat, stride = _known(repeat_times), _known(src_rep_stride)
        if repeat is None or stride is None:
            raise TikError.at(loc, f"{name}: repeat_times and src_rep_stride must be known when "
                              "the kernel is built (pipev lays out the work tensor by them)")
        # the pages: extent (repeat − 1)·stride'·16 + 128, stride' 8 when 0 < stride <= 8
        eff = 8 if 0 < stride <= 8 else stride
        unit = ((repeat - 1) * eff * 16 + 128 + 15) // 16 * 16
        have = work_tensor.root.size - (_known(work_tensor.offset) or 0)
        if have < 11 * unit:
            raise TikError.at(loc, f"{name}: work_tensor '{work_tensor.name}' has {have} float16 "
                              f"elements from its start; the pages' formula asks {11 * unit} "
                              "for this repeat_times and src_rep_stride")
        ours = (5 * repeat * 128 + 64) * 2 + repeat * 8  # pipev's layout, in float16 elements
        if have < ours:  # only src_rep_stride 0 over several repeats asks less of the pages
            raise TikError.at(loc, f"{name}: work_tensor '{work_tensor.name}' has {have} float16 "
                              f"elements from its start; pipev's expansion lays out {ours} for "
                              f"{repeat} repeats (5 float32 rows of them, a constant, the "
                              "compare bits)")
        halves = _halves(mask)
        if halves is None:
            raise TikError.at(loc, f"{name}: mask must be known when the kernel is built")
        if repeat:
            self._expm1(halves, dst, src, work_tensor, repeat, dst_rep_stride, src_rep_stride)

    def _expm1(self, halves, dst, src, work, repeat: int, dst_rep, src_rep) -> None:
        p = repeat * 128  # float32 lanes: 128 per repeat of the float16 call
        w = work.reinterpret_cast_to("float32")
        a, b, c, d, e, k = (w[i * p:] for i in range(6))
        bits = work.reinterpret_cast_to("uint16")[(5 * p + 64) * 2:]
        # float32 over the whole work rows: `a` zeroed first (the lanes the mask leaves out
        # are computed too, never stored)
        self._f32(lambda at, n: self.vec_dup(64, a[at:], 0.0, n, 8), p)
        for lane, m in halves:
            self.vconv(m, "", a[lane:], src[lane:], repeat, 1, 1, 16, src_rep)
        steps = (lambda at, n: self.vec_exp(64, b[at:], a[at:], n, 8, 8),
                 lambda at, n: self.vec_adds(64, c[at:], b[at:], -1.0, n, 8, 8),
                 lambda at, n: self.vec_ln(64, d[at:], b[at:], n, 8, 8),
                 lambda at, n: self.vec_div(64, e[at:], c[at:], d[at:], n, 8, 8, 8),
                 lambda at, n: self.vec_mul(64, e[at:], a[at:], e[at:], n, 8, 8, 8),
                 lambda at, n: self.vec_sub(64, d[at:], a[at:], d[at:], n, 8, 8, 8),
                 lambda at, n: self.vec_mul(64, d[at:], b[at:], d[at:], n, 8, 8, 8),
                 lambda at, n: self.vec_add(64, d[at:], c[at:], d[at:], n, 8, 8, 8),
                 lambda at, n: self.vec_abs(64, b[at:], a[at:], n, 8, 8))
        for step in steps:
            self._f32(step, p)
        for limit, cmp, what, source in ((0.25, "lt", b, e), (0.0, "eq", c, a),
                                         (88.0, "ge", b, c)):
            self.vec_dup(64, k, limit, 1, 8)
            self._f32(lambda at, n, cmp=cmp, what=what: getattr(self, f"vec_cmpv_{cmp}")(
                bits[at // 16:], what[at:], k, n, 8, 0), p)
            self._f32(lambda at, n, source=source: self.vec_sel(
                64, 2, d[at:], bits[at // 16:], source[at:], d[at:], n, 8, 8, 8), p)
        # what rounds to float16 infinity (>= 65520) is +inf: IEEE, as the runtime's default
        # Inf/NaN mode (the conversion below would saturate it at 65504)
        self.vec_dup(64, k, 65520.0, 1, 8)
        self._f32(lambda at, n: self.vec_cmpv_ge(bits[at // 16:], d[at:], k, n, 8, 0), p)
        self.vec_dup(64, k, float("inf"), 1, 8)
        self._f32(lambda at, n: self.vec_sel(64, 2, d[at:], bits[at // 16:], k, d[at:], n, 8,
                                             0, 8), p)
        for lane, m in halves:
            self.vconv(m, "", dst[lane:], d[lane:], repeat, 1, 1, dst_rep, 16)

    @staticmethod
    def _f32(step, lanes: int) -> None:
        """STEP over LANES float32 lanes in runs of at most 255 repeats of 64."""
        for at in range(0, lanes, 255 * 64):
            step(at, min(255, (lanes - at) // 64))


def _halves(mask) -> list[tuple[int, object]] | None:
    """A float16 mask as the two float32 masks of its lanes 0..63 and 64..127 (empty ones
    left out); None when it is not known when the kernel is built."""
    if isinstance(mask, (list, tuple)):
        hi, lo = (_known(m) for m in mask)
        if hi is None or lo is None:
            return None
        return [(lane, [0, m]) for lane, m in ((0, lo), (64, hi)) if m]
    n = _known(mask)
    if n is None:
        return None
    return [(lane, m) for lane, m in ((0, min(n, 64)), (64, n - 64)) if m > 0]
