"""Before any stage runs: ``content/`` can be written, and no other build runs stages.

``--regenerate`` once failed only after 21 s of work when ``content/`` was read-only, and
two regenerations at once duplicated all the work. ``claim(root, slugs)`` checks, in a
fraction of a second, that each ``content/<slug>/`` whose stages will run takes a new file
(the stages write there by temporary file and rename), then holds an exclusive lock on
``.cache/stages.lock`` of the site until the stages are done: a second build that would
run stages meanwhile stops at once with one line naming the first one's pid. The lock is
the operating system's (``flock``), so a killed build never leaves it held.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from site_builder.errors import UserError

LOCK = Path(".cache") / "stages.lock"


def check_writable(root: Path, slugs: list[str]) -> None:
    """A UserError naming the first ``content/<slug>/`` that cannot take a new file."""
    for slug in slugs:
        folder = root / "content" / slug
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(dir=folder, prefix=".probe-")
            os.close(fd)
            os.unlink(probe)
        except OSError as e:
            raise UserError(f"{folder}: cannot write the stages' JSON there "
                            f"({e.strerror or e}); make it writable (nothing was run or "
                            "written)") from None


@contextlib.contextmanager
def held(root: Path) -> Iterator[None]:
    """The site's stage lock, held for the duration; a UserError at once when another
    process holds it."""
    try:
        import fcntl
    except ImportError:  # no flock on this system: no lock, as before
        yield
        return
    path = root / LOCK
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise UserError(f"{path}: cannot make the stage lock ({e.strerror or e}); the "
                        "site's .cache/ must be writable to run stages") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise UserError(f"{root / 'content'}: another build (pid {other}) is running "
                            "stages for this site; wait for it to finish, then build again "
                            "(nothing was run or written)") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def claim(root: Path, slugs: list[str]) -> Iterator[None]:
    """``check_writable`` for ``slugs``, then ``held``: what a build does before its
    first stage."""
    check_writable(root, slugs)
    with held(root):
        yield
