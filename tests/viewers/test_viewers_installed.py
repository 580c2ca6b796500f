"""The viewer tests never skip: a missing tool fails here, saying how to install it."""

from tests.support import viewers


def test_the_trace_viewers_are_installed():
    missing = viewers.missing_tools()
    assert not missing, f"missing {'; '.join(missing)} — install all with: {viewers.INSTALL}"
