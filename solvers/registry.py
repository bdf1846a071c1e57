"""The puzzles this site knows, keyed by slug."""

from __future__ import annotations

from functools import cache

from solvers.common import Puzzle, PuzzleError, import_module

# slug -> package under solvers/
PACKAGES: dict[str, str] = {
    "canal-view": "solvers.canal_view",
    "nanro": "solvers.nanro",
    "sashigane": "solvers.sashigane",
    "sukoro": "solvers.sukoro",
}


@cache
def get(slug: str) -> Puzzle:
    """The puzzle registered under ``slug``; a PuzzleError naming the known slugs if none."""
    if slug not in PACKAGES:
        known = ", ".join(sorted(PACKAGES))
        raise PuzzleError(f"unknown puzzle {slug!r} (known: {known})")
    return import_module(PACKAGES[slug]).PUZZLE  # that package alone


def slugs() -> list[str]:
    return sorted(PACKAGES)

