"""Write the C++ headers generated from the binding rows (simulator/bindings.py):
simulator/ascendc/include/pipev/bindings.h and c_api/bindings.h.

    .venv/bin/python scripts/generate_bindings.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.ascendc.bindgen import HEADERS, header  # noqa: E402
from simulator.ascendc.build import INCLUDE_DIR  # noqa: E402


def main() -> None:
    for language, path in HEADERS.items():
        (INCLUDE_DIR / path).write_text(header(language), encoding="utf-8")
        print(f"wrote {INCLUDE_DIR.relative_to(ROOT) / path}")


if __name__ == "__main__":
    main()
