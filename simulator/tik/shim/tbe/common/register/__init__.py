"""pipev stand-in for `tbe.common.register`: decorators that return the function."""
from simulator.tik.framework import (  # noqa: F401
    register_op_compute,
    register_operator,
    register_operator_compute,
    register_param_generalization,
    register_pass_for_fusion,
)
