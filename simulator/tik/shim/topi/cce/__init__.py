"""pipev stand-in for `topi.cce`: only `util`."""
