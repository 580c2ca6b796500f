"""Helpers the CLI tests share."""

from tests.support.quotes import diagnostic_lines, is_quote

__all__ = ["diagnostic_lines", "is_quote"]
