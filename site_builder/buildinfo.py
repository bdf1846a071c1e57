"""What a build records about itself, and what `check` compares it with.

``BUILD_INFO`` names the file the build writes into dist/ (the inputs hash, the base URL,
the slugs, every file written and, in ``manifest``, each one's sha256, and the source
state it was built from); ``inputs_hash`` hashes what rendering reads. Both the build and
the check import them from here, so that checking a site does not import the command
that builds one. The file is also the marker of a build's output: ``build --out`` writes
only into a folder that holds one (or an empty or new folder).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path
from typing import Any

from site_builder.jsonio import read_bytes

BUILD_INFO = ".build.json"
# each puzzle's README text, one file a language of the site (``<slug>/README.md``, ...)
README_NAMES = {"en": "README.md", "ja": "README.ja.md"}


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


def manifest(files: dict[str, str | bytes]) -> dict[str, str]:
    """dist path -> sha256 of the bytes the build writes there."""
    return {name: hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data
                                 ).hexdigest() for name, data in sorted(files.items())}


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# inherited variables that would point git at another repository than the site's
_GIT_VARS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
             "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES")


def _git(cwd: Path, *args: str) -> str | None:
    env = {k: v for k, v in os.environ.items() if k not in _GIT_VARS}
    env["GIT_OPTIONAL_LOCKS"] = "0"  # a status must not write the index under a build
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True,
                              text=True, check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def input_paths(root: Path, slugs: list[str]) -> list[Path]:
    """What a build's pages are made from: the site's site.toml, content/ and templates/,
    each shown puzzle's package (its templates, static files and the code that wrote its
    content and draws its boards) and site_builder (the theme and the renderer)."""
    from solvers import registry

    paths = [root / "site.toml", root / "content", root / "templates"]
    paths += [Path(registry.get(s).package_dir) for s in slugs]
    paths.append(Path(__file__).resolve().parent)
    return paths


def source_state(root: Path, slugs: list[str]) -> dict[str, Any]:
    """``{"commit": sha or None, "state": "abc1234", "abc1234+dirty" or "unknown",
    "changed": [paths]}``: the git commit the site's folder is at and, when any input
    (``input_paths``) differs from it, the changed and untracked input files, relative
    to the repository's top."""
    top = _git(root, "rev-parse", "--show-toplevel")
    head = _git(root, "rev-parse", "HEAD")
    if top is None or head is None:
        return {"commit": None, "state": "unknown (not a git checkout)", "changed": []}
    top_path = Path(top.strip()).resolve()
    specs = []
    for p in input_paths(root, slugs):
        try:
            specs.append(p.resolve().relative_to(top_path).as_posix() or ".")
        except ValueError:
            continue  # an installed plugin outside the repository: not the repository's
    out = _git(top_path, "status", "--porcelain=v1", "-z", "--untracked-files=all",
               "--no-renames", "--", *specs) if specs else ""
    changed = sorted({entry[3:] for entry in (out or "").split("\0") if len(entry) > 3
                      and "__pycache__/" not in entry})
    short = head.strip()[:12]
    return {"commit": head.strip(), "state": f"{short}+dirty" if changed else short,
            "changed": changed}


def source_line(info: dict[str, Any], most: int = 20) -> str | None:
    """``abc1234+dirty (changed: a, b and 3 more)`` from a build's ``source`` record."""
    src = info.get("source") if isinstance(info, dict) else None
    if not isinstance(src, dict) or not src.get("commit"):
        return None
    changed = [str(c) for c in src.get("changed") or []]
    if not changed:
        return str(src["state"])
    shown = ", ".join(changed[:most])
    more = f" and {len(changed) - most} more" if len(changed) > most else ""
    return f"{src['state']} (changed: {shown}{more})"
