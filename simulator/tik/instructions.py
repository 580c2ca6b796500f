"""TIK's data-movement and vector instructions, each recorded as pipev statements
(docs/semantics.md §6, §8): the method names, argument order and defaults are TIK's public API.
Every vector call writes one API statement; how it expands is isa/api.py's. The elementwise
calls are binding rows (simulator/bindings.py): `Instructions.__getattr__` finds a call's row
when it is made, so a row added at run time is callable at once."""

from __future__ import annotations

import functools

from isa.families import REDUCE_ORDERS
from isa.table import TABLE
from isa.types import TYPES
from simulator.bindings import ROWS, TENSORS, Binding
from simulator.tik.call import Call
from simulator.tik.dtypes import NAMES
from simulator.tik.errors import UnknownCall, api, caller
from simulator.tik.expr import Const, Expr, FConst
from simulator.tik.memo import memoised_api
from simulator.tik.values import CmpMask, Scalar, Tensor

COMPARE = ("eq", "ne", "lt", "gt", "le", "ge")
# TIK's round_mode words → pipev's round modes (ISA: none rint floor ceil round trunc odd)
ROUND = {"": "none", "none": "none", "round": "rint", "floor": "floor", "ceil": "ceil",
         "ceiling": "ceil", "away-zero": "round", "to-zero": "trunc", "odd": "odd"}
# TIK 2.0 whole-tensor calls: the API statement with a tensor src1, and with a number (None:
# h_sub adds the negated number)
H_BINARY = {"h_add": ("add", "adds"), "h_sub": ("sub", None), "h_mul": ("mul", "muls"),
            "h_max": ("max", "maxs"), "h_min": ("min", "mins")}


# #27: TIK's set_atomic_add modes — 0 off, then AscendC's AtomicDtype order (ATOMIC_F32 = 1 …)
ATOMIC_MODES = {0: "none", 1: "f32", 2: "f16", 3: "s16", 4: "s32", 5: "s8", 6: "bf16"}
ATOMIC_NAMES = ("float32", "float16", "int16", "int32", "int8", "bfloat16")


