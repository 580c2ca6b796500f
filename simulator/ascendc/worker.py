"""The worker process's entry point: `python -m simulator.ascendc.worker CONFIG_JSON`
(started by `driver.run_worker`; not a user command)."""

from __future__ import annotations

import json
import sys


def main() -> None:
    from simulator.ascendc.driver import run_config

    run_config(json.loads(sys.argv[1]))


if __name__ == "__main__":
    main()
