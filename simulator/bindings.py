"""Binding rows: which front-end call issues which `.vasm` statement (docs/ascendc.md, docs/tik.md).

A row names a call of one language (AscendC C++, the AscendC C API, TIK), the statement it
issues (an API statement of isa/api.py, or any mnemonic the assembler knows) and its shape: the
call's signature pattern, which each front end knows how to turn into the statement's operands
and keys (`count=` for the first-n form, `repeat=`, `stride=` and the mask keys for the
high-dimensional form). The front ends write the statement and nothing else: how it expands
into hardware instructions is isa/api.py's alone.

A row of a shape no language knows carries its parameter list as data instead (`params`: its
overloads, each a tuple of parameter kinds, `PARAMS`): the C++ functions and the TIK method are
made from it, so a new shape needs no header or front-end edit (docs/decisions.md).

The C++ headers' repetitive part is generated from these rows (simulator/ascendc/bindgen.py,
`scripts/generate_bindings.py`); TIK looks its calls up here when they are made. A row added at
run time (`ROWS.add`) reaches both: TIK at its next call, C++ through a header that the build
generates for the rows the checked-in headers lack.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import attrs

LANGUAGES = ("ascendc", "c_api", "tik")
# the shapes each language knows (the operands before the form's keys)
SHAPES = {
    "ascendc": ("binary", "scalar", "unary", "cast",  # (dst, src0, src1) (dst, src, s) (dst, src)
                "binary_cast",  # #27: (dst of T, src0 and src1 of U): AddReluCast …
                "scalar_mixed", "binary_mixed",  # #27: Axpy, MulAddDst with <T, U> overloads
                "scalar_round",  # #27: ShiftRight, roundEn last in its high-dimensional forms
                "flex_scalar",  # #27: ascend950 Ands Ors Divs (the scalar in either place)
                "scalar_flex",  # #27 (h27c): ascend950 Adds … Subs, the scalar first
                "shift_tensor",  # #27 (h27c): ascend950 ShiftLeft/Right by a tensor of counts
                "copy"),  # Copy: (dst, src), its high-dimensional forms with CopyRepeatParams
    # cast (#27b): (dst, src) of the types `conv` names; unary: #27a (asc_exp …)
    "c_api": ("binary", "scalar", "cast", "unary",
              "binary_cast",  # #27: asc_mul_cast_half2int8 (dst, src0, src1), types its name's
              "scalar_round",  # #27: asc_shiftright_round
              "scalar_mixed", "binary_mixed",  # #27: asc_axpy, asc_fma (half → float)
              "binary_or_cast"),  # #27: asc_add_relu/asc_sub_relu (T ← U: STMT_cast.T.U)
    "tik": ("binary", "scalar", "unary", "conv",
            # #29: TIK's older names, with block strides before the repeat strides
            "binary_blk", "scalar_blk", "unary_blk", "conv_blk"),
}
# a parameter list's kinds: the statement's tensor operands (in the order given), the count=
# form's count, the mask (contiguous or bitwise: the mask keys), repeat=, the scalar operand;
# any other name must be a stride field of the statement (src_rep=, an immediate); `order` is
# a reduction's result order (AscendC ReduceOrder, defaulting to value then index); `work` a
# composite reduction's work tensor, `elements` / `repeats` its count= / repeats= (immediates:
# its rounds are planned when assembling), `index` its calIndex (defaulting to false)
TENSORS = ("dst", "src", "src0", "src1", "work")
PARAMS = (*TENSORS, "count", "mask", "repeat", "scalar", "order", "elements", "repeats", "index")
FIRST_N, HIGH_DIM = ("count", "elements"), ("repeat", "repeats")
STRIDE_SUFFIXES = ("_blk", "_rep")


@attrs.frozen
class Binding:
    language: str  # one of LANGUAGES
    name: str  # the call in that language: Add, asc_add, vec_add
    statement: str  # the statement it issues: add (written add.T ...)
    shape: str = ""  # one of SHAPES[language], or "" with `params`
    # the call's overloads, each its parameters' kinds in order (TIK: one; no shape then)
    params: tuple[tuple[str, ...], ...] = ()
    # a C-API conversion's (dst type, src type, round mode): its name says them, asc_int642float_rn
    conv: tuple[str, str, str] = ()
    # keys the statement always gets (h28: vec_reduce_add's `runs=1`, its page's sum order)
    keys: str = ""

    def __attrs_post_init__(self) -> None:
        if self.params:
            self._check_params()
        elif self.shape not in SHAPES.get(self.language, ()):
            raise ValueError(f"binding {self.name}: {self.language} has no shape {self.shape!r} "
                             f"(shapes: {', '.join(SHAPES.get(self.language, ()))}; or give "
                             "params)")

    def _check_params(self) -> None:
        def fail(why: str) -> ValueError:
            return ValueError(f"binding {self.name}: {why}")
        if self.shape or self.language not in LANGUAGES:
            raise fail("params replace the shape, in a known language")
        if self.language == "tik" and len(self.params) != 1:
            raise fail("a TIK call has one parameter list")
        for overload in self.params:
            bad = [k for k in overload if k not in PARAMS and not k.endswith(STRIDE_SUFFIXES)]
            if bad:
                raise fail(f"unknown parameter kinds {bad} (kinds: {', '.join(PARAMS)}, "
                           "or a stride field NAME_blk / NAME_rep)")
            if any(k in overload for k in FIRST_N) == any(k in overload for k in HIGH_DIM):
                raise fail(f"{overload}: give count (the first-n form) or repeat, not both")
            if "mask" in overload and self.language == "c_api":
                raise fail("the C API takes no mask")


def _rows(language: str, shape: str, pairs: str) -> list[Binding]:
    """Rows of one language and shape from 'Name:statement ...'."""
    return [Binding(language, *pair.split(":"), shape) for pair in pairs.split()]


# --- Cast pairs and round modes (issue #27, conversions): the C API's asc_SRC2DST[_MODE] names
# of the A2/A3 table, e.g. asc_int642float_rn = cast.f32.s64 round=rint (the C-API reference's
# vector conversion list: its suffixes rd ru rn rna rz ro are floor ceil rint round trunc odd)
_C_NAMES = {"f16": "half", "f32": "float", "bf16": "bfloat16", "s8": "int8", "u8": "uint8",
            "s16": "int16", "s32": "int32", "s64": "int64", "s4": "int4"}
_C_SUFFIX = {"none": "", "rint": "_rn", "floor": "_rd", "ceil": "_ru", "round": "_rna",
             "trunc": "_rz", "odd": "_ro"}


def _c_casts() -> list[Binding]:
    """One row per pair and mode of the A2/A3 profile's [conversions] (the chip the C API
    targets): the C API's names follow the same table."""
    from isa.chip import get_chip

    out = []
    for pair, modes in get_chip("ascend910b").conversions.items():
        dst, src = pair.split(".")
        for mode in modes:
            name = f"asc_{_C_NAMES[src]}2{_C_NAMES[dst]}{_C_SUFFIX[mode]}"
            out.append(Binding("c_api", name, "cast", "cast", conv=(dst, src, mode)))
    return out


