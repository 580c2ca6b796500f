"""pipev stand-in for `te.platform.cce_intrin`."""
from simulator.tik.framework import get_bit_len  # noqa: F401
