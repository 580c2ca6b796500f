"""Sweeps: every variant of a program (tile sizes, buffer counts, block dims, chips) run as
`pipev run` would, on local worker processes or a Dask cluster, cached and resumable.

    result = sweep("kernel.vasm", {"TILE": [1024, 2048, 4096]}, executor="dask://host:8786")
    result.best("cycles"), result.write("results.csv"), result.plot("sweep.png")

Modules: `space` (axes, grid/zip), `task` (one variant's run on a worker), `keys` and `cache`
(the row cache), `executors` and `engine` (pools, retries, Ctrl-C), `table`, `plot`,
`progress`, `cli`.
"""

from simulator.sweep.sweep import SweepError, SweepResult, sweep

__all__ = ["sweep", "SweepResult", "SweepError"]
