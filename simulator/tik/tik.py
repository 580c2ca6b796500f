"""`tik.Tik()`: the container a TIK script records its kernel in.

Data definitions (Tensor, Scalar), program control (for_range, if_scope, else_scope,
new_stmt_scope) and BuildCCE, which turns the recorded tree into an `isa.Program`
(simulator/tik/build.py); the instructions are in simulator/tik/instructions.py.
"""

from __future__ import annotations

import functools
import inspect
import math
import os
import re
from contextlib import contextmanager

from isa.assembler import MAX_BLOCK_DIM
from isa.chip import Chip, ChipError, get_chip
from simulator.tik import regalloc, runtime_ub
from simulator.tik.debug import Tikdb
from simulator.tik.dtypes import known, pipev_type
from simulator.tik.errors import Loc, TikError, api, caller
from simulator.tik.expr import Expr, LowerError, Lowering, as_expr
from simulator.tik.instructions import Instructions
from simulator.tik.jumps import SerialLoop, guard_body, jump_lines
from simulator.tik.kernel import Kernel
from simulator.tik.nodes import Block, If, Loop, Op
from simulator.tik.pad import PadMoves
from simulator.tik.precise import Precise
from simulator.tik.values import InputScalar, Scalar, Tensor, set_scalar

SCOPES = {"global": "gm", "local.UB": "ubuf"}
SCOPE_GM, SCOPE_UB = "global", "local.UB"
STATIC_ELEMENTS = 1 << 26  # more elements in a GM tensor: a dynamic shape, bound at run time
MAX_GM_ELEMENTS = (1 << 63) - 1  # a GM tensor's maximum shape (TIK's dynamic operators declare
# 2^31-1 or 2^63-1 elements: the runtime binds the real size)
SCOPE_NAMES = {"gm": "scope_gm", "ubuf": "scope_ubuf"}
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
REGISTER_NAME = re.compile(r"x([0-9]|[12][0-9]|3[01])\Z")

# how pipev's commands run the script: --chip, --checks and --no-source reach the Tik
# containers here; "isa": the instruction set (an isa.table.Table: pipev's own when None) the
# kernel's statements are assembled with, and so run with
SETTINGS = {"chip": os.environ.get("PIPEV_CHIP") or None,
            "checks": os.environ.get("PIPEV_CHECKS") or "error",
            "show_source": not os.environ.get("PIPEV_NO_SOURCE"), "isa": None}
BUILT: list[Tik] = []  # every container whose BuildCCE ran, in order (`pipev run` takes one)


def scope(generator):
    """A `with` scope of the TIK API whose generator takes the call's position: taken when
    `tik_instance.for_range(...)` is called, its column is the call's (when `with` enters it,
    the position is the statement's, column 1). What is made inside lives as long as it."""
    manager = contextmanager(generator)

    @contextmanager
    def entered(self, loc, args, kwargs):
        with self.living(generator.__name__, loc), self.freeing(), \
                manager(self, loc, *args, **kwargs) as v:
            yield v

    signature = inspect.signature(generator)

    @functools.wraps(generator)
    def call(self, *args, **kwargs):
        loc = caller()
        try:  # a wrong arity is a diagnostic at the call, as for the @api methods
            signature.bind(self, loc, *args, **kwargs)
        except TypeError as e:
            raise TikError.at(loc, f"{generator.__name__}(): {e}") from None
        return entered(self, loc, args, kwargs)

    return call


