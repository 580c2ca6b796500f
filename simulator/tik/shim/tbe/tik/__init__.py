"""TIK on pipev (simulator.tik): importable only inside processes pipev starts."""
from simulator.tik.api import *  # noqa: F401,F403
from simulator.tik.api import __all__  # noqa: F401
