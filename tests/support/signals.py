"""Child processes as a terminal starts them, for tests that press Ctrl-C."""

from __future__ import annotations

import signal


def ctrl_c_live() -> None:
    """preexec_fn: SIGINT at its default action in the child. A test run launched from a
    background job (`cmd &` in a non-interactive shell) inherits SIGINT ignored, and Python
    then installs no KeyboardInterrupt: the child would sit through the test's Ctrl-C, which a
    person at a terminal never sees."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
