"""A file of the compile cache written whole or not at all."""

from __future__ import annotations

import os
import threading
from pathlib import Path


def write_text_atomically(path: Path, text: str) -> None:
    """PATH holding TEXT: written to a temporary file of this process and thread (a sweep's
    thread pool builds side by side in one process), then renamed over PATH."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