class Instructions:
    """Mixed into Tik: every method records one TIK call."""

    def _call(self, name: str) -> Call:
        return Call(self, name)

    def __getattr__(self, name: str):
        row = ROWS.find("tik", name) if not name.startswith("_") else None
        if row is None:
            if name.startswith("_"):
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            raise UnknownCall.at(caller(), f"tik_instance.{name}: not a TIK call pipev models "
                                 "(docs/tik.md lists the ones it does)")
        return _method(row).__get__(self)

    # -- data movement -----------------------------------------------------------------------
    @api
    def data_move(self, dst, src, sid, nburst, burst, src_stride, dst_stride, *args,
                  **kwargs) -> None:
        with self._call("data_move") as c:
            for role, t in (("dst", dst), ("src", src)):
                if not isinstance(t, Tensor):
                    raise c.error(f"{role} must be a Tensor, got {type(t).__name__}")
            spaces = (src.root.scope, dst.root.scope)
            mnemonic, pipe = {("gm", "ubuf"): ("copy_gm_to_ub", "MTE2"),
                              ("ubuf", "gm"): ("copy_ub_to_gm", "MTE3"),
                              ("ubuf", "ubuf"): ("copy_ub_to_ub", "V")}.get(spaces, (None, None))
            if mnemonic is None:
                raise c.error("moves GM to UB, UB to GM or UB to UB; both tensors are in "
                              "scope_gm")
            d = c.tensor(dst, "dst", write=True, space=None)
            s = c.tensor(src, "src", space=None)
            fields = (f"nburst={c.value(nburst, 'nburst', 1, 4095)}, "
                      f"burst={c.value(burst, 'burst', 1, 65535)}, "
                      f"src_gap={c.value(src_stride, 'src_stride', 0, 65535)}, "
                      f"dst_gap={c.value(dst_stride, 'dst_stride', 0, 65535)}")
            c.emit(f"{mnemonic} {d}, {s}, {fields}")
            c.record(pipe)

    # -- #27: GM atomics ---------------------------------------------------------------------
    @api
    def set_atomic_add(self, mode) -> None:
        """TIK's set_atomic_add(mode): the UB → GM data_moves that follow add into GM. MODE 0
        turns it off; 1..6 are the AtomicDtype order (float32 float16 int16 int32 int8
        bfloat16); a dtype's name is taken too, as TIK operators write it (docs/decisions.md)."""
        with self._call("set_atomic_add") as c:
            t = ATOMIC_MODES.get(mode) if isinstance(mode, int) and not isinstance(mode, bool) \
                else NAMES.get(mode) if isinstance(mode, str) else None
            if t is None:
                raise c.error(f"mode must be 0..6 or a dtype name ({', '.join(ATOMIC_NAMES)}), "
                              f"got {mode!r}")
            c.emit("set_atomic.f32 atomic=none" if t == "none" else f"set_atomic.{t} atomic=add")
            c.record(None)

    @api
    def vtranspose(self, dst, src) -> None:
        """The 16 x 16 matrix of 2-byte elements at src, transposed into dst (one vtranspose:
        the API statement `transpose.T`, repeat 1)."""
        with self._call("vtranspose") as c:
            t = c.same_type(dst, src=src)
            d = c.tensor(dst, "dst", write=True)
            s = c.tensor(src, "src")
            c.emit(f"transpose.{t.name} {d}, {s}")
            c.record("V")

    # -- select and compare ------------------------------------------------------------------
    @memoised_api
    def vec_sel(self, mask, mode, dst, sel, src0, src1, repeat_times, dst_rep_stride=0,
                src0_rep_stride=0, src1_rep_stride=0) -> None:
        self._sel("vec_sel", mask, mode, dst, sel, src0, src1, repeat_times, (1, 1, 1),
                  (dst_rep_stride, src0_rep_stride, src1_rep_stride))

    @memoised_api
    def vsel(self, mask, mode, dst, sel, src0, src1, repeat_times, dst_blk_stride,
             src0_blk_stride, src1_blk_stride, dst_rep_stride=0, src0_rep_stride=0,
             src1_rep_stride=0, name=None) -> None:
        """The older name of vec_sel, with the block strides given (#29)."""
        self._sel("vsel", mask, mode, dst, sel, src0, src1, repeat_times,
                  (dst_blk_stride, src0_blk_stride, src1_blk_stride),
                  (dst_rep_stride, src0_rep_stride, src1_rep_stride))

    def _sel(self, api, mask, mode, dst, sel, src0, src1, repeat_times, blocks, reps) -> None:
        with self._call(api) as c:
            if not isinstance(mode, int) or isinstance(mode, bool) or mode not in (0, 1, 2):
                raise c.error(f"mode must be the immediate 0, 1 or 2, got {mode!r}")
            t = c.same_type(_tensor(c, dst, "dst"), src0=src0,
                            src1=src1 if mode != 1 else None)
            roles = ("dst", "src0", "src1")
            strides = "stride=" + ",".join(
                [str(c.stride(b, f"{r}_blk_stride")) for b, r in zip(blocks, roles, strict=True)]
                + [str(c.stride(v, f"{r}_rep_stride")) for v, r in zip(reps, roles, strict=True)])
            d = c.tensor(dst, "dst", write=True)
            s0 = c.tensor(src0, "src0")
            s1 = c.immediate(src1, t, "src1") if mode == 1 else c.tensor(src1, "src1")
            repeat = c.repeat(repeat_times)
            if isinstance(sel, CmpMask):
                if mode != 0:
                    raise c.error("a CMPMASK sel (from vec_cmp_* or mov_tensor_to_cmpmask) "
                                  "selects in mode 0 only")
                c.emit(f"select.{t.name} {d}, {s0}, {s1}, mode=0, repeat={repeat}, {strides}, "
                       f"{c.mask_keys(mask, t)}")
            else:
                if isinstance(sel, Tensor) and not sel.dtype.startswith("uint"):
                    raise c.error(f"sel '{sel.name}' must be uint8/16/32/64, not {sel.dtype}")
                s = c.tensor(sel, "sel")
                c.emit(f"select.{t.name} {d}, {s}, {s0}, {s1}, mode={mode}, repeat={repeat}, "
                       f"{strides}, {c.mask_keys(mask, t)}")
            c.record("V")

    def _cmpv(self, op: str, dst, src0, src1, repeat_times, src0_rep_stride,
              src1_rep_stride) -> None:
        with self._call(f"vec_cmpv_{op}") as c:
            if isinstance(dst, Tensor) and not dst.dtype.startswith("uint"):
                raise c.error(f"dst '{dst.name}' must be uint8/16/32/64, not {dst.dtype}")
            t = c.same_type(_tensor(c, src0, "src0"), src1=src1)
            d = c.tensor(dst, "dst", write=True)
            s0, s1 = c.tensor(src0, "src0"), c.tensor(src1, "src1")
            c.emit(f"compare.{op}.{t.name} {d}, {s0}, {s1}, repeat={c.repeat(repeat_times)}, "
                   f"stride=1,1,1,8,{c.stride(src0_rep_stride, 'src0_rep_stride')},"
                   f"{c.stride(src1_rep_stride, 'src1_rep_stride')}")
            c.record("V")

    def _cmp(self, op: str, mask, src0, src1, src0_stride, src1_stride) -> CmpMask:
        with self._call(f"vec_cmp_{op}") as c:
            t = c.same_type(_tensor(c, src0, "src0"), src1=src1)
            s0, s1 = c.tensor(src0, "src0"), c.tensor(src1, "src1")
            keys = c.mask_keys(mask, t)
            c.emit(f"compare.{op}.{t.name} cmpmask, {s0}, {s1}, stride="
                   f"1,{c.stride(src0_stride, 'src0_stride')},"
                   f"{c.stride(src1_stride, 'src1_stride')},8,8,8, {keys}")
            c.record("V")
            return CmpMask(c.loc)

    @api
    def mov_cmpmask_to_tensor(self, dst, src_cmpmask) -> None:
        with self._call("mov_cmpmask_to_tensor") as c:
            if not isinstance(src_cmpmask, CmpMask):
                raise c.error("src_cmpmask must be the CMPMASK a vec_cmp_* returned")
            c.emit(f"get_cmpmask {c.tensor(dst, 'dst', write=True)}")
            c.record("V")

    @api
    def mov_tensor_to_cmpmask(self, src) -> CmpMask:
        with self._call("mov_tensor_to_cmpmask") as c:
            c.emit(f"set_cmpmask {c.tensor(src, 'src')}")
            c.record("V")
            return CmpMask(c.loc)

    # -- duplicate and arithmetic ----------------------------------------------------------
    @api
    def vec_dup(self, mask, dst, scalar, repeat_times, dst_rep_stride) -> None:
        self._dup("vec_dup", mask, dst, scalar, repeat_times, 1, dst_rep_stride)

    @api
    def vector_dup(self, mask, dst, scalar, repeat_times, dst_blk_stride, dst_rep_stride
                   ) -> None:
        self._dup("vector_dup", mask, dst, scalar, repeat_times, dst_blk_stride, dst_rep_stride)

    def _dup(self, name, mask, dst, scalar, repeat_times, blk, rep) -> None:
        with self._call(name) as c:
            t = _tensor(c, dst, "dst").t
            d = c.tensor(dst, "dst", write=True)
            value = c.immediate(scalar, t)
            keys = c.mask_keys(mask, t)
            c.emit(f"duplicate.{t.name} {d}, {value}, repeat={c.repeat(repeat_times)}, "
                   f"stride={c.value(blk, 'dst_blk_stride', 0, 65535)},1,"
                   f"{c.stride(rep, 'dst_rep_stride')},8, {keys}")
            c.record("V")

    # -- issue 28 (28b): GatherMask ----------------------------------------------------------
    @api
    def vreduce(self, mask, dst, src0, src1_pattern, repeat_times, src0_blk_stride,
                src0_rep_stride, src1_rep_stride, stride_unit=0, rsvd_scalar=None,
                mask_mode="normal") -> None:
        """GatherMask (the `gather_mask` statement): src1_pattern a uint16/uint32 tensor of
        bits or a built-in pattern 1..7; normal mode ignores MASK, counter mode takes MASK
        elements in each repeat; rsvd_scalar (an integer Scalar) gets the count written."""
        with self._call("vreduce") as c:
            t = c.same_type(_tensor(c, dst, "dst"), src0=src0)
            if stride_unit != 0:
                raise c.error(f"stride_unit {stride_unit!r}: pipev models stride_unit=0 "
                              "(strides in 32-byte blocks) only")
            ops = [c.tensor(dst, "dst", write=True), c.tensor(src0, "src0")]
            if isinstance(src1_pattern, Tensor):
                if src1_pattern.t.size != t.size or not src1_pattern.dtype.startswith("uint"):
                    raise c.error(f"src1_pattern '{src1_pattern.name}' must be "
                                  f"uint{8 * t.size} for {t.name} data")
                ops.append(c.tensor(src1_pattern, "src1_pattern"))
                pattern = 0
            else:
                pattern = int(c.value(src1_pattern, "src1_pattern", 1, 7))
            keys = [f"pattern={pattern}", f"repeat={c.repeat(repeat_times)}"]
            if mask_mode == "counter":
                keys.insert(0, f"count={c.value(mask, 'mask', 1, (1 << 32) - 1)}")
            elif mask_mode != "normal":
                raise c.error(f"mask_mode must be 'normal' or 'counter', got {mask_mode!r}")
            keys.append(f"stride={c.stride(src0_blk_stride, 'src0_blk_stride')},"
                        f"{c.stride(src0_rep_stride, 'src0_rep_stride')},"
                        f"{c.stride(src1_rep_stride, 'src1_rep_stride')}")
            c.emit(f"gather_mask.{t.name} {', '.join(ops + keys)}")
            c.record("V")
        if rsvd_scalar is not None:
            with self._call("vreduce") as c:
                if not isinstance(rsvd_scalar, Scalar) or not rsvd_scalar.t.is_int:
                    raise c.error("rsvd_scalar must be an integer Scalar")
                self.alive(rsvd_scalar, c.loc, "vreduce")
                c.emit(f"get_rsvd_cnt x{rsvd_scalar.reg}")
                rsvd_scalar.value = None  # known only when it runs
                c.record(None)

    # -- h28: TIK's vgather (Gather), as public TIK operators call it --------------------------
    @api
    def vgather(self, mask, dst, src, src_offset, repeat_times, dst_rep_stride, base_addr=0,
                stride_unit=0, mask_mode="normal") -> None:
        """Gather (the `gather` statement): dst element k = the element at src + base_addr +
        src_offset[k] bytes (src_offset int32/uint32); normal mode: repeat_times repeats of
        MASK's elements, dst repeats dst_rep_stride blocks apart; counter mode: the first MASK
        elements (repeat_times not used). No TIK page was found: the parameters are those public
        TIK operators pass (docs/decisions.md)."""
        with self._call("vgather") as c:
            t = c.same_type(_tensor(c, dst, "dst"), src=src)
            offsets = _tensor(c, src_offset, "src_offset")
            if offsets.dtype not in ("int32", "uint32"):
                raise c.error(f"src_offset '{offsets.name}' must be int32 or uint32 (byte "
                              f"offsets), not {offsets.dtype}")
            if stride_unit != 0:
                raise c.error(f"stride_unit {stride_unit!r}: pipev models stride_unit=0 "
                              "(strides in 32-byte blocks) only")
            base = c.value(base_addr, "base_addr", 0, (1 << 32) - 1)
            if not base.isdigit():
                raise c.error("base_addr must be an immediate in pipev (the gather statement's "
                              "base= is planned when assembling)")
            ops = [c.tensor(dst, "dst", write=True), c.tensor(src, "src"),
                   c.tensor(src_offset, "src_offset")]
            if mask_mode == "counter":
                keys = [f"count={c.value(mask, 'mask', 1, (1 << 32) - 1)}"]
            elif mask_mode == "normal":
                keys = [f"repeat={c.repeat(repeat_times)}",
                        f"stride={c.stride(dst_rep_stride, 'dst_rep_stride', 4095)}",
                        c.mask_keys(mask, t)]
            else:
                raise c.error(f"mask_mode must be 'normal' or 'counter', got {mask_mode!r}")
            if int(base):
                keys.append(f"base={base}")
            c.emit(f"gather.{t.name} {', '.join(ops + keys)}")
            c.record("V")

    @api
    def vec_trans(self, dst, src, repeat_times, dst_rep_stride, src_rep_stride) -> None:
        """16 x 16 transpositions of 2-byte elements (the `transpose` statement), the matrices
        dst_rep_stride / src_rep_stride x 512 bytes apart."""
        with self._call("vec_trans") as c:
            t = c.same_type(_tensor(c, dst, "dst"), src=src)
            d, s = c.tensor(dst, "dst", write=True), c.tensor(src, "src")
            repeat = c.stride(repeat_times, "repeat_times")
            if repeat == 0:
                raise c.error("repeat_times 0 as an immediate is not supported (TIK rejects it)")
            c.emit(f"transpose.{t.name} {d}, {s}, repeat={repeat}, "
                   f"dst_rep={c.stride(dst_rep_stride, 'dst_rep_stride')}, "
                   f"src_rep={c.stride(src_rep_stride, 'src_rep_stride')}")
            c.record("V")

    @api
    def vec_trans_scatter(self, dst_high_half, src_high_half, dst_list, src_list, repeat_times,
                          dst_rep_stride, src_rep_stride) -> None:
        """TransDataTo5HD: the 16 blocks src_list's tensors start transposed into the 16
        dst_list's start (their addresses into VA0..VA3 by `set_va`, then `vnchwconv_va`)."""
        self._trans_scatter("vec_trans_scatter", dst_high_half, src_high_half, dst_list,
                            src_list, repeat_times, dst_rep_stride, src_rep_stride)

    @api
    def vnchwconv(self, dst_high_half, src_high_half, dst_list, src_list, repeat_times,
                  dst_rep_stride, src_rep_stride, name=None) -> None:
        """TIK's older name of vec_trans_scatter."""
        self._trans_scatter("vnchwconv", dst_high_half, src_high_half, dst_list, src_list,
                            repeat_times, dst_rep_stride, src_rep_stride)

    def _trans_scatter(self, name, dst_high, src_high, dst_list, src_list, repeat_times,
                       dst_rep, src_rep) -> None:
        with self._call(name) as c:
            lists = {}
            for role, seq in (("dst_list", dst_list), ("src_list", src_list)):
                if not isinstance(seq, (list, tuple)) or len(seq) != 16:
                    raise c.error(f"{role} must be a list of 16 Tensors")
                lists[role] = [c.tensor(v, f"{role}[{k}]", write=role == "dst_list")
                               for k, v in enumerate(seq)]
            t = c.same_type(_tensor(c, dst_list[0], "dst_list[0]"),
                            **{f"src_list[{k}]": v for k, v in enumerate(src_list)},
                            **{f"dst_list[{k}]": v for k, v in enumerate(dst_list)})
            for va, ops in enumerate((lists["dst_list"][:8], lists["dst_list"][8:],
                                      lists["src_list"][:8], lists["src_list"][8:])):
                c.emit(f"set_va va{va}, {', '.join(ops)}")
            if isinstance(repeat_times, int) and not isinstance(repeat_times, bool) \
                    and repeat_times == 0:
                c.record("V")  # repeat_times 0: nothing moves (the page)
                return
            keys = [f"repeat={c.value(repeat_times, 'repeat_times', 0, 255)}",
                    f"stride={c.stride(dst_rep, 'dst_rep_stride', 65535)},"
                    f"{c.stride(src_rep, 'src_rep_stride', 65535)}"]
            if t.size == 1:
                keys += [f"dst_high={int(bool(dst_high))}", f"src_high={int(bool(src_high))}"]
            c.emit(f"vnchwconv_va.{t.name} va0, va2, {', '.join(keys)}")
            c.record("V")

    # -- TIK 2.0: whole tensors --------------------------------------------------------------
    def _h_binary(self, name: str, dst, src0, src1) -> None:
        with self._call(name) as c:
            t = c.same_type(_tensor(c, dst, "dst"), src0=src0,
                            src1=src1 if isinstance(src1, Tensor) else None)
            n = dst.size
            for role, s in (("src0", src0), ("src1", src1)):
                if isinstance(s, Tensor) and s.size != n:
                    raise c.error(f"{role} '{s.name}' has {s.size} elements, dst '{dst.name}' "
                                  f"{n} (TIK 2.0 instructions take tensors of one shape)")
            d, s0 = c.tensor(dst, "dst", write=True), c.tensor(src0, "src0")
            vector, with_scalar = H_BINARY[name]
            if isinstance(src1, Tensor):
                c.emit(f"{vector}.{t.name} {d}, {s0}, {c.tensor(src1, 'src1')}, count={n}")
            elif with_scalar is not None:
                c.emit(f"{with_scalar}.{t.name} {d}, {s0}, {c.immediate(src1, t, 'src1')}, "
                       f"count={n}")
            else:
                c.emit(f"adds.{t.name} {d}, {s0}, {_negated(c, src1, t)}, count={n}")
            c.record("V")

    @api
    def h_cmpv(self, dst, src0, src1, op) -> None:
        with self._call("h_cmpv") as c:
            key = str(op).lower()
            if key not in COMPARE:
                raise c.error(f"op must be one of {', '.join(o.upper() for o in COMPARE)}, "
                              f"got {op!r}")
            t = c.same_type(_tensor(c, src0, "src0"), src1=src1 if isinstance(src1, Tensor)
                            else None)
            n = src0.size
            if (n * t.size) % 256:
                raise c.error(f"compares whole repeats: {n} {src0.dtype} elements are not a "
                              "multiple of 256 bytes")
            d, s0 = c.tensor(dst, "dst", write=True), c.tensor(src0, "src0")
            if isinstance(src1, Tensor):
                c.emit(f"compare.{key}.{t.name} {d}, {s0}, {c.tensor(src1, 'src1')}, count={n}")
            else:
                c.emit(f"compares.{key}.{t.name} {d}, {s0}, {c.immediate(src1, t, 'src1')}, "
                       f"count={n}")
            c.record("V")

    @api
    def h_sel(self, dst, src0, src1, sel) -> None:
        with self._call("h_sel") as c:
            t = c.same_type(_tensor(c, dst, "dst"), src0=src0,
                            src1=src1 if isinstance(src1, Tensor) else None)
            d, s0 = c.tensor(dst, "dst", write=True), c.tensor(src0, "src0")
            s = c.tensor(sel, "sel")
            if isinstance(src1, Tensor):
                c.emit(f"select.{t.name} {d}, {s}, {s0}, {c.tensor(src1, 'src1')}, mode=2, "
                       f"count={dst.size}")
            else:
                c.emit(f"select.{t.name} {d}, {s}, {s0}, {c.immediate(src1, t, 'src1')}, "
                       f"mode=1, count={dst.size}")
            c.record("V")


