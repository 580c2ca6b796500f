"""#31 (the suite itself): a test whose package is missing fails naming the extra that
installs it, instead of an unrelated assertion or a skip."""

import pytest

from tests.support.extras import require


def test_a_missing_package_names_the_extra():
    with pytest.raises(pytest.fail.Exception, match=r"needs pipev_no_such_module .*pipev's "
                       r"'test' extra installs: pip install -e '\.\[test\]'"):
        require("pipev_no_such_module")
    assert require("numpy").__name__ == "numpy"
