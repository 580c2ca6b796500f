"""pipev stand-in for the older `te.utils.op_utils` (= para_check)."""
from te.utils.para_check import *  # noqa: F403  (one list of names: te's stand-in)
