"""#29: stand-ins for the op-framework modules a TIK operator file imports around TIK —
`te.platform` / `tbe.common.platform`, `te.utils.para_check`, `tbe.common.register`,
`tbe.common.context`, the error manager and `impl.util.platform_adapter` — written from the
public op-development documentation. The shim packages (simulator/tik/shim/) re-export these
names; docs/tik.md says what each checks and what it passes through. The chip is pipev's
(`--chip`): the platform answers from its profile.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable

from simulator.tik.errors import TikError, caller

# -- te.platform / tbe.common.platform ---------------------------------------------------------
SOC_VERSION, SHORT_SOC_VERSION, FULL_SOC_VERSION = \
    "SOC_VERSION", "SHORT_SOC_VERSION", "FULL_SOC_VERSION"
AICORE_TYPE, CORE_NUM, UB_SIZE = "AICORE_TYPE", "CORE_NUM", "UB_SIZE"
L1_SIZE, L2_SIZE, L0A_SIZE, L0B_SIZE, L0C_SIZE = \
    "L1_SIZE", "L2_SIZE", "L0A_SIZE", "L0B_SIZE", "L0C_SIZE"
ASCEND_310, ASCEND_310P, ASCEND_310B = "Ascend310", "Ascend310P", "Ascend310B"
ASCEND_910, ASCEND_910B, ASCEND_950 = "Ascend910", "Ascend910B", "Ascend950"
# the vector unit's shape (docs/machine.md): 32-byte blocks, 8 a repeat, at most 255 repeats
BLOCK_SIZE = 32
C0_SIZE = 16  # the NC1HWC0 format's C0 (16 elements of a 16-bit type; #29)
VECTOR_INST_BLOCK_WIDTH = 256
VECTOR_INST_BLOCK_NUM = 8
VECTOR_INST_MAX_REPEAT_TIMES = 255
ELEMENTS_VECTOR_OP_FP16 = 128
BLOCK_REDUCE, BLOCK_REDUCE_INT8 = 16, 32
scope_gm, scope_ubuf = "global", "local.UB"
BITS = {"int4": 4, "bool": 8, "int8": 8, "uint8": 8, "int16": 16, "uint16": 16,
        "float16": 16, "bfloat16": 16, "int32": 32, "uint32": 32, "float32": 32, "int64": 64,
        "uint64": 64, "float": 32, "half": 16, "double": 64, "float64": 64}


def _chip():
    from isa.chip import get_chip
    from simulator.tik.tik import SETTINGS

    return get_chip(SETTINGS["chip"])


def soc_version(chip=None) -> str:
    """The vendor's SoC version string of a pipev chip (ascend910b → Ascend910B)."""
    name = (chip or _chip()).name
    return "Ascend" + name[len("ascend"):].upper() if name.startswith("ascend") else name


def get_soc_spec(key: str):
    """The chip profile's answer: SOC_VERSION (and the SHORT_/FULL_ forms), AICORE_TYPE,
    CORE_NUM (the profile's vector cores), UB_SIZE (the UB bytes TIK tensors may take: below
    pipev's API scratch area). L1/L0/L2 are not modelled: asking is an error."""
    chip = _chip()
    answers = {SOC_VERSION: soc_version(chip), SHORT_SOC_VERSION: soc_version(chip),
               FULL_SOC_VERSION: soc_version(chip), AICORE_TYPE: "AiCore",
               CORE_NUM: chip.vector_cores, UB_SIZE: chip.ub_bytes - chip.scratch_bytes}
    if key not in answers:
        raise TikError.at(caller(), f"get_soc_spec({key!r}): pipev models GM and UB only; it "
                          f"answers {', '.join(answers)}")
    return answers[key]


def set_current_compile_soc_info(soc_version: str, core_type: str = "AiCore",
                                 aicore_num=None, l1_fusion=None) -> str:
    """Accepted; the chip is pipev's (`--chip`), not the one named here."""
    return "success"


def api_check_support(api_name: str, dtype: str = "") -> bool:
    """Whether TIK call API_NAME (`tik.vec_adds`, `tik.vadds`) exists on pipev and, with
    DTYPE, whether the chip's vector unit takes that type in arithmetic."""
    from simulator.tik.dtypes import pipev_type
    from simulator.tik.tik import Tik

    name = api_name.rsplit(".", 1)[-1]
    if not callable(getattr(Tik, name, None)):
        from simulator.bindings import ROWS

        if ROWS.find("tik", name) is None:
            return False
    if not dtype:
        return True
    t = pipev_type(dtype)
    return t is not None and t.name in _chip().types.get("arith", ())


