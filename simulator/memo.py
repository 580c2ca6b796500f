"""Values computed once per combination of objects, found by the objects' identity.

The executor shares one decoding (operands tuple, active row) and one column map among all
statements with identical text, so observers can compute what depends only on those once and
look it up by `id`. An entry holds the objects themselves, so no other object can take their
ids while the entry lives; past `limit` entries the memo starts afresh. Values are never None.
"""

from __future__ import annotations

from typing import Any


class IdentityMemo:
    """Keys are built by the caller from `id(obj)` of each object in HOLDS (plus plain values):
    cheaper on hot paths than hashing the objects, and safe because the entry holds them."""

    def __init__(self, limit: int = 1 << 16):
        self.limit = limit
        self._entries: dict[tuple, tuple[tuple, Any]] = {}

    def get(self, key: tuple) -> Any:
        """The value stored under KEY, or None. An id in a live key always names the object its
        entry holds, so the key alone decides."""
        hit = self._entries.get(key)
        return None if hit is None else hit[1]

    def put(self, key: tuple, value: Any, holds: tuple) -> Any:
        """Store VALUE under KEY, holding the objects whose ids KEY contains."""
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[key] = (holds, value)
        return value
