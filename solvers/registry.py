"""The puzzles installed, found through the entry-point group ``build_site.puzzles``.

A puzzle is a Python package that declares, in its ``pyproject.toml``::

    [project.entry-points."build_site.puzzles"]
    my-slug = "my_package:PUZZLE"

where ``PUZZLE`` is a ``solvers.common.Puzzle`` whose ``slug`` is the entry's name. This
repository registers its own puzzles the same way. Nothing here names a puzzle: the list
is what the installed distributions declare.

Looking a puzzle up loads that one package alone (``build-site solve`` starts fast); a
plugin that cannot be loaded (an import error, no ``PUZZLE``, a slug that is not its
entry's name, two distributions claiming one slug) is a ``PuzzleError`` naming it, and
``problems()`` lists every such plugin so that the others still build.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from solvers.common import Puzzle, PuzzleError

GROUP = "build_site.puzzles"


class Entry:
    """One declared puzzle: its slug, the object reference, the distribution declaring it."""

    __slots__ = ("dist", "slug", "value", "version")

    def __init__(self, slug: str, value: str, dist: str, version: str) -> None:
        self.slug, self.value, self.dist, self.version = slug, value, dist, version

    @property
    def package(self) -> str:
        return self.value.partition(":")[0]


def _declared() -> list[Entry]:
    """Every (slug, reference) declared in the group by a distribution on ``sys.path``.

    Read from each ``*.dist-info`` (or ``*.egg-info``) folder's ``entry_points.txt``
    directly rather than through ``importlib.metadata``, which imports zipfile, email and
    hashlib: a `build-site solve` process starts in tens of milliseconds (issue 24). The
    distribution's name and version come from the folder's name, as the wheel and
    packaging specifications write it (``name-version.dist-info``)."""
    import os
    import sys

    rows: list[Entry] = []
    seen: set[tuple[str, str]] = set()
    for base in sys.path:
        try:
            names = os.listdir(base or ".")
        except OSError:
            continue
        for name in sorted(names):
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(base or ".", name, "entry_points.txt"),
                          encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                continue
            if f"[{GROUP}]" not in text:
                continue
            stem = name.rsplit(".", 1)[0]
            dist, _, version = stem.partition("-")
            version = version.partition("-")[0] or "?"
            dist = _name(os.path.join(base or ".", name)) or dist
            group = ""
            for line in text.splitlines():
                line = line.strip()
                if line.startswith("[") and line.endswith("]"):
                    group = line[1:-1].strip()
                elif group == GROUP and "=" in line and not line.startswith(("#", ";")):
                    slug, _, value = (x.strip() for x in line.partition("="))
                    if (dist, slug) not in seen:  # one distribution found twice on the path
                        seen.add((dist, slug))
                        rows.append(Entry(slug, value, dist, version))
    return rows


def _name(info: str) -> str | None:
    """The project name as its metadata spells it (``Name:`` in METADATA or PKG-INFO)."""
    import os

    for meta in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(info, meta), encoding="utf-8") as f:
                for line in f:
                    if line.startswith("Name:"):
                        return line[5:].strip()
                    if not line.strip():
                        break
        except OSError:
            continue
    return None


def table(rows: list[Entry]) -> tuple[dict[str, Entry], dict[str, str]]:
    """slug -> Entry for the slugs declared once, and slug -> problem for the slugs that
    more than one distribution declares (neither of those is used)."""
    found: dict[str, list[Entry]] = {}
    for e in rows:
        found.setdefault(e.slug, []).append(e)
    entries_, clashes = {}, {}
    for slug, es in found.items():
        if len(es) == 1:
            entries_[slug] = es[0]
        else:
            owners = " and ".join(sorted(f"{e.dist} ({e.value})" for e in es))
            clashes[slug] = f"puzzle plugin {slug!r}: slug declared by {owners}"
    return entries_, clashes


@cache
def _scan() -> tuple[dict[str, Entry], dict[str, str]]:
    try:  # a frozen table: the solve pages' zip, which carries no package metadata
        from solvers import _found  # type: ignore[attr-defined]
    except ImportError:
        return table(_declared())
    return ({slug: Entry(slug, *row) for slug, row in _found.ENTRIES.items()}, {})


def entries() -> dict[str, Entry]:
    return _scan()[0]


def raised_at(exc: BaseException) -> str | None:
    """``FILE:LINE`` where an import error was raised: a syntax error's own place, else
    the innermost frame outside the import machinery and this package's importers."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}:{exc.lineno}"
    here = {os.path.abspath(__file__), os.path.abspath(os.path.join(
        os.path.dirname(__file__), "common.py"))}
    found = None
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not name.startswith("<") and os.path.abspath(name) not in here \
                and "importlib" not in name:
            found = f"{name}:{tb.tb_lineno}"
        tb = tb.tb_next
    return found


@cache
def get(slug: str) -> Puzzle:
    """The puzzle registered under ``slug``; a PuzzleError naming the plugin at fault, or
    the known slugs when there is none."""
    found, clashes = _scan()
    if slug in clashes:
        raise PuzzleError(clashes[slug])
    if slug not in found:
        known = ", ".join(sorted(found)) or "none installed"
        raise PuzzleError(f"unknown puzzle {slug!r} (known: {known})")
    e = found[slug]
    module_name, _, attr = e.value.partition(":")
    from solvers.common import import_module

    try:
        module = import_module(module_name.strip())
    except Exception as exc:  # noqa: BLE001 (any error a plugin's import raises)
        at = raised_at(exc)
        raise PuzzleError(f"puzzle plugin {slug!r} ({e.dist} {e.version}): cannot import "
                          f"{module_name.strip()}: {type(exc).__name__}: {exc}"
                          + (f" (raised at {at})" if at else "")) from None
    obj: Any = module
    for part in (attr.strip() or "PUZZLE").split("."):
        obj = getattr(obj, part, None)
    if not isinstance(obj, Puzzle):
        raise PuzzleError(f"puzzle plugin {slug!r} ({e.dist}): {e.value} is not a Puzzle "
                          "(expected `PUZZLE = Puzzle.from_package(__name__, ...)`)")
    if obj.slug != slug:
        raise PuzzleError(f"puzzle plugin {slug!r} ({e.dist}): its Puzzle says slug "
                          f"{obj.slug!r}; the entry point's name must be the slug")
    return obj


def slugs() -> list[str]:
    """Every installed puzzle's slug, sorted (broken ones included: ``get`` says why)."""
    found, clashes = _scan()
    return sorted({*found, *clashes})


def frozen(slugs_: list[str]) -> str:
    """The source of ``solvers/_found.py`` listing ``slugs_``: the registry of a copy of
    the code that has no package metadata (the solve pages' zip)."""
    found = entries()
    rows = {s: (found[s].value, found[s].dist, found[s].version) for s in slugs_}
    return f"ENTRIES = {rows!r}\n"


def problems() -> dict[str, str]:
    """slug -> one line, for every installed puzzle that cannot be loaded."""
    out = dict(_scan()[1])
    for slug in slugs():
        try:
            get(slug)
        except PuzzleError as e:
            out[slug] = str(e)
    return out


def version(slug: str) -> str:
    e = entries().get(slug)
    return e.version if e else "?"


def package(slug: str) -> str:
    """The import name of the package the puzzle ``slug`` lives in (its role modules are
    ``<package>.<role>``)."""
    e = entries().get(slug)
    if e is None:
        get(slug)  # raises the error naming the known slugs
        raise PuzzleError(f"unknown puzzle {slug!r}")
    return e.package.strip()
