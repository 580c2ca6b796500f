"""pipev stand-in for `tbe`: only `tbe.tik` (simulator/tik)."""
