"""`tik_instance.tikdb.start_debug(feed_dict, interactive)`: run the built kernel on pipev and
return its outputs as numpy arrays in BuildCCE's `outputs` order. interactive=True opens pipev's
debugger at the first statement first (the script's own lines); the outputs then come from a
run of the same kernel, which gives the same bytes."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import numpy as np

from simulator.tik.errors import Loc, TikError, api, caller

if TYPE_CHECKING:
    from simulator.result import RunResult
    from simulator.tik.kernel import Kernel as Tik


class Tikdb:
    def __init__(self, tik: Tik):
        self.tik = tik
        self.result: RunResult | None = None  # pipev: the last run (cycles, pipes, stalls)

    @api
    def start_debug(self, feed_dict, interactive=True) -> list[np.ndarray]:
        from simulator.render import render
        from simulator.run import run

        loc = caller()
        tik = self.tik
        if tik.program is None:
            raise TikError.at(loc, "start_debug: call BuildCCE first (it names the inputs and "
                              "outputs)")
        inputs = feed(tik, feed_dict, loc)
        if interactive:
            from simulator.debugger import debug

            debug(tik.program, inputs=inputs, checks=tik.checks,
                  show_source=tik.show_source)
        self.result = run(tik.program, inputs=inputs, checks=tik.checks)
        for d in self.result.diagnostics:
            print(render(d, tik.show_source), file=sys.stderr)
        return [self.result.outputs[t.pname] if t.dynamic else
                self.result.outputs[t.pname].reshape(t.shape) for t in tik.outputs]

    def debug_print(self, *args, **kwargs) -> None:
        """Accepted and ignored: pipev's debugger prints tensors (`print NAME[a:b]`)."""


def feed(tik: Tik, feed_dict, loc: Loc) -> dict[str, np.ndarray]:
    """feed_dict (TIK input name → array) as pipev inputs, checked against the declarations."""
    if not isinstance(feed_dict, dict):
        raise TikError.at(loc, f"start_debug: feed_dict must be a dict, got "
                          f"{type(feed_dict).__name__}")
    by_name = {t.name: t for t in tik.inputs}
    for key in feed_dict:
        if key not in by_name:
            raise TikError.at(loc, f"start_debug: feed_dict key {key!r} is not an input of "
                              f"BuildCCE ({', '.join(by_name) or 'none'})")
    out = {}
    for name, t in by_name.items():
        if name not in feed_dict:
            raise TikError.at(loc, f"start_debug: feed_dict gives no value for input '{name}' "
                              f"({t.dtype}, shape {t.shape})")
        value = np.asarray(feed_dict[name])
        if value.ndim == 0 and t.size * t.t.size <= 32:  # an InputScalar's value, a number
            value = np.zeros(t.size, t.t.npy)
            value[0] = feed_dict[name]
        if value.dtype != t.t.npy and t.t.npy != t.t.numeric and value.dtype == t.t.numeric:
            value = value.view(t.t.npy)  # bfloat16 given as ml_dtypes.bfloat16: its bits
        if t.dynamic and value.dtype == t.t.npy and 0 < value.size <= t.size:
            out[t.pname] = value.reshape(-1)  # bound now: accesses are checked against it
            continue
        if value.dtype != t.t.npy or value.shape != t.shape:
            raise TikError.at(loc, f"start_debug: input '{name}' is {value.dtype} of shape "
                              f"{value.shape}, the Tensor is {t.dtype} of shape {t.shape}")
        out[t.pname] = value
    return out
