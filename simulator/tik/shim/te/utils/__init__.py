"""pipev stand-in for `te.utils`."""
from te.utils import para_check  # noqa: F401
