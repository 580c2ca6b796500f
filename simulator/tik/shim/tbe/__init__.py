"""pipev stand-in for `tbe`: `tbe.tik` and `tbe.common` (simulator/tik/framework.py)."""
