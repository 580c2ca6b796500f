"""pipev stand-in for `te`: `te.tik`, `te.platform`, `te.utils` (simulator/tik/framework.py)."""
