"""pipev stand-in for `tbe.common.utils.para_check`."""
from te.utils.para_check import *  # noqa: F403  (one list of names: te's stand-in)
