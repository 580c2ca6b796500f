"""pipev stand-in for `tbe.tvm.topi`: only `tbe.tvm.topi.cce.util`."""