def _tensor(c: Call, v, role: str) -> Tensor:
    if not isinstance(v, Tensor):
        raise c.error(f"{role} must be a Tensor, got {type(v).__name__}")
    return v


def _negated(c: Call, v, t) -> str:
    """-V as h_sub's added scalar: an immediate when V is known, else a register the scalar
    unit computes (-0.0 - V: the exact negation, signed zeros included)."""
    if isinstance(v, Scalar) and v.value is not None and not c.tik.nested:
        v = v.value
    if isinstance(v, (int, float)):
        return c.immediate(-v, t, "src1")
    if isinstance(v, Expr):
        return c.register((FConst(-0.0) if t.is_float else Const(0)) - v, t, "src1")
    raise c.error("src1 must be a Tensor, a number or a Scalar")


# -- the shapes of the binding rows: a row → its TIK method ------------------------------------
def _strides(c: Call, blk: dict | None = None, **rep) -> str:
    """stride=B,..,R,..: block strides (1 unless BLK gives them), then TIK's repeat strides
    (named as TIK names them, for the diagnostics)."""
    blocks = [str(c.stride(v, k)) for k, v in blk.items()] if blk else ["1"] * len(rep)
    return "stride=" + ",".join(blocks + [str(c.stride(v, k)) for k, v in rep.items()])


