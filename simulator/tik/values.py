"""The objects a TIK script holds: Scalars, Tensors (and views into them), CMPMASK handles."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from isa.types import DType
from simulator.tik.dtypes import pipev_type
from simulator.tik.errors import Loc, TikError, caller
from simulator.tik.expr import (
    Const,
    Expr,
    FBinOp,
    LowerError,
    Lowering,
    RegisterRef,
    as_expr,
)
from simulator.tik.nodes import Op

# a value's TIK is a simulator/tik/kernel.py Kernel, untyped here: kernel imports the memo,
# which imports these values, and a typed import back would close a circle
Tik = Any


class Scalar(RegisterRef):
    """`tik_instance.Scalar(dtype, name, init_value)`: a register of the scalar unit (a float
    Scalar's holds its type's bits). While its value is known when the kernel is built, vector
    instructions take it as an immediate; otherwise they read the register."""

    def __init__(self, tik: Tik, dtype: str, t: DType, name: str, loc: Loc):
        self.tik, self.dtype, self.t, self.name, self.loc = tik, dtype, t, name, loc
        self.reg = tik.registers.take(loc, name, t=t)
        self.ftype = None if t.is_int else t  # a float Scalar: its register holds T's bits
        self.life = tik.life  # the scope it was made in (a for_range's: its variable)
        self.value: float | int | None = None  # the constant a float Scalar holds
        self.assigned_in_scope = False  # set_as inside for_range / if_scope

    def constant(self) -> None:
        if not self.t.is_int:
            raise LowerError(f"float Scalar '{self.name}' where the scalar unit needs an "
                             "integer (an index, a count, an integer Scalar): use scalar_conv")
        return None

    def set_as(self, value, src_offset=None) -> None:
        set_scalar(self, value, caller(), src_offset)

    def __repr__(self) -> str:
        return f"Scalar({self.dtype!r}, name={self.name!r})"


class InputScalar(Scalar):
    """`tik_instance.InputScalar(dtype, name)`: a Scalar loaded from the one-element GM input
    SOURCE (tik.py makes it)."""

    def __init__(self, tik: Tik, dtype: str, t: DType, name: str, loc: Loc, source: Tensor):
        super().__init__(tik, dtype, t, name, loc)
        self.source = source


class CmpMask:
    """The CMPMASK register after vec_cmp_* / mov_tensor_to_cmpmask, as vec_sel's `sel`."""

    def __init__(self, loc: Loc):
        self.loc = loc


class ViewKind:
    """What every int-indexed view of one tensor shares besides its offset (a Python loop's
    `t[i * 128]`): their root buffer, dtype and shape, one object for all of them (hashed by
    identity: a key of the call memo, simulator/tik/memo.py)."""

    __slots__ = ("root", "dtype", "shape")

    def __init__(self, root: Tensor, dtype: str, shape: tuple[int, ...]):
        self.root, self.dtype, self.shape = root, dtype, shape


