"""pipev stand-in for `impl.util.platform_adapter`: the framework modules an operator takes
from one place (simulator/tik/framework.py; docs/tik.md)."""
from tbe import tik  # noqa: F401
from tbe.common import context as tbe_context  # noqa: F401
from tbe.common.platform import platform_info  # noqa: F401
from tbe.common.register import (  # noqa: F401
    register_op_compute,
    register_operator,
    register_operator_compute,
)
from te import platform as tbe_platform  # noqa: F401
from te.utils import para_check  # noqa: F401
from te.utils.error_manager import error_manager_vector  # noqa: F401

error_manager_cube = error_manager_vector
