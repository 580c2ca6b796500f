"""pipev stand-in for the operator library's `impl` package: only `impl.util.platform_adapter`."""