def _named(row: Binding, method):
    """ROW's method, its recordings replayed per call site (simulator/tik/memo.py: every
    body below reads its tensors through Call.tensor and records one Op)."""
    method.__name__ = method.__qualname__ = row.name
    return memoised_api(method)


# One body per shape; the vec_* names pass their repeat strides, the older names (vadd,
# vadds, vabs, vconv) their block strides too (BLK): `stride=` is the only difference.
def _binary_body(self, row: Binding, mask, dst, src0, src1, repeat_times, blk: dict | None,
                 rep: dict) -> None:
    with self._call(row.name) as c:
        t, st, head = _binary_types(c, row, dst, src0, src1)
        d = c.tensor(dst, "dst", write=True)
        s0, s1 = c.tensor(src0, "src0"), c.tensor(src1, "src1")
        keys = c.mask_keys(mask, t, 256 // max(t.size, st.size))
        repeat = c.repeat(repeat_times)
        strides = _strides(c, blk, **rep)
        c.emit(f"{row.statement}.{head} {d}, {s0}, {s1}, repeat={repeat}, {strides}, {keys}")
        c.record("V")


def _scalar_body(self, row: Binding, mask, dst, src, scalar, repeat_times, blk: dict | None,
                 rep: dict) -> None:
    with self._call(row.name) as c:
        t, st, head = _scalar_types(c, row, dst, src)
        d, s = c.tensor(dst, "dst", write=True), c.tensor(src, "src")
        value = c.immediate(scalar, st)
        keys = c.mask_keys(mask, t, 256 // max(t.size, st.size))
        repeat = c.repeat(repeat_times)
        strides = _strides(c, blk, **rep)
        c.emit(f"{row.statement}.{head} {d}, {s}, {value}, repeat={repeat}, {strides}, "
               f"{keys}")
        c.record("V")


def _unary_body(self, row: Binding, mask, dst, src, repeat_times, blk: dict | None,
                rep: dict) -> None:
    with self._call(row.name) as c:
        t = c.same_type(_tensor(c, dst, "dst"), src=src)
        d, s = c.tensor(dst, "dst", write=True), c.tensor(src, "src")
        keys = c.mask_keys(mask, t)
        repeat = c.repeat(repeat_times)
        strides = _strides(c, blk, **rep)
        c.emit(f"{row.statement}.{t.name} {d}, {s}, repeat={repeat}, {strides}, {keys}")
        c.record("V")


def _conv_body(self, row: Binding, mask, round_mode, dst, src, repeat_times, blk: dict | None,
               rep: dict, deqscale, ldst_high_half) -> None:
    with self._call(row.name) as c:
        dt, st = _tensor(c, dst, "dst").t, _tensor(c, src, "src").t
        mode = ROUND.get(round_mode) if isinstance(round_mode, str) else None
        if mode is None:
            raise c.error(f"round_mode {round_mode!r} is not one of "
                          f"{', '.join(repr(m) for m in ROUND)}")
        deq = _deq_mode(c, dt, st, deqscale, ldst_high_half)
        d, s = c.tensor(dst, "dst", write=True), c.tensor(src, "src")
        keys = c.mask_keys(mask, dt, 256 // max(dt.size, st.size))
        repeat = c.repeat(repeat_times)
        strides = _strides(c, blk, **rep)
        if deq is not None:  # #27/#29: DEQSCALE, then CastDequant's statement
            c.emit(deq[0])
            c.emit(f"cast_dequant.{dt.name}.{st.name} {d}, {s}, repeat={repeat}, {deq[1]}, "
                   f"{strides}, {keys}")
        else:
            c.emit(f"{row.statement}.{dt.name}.{st.name} {d}, {s}, repeat={repeat}, "
                   f"round={mode}, {strides}, {keys}")
        c.record("V")


DEQSCALE_SIGN = 1 << 46  # DEQSCALE[46]: int8 results (1) or uint8 (0)


def _deq_mode(c, dt, st, deqscale, high) -> tuple[str, str] | None:
    """TIK vconv's dequantising modes (#27/#29), as the TIK vconv page gives them: int32 →
    float16 with a float16 deqscale (an immediate or a Scalar); int16 → int8/uint8 with a
    uint64 deqscale (DEQSCALE's word: scale, offset, sign) or a uint64 tensor of 16 such words
    (the vector mode), ldst_high_half choosing each block's high half. (set_deqscale's
    statement, cast_dequant's keys), or None for a plain conversion."""
    pair = (dt.name, st.name)
    if pair == ("f16", "s32"):
        if deqscale is None:
            raise c.error("vconv int32 → float16 is the deq mode: deqscale must be set "
                          "(a float16 scale)")
        if high:
            raise c.error("ldst_high_half applies to int16 → int8/uint8 only")
        v = c.immediate(deqscale, TYPES["f16"], "deqscale")
        head = f"set_deqscale {v}" if v.startswith("x") else f"set_deq_scale.f16 {v}"
        return head, "vec_deq=0"
    if st.name != "s16" or dt.name not in ("s8", "u8"):
        if deqscale is not None or high:
            raise c.error(f"deqscale and ldst_high_half apply to int32 → float16 and int16 → "
                          f"int8/uint8, not {st.name} → {dt.name}")
        return None
    if deqscale is None:
        raise c.error("vconv int16 → int8/uint8 is the deq mode: deqscale must be set (a "
                      "uint64 word, or a uint64 tensor of 16 words)")
    half = f"half_block={int(bool(high))}"
    if isinstance(deqscale, Tensor):
        if deqscale.dtype != "uint64":
            raise c.error(f"a deqscale tensor is uint64 (16 words), got {deqscale.dtype}")
        return f"set_deqscale {c.tensor(deqscale, 'deqscale')}", f"vec_deq=1, {half}"
    v = c.value(deqscale, "deqscale", 0, (1 << 64) - 1)
    if not v.startswith("x"):
        signed = bool(int(v) & DEQSCALE_SIGN)
        if signed != (dt.name == "s8"):
            raise c.error(f"deqscale[46] bit should be {int(dt.name == 's8')} when converting "
                          f"int16 to {'int8' if dt.name == 's8' else 'uint8'}")
    return f"set_deqscale {v}", f"vec_deq=0, {half}"


def _binary(row: Binding):
    def method(self, mask, dst, src0, src1, repeat_times, dst_rep_stride, src0_rep_stride,
               src1_rep_stride) -> None:
        _binary_body(self, row, mask, dst, src0, src1, repeat_times, None,
                     {"dst_rep_stride": dst_rep_stride, "src0_rep_stride": src0_rep_stride,
                      "src1_rep_stride": src1_rep_stride})
    return _named(row, method)


def _scalar_types(c: Call, row: Binding, dst, src) -> tuple:
    """(dst's type, the scalar's type, the statement's type modifiers): one type, or — where
    the statement's row takes mixed forms (#27: vec_axpy/vaxpy float16 → float32) and src's
    dtype differs — DST.SRC, the chip's pair list checking it when the statement assembles."""
    d = _tensor(c, dst, "dst")
    defn = TABLE.lookup_form(row.statement, True)
    if isinstance(src, Tensor) and src.dtype != d.dtype and defn is not None and defn.src_pairs:
        return d.t, src.t, f"{d.t.name}.{src.t.name}"
    t = c.same_type(d, src=src)
    return t, t, t.name


def _binary_types(c: Call, row: Binding, dst, src0, src1) -> tuple:
    """As _scalar_types for two sources of one dtype (#27: vmla float16 → float32)."""
    d = _tensor(c, dst, "dst")
    defn = TABLE.lookup_form(row.statement, True)
    if isinstance(src0, Tensor) and isinstance(src1, Tensor) and src0.dtype == src1.dtype \
            and src0.dtype != d.dtype and defn is not None and defn.src_pairs:
        return d.t, src0.t, f"{d.t.name}.{src0.t.name}"
    t = c.same_type(d, src0=src0, src1=src1)
    return t, t, t.name


def _scalar(row: Binding):
    def method(self, mask, dst, src, scalar, repeat_times, dst_rep_stride, src_rep_stride,
               mask_mode="normal") -> None:
        _scalar_body(self, row, mask, dst, src, scalar, repeat_times, None,
                     {"dst_rep_stride": dst_rep_stride, "src_rep_stride": src_rep_stride})
    return _named(row, method)


def _unary(row: Binding):
    def method(self, mask, dst, src, repeat_times, dst_rep_stride, src_rep_stride) -> None:
        _unary_body(self, row, mask, dst, src, repeat_times, None,
                    {"dst_rep_stride": dst_rep_stride, "src_rep_stride": src_rep_stride})
    return _named(row, method)


def _conv(row: Binding):
    def method(self, mask, round_mode, dst, src, repeat_times, dst_rep_stride, src_rep_stride,
               deqscale=None, ldst_high_half=False) -> None:
        _conv_body(self, row, mask, round_mode, dst, src, repeat_times, None,
                   {"dst_rep_stride": dst_rep_stride, "src_rep_stride": src_rep_stride},
                   deqscale, ldst_high_half)
    return _named(row, method)


# -- #29: the older names (vadd, vadds, vabs, vconv): block strides, then repeat strides ------
def _binary_blk(row: Binding):
    def method(self, mask, dst, src0, src1, repeat_times, dst_blk_stride, src0_blk_stride,
               src1_blk_stride, dst_rep_stride, src0_rep_stride, src1_rep_stride) -> None:
        _binary_body(self, row, mask, dst, src0, src1, repeat_times,
                     {"dst_blk_stride": dst_blk_stride, "src0_blk_stride": src0_blk_stride,
                      "src1_blk_stride": src1_blk_stride},
                     {"dst_rep_stride": dst_rep_stride, "src0_rep_stride": src0_rep_stride,
                      "src1_rep_stride": src1_rep_stride})
    return _named(row, method)


def _scalar_blk(row: Binding):
    def method(self, mask, dst, src, scalar, repeat_times, dst_blk_stride, src_blk_stride,
               dst_rep_stride, src_rep_stride, stride_unit=0, round_en=False,
               mask_mode="normal") -> None:
        _scalar_body(self, row, mask, dst, src, scalar, repeat_times,
                     {"dst_blk_stride": dst_blk_stride, "src_blk_stride": src_blk_stride},
                     {"dst_rep_stride": dst_rep_stride, "src_rep_stride": src_rep_stride})
    return _named(row, method)


def _unary_blk(row: Binding):
    def method(self, mask, dst, src, repeat_times, dst_blk_stride, src_blk_stride,
               dst_rep_stride, src_rep_stride) -> None:
        _unary_body(self, row, mask, dst, src, repeat_times,
                    {"dst_blk_stride": dst_blk_stride, "src_blk_stride": src_blk_stride},
                    {"dst_rep_stride": dst_rep_stride, "src_rep_stride": src_rep_stride})
    return _named(row, method)


def _conv_blk(row: Binding):
    def method(self, mask, round_mode, dst, src, repeat_times, dst_blk_stride, src_blk_stride,
               dst_rep_stride, src_rep_stride, deqscale=None, ldst_high_half=False) -> None:
        _conv_body(self, row, mask, round_mode, dst, src, repeat_times,
                   {"dst_blk_stride": dst_blk_stride, "src_blk_stride": src_blk_stride},
                   {"dst_rep_stride": dst_rep_stride, "src_rep_stride": src_rep_stride},
                   deqscale, ldst_high_half)
    return _named(row, method)


# TIK's own parameter names for the kinds (vcmax(..., dst_rep_stride=…), vec_reduce_max(…,
# work_tensor=…, cal_index=True)), and the kinds a call may leave out
TIK_NAMES = {"work_tensor": "work", "repeat_times": "repeat", "cal_index": "index",
             "dst_rep_stride": "dst_rep", "src_rep_stride": "src_rep",
             "src_blk_stride": "src_blk"}
DEFAULTS = {"order": 0, "index": 0}


def _from_params(row: Binding):
    """A row's method from its parameter list (bindings.PARAMS): arguments by position or by
    kind (or TIK's name for it), each written into the statement as its kind says (strides as
    NAME=, immediates)."""
    kinds = row.params[0]

    def method(self, *args, **kwargs) -> None:
        with self._call(row.name) as c:
            kwargs = {_kind(k, kinds): v for k, v in kwargs.items()}
            given = {**{k: v for k, v in DEFAULTS.items() if k in kinds},
                     **dict(zip(kinds, args, strict=False))}
            unknown = [k for k in kwargs if k not in kinds or (k in given and k not in DEFAULTS)
                       or kinds.index(k) < len(args)]
            given.update(kwargs)
            missing = [k for k in kinds if k not in given]
            if len(args) > len(kinds) or unknown or missing:
                raise c.error(f"takes ({', '.join(kinds)}); got {len(args)} positional "
                              f"arguments and {', '.join(kwargs) or 'no keywords'}")
            tensors = [k for k in kinds if k in TENSORS]
            t = c.same_type(_tensor(c, given[tensors[0]], tensors[0]),
                            **{k: given[k] for k in tensors[1:]})
            ops = [c.tensor(given[k], k, write=k in ("dst", "work")) for k in tensors]
            if "scalar" in given:
                ops.append(c.immediate(given["scalar"], t))
            keys = []
            for k in kinds:
                v = given[k]
                if k == "mask":
                    keys.append(c.mask_keys(v, t))
                elif k == "repeat":
                    keys.append(f"repeat={c.repeat(v)}")
                elif k == "count":
                    keys.append(f"count={c.value(v, 'count', 0, (1 << 32) - 1)}")
                elif k == "order":  # an immediate, written as its word
                    keys.append(f"order={REDUCE_ORDERS[c.stride(v, 'order') % 4]}")
                elif k in ("repeats", "elements"):  # immediates: the rounds are planned
                    key = "count" if k == "elements" else k
                    keys.append(f"{key}={c.value(v, 'repeat_times', 1, (1 << 31) - 1)}")
                elif k == "index":
                    keys.append(f"index={int(bool(v))}")
                    if v:  # the index walk's two registers: expression scratch (x24..x31)
                        keys.append(f"tmp_a=x{c.low.temp()}, tmp_b=x{c.low.temp()}")
                elif k not in TENSORS and k != "scalar":
                    keys.append(f"{k}={c.stride(v, k)}")
            if row.keys:  # the row's own (vec_reduce_add's runs=1)
                keys.append(row.keys)
            c.emit(f"{row.statement}.{t.name} {', '.join(ops + keys)}")
            c.record("V")
    return _named(row, method)


def _kind(name: str, kinds: tuple[str, ...]) -> str:
    """The parameter kind a keyword argument names (TIK's `repeat_times` is `repeats` in a
    composite reduction's list)."""
    kind = TIK_NAMES.get(name, name)
    return "repeats" if kind == "repeat" and "repeats" in kinds else kind


_SHAPES = {"binary": _binary, "scalar": _scalar, "unary": _unary, "conv": _conv,
           "binary_blk": _binary_blk, "scalar_blk": _scalar_blk, "unary_blk": _unary_blk,
           "conv_blk": _conv_blk}


@functools.cache
def _method(row: Binding):
    """ROW's method (made once per row)."""
    return _from_params(row) if row.params else _SHAPES[row.shape](row)


def _install() -> None:
    """vec_cmpv_OP / vec_cmp_OP for every compare operator, the binary and scalar forms."""
    def cmpv(op):
        def method(self, dst, src0, src1, repeat_times, src0_rep_stride, src1_rep_stride):
            self._cmpv(op, dst, src0, src1, repeat_times, src0_rep_stride, src1_rep_stride)
        method.__name__ = f"vec_cmpv_{op}"
        return memoised_api(method)

    def cmp(op):
        def method(self, mask, src0, src1, src0_stride=1, src1_stride=1):
            return self._cmp(op, mask, src0, src1, src0_stride, src1_stride)
        method.__name__ = f"vec_cmp_{op}"
        return api(method)

    def h_binary(name):
        def method(self, dst, src0, src1):
            self._h_binary(name, dst, src0, src1)
        method.__name__ = name
        return api(method)

    for op in COMPARE:
        setattr(Instructions, f"vec_cmpv_{op}", cmpv(op))
        setattr(Instructions, f"vec_cmp_{op}", cmp(op))
    for name in H_BINARY:
        setattr(Instructions, name, h_binary(name))


_install()