class Tensor:
    """A TIK Tensor, or a view of one (`t[i]`, `t[a:]`): a root buffer and an element offset."""

    def __init__(self, tik: Tik, dtype: str, t: DType, shape: tuple[int, ...], name: str,
                 scope: str, pname: str, loc: Loc, root: Tensor | None = None,
                 offset: Expr | None = None):
        self.tik, self.dtype, self.t, self.shape = tik, dtype, t, shape
        self.name, self.scope, self.pname, self.loc = name, scope, pname, loc
        self.root = root if root is not None else self
        self.offset: Expr = offset if offset is not None else Const(0)
        self.addr = 0  # UB byte address of a root tensor
        self.alias_of: Tensor | None = None  # reinterpret_cast_to: the tensor it views
        self.dynamic = False  # a GM tensor at a maximum shape, bound at run time (tik.py)
        self.life = tik.life if root is None else root.life  # the scope it was made in
        self._strides: list[int] | None = None  # elements per step of each index (made once)
        self.kind: ViewKind | None = None  # an int-indexed view's (_view_class)
        self._flat: Tensor | None = None  # SELF's elements as one dimension (made once)
        # a root's: its int-indexed views' classes, by their shape (_view_class)
        self._views: dict[tuple[int, ...], type] | None = {} if root is None else None
        self._child: type | None = None  # a 1-D tensor's: its int-indexed views' class

    @property
    def buffer(self) -> str:
        """The storage this view reads and writes (what the synchronisation tracks)."""
        root = self.root
        return (root.alias_of or root).pname

    @property
    def size(self) -> int:
        return math.prod(self.shape) if self.shape else 1

    @property
    def is_ub(self) -> bool:
        return self.root.scope == "ubuf"

    def __getitem__(self, index) -> Tensor:
        cls = self._child
        if cls is not None and index.__class__ is int and index >= 0:
            # one Python int into a 1-D tensor at a known offset (a Python loop's `t[i * 128]`,
            # its class found below before): the sum the expression below folds to, a view
            # of the class's fields and this offset (making views was a third of such a call)
            view = cls()
            view.at = self.offset.value + index
            return view
        return self._view(index)

    def _view(self, index) -> Tensor:
        """SELF[INDEX], the view made in full (or its class found first: `__getitem__`; a
        method of its own, so that its comprehensions' cells are not made for every view)."""
        if not isinstance(index, tuple) and len(self.shape) > 1:
            # TIK's __getitem__: one index (an immediate, Scalar, Expr or slice) into a
            # multi-dimensional tensor indexes its elements flat, the result 1-D (the flat
            # view made once: its int-indexed views share their fields and kind)
            flat = self._flat
            if flat is None:
                flat = self._flat = Tensor(self.tik, self.dtype, self.t, (self.size,),
                                           self.name, self.scope, self.pname, self.loc,
                                           self.root, self.offset)
            return flat[index]
        offset: Expr = self.offset
        if index.__class__ is int and index >= 0 and offset.__class__ is Const and self.shape:
            # one Python int into a 1-D tensor (more dimensions went flat above) at a known
            # offset: its views' class, shared by every 1-D view of the root of its shape
            views = self.root._views
            cls = views.get(self.shape)
            if cls is None:
                cls = views[self.shape] = self._view_class()
            self._child = cls
            return self[index]
        index = index if isinstance(index, tuple) else (index,)
        if len(index) > max(len(self.shape), 1):
            raise self.tik.error(f"too many indices for tensor '{self.name}' of shape "
                                 f"{self.shape}")
        strides = self._strides
        if strides is None:
            strides = self._strides = [math.prod(self.shape[k + 1:])
                                       for k in range(len(self.shape))] or [1]
        if offset.__class__ is Const and all(ix.__class__ is int and ix >= 0 for ix in index):
            # Python ints at a known offset: the sum the expression below folds to
            at = offset.value + sum(ix * strides[k] for k, ix in enumerate(index))
            return Tensor(self.tik, self.dtype, self.t, tuple(self.shape[len(index):]), self.name,
                          self.scope, self.pname, self.loc, self.root, Const(at))
        shape: list[int] = list(self.shape[len(index):])
        for k, ix in enumerate(index):
            if isinstance(ix, slice):
                if ix.step not in (None, 1):
                    raise self.tik.error("tensor slices take no step")
                start = ix.start if ix.start is not None else 0
                stop = ix.stop if ix.stop is not None else self.shape[k]
                offset = offset + as_expr(start) * strides[k]
                n = _length(start, stop)
                shape = ([n] if n is not None else []) + list(self.shape[k + 1:])
            else:
                if isinstance(ix, int) and ix < 0 and self.shape:  # an immediate from the end
                    ix += self.shape[k]
                offset = offset + as_expr(ix) * strides[k]
        view = Tensor(self.tik, self.dtype, self.t, tuple(shape), self.name, self.scope,
                      self.pname, self.loc, self.root, _fold(offset))
        return view

    def _view_class(self) -> type:
        """The class of SELF's int-indexed views: a Tensor whose class attributes are the
        fields `Tensor(..., self.root, offset)` sets that all of them share (a view's own
        field is its offset). They are the same for every view of the root of SELF's shape
        (name, scope, life: the root's), so made once for those: their `kind` is one object
        for all of them (their root, dtype and shape: the call memo's key,
        simulator/tik/memo.py)."""
        shape = self.shape[1:]
        fields = Tensor(self.tik, self.dtype, self.t, shape, self.name, self.scope,
                        self.pname, self.loc, self.root, Const(0)).__dict__
        fields["kind"] = ViewKind(self.root, self.dtype, shape)
        fields["__slots__"] = ("at",)  # a view's one field: its offset, an int
        fields["__init__"] = object.__init__  # (made by calling the class: no Python call)
        fields["offset"] = property(_view_offset, doc="The offset as every Tensor has it.")
        fields["__qualname__"] = Tensor.__qualname__
        fields["__module__"] = Tensor.__module__
        return type(Tensor.__name__, (Tensor,), fields)

    def __iter__(self):
        raise self.tik.error(f"Tensor '{self.name}' is not iterable (index it: t[i])")

    def __setitem__(self, index, value) -> None:
        """`tensor[i] = value`: the same store as `tensor[i].set_as(value)`."""
        store_element(self[index], value, 0, caller())

    def set_as(self, value, dst_offset=0, src_offset=None) -> None:
        """`tensor[i].set_as(value)`: the scalar unit stores VALUE (a Scalar, a number or an
        expression) into the element (`st.T`)."""
        store_element(self, value, dst_offset, caller())

    def reinterpret_cast_to(self, dtype: str) -> Tensor:
        return reinterpret(self, dtype)

    def reshape(self, shape) -> Tensor:
        shape = tuple(int(s) for s in shape)
        if math.prod(shape) != self.size:
            raise self.tik.error(f"reshape of '{self.name}' to {shape}: {self.size} elements "
                                 f"cannot have shape {shape}")
        return Tensor(self.tik, self.dtype, self.t, shape, self.name, self.scope, self.pname,
                      self.loc, self.root, self.offset)

    def __repr__(self) -> str:
        return f"Tensor({self.dtype!r}, {self.shape}, name={self.name!r}, scope={self.scope!r})"



