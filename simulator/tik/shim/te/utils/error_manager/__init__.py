"""pipev stand-in for `te.utils.error_manager`."""
from te.utils.error_manager import error_manager_vector  # noqa: F401
