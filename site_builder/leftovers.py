"""Temporary folders named for the process that made them, so that the next run can tell
a killed run's leftovers (its process is gone) from a run still under way.

A folder made by ``temp_name(prefix)`` is ``<prefix><pid>-<random>``; ``clean(parent,
prefix)`` removes every such folder in ``parent`` whose process no longer runs and that
belongs to this user. ``kill -9`` cannot be caught, so this is what removes what such a
run left; every other exit path removes its own folder in a ``finally``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another user's counts as alive)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner_pid(name: str, prefix: str) -> int | None:
    """The pid in a leftover's name ``<prefix><pid>`` or ``<prefix><pid>-...``, else None."""
    if not name.startswith(prefix):
        return None
    digits = name[len(prefix):].split("-", 1)[0]
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) < 10 else None


def clean(parent: Path, prefix: str) -> list[Path]:
    """Remove the leftovers named ``<prefix><pid>...`` in ``parent`` whose process is
    gone (only this user's, never through a link). Returns what was removed."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    uid = os.getuid() if hasattr(os, "getuid") else None
    for e in entries:
        pid = owner_pid(e.name, prefix)
        if pid is None or pid == os.getpid() or alive(pid):
            continue
        try:
            st = e.stat(follow_symlinks=False)
        except OSError:
            continue
        if uid is not None and st.st_uid != uid:
            continue
        p = Path(e.path)
        if e.is_dir(follow_symlinks=False):
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
        removed.append(p)
    return removed


def make_temp(prefix: str, parent: Path | None = None) -> Path:
    """A new folder ``<prefix><pid>-<random>`` in ``parent`` (default: the system's
    temporary folder), after removing killed runs' leftovers of the same prefix there."""
    where = Path(parent) if parent is not None else Path(tempfile.gettempdir())
    clean(where, prefix)
    return Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=where))
