"""pipev stand-in for `tbe.common.platform.platform_info`."""
from te.platform import *  # noqa: F403  (one list of names: te.platform's stand-in)