# -- the reductions (issue 28, group 28a): AscendC WholeReduce* (mask before repeat, then
# dstRepStride in whole results, srcBlkStride, srcRepStride, max/min an order), BlockReduce* and
# PairReduceSum (repeat before mask); the C API on MASK as it is; TIK's whole-repeat calls
_WHOLE = ("dst", "src", "mask", "repeat", "dst_rep", "src_blk", "src_rep")
_BLOCK = ("dst", "src", "repeat", "mask", "dst_rep", "src_blk", "src_rep")
_C = ("dst", "src", "repeat", "dst_rep", "src_blk", "src_rep")
_C_N = ("dst", "src", "count")  # h28: the C API's first-n forms (the newest pages)
_TIK = (("mask", "dst", "src", "repeat", "dst_rep", "src_blk", "src_rep"),)


def _reductions() -> list[Binding]:
    rows = []
    for name, statement, extreme in (("Max", "max", True), ("Min", "min", True),
                                     ("Sum", "sum", False)):
        whole = (_WHOLE + ("order",),) if extreme else (_WHOLE,)
        rows += [Binding("ascendc", f"WholeReduce{name}", f"whole_reduce_{statement}",
                         params=whole),
                 Binding("ascendc", f"BlockReduce{name}", f"block_reduce_{statement}",
                         params=(_BLOCK,)),
                 Binding("c_api", f"asc_repeat_reduce_{statement}", f"whole_reduce_{statement}",
                         params=((_C + ("order",), _C_N + ("order",)) if extreme
                                 else (_C, _C_N))),
                 Binding("c_api", f"asc_datablock_reduce_{statement}",
                         f"block_reduce_{statement}", params=(_C, _C_N)),
                 Binding("tik", f"vc{'add' if statement == 'sum' else statement}",
                         f"whole_reduce_{statement}", params=_TIK),
                 Binding("tik", f"vcg{'add' if statement == 'sum' else statement}",
                         f"block_reduce_{statement}", params=_TIK)]
    rows += [Binding("ascendc", "PairReduceSum", "pair_reduce_sum", params=(_BLOCK,)),
             Binding("c_api", "asc_pair_reduce_sum", "pair_reduce_sum", params=(_C, _C_N)),
             Binding("tik", "vcpadd", "pair_reduce_sum", params=_TIK)]
    # the composites in TIK: vec_reduce_max/min (cal_index last), vec_reduce_add. AscendC's
    # ReduceMax/Min/Sum are written by hand (pipev/reduce.h): calIndex runs scalar code, and
    # the registers they leave are read back by it
    for statement, tik in (("max", "max"), ("min", "min"), ("sum", "add")):
        index = ("index",) if statement != "sum" else ()
        rows.append(Binding("tik", f"vec_reduce_{tik}", f"reduce_{statement}",
                            params=(("mask", "dst", "src", "work", "repeats", "src_rep",
                                     *index),), keys="runs=1" if statement == "sum" else ""))
    return rows


