"""pipev stand-in for `impl.util`."""
