"""pipev stand-in for `tbe.tvm.topi.cce.util`: the product version and the parameter checks."""
from simulator.tik.framework import (  # noqa: F401
    VERSION_CLOUD,
    VERSION_MINI,
    VERSION_SHISI,
    check_dtype_rule,
    check_kernel_name,
    check_shape_rule,
    check_shape_size,
    check_tensor_shape_size,
    get_product_version,
)
