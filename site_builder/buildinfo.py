"""What a build records about itself, and what `check` compares it with.

``BUILD_INFO`` names the file the build writes into dist/ (the inputs hash, the base URL,
the slugs and every file written); ``inputs_hash`` hashes what rendering reads. Both the
build and the check import them from here, so that checking a site does not import the
command that builds one.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from site_builder.jsonio import read_bytes

BUILD_INFO = ".build.json"


def inputs_hash(root: Path, slugs: list[str]) -> str:
    """A hash of everything rendering reads: the site's content/ and templates/, the
    site's puzzles' templates and static files, the theme."""
    from site_builder.sources import input_dirs
    from solvers import registry

    h = hashlib.sha256()
    dirs = [("content", root / "content"),
            *input_dirs(root, [registry.get(s) for s in slugs])]
    for label, base in dirs:
        for f in sorted(base.rglob("*")) if base.is_dir() else ():
            if f.is_file() and "__pycache__" not in f.parts and not f.name.startswith("."):
                h.update(f"{label}/{f.relative_to(base).as_posix()}".encode())
                h.update(b"\0")
                h.update(read_bytes(f))
                h.update(b"\0")
    return h.hexdigest()[:20]
