"""pipev stand-in for `te`: only `te.tik` (simulator/tik)."""
