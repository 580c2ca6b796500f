"""pipev stand-in for the operator library's `impl.util.util_tik_comm_func`: the arithmetic
helpers operators take from it (ints, or TIK Scalars and expressions alike)."""


def ceil_div(value, factor):
    """value / factor rounded up."""
    return (value + factor - 1) // factor


def ceil_align(value, factor):
    """value rounded up to a multiple of factor."""
    return ceil_div(value, factor) * factor


def floor_align(value, factor):
    """value rounded down to a multiple of factor."""
    return value // factor * factor
