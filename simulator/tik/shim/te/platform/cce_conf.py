"""pipev stand-in for `te.platform.cce_conf`."""
from te.platform import *  # noqa: F403  (one list of names: te.platform's stand-in)
