"""pipev stand-in: every raise_err_* stops the script at the operator's line."""
from simulator.tik.framework import raise_err_message  # noqa: F401


def __getattr__(name):
    if name.startswith("raise_err"):
        return raise_err_message
    raise AttributeError(name)
