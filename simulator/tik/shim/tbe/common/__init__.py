"""pipev stand-in for `tbe.common`."""
