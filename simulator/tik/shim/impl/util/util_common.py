"""pipev stand-in for the operator library's `impl.util.util_common`: the shape questions
operators ask of their tensor descriptions."""


def _descs(value):
    return value if isinstance(value, (list, tuple)) else [value]


def is_unknown_rank_input(value) -> bool:
    """Some description has an unknown rank (shape [-2])."""
    return any(list(d.get("shape", ())) == [-2] for d in _descs(value) if isinstance(d, dict))


def is_unknown(value) -> bool:
    """Some description has an unknown dimension (-1) or rank (-2): a dynamic shape."""
    return any(any(int(s) < 0 for s in d.get("shape", ()))
               for d in _descs(value) if isinstance(d, dict))