def get_block_size() -> int:
    """The bytes of one UB block (the unit of data_move bursts and vector strides): 32."""
    return BLOCK_SIZE


def get_bit_len(dtype: str) -> int:
    """cce_intrin.get_bit_len: a dtype's width in bits."""
    key = str(dtype).lower()
    if key not in BITS:
        raise TikError.at(caller(), f"get_bit_len: unknown dtype {dtype!r}")
    return BITS[key]


# -- te.utils.para_check ---------------------------------------------------------------------
REQUIRED_INPUT, OPTION_INPUT, DYNAMIC_INPUT = "required_input", "option_input", "dynamic_input"
REQUIRED_OUTPUT, OPTION_OUTPUT, DYNAMIC_OUTPUT = \
    "required_output", "option_output", "dynamic_output"
KERNEL_NAME, OP_ERROR_CODE_000 = "kernel_name", "E80000"
_ATTRS = {"INT": (int,), "FLOAT": (int, float), "STR": (str,), "BOOL": (bool,),
          "TYPE": (str,), "LIST_INT": "int", "LIST_FLOAT": "float", "LIST_BOOL": "bool",
          "LIST_LIST_INT": "list"}
for _kind in _ATTRS:
    globals()[f"REQUIRED_ATTR_{_kind}"] = f"required_attr_{_kind.lower()}"
    globals()[f"OPTION_ATTR_{_kind}"] = f"option_attr_{_kind.lower()}"
DIM_LIMIT = (1 << 31) - 1
MAX_RANK = 8
NONE_TYPE = type(None)


def _fails(value, kind: str) -> str | None:
    """Why VALUE does not match parameter kind KIND (None: it does)."""
    if kind == KERNEL_NAME:
        return None if isinstance(value, str) else "must be a str"
    optional = kind.startswith("option")
    if value is None:
        return None if optional or kind.startswith("dynamic") else "is required"
    if kind.endswith(("_input", "_output")):
        items = value if kind.startswith("dynamic") else [value]
        if not isinstance(items, (list, tuple)) or \
                any(not isinstance(v, dict) or "shape" not in v or "dtype" not in v
                    for v in items):
            return "must be a tensor description (a dict with 'shape' and 'dtype')"
        return None
    want = _ATTRS[kind.split("attr_", 1)[1].upper()]
    if isinstance(want, str):  # a list of WANT
        inner = {"int": int, "float": (int, float), "bool": bool, "list": (list, tuple)}[want]
        ok = isinstance(value, (list, tuple)) and all(isinstance(v, inner) for v in value)
        return None if ok else f"must be a list of {want}"
    if bool not in want and isinstance(value, bool):
        return f"must be {' or '.join(w.__name__ for w in want)}"
    return None if isinstance(value, want) else \
        f"must be {' or '.join(w.__name__ for w in want)}"


def check_op_params(*kinds: str) -> Callable:
    """The decorator: each positional parameter of the operator against its kind (inputs and
    outputs are tensor descriptions, attributes their Python type, kernel_name a str)."""
    def decorate(fn: Callable) -> Callable:
        sig = inspect.signature(fn)
        names = list(sig.parameters)

        @functools.wraps(fn)
        def checked(*args, **kwargs):
            try:
                got = sig.bind(*args, **kwargs)
            except TypeError as e:
                raise TikError.at(caller(), f"{fn.__name__}: {e}") from None
            got.apply_defaults()
            bound = got.arguments
            for name, kind in zip(names, kinds, strict=False):
                why = _fails(bound.get(name), kind)
                if why is not None:
                    raise TikError.at(caller(), f"{fn.__name__}: parameter '{name}' ({kind}) "
                                      f"{why}")
            return fn(*args, **kwargs)
        return checked
    return decorate


def check_shape(shape, min_rank: int = 0, max_rank: int = MAX_RANK, min_size: int = 1,
                max_size: int = DIM_LIMIT, param_name: str = "", **kwargs) -> None:
    """Rank in [min_rank, max_rank]; each dim an int, -1 (unknown) or in [1, DIM_LIMIT];
    the element count within [min_size, max_size] when every dim is known."""
    where = f" of {param_name}" if param_name else ""
    dims = list(shape) if isinstance(shape, (list, tuple)) else None
    if dims is None or not min_rank <= len(dims) <= max_rank:
        raise TikError.at(caller(), f"check_shape: shape{where} {shape!r} must be a list of "
                          f"{min_rank}..{max_rank} dims")
    size = 1
    for d in dims:
        if not isinstance(d, int) or isinstance(d, bool) or not (d == -1 or 1 <= d <= DIM_LIMIT):
            raise TikError.at(caller(), f"check_shape: dim {d!r} of shape{where} {shape!r} "
                              "must be -1 or in [1, 2^31-1]")
        size *= d
    if -1 not in dims and not min_size <= size <= max_size:
        raise TikError.at(caller(), f"check_shape: shape{where} {shape!r} has {size} elements, "
                          f"outside [{min_size}, {max_size}]")


