"""pipev stand-in for `tbe.tvm.topi.cce`: only `tbe.tvm.topi.cce.util`."""
