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