def check_dtype(dtype, check_list, param_name: str = "") -> None:
    if isinstance(check_list, str):  # `("int32")` is a str: operators pass one dtype so
        check_list = [check_list]
    if str(dtype).lower() not in [str(c).lower() for c in check_list]:
        where = f" of {param_name}" if param_name else ""
        raise TikError.at(caller(), f"check_dtype: dtype{where} {dtype!r} is not one of "
                          f"{', '.join(map(str, check_list))}")


def check_format(data_format, check_list=None, param_name: str = "") -> None:
    if check_list is not None and data_format not in check_list:
        raise TikError.at(caller(), f"check_format: format {data_format!r} of {param_name} is "
                          f"not one of {', '.join(map(str, check_list))}")


KERNEL_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,199}\Z")


def check_kernel_name(kernel_name: str, param_name: str = "kernel_name") -> None:
    if not isinstance(kernel_name, str) or not KERNEL_NAME_RE.match(kernel_name):
        raise TikError.at(caller(), f"check_kernel_name: {kernel_name!r} must be a name of "
                          "letters, digits and underscores (at most 200)")


def check_elewise_shape_range(*args, **kwargs) -> None:
    """Passes: pipev binds dynamic shapes at run time and checks accesses there."""


def check_dtype_rule(dtype, check_list, param_name: str = "") -> None:
    check_dtype(dtype, check_list, param_name)


def check_shape_rule(shape, min_dim: int = 0, max_dim: int = MAX_RANK,
                     max_shape_num: int = DIM_LIMIT, **kwargs) -> None:
    check_shape(shape, min_rank=min_dim, max_rank=max_dim, max_size=max_shape_num)


# -- topi.cce.util (older operators: the product version and the same checks) ------------------
VERSION_CLOUD, VERSION_MINI, VERSION_SHISI = "cloud", "mini", "shisi"


def get_product_version() -> str:
    """"mini" on the inference chips (ascend310*), else "cloud"."""
    return VERSION_MINI if _chip().name.startswith("ascend310") else VERSION_CLOUD


def check_shape_size(shape, limit: int = DIM_LIMIT) -> int:
    size = 1
    for d in shape:
        size *= int(d)
    if size > limit:
        raise TikError.at(caller(), f"check_shape_size: shape {tuple(shape)!r} has {size} "
                          f"elements, more than {limit}")
    return size


check_tensor_shape_size = check_shape_size


# -- tbe.common.register / tbe_context / error manager ---------------------------------------
def register_operator(op_type: str, *args, **kwargs) -> Callable:
    """Registration decorators: the operator function as it is (pipev has no op registry)."""
    def decorate(fn: Callable) -> Callable:
        return fn
    return decorate


register_op_compute = register_param_generalization = register_pass_for_fusion = \
    register_operator_compute = register_operator


class OpContext:
    """tbe_context.get_context(): the compile info a dynamic-shape operator records for its
    tiling (kept, never read by pipev) and the op's mode."""

    def __init__(self) -> None:
        self.compile_info: dict = {}

    def add_compile_info(self, key, value) -> None:
        self.compile_info[key] = value

    def get_compile_info(self) -> dict:
        return self.compile_info

    def get_op_mode(self) -> str:
        return "dynamic"

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None


_CONTEXT = OpContext()


def get_context() -> OpContext:
    return _CONTEXT


def op_context(*args, **kwargs) -> OpContext:
    return _CONTEXT


def raise_err_message(*args, **kwargs):
    """error_manager: each raise_err_* stops the script with its arguments as the message,
    at the operator's line."""
    text = ", ".join([str(a) for a in args] + [f"{k}={v}" for k, v in kwargs.items()])
    raise TikError.at(caller(), f"operator error: {text}")


def __getattr__(name: str):
    if name.startswith("raise_err"):  # raise_err_input_value_invalid, raise_err_specific...
        return raise_err_message
    raise AttributeError(name)