def _view_offset(view: Tensor) -> Const:
    """An int-indexed view's offset, the Const its `at` is (made when read: the call memo
    and the views' own making read `at`)."""
    return Const(view.at)


def _length(start, stop) -> int | None:
    a, b = as_expr(start).constant(), as_expr(stop).constant()
    return b - a if a is not None and b is not None else None


def _fold(e: Expr) -> Expr:
    c = e.constant()
    return Const(c) if c is not None else e


def reinterpret(tensor: Tensor, dtype: str) -> Tensor:
    """`tensor.reinterpret_cast_to(dtype)`: a view of TENSOR's UB bytes as DTYPE, its root a
    second pipev tensor at the same address (made once per root and type)."""
    loc = caller()
    tik = tensor.tik
    t = pipev_type(dtype)
    if t is None:
        raise TikError.at(loc, f"reinterpret_cast_to: unknown dtype {dtype!r}")
    root = tensor.root
    root = root.alias_of or root  # a view of a view: of the buffer itself
    if root.scope != "ubuf" and t.size == root.t.size:
        # the same bytes, element for element: a view of the buffer
        return Tensor(tik, dtype, t, tensor.shape, root.name, root.scope, root.pname, loc,
                      root, tensor.offset * tensor.root.t.size // root.t.size
                      if tensor.root is not root else tensor.offset)
    nbytes = root.size * root.t.size
    if nbytes % t.size:
        raise TikError.at(loc, f"reinterpret_cast_to: {nbytes} bytes are not whole {dtype}")
    key = f"{root.pname}_as_{t.name}"
    view_root = tik.tensors.get(key)
    if view_root is None:
        view_root = Tensor(tik, dtype, t, (nbytes // t.size,), root.name, root.scope, key, loc)
        view_root.addr = root.addr
        view_root.alias_of = root
        view_root.life = root.life
        view_root.dynamic = root.dynamic  # a GM tensor's: bound as the root is
        tik.tensors[key] = view_root
    offset = tensor.offset * tensor.root.t.size
    c = offset.constant()
    if c is not None and c % t.size:
        raise TikError.at(loc, "reinterpret_cast_to: the view does not start at a whole "
                          f"{dtype} element")
    return Tensor(tik, dtype, t, _cast_shape(tensor, t, dtype, loc), root.name, root.scope,
                  key, loc, view_root, offset // t.size)


def _cast_shape(tensor: Tensor, t, dtype: str, loc: Loc) -> tuple[int, ...]:
    """TIK's reinterpret_cast_to shape: the last dimension scaled by old bits / new bits, which
    must leave a whole number (TIK: "Last dimension can't be divided")."""
    shape = tensor.shape or (1,)
    last = shape[-1] * tensor.t.size
    if last % t.size:
        raise TikError.at(loc, f"reinterpret_cast_to: the last dimension of '{tensor.name}' "
                          f"({shape[-1]} {tensor.dtype}, {last} bytes) is not a whole number "
                          f"of {dtype} (TIK: the last dimension can't be divided)")
    return (*shape[:-1], last // t.size)


def set_scalar(s: Scalar, value, loc: Loc | None = None, src_offset=None) -> None:
    """`s.set_as(value)` (and a Scalar's init_value): the scalar unit computes the register —
    an integer or float expression, or a load of a UB tensor element (`ld.T`)."""
    loc = loc or caller()
    nested = s.tik.nested
    what = f"Scalar '{s.name}'.set_as"
    s.tik.alive(s, loc, what)
    if isinstance(value, Scalar):
        s.tik.alive(value, loc, what)
    if isinstance(value, Tensor):
        _load_element(s, value, src_offset, loc)
        return
    lines: list[str] = []
    low = Lowering(lines, list(range(24, 32)))
    try:
        if isinstance(value, (bool, np.bool_)):
            value = int(value)
        e = as_expr(value)
        if s.t.is_int:
            low.into(s.reg, e)
            const = e.constant()
        else:
            if s.t.name == "f16" and isinstance(e, FBinOp):
                raise LowerError("an Expr cannot be assigned to a float16 Scalar (TIK: on "
                                 "every product); compute in float32 and scalar_conv")
            low.float_into(s.reg, e, s.t)
            const = _number(value)
    except LowerError as err:
        raise TikError.at(loc, f"{what}: {err}") from None
    s.value = const if const is not None and not nested and not s.assigned_in_scope else None
    s.assigned_in_scope |= nested
    s.tik.record(Op(loc, "set_as", lines, None, frozenset(), frozenset()))


def _number(value) -> float | None:
    """A float Scalar's value when it is a number known now."""
    if isinstance(value, Scalar):
        return value.value if value.ftype is not None and value.value is not None and \
            not isinstance(value.value, int) else None
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return float(value)
    return None


def _element(tensor: Tensor, offset, loc: Loc, what: str) -> str:
    """A UB tensor element as a `.vasm` operand, `name[I]` / `name[xN+I]`; its offset's scalar
    work goes first (returned in LINES by the caller's Lowering)."""
    if tensor.root.scope != "ubuf" and not tensor.tik.chip.scalar_gm:
        raise TikError.at(loc, f"{what}: tensor '{tensor.name}' is in scope_gm; the scalar unit "
                          f"of {tensor.tik.chip.name} loads and stores UB elements only "
                          "(data_move the data to UB first)")
    tensor.tik.alive(tensor.root.alias_of or tensor.root, loc, what)
    return ""


def _access(tensor: Tensor, offset, low: Lowering) -> str:
    e = tensor.offset if offset in (None, 0) else tensor.offset + as_expr(offset)
    reg, k = low.affine(e)
    if reg is None:
        return f"{tensor.pname}[{k}]"
    return f"{tensor.pname}[x{reg}{k:+d}]" if k else f"{tensor.pname}[x{reg}]"


def _load_element(s: Scalar, tensor: Tensor, offset, loc: Loc) -> None:
    what = f"Scalar '{s.name}'.set_as"
    _element(tensor, offset, loc, what)
    if s.t.is_int != tensor.t.is_int or (not s.t.is_int and s.t.name != tensor.t.name):
        raise TikError.at(loc, f"{what}: Scalar {s.dtype} from a {tensor.dtype} element (TIK: "
                          "the same dtype; use scalar_conv between int and float)")
    lines: list[str] = []
    try:
        elem = _access(tensor, offset, Lowering(lines, list(range(24, 32))))
    except LowerError as err:
        raise TikError.at(loc, f"{what}: {err}") from None
    lines.append(f"ld.{tensor.t.name} x{s.reg}, {elem}")
    s.value = None
    s.assigned_in_scope |= s.tik.nested
    s.tik.record(Op(loc, "set_as", lines, "S", frozenset({tensor.buffer}), frozenset()))


def store_element(tensor: Tensor, value, offset, loc: Loc) -> None:
    what = f"Tensor '{tensor.name}'.set_as"
    _element(tensor, offset, loc, what)
    if isinstance(value, Scalar):
        tensor.tik.alive(value, loc, what)
    lines: list[str] = []
    low = Lowering(lines, list(range(24, 32)))
    try:
        reg, reads = _stored(tensor, value, low, loc, what)
        elem = _access(tensor, offset, low)
    except LowerError as err:
        raise TikError.at(loc, f"{what}: {err}") from None
    lines.append(f"st.{tensor.t.name} x{reg}, {elem}")
    tensor.tik.record(Op(loc, "set_as", lines, "S", reads, frozenset({tensor.buffer})))


def _stored(tensor: Tensor, value, low: Lowering, loc: Loc, what: str
            ) -> tuple[int, frozenset[str]]:
    """The register holding what `tensor[i].set_as(value)` stores, and the buffers read for
    it: a Scalar of the tensor's kind as it is, a Tensor's first element loaded (TIK: a
    one-element tensor; an integer one of any width, a float one of the same dtype), anything
    else computed into a scratch register."""
    t = tensor.t
    if isinstance(value, Tensor):
        _element(value, None, loc, what)
        # integer elements of another width go through the register as a Scalar would (GetShape
        # stores int64 shape words into int32: the low bytes); floats must match (TIK's page)
        if value.t.name != t.name and not (value.t.is_int and t.is_int):
            raise LowerError(f"the element is {value.dtype}, the tensor {tensor.dtype} (TIK: "
                             "the same dtype)")
        reg = low.temp()
        low.lines.append(f"ld.{value.t.name} x{reg}, {_access(value, None, low)}")
        return reg, frozenset({value.buffer})
    e = as_expr(int(value) if isinstance(value, (bool, np.bool_)) else value)
    if isinstance(e, RegisterRef) and (e.ftype is None) == t.is_int and \
            (t.is_int or e.ftype.name == t.name):
        if e.life is not None and e.life.ended:
            raise LowerError(e.life.outside(e.name))
        return e.reg, frozenset()
    reg = low.temp()
    if t.is_int:
        low.into(reg, e)
    else:
        low.float_into(reg, e, t)
    return reg, frozenset()
