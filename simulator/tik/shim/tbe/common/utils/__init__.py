"""pipev stand-in for `tbe.common.utils`."""
from tbe.common.utils import para_check  # noqa: F401