class Tik(Kernel, Instructions, Precise, PadMoves):
    def __init__(self, *args, **kwargs):
        loc = caller()
        try:
            chip: Chip = get_chip(SETTINGS["chip"])
        except ChipError as e:
            raise TikError.at(loc, str(e)) from None
        super().__init__(loc, chip, SETTINGS["checks"], SETTINGS["show_source"],
                         SETTINGS.get("isa"))
        self.tikdb = Tikdb(self)

    # -- data definition ---------------------------------------------------------------------
    @api
    def Tensor(self, dtype, shape, scope=None, name="", enable_buffer_reuse=False,
               no_reuse_list=None, reuse_list=None, is_workspace=False, is_atomic_add=False,
               **kwargs) -> Tensor:
        loc = caller()
        t = pipev_type(dtype)
        if t is None:
            raise TikError.at(loc, f"Tensor: unknown dtype {dtype!r} (TIK dtypes: {known()})")
        space = SCOPES.get(scope)
        if space is None:
            raise TikError.at(loc, f"Tensor '{name}': scope {scope!r} is not supported by "
                              "pipev (tik.scope_gm or tik.scope_ubuf)")
        if space == "ubuf" and runtime_ub.is_runtime(shape):  # placed when the kernel runs
            pname = self._name(str(name or "tensor"))
            view = runtime_ub.declare(self, loc, dtype, t, shape, str(name or pname), pname)
            if self.scopes:
                self.scopes[-1][0].append(view.root)
            return view
        shape = _shape(loc, shape, space == "gm")
        pname = self._name(str(name or "tensor"))
        tensor = Tensor(self, dtype, t, shape, str(name or pname), space, pname, loc)
        # a GM tensor declared at a maximum shape (a dynamic-shape operator's): bound to
        # what is supplied at run time, its backing zeroed pages the OS gives when touched
        tensor.dynamic = space == "gm" and math.prod(shape) > STATIC_ELEMENTS
        if space == "ubuf":
            self._place(tensor)
        self.tensors[pname] = tensor
        if self.scopes:
            self.scopes[-1][0].append(tensor)
        return tensor

    def _name(self, name: str) -> str:
        base = name if NAME_RE.match(name) else re.sub(r"\W", "_", name) or "tensor"
        if base[0].isdigit() or REGISTER_NAME.match(base) or base.startswith("__tik"):
            base = "t_" + base
        pname, k = base, 2
        while pname in self.tensors:
            pname, k = f"{base}_{k}", k + 1
        return pname

    def _place(self, tensor: Tensor) -> None:
        """The lowest 32-byte aligned free UB range below the API scratch area."""
        size = tensor.size * tensor.t.size
        limit = self.chip.ub_bytes - self.chip.scratch_bytes
        addr = 0
        for a, b, _ in sorted(self.ub, key=lambda u: u[0]):
            if addr + size <= a:
                break
            addr = max(addr, (b + 31) // 32 * 32)
        if addr + size > limit:
            raise TikError.at(tensor.loc, f"Tensor '{tensor.name}' ({size} bytes) does not fit "
                              f"in UB: {limit} bytes on {self.chip.name} below the scratch area")
        tensor.addr = addr
        self.ub.append((addr, addr + size, tensor))
        self.placed.append((addr, addr + size, tensor.pname))

    @api
    def Scalar(self, dtype="int64", name="reg_buf", init_value=None) -> Scalar:
        loc = caller()
        t = pipev_type(dtype)
        if t is None:
            raise TikError.at(loc, f"Scalar: unknown dtype {dtype!r} (TIK dtypes: {known()})")
        s = Scalar(self, dtype, t, str(name), loc)
        if self.scopes:
            self.scopes[-1][1].append(s)
        if init_value is not None:
            set_scalar(s, init_value, loc)
        return s

    @api
    def scalar_conv(self, round_mode, dst, src) -> None:
        """dst = src converted by the scalar unit (int32 ↔ float16/float32, float32 ↔
        float16) in TIK's round mode ('' / 'none', 'round', 'floor', 'ceil', 'away-zero',
        'to-zero')."""
        from simulator.tik.instructions import ROUND

        loc = caller()
        mode = ROUND.get(round_mode) if isinstance(round_mode, str) else None
        if mode is None:
            raise TikError.at(loc, f"scalar_conv: round_mode {round_mode!r} is not one of "
                              f"{', '.join(repr(m) for m in ROUND)}")
        for role, v in (("dst", dst), ("src", src)):
            if not isinstance(v, Scalar):
                raise TikError.at(loc, f"scalar_conv: {role} must be a Scalar")
            self.alive(v, loc, "scalar_conv")
        d, t = dst.t, src.t
        if d.is_int and t.is_int:
            line = f"mov x{dst.reg}, x{src.reg}"
        elif d.is_float and t.is_int:
            line = f"itof.{d.name} x{dst.reg}, x{src.reg}, round={mode}"
        elif d.is_int and t.is_float:
            line = f"ftoi.{t.name} x{dst.reg}, x{src.reg}, round={mode}"
        elif d.size != t.size:
            line = f"ftof.{d.name} x{dst.reg}, x{src.reg}, round={mode}"
        else:
            line = f"mov x{dst.reg}, x{src.reg}"
        dst.value = None
        dst.assigned_in_scope |= self.nested
        self.record(Op(loc, "scalar_conv", [line]))

    # TIK's scalar instructions: (mnemonic for integer Scalars, for float ones), the operands
    SCALAR_OPS = {"scalar_abs": ("sabs", "fabs", 1), "scalar_sqrt": (None, "fsqrt", 1),
                  "scalar_max": ("smax", "fmax", 2), "scalar_min": ("smin", "fmin", 2),
                  "scalar_countbit1": ("popcnt", None, 1),
                  "scalar_countleading0": ("clz", None, 1)}

    def _scalar_op(self, what: str, dst, *srcs) -> None:
        loc = caller()
        int_op, float_op, _ = self.SCALAR_OPS.get(what, ("popcnt", None, 1))
        if not isinstance(dst, Scalar):
            raise TikError.at(loc, f"{what}: dst must be a Scalar")
        self.alive(dst, loc, what)
        op = float_op if dst.ftype is not None else int_op
        if op is None:
            kind = "float" if dst.ftype is not None else "integer"
            raise TikError.at(loc, f"{what}: not for {kind} Scalars ({dst.dtype})")
        lines: list[str] = []
        low = Lowering(lines, list(range(24, 32)))
        regs = []
        try:
            for v in srcs:
                e = as_expr(v)
                if isinstance(v, Scalar) and (v.ftype is None) == (dst.ftype is None) and \
                        (v.ftype is None or v.ftype.name == dst.ftype.name):
                    self.alive(v, loc, what)
                    regs.append(v.reg)
                    continue
                r = low.temp()
                if dst.ftype is None:
                    low.into(r, e)
                else:
                    low.float_into(r, e, dst.t)
                regs.append(r)
        except LowerError as err:
            raise TikError.at(loc, f"{what}: {err}") from None
        typed = f".{dst.t.name}" if dst.ftype is not None else ""
        ops = ", ".join(f"x{r}" for r in regs)
        lines.append(f"{op}{typed} x{dst.reg}, {ops}")
        if what == "scalar_countbit0":  # the zero bits: 64 - the one bits
            try:
                t = low.temp()
            except LowerError as err:
                raise TikError.at(loc, f"{what}: {err}") from None
            lines += [f"li x{t}, 64", f"sub x{dst.reg}, x{t}, x{dst.reg}"]
        dst.value = None
        dst.assigned_in_scope |= self.nested
        self.record(Op(loc, what, lines))

    @api
    def scalar_abs(self, dst, src) -> None:
        self._scalar_op("scalar_abs", dst, src)

    @api
    def scalar_sqrt(self, dst, src) -> None:
        self._scalar_op("scalar_sqrt", dst, src)

    @api
    def scalar_max(self, dst, src0, src1) -> None:
        self._scalar_op("scalar_max", dst, src0, src1)

    @api
    def scalar_min(self, dst, src0, src1) -> None:
        self._scalar_op("scalar_min", dst, src0, src1)

    @api
    def scalar_countbit1(self, dst, src) -> None:
        self._scalar_op("scalar_countbit1", dst, src)

    @api
    def scalar_countbit0(self, dst, src) -> None:
        self._scalar_op("scalar_countbit0", dst, src)

    @api
    def scalar_countleading0(self, dst, src) -> None:
        self._scalar_op("scalar_countleading0", dst, src)

    @api
    def InputScalar(self, dtype="int64", name="input_scalar") -> InputScalar:
        """A Scalar the launch gives (an operator's runtime attribute): its value is the one
        element of a hidden GM input named NAME (feed_dict[NAME], `--input NAME=F.npy`),
        moved to UB and loaded into the register where it is declared."""
        loc = caller()
        if self.nested:
            raise TikError.at(loc, "InputScalar inside for_range / if_scope (declare it at the "
                              "top of the kernel)")
        t = pipev_type(dtype)
        if t is None:
            raise TikError.at(loc, f"InputScalar: unknown dtype {dtype!r} (TIK dtypes: "
                              f"{known()})")
        if self.chip.scalar_gm:  # the scalar unit loads it from GM
            source = self.Tensor(dtype, (1,), scope=SCOPE_GM, name=str(name))
            s = InputScalar(self, dtype, t, str(name), loc, source)
            set_scalar(s, source[0], loc)
            return s
        # else through UB: a one-block input (its first element the value), moved and loaded
        source = self.Tensor(dtype, (32 // t.size,), scope=SCOPE_GM, name=str(name))
        slot = self.Tensor(dtype, (32 // t.size,), scope=SCOPE_UB, name=f"{name}_ub")
        s = InputScalar(self, dtype, t, str(name), loc, source)
        self.data_move(slot, source, 0, 1, 1, 0, 0)
        set_scalar(s, slot[0], loc)
        return s

    # -- program control ---------------------------------------------------------------------
    @scope
    def for_range(self, loc, begint, endt, name="i", thread_num=1, thread_type="whole",
                  block_num=1, dtype="int32", for_type="serial", **kwargs):
        runtime = _runtime_blocks(block_num, endt)
        cores = self.chip.vector_cores if runtime else _block_num(loc, block_num)
        var = Scalar(self, "int32", pipev_type("int32"), str(name), loc)
        if runtime or cores > 1:
            self.loops.append(None)
            try:
                with (self._runtime_blocks(loc, var, begint, block_num) if runtime else
                      self._blocks(loc, var, begint, endt, cores)):
                    yield var
            finally:
                self.loops.pop()
            return
        label = self._label()
        head: list[str] = []
        held = [var.reg]
        try:
            low = Lowering(head, list(range(24, 32)))
            low.into(var.reg, as_expr(begint))
            end = as_expr(endt)
            bound = end.constant()
            if bound is None:
                held.append(self.registers.take(loc, f"{name} bound"))
                low.into(held[-1], end)
                bound = f"x{held[-1]}"
        except LowerError as e:
            raise TikError.at(loc, f"for_range: {e}") from None
        _loop_range(loc, as_expr(begint).constant(), bound)
        head.append(f"bge x{var.reg}, {bound}, {label}_end")
        tail = [f"add x{var.reg}, x{var.reg}, 1", f"blt x{var.reg}, {bound}, {label}_body"]
        node = Loop(loc, Op(loc, "for_range", head), Block(), Op(loc, "for_range", tail), label)
        self.record(node)
        self.stack.append(node.body)
        loop = SerialLoop(loc, var.reg, bound, self.registers.clock)
        self.loops.append(loop)
        try:
            yield var
        finally:
            self.loops.pop()
            self.stack.pop()
            if loop.guard is not None:  # a tik_break / tik_continue in it
                guard_body(loop, node.body, self._label)
                held.append(loop.guard)
            for reg in held:
                self.registers.give_back(reg)

    @api
    def tik_break(self) -> None:
        """Leave the innermost for_range (simulator/tik/jumps.py: structured, not a jump)."""
        self._leave("break")

    @api
    def tik_continue(self) -> None:
        """The innermost for_range's next iteration (simulator/tik/jumps.py)."""
        self._leave("continue")

    def _leave(self, kind: str) -> None:
        loc = caller()
        what = f"tik_{kind}"
        if not self.loops:
            raise TikError.at(loc, f"{what}() is only allowed inside a for_range")
        loop = self.loops[-1]
        if loop is None:
            raise TikError.at(loc, f"{what}() directly in a block_num loop (TIK allows it in "
                              "the loops inside one, not in the multi-core loop itself)")
        if loop.guard is None:
            # set at the body's top: alive over the whole body, so it shares a register
            # with nothing the body uses before the jump (simulator/tik/regalloc.py)
            loop.guard = self.registers.take(loc, "tik_break/tik_continue guard", loop.start)
        op = Op(loc, what, jump_lines(loop, kind))
        loop.jumps.add(id(op))
        self.record(op)

    @contextmanager
    def _blocks(self, loc, var, begint, endt, block_num: int):
        """for_range(0, N, block_num=N): a launch of N cores, the loop variable each core's
        block_idx (docs/cores.md); the body is recorded once, as the code every core runs. Inside
        serial loops (TIK binds the variable to the block index wherever the loop is) every core
        runs the enclosing code too, its own block_idx in the body."""
        if self.block_dim > 1:
            raise TikError.at(loc, "for_range: block_num on a second loop (pipev launches the "
                              "kernel once, on one loop's block_num cores)")
        if as_expr(begint).constant() != 0 or as_expr(endt).constant() != block_num:
            raise TikError.at(loc, f"for_range: a multi-core loop runs 0..block_num "
                              f"(for_range(0, {block_num}, block_num={block_num}))")
        self.block_dim = block_num
        self.record(Op(loc, "for_range", [f"mov x{var.reg}, block_idx"]))
        self.stack.append(self.stack[-1])  # the body is the enclosing code's, not a loop's
        try:
            yield
        finally:
            self.stack.pop()
            self.registers.give_back(var.reg)

    @contextmanager
    def _runtime_blocks(self, loc, var, begint, block_num):
        """for_range(0, n, block_num=n) with n a Scalar (a dynamic-shape operator's core count,
        read from its tiling): a launch of the chip's vector cores (the most n can be, TIK's
        CORE_NUM), each core whose block_idx is n or more skipping the body."""
        if self.block_dim > 1:
            raise TikError.at(loc, "for_range: block_num on a second loop (pipev launches the "
                              "kernel once, on one loop's block_num cores)")
        if as_expr(begint).constant() != 0:
            raise TikError.at(loc, "for_range: a multi-core loop runs 0..block_num")
        self.block_dim = self.chip.vector_cores
        label = self._label()
        head = [f"mov x{var.reg}, block_idx"]
        try:
            bound = Lowering(head, list(range(24, 32))).value(as_expr(block_num))
        except LowerError as e:
            raise TikError.at(loc, f"for_range: {e}") from None
        head.append(f"bge x{var.reg}, {bound}, {label}_else")
        node = If(loc, Op(loc, "for_range", head), Block(), label)
        self.record(node)
        self.stack.append(node.then)
        try:
            yield
        finally:
            self.stack.pop()
            self.registers.give_back(var.reg)

    @scope
    def if_scope(self, loc, cond):
        with self._branch(loc, cond):
            yield

    @contextmanager
    def _branch(self, loc, cond):
        label = self._label()
        head: list[str] = []
        try:
            Lowering(head, list(range(24, 32))).branch_unless(cond, f"{label}_else",
                                                              f"{label}_then")
        except LowerError as e:
            raise TikError.at(loc, f"if_scope: {e}") from None
        node = If(loc, Op(loc, "if_scope", head), Block(), label)
        self.record(node)
        self.stack.append(node.then)
        try:
            yield
        finally:
            self.stack.pop()

    @scope
    def elif_scope(self, loc, cond):
        """`else` holding one `if`: a following elif_scope / else_scope continues the chain."""
        last = self._open_if(loc, "elif_scope")
        last.orelse, last.else_loc, last.chained = Block(), loc, True
        self.stack.append(last.orelse)
        try:
            with self._branch(loc, cond):
                yield
        finally:
            self.stack.pop()

    @scope
    def else_scope(self, loc):
        last = self._open_if(loc, "else_scope")
        last.orelse, last.else_loc = Block(), loc
        self.stack.append(last.orelse)
        try:
            yield
        finally:
            self.stack.pop()

    def _open_if(self, loc: Loc, what: str) -> If:
        """The if_scope (or the last elif_scope of its chain) an else part attaches to."""
        nodes = self.stack[-1].nodes
        last = nodes[-1] if nodes else None
        while isinstance(last, If) and last.chained:
            last = last.orelse.nodes[-1]
        if not isinstance(last, If) or last.orelse is not None:
            raise TikError.at(loc, f"{what} must follow an if_scope or elif_scope directly")
        return last

    @scope
    def new_stmt_scope(self, loc, disable_sync=False):
        yield

    @contextmanager
    def freeing(self):
        """A `with` scope's UB tensors and Scalars are freed at its end (TIK: what a scope
        makes lives as long as it): its UB is placed again, its registers taken again."""
        self.scopes.append(([], []))
        try:
            yield
        finally:
            tensors, scalars = self.scopes.pop()
            self.ub = [u for u in self.ub if u[2] not in tensors]
            for s in scalars:
                self.registers.give_back(s.reg)

    # -- building ----------------------------------------------------------------------------
    def _spill_area(self, loc: Loc, slots: int) -> None:
        """The UB the Scalars beyond x1..x23 live in (simulator/tik/regalloc.py): SLOTS int64
        words above every fixed-size tensor the kernel ever places (it is alive throughout)."""
        if not slots:
            return
        t = pipev_type("int64")
        area = Tensor(self, "int64", t, (slots,), regalloc.SPILL, "ubuf", regalloc.SPILL, loc)
        fixed = [b for _, b, _ in self.placed]
        area.addr = (max(fixed, default=0) + 31) // 32 * 32
        limit = self.chip.ub_bytes - self.chip.scratch_bytes
        if area.addr + slots * 8 > limit:
            raise TikError.at(loc, f"BuildCCE: the {slots} Scalars that do not fit in x1..x23 "
                              f"need {slots * 8} bytes of UB above the kernel's tensors; "
                              f"{limit - area.addr} are left on {self.chip.name}")
        self.tensors[regalloc.SPILL] = area
        self.placed.append((area.addr, area.addr + slots * 8, regalloc.SPILL))

    @api
    def BuildCCE(self, kernel_name, inputs, outputs, output_files_path=None,
                 enable_l2=False, config=None, flowtable=None, **kwargs) -> None:
        from simulator.tik.build import build

        loc = caller()
        if len(self.stack) > 1:
            raise TikError.at(loc, "BuildCCE inside for_range / if_scope")
        # flowtable: the tiling tensors of a dynamic-shape operator, inputs after `inputs`;
        # an InputScalar is the GM element it is loaded from; one Tensor stands for a list
        inputs = [i.source if isinstance(i, InputScalar) else i
                  for i in _listed(inputs) + _listed(flowtable or [])]
        outputs = _listed(outputs)
        for role, group in (("inputs", inputs), ("outputs", outputs)):
            for t in group:
                if not isinstance(t, Tensor) or t.root.scope != "gm" or t.root is not t:
                    raise TikError.at(loc, f"BuildCCE {role}: every entry must be a whole "
                                      f"scope_gm Tensor, got {t!r}")
                self.alive(t, loc, "BuildCCE")
        self.kernel_name = str(kernel_name)
        self.inputs, self.outputs = list(inputs), list(outputs)
        self.build_loc = loc
        self._spill_area(loc, regalloc.allocate(self))
        runtime_ub.finish(self)
        self.program = build(self)
        self.memo.close()
        BUILT.append(self)


def _listed(group) -> list:
    """BuildCCE's inputs/outputs: a list or tuple, or one Tensor (`outputs=(out_gm)`)."""
    return [group] if isinstance(group, (Tensor, InputScalar)) else list(group)


def _loop_range(loc: Loc, start: int | None, end: int | str) -> None:
    """TIK's for_range takes 0 <= begint <= endt (the bounds known when the kernel is built
    are checked; a backwards range is a mistake, not a loop that runs zero times)."""
    end = end if isinstance(end, int) else None
    if (start is not None and start < 0) or (end is not None and end < 0) or \
            (start is not None and end is not None and start > end):
        got = f"{start if start is not None else 'begint'}, {end if end is not None else 'endt'}"
        raise TikError.at(loc, f"for_range({got}): the bounds must satisfy "
                          "0 <= begint <= endt")


def _runtime_blocks(block_num, endt) -> bool:
    """block_num a Scalar or expression known only at run time, the loop's own bound."""
    if not isinstance(block_num, Expr):
        return False
    try:
        known = block_num.constant() is not None
    except LowerError:
        return False
    return not known and endt is block_num


def _block_num(loc: Loc, block_num) -> int:
    """for_range's block_num: the cores a launch runs, 1..65535 as for `.block_dim` (a
    launch's blockDim is a 16-bit count)."""
    try:
        n = as_expr(block_num).constant()
    except LowerError:
        n = None
    if n is None:
        raise TikError.at(loc, f"for_range: block_num must be an int known when the kernel is "
                          f"built, got {block_num!r}")
    if not 1 <= n <= MAX_BLOCK_DIM:
        raise TikError.at(loc, f"for_range: block_num {n} is out of range "
                          f"(1..{MAX_BLOCK_DIM} cores)")
    return n


def _known_dim(d) -> bool:
    try:
        return as_expr(d).constant() is not None
    except (TypeError, LowerError):
        return True  # not an expression at all: the check below words it


def _shape(loc: Loc, shape, gm: bool = False) -> tuple[int, ...]:
    if isinstance(shape, int):
        shape = (shape,)
    if isinstance(shape, (list, tuple)) and shape and not _known_dim(shape[0]) and \
            all(_known_dim(d) for d in shape[1:]):
        # an outermost dimension known only when the kernel runs (an InputScalar, a Scalar
        # read from the tiling): a GM tensor at its largest shape, bound at run time
        if not gm:
            raise TikError.at(loc, f"Tensor: shape {shape!r} has a dimension known only when "
                              "the kernel runs; a scope_ubuf tensor is placed when it is "
                              "declared (give its largest shape)")
        inner = _shape(loc, tuple(shape[1:]), gm) if len(shape) > 1 else ()
        return ((2 ** 31 - 1) // max(1, math.prod(inner)), *inner)
    try:
        dims = tuple(int(as_expr(d).constant()) for d in shape)
    except (TypeError, LowerError):
        raise TikError.at(loc, f"Tensor: shape must be a tuple of ints, got {shape!r}") \
            from None
    if not dims or any(d < 1 for d in dims):
        raise TikError.at(loc, f"Tensor: shape {shape!r} must have positive dimensions")
    if math.prod(dims) > (MAX_GM_ELEMENTS if gm else STATIC_ELEMENTS):
        raise TikError.at(loc, f"Tensor: shape {shape!r} is too large")
    return dims
