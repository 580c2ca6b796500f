"""One headless Chromium (fresh profile) for every viewer test."""

import pytest

from tests.support import viewers


@pytest.fixture(scope="session")
def chromium_context(tmp_path_factory):
    assert not viewers.missing_tools(), (
        f"the viewer tests need {'; '.join(viewers.missing_tools())} ({viewers.INSTALL})")
    with viewers.browser(tmp_path_factory.mktemp("chromium")) as context:
        yield context
