"""pipev stand-in for the older operators' `topi`: only `topi.cce.util`."""
