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


def inputs_hash(root: Path) -> str:
    """A hash of everything under content/ and templates/ (what rendering reads)."""
    h = hashlib.sha256()
    for top in ("content", "templates"):
        base = root / top
        for f in sorted(base.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and not f.name.startswith("."):
                h.update(f.relative_to(root).as_posix().encode())
                h.update(b"\0")
                h.update(read_bytes(f))
                h.update(b"\0")
    return h.hexdigest()[:20]