REDUCTIONS = tuple(_reductions())

BUILTIN: tuple[Binding, ...] = (
    *_rows("ascendc", "binary", "Add:add Sub:sub Mul:mul Max:max Min:min And:and Or:or"),
    *_rows("ascendc", "scalar", "Adds:adds Muls:muls Maxs:maxs Mins:mins"),
    *_rows("ascendc", "unary", "Abs:abs Not:not"),
    Binding("ascendc", "Copy", "copy", "copy"),  # UB to UB (vcopy)
    *_rows("ascendc", "cast", "Cast:cast"),
    *_rows("c_api", "binary", "asc_add:add asc_sub:sub asc_mul:mul asc_max:max asc_min:min"),
    *_rows("c_api", "scalar", "asc_add_scalar:adds asc_mul_scalar:muls asc_max_scalar:maxs "
           "asc_min_scalar:mins"),
    *_rows("tik", "binary", "vec_add:add vec_sub:sub vec_mul:mul vec_max:max vec_min:min "
           "vec_and:and vec_or:or"),
    *_rows("tik", "scalar", "vec_adds:adds vec_muls:muls vec_maxs:maxs vec_mins:mins"),
    *_rows("tik", "unary", "vec_abs:abs vec_not:not"),
    *_rows("tik", "conv", "vec_conv:cast"),
    # #29: TIK's older instruction names (block strides given), on the same statements
    *_rows("tik", "binary_blk", "vadd:add vsub:sub vmul:mul vmax:max vmin:min vand:and vor:or"),
    *_rows("tik", "scalar_blk", "vadds:adds vmuls:muls vmaxs:maxs vmins:mins"),
    *_rows("tik", "unary_blk", "vabs:abs vnot:not"),
    *_rows("tik", "conv_blk", "vconv:cast"),
    # Cast pairs and round modes (issue #27): the C API's conversions
    *_c_casts(),
    # #27a element-wise compute: arithmetic, transcendentals, LeakyRelu, shifts
    *_rows("ascendc", "binary", "Div:div"),
    *_rows("ascendc", "unary", "Exp:exp Ln:ln Sqrt:sqrt Rsqrt:rsqrt Reciprocal:reciprocal "
           "Relu:relu"),
    *_rows("ascendc", "scalar", "Subs:subs LeakyRelu:leaky_relu ShiftLeft:shift_left"),
    *_rows("ascendc", "scalar_round", "ShiftRight:shift_right"),  # #27: roundEn
    *_rows("ascendc", "flex_scalar", "Ands:ands Ors:ors Divs:divs"),  # #27: ascend950
    *_rows("ascendc", "scalar_flex", "Adds:adds Muls:muls Maxs:maxs Mins:mins Subs:subs"),  # h27c
    *_rows("ascendc", "shift_tensor", "ShiftLeft:shift_left ShiftRight:shift_right"),  # h27c
    *_rows("c_api", "binary", "asc_div:div"),
    *_rows("c_api", "unary", "asc_exp:exp asc_rsqrt:rsqrt asc_relu:relu"),
    *_rows("c_api", "scalar", "asc_sub_scalar:subs asc_leakyrelu:leaky_relu"),
    *_rows("tik", "binary", "vec_div:div"),
    *_rows("tik", "unary", "vec_exp:exp vec_ln:ln vec_sqrt:sqrt vec_rsqrt:rsqrt vec_rec:reciprocal "
           "vec_relu:relu"),
    *_rows("tik", "scalar", "vec_leaky_relu:leaky_relu"),
    # composites (same-type forms)
    *_rows("ascendc", "binary", "AddRelu:add_relu SubRelu:sub_relu "
           "FusedMulAdd:fused_mul_add MulAddRelu:mul_add_relu"),
    *_rows("ascendc", "binary_mixed", "MulAddDst:mul_add_dst"),  # #27: <T, U> (half → float)
    *_rows("ascendc", "scalar_mixed", "Axpy:axpy"),
    *_rows("tik", "scalar", "vec_axpy:axpy"),
    # #27a: TIK's older names of these (#29's *_blk shapes: block strides given)
    *_rows("tik", "binary_blk", "vdiv:div vmla:mul_add_dst vmadd:fused_mul_add "
           "vmaddrelu:mul_add_relu"),
    *_rows("tik", "unary_blk", "vexp:exp vln:ln vsqrt:sqrt vrsqrt:rsqrt vrec:reciprocal "
           "vrelu:relu"),
    *_rows("tik", "scalar_blk", "vaxpy:axpy"),
    *REDUCTIONS,
    # #27: the composites with a conversion (the C API has MulCast's two pairs only)
    *_rows("ascendc", "binary_cast", "AddReluCast:add_relu_cast SubReluCast:sub_relu_cast "
           "MulCast:mul_cast"),
    Binding("c_api", "asc_mul_cast_half2int8", "mul_cast", "binary_cast",
            conv=("s8", "f16", "none")),
    Binding("c_api", "asc_mul_cast_half2uint8", "mul_cast", "binary_cast",
            conv=("u8", "f16", "none")),
    # #27: the C API's shifts (the value converted to T), and the rounding right shift
    *_rows("c_api", "scalar", "asc_shiftleft:shift_left asc_shiftright:shift_right"),
    *_rows("c_api", "scalar_round", "asc_shiftright_round:shift_right"),
    # #27: the rest of the C-API reference's element-wise list (A2/A3): asc_log is Ln,
    # asc_rcp Reciprocal, asc_fma dst = src0·src1 + dst (MulAddDst), asc_mul_add
    # dst = src0·dst + src1 (FusedMulAdd); asc_add_relu/asc_sub_relu with their converting overloads
    *_rows("c_api", "unary", "asc_abs:abs asc_sqrt:sqrt asc_rcp:reciprocal asc_log:ln "
           "asc_not:not"),
    *_rows("c_api", "binary", "asc_and:and asc_or:or asc_mul_add:fused_mul_add "
           "asc_mul_add_relu:mul_add_relu"),
    *_rows("c_api", "binary_or_cast", "asc_add_relu:add_relu asc_sub_relu:sub_relu"),
    *_rows("c_api", "binary_mixed", "asc_fma:mul_add_dst"),
    *_rows("c_api", "scalar_mixed", "asc_axpy:axpy"),
)


class Bindings:
    """The rows in force: the built-in ones and any added at run time."""

    def __init__(self, rows: tuple[Binding, ...] = BUILTIN):
        self._rows: dict[tuple[str, str], Binding] = {(r.language, r.name): r for r in rows}

    def __iter__(self) -> Iterator[Binding]:
        return iter(self._rows.values())

    def find(self, language: str, name: str) -> Binding | None:
        return self._rows.get((language, name))

    def add(self, row: Binding) -> None:
        self._rows[(row.language, row.name)] = row

    def remove(self, row: Binding) -> None:
        if self._rows.get((row.language, row.name)) == row:
            del self._rows[(row.language, row.name)]

    @contextmanager
    def added(self, *rows: Binding) -> Iterator[None]:
        """ROWS in force inside the block (a test's made-up API)."""
        for row in rows:
            self.add(row)
        try:
            yield
        finally:
            for row in rows:
                self.remove(row)

    def extra(self, language: str) -> list[Binding]:
        """The rows of LANGUAGE that are not built in (those the checked-in headers lack)."""
        return [r for r in self if r.language == language and r not in BUILTIN]


ROWS = Bindings()
