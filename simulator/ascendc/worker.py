"""The worker process's entry point: `python -m simulator.ascendc.worker CONFIG_JSON`
(started by `driver.run_worker`; not a user command)."""

from __future__ import annotations

import json
import sys


def main() -> None:
    from simulator.ascendc.driver import c_exit, worker_main

    config = json.loads(sys.argv[1])
    try:
        rc = worker_main(config)
    except BaseException as e:  # noqa: BLE001 - one diagnostic line, never a traceback
        print(f"{config.get('source', '?')}:1:1: error: internal error in pipev's worker: "
              f"{type(e).__name__}: {e}", file=sys.stderr)
        rc = 1
    c_exit(rc)


if __name__ == "__main__":
    main()
