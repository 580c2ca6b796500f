"""Sweeps: every variant of a program (tile sizes, buffer counts, block dims, chips) run as
`pipev run` would, on local worker processes or a Dask cluster, cached and resumable.

    result = sweep("kernel.vasm", {"TILE": [1024, 2048, 4096]}, executor="dask://host:8786")
    result.best("cycles"), result.write("results.csv"), result.plot("sweep.png")

Modules: `api` (sweep, SweepResult), `space` (axes, grid/zip), `task` (one variant's run on a
worker), `keys` and `cache` (the row cache), `executors` and `engine` (pools, retries, Ctrl-C),
`params` (.param values), `table`, `plot`, `progress`, `cli`.
"""

__all__ = ["sweep", "SweepResult", "SweepError"]


def __getattr__(name: str):
    if name in __all__:  # on first use: the `pipev` command's start-up does not pay for it
        from simulator.sweep import api

        return getattr(api, name)
    raise AttributeError(f"module 'simulator.sweep' has no attribute {name!r}")
