"""pipev stand-in for `tbe.common.context`."""
from simulator.tik.framework import get_context, op_context  # noqa: F401
