"""pipev stand-in for `tbe.common.platform` (= te.platform)."""
from te.platform import *  # noqa: F403  (one list of names: te.platform's stand-in)

from tbe.common.platform import platform_info  # noqa: E402,F401
