"""Writing a run's outputs all or nothing (docs/format.md §9.1: a failed run changes nothing the
user had): every output goes to a temporary file beside its target first; only when all are written
are they renamed into place, and a failure while renaming puts back what was there. Files get
the user's umask, like any file a program creates."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np


def _mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_outputs(directory: Path, outputs: dict[str, np.ndarray]) -> dict[str, str]:
    """Write OUTPUTS as DIRECTORY/NAME.npy; return {name: absolute path}. Raises OSError with
    nothing changed and no temporary left behind."""
    directory.mkdir(parents=True, exist_ok=True)
    if not outputs:  # nothing to stage: a run without outputs (and start-up) needs no tempfile
        return {}
    import tempfile

    targets = {name: directory / f"{name}.npy" for name in outputs}
    for path in targets.values():
        if path.is_dir():
            raise IsADirectoryError(21, "Is a directory", str(path))
    staged: list[tuple[str, Path]] = []
    try:
        for name, arr in outputs.items():
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".npy.tmp", dir=directory)
            staged.append((tmp, targets[name]))
            os.fchmod(fd, _mode())
            with os.fdopen(fd, "wb") as f:
                np.save(f, arr, allow_pickle=False)
        _commit(staged)
    except BaseException:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise
    return {name: str(path.resolve()) for name, path in targets.items()}


def _commit(staged: list[tuple[str, Path]]) -> None:
    """Rename every temporary into place; on a failure undo the renames already made."""
    import tempfile

    done: list[tuple[Path, str | None]] = []  # (target, backup of what it held)
    try:
        for tmp, final in staged:
            backup = None
            if final.exists():
                backup = tempfile.mktemp(prefix=f".{final.name}.", suffix=".old",
                                         dir=final.parent)
                os.replace(final, backup)
            done.append((final, backup))
            os.replace(tmp, final)
    except BaseException:
        for final, backup in reversed(done):
            if backup is not None:
                os.replace(backup, final)
            else:
                final.unlink(missing_ok=True)
        raise
    for _, backup in done:
        if backup is not None:
            Path(backup).unlink(missing_ok=True)
