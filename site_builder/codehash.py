"""``Puzzle.code_hash()``, the same value, without parsing every solver module each build.

``solvers.common.Puzzle.code_hash`` (the definition, left as it is: that code is itself
hashed) walks the package's modules, follows their imports of shared ``solvers/*.py``
modules through ``ast``, and hashes each file's code text (``code_text``: parsed,
docstrings dropped, unparsed). Proving every stage current that way re-read and re-parsed
every solver module on every build. Here the same walk runs on cached facts
(``site_builder/filecache.py``): each file's content hash comes from its stat, the
imports it names are kept beside that hash, and the final code hash is kept under the
list of (file, content hash) it was made from. Only a file whose bytes changed is parsed,
and the code hash is computed by ``code_text`` exactly as the puzzle computes it.
``tests/test_codehash.py`` holds the two equal for every puzzle.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path
from typing import Any

from site_builder.filecache import FileCache, for_site

_MEMO: dict[tuple[str, str], str] = {}  # (site, puzzle) -> hash, for one build's plan


def _solver_names(data: bytes) -> list[str]:
    """The ``X`` of every ``solvers.X...`` a module imports (as ``shared_imports`` reads
    imports: ``import a.b`` and absolute ``from a import b``, anywhere in the file)."""
    out: set[str] = set()
    for n in ast.walk(ast.parse(data)):
        names: list[str] = []
        if isinstance(n, ast.Import):
            names = [a.name for a in n.names]
        elif isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
            names = [n.module] + [f"{n.module}.{a.name}" for a in n.names]
        for name in names:
            parts = name.split(".")
            if len(parts) >= 2 and parts[0] == "solvers":
                out.add(parts[1])
    return sorted(out)


def _imports(cache: FileCache, path: Path) -> tuple[str, list[str]]:
    got = cache.read(path)
    if got is None:
        raise FileNotFoundError(path)
    sha, data = got
    names = cache.get("imports", sha)
    if names is None:
        names = _solver_names(data)
        cache.put("imports", sha, names)
    return sha, list(names)


def files_of(puzzle: Any, cache: FileCache) -> list[tuple[Path, str]]:
    """(file, content sha) in the order ``Puzzle.code_hash`` hashes them."""
    from solvers import common

    here = Path(common.__file__).parent
    shared = {p.stem: p for p in here.glob("*.py")
              if p.name not in ("registry.py", "__init__.py", *common.VIEW_SHARED)}
    own = sorted(p for p in Path(puzzle.package_dir).rglob("*.py")
                 if p.stem not in common.VIEW_ROLES)
    shas: dict[Path, str] = {}
    found: set[str] = set()
    todo = list(own)
    while todo:
        f = todo.pop()
        sha, names = _imports(cache, f)
        shas[f] = sha
        for name in names:
            if name in shared and name not in found:
                found.add(name)
                todo.append(shared[name])
    files = own + [shared[m] for m in sorted(found)]
    return [(f, shas[f]) for f in files]


def code_hash(puzzle: Any, root: Path | None = None, cache: FileCache | None = None) -> str:
    """Exactly ``puzzle.code_hash()``, from the cache when no source file changed."""
    from solvers import common

    cache = cache or (for_site(root) if root is not None else FileCache(None))
    files = files_of(puzzle, cache)
    combo = hashlib.sha256("\0".join(f"{f}\0{sha}" for f, sha in files).encode()).hexdigest()
    value = cache.get("codehash", combo)
    if value is None:
        h = hashlib.sha256()
        for f, _ in files:
            h.update(f.name.encode())
            h.update(common.code_text(f).encode())
        value = h.hexdigest()[:16]
        cache.put("codehash", combo, value)
    return str(value)


def cached_code_hash(root: Path, puzzle: Any) -> str:
    """``code_hash`` memoised for this process until ``forget`` (one plan asks for each
    puzzle's hash once per stage)."""
    key = (str(root), puzzle.slug)
    if key not in _MEMO:
        _MEMO[key] = code_hash(puzzle, root)
    return _MEMO[key]


def forget() -> None:
    """Drop the in-process memo: the next plan looks at the files' stats again."""
    _MEMO.clear()
