"""pipev stand-in for `tbe.tvm`: only `tbe.tvm.topi.cce.util`."""
