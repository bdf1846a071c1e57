"""Canal View (カナルビュー): flood cells into one 2x2-free canal; each number counts the
flooded cells it can see along its four rays."""

from __future__ import annotations

from solvers.common import Puzzle, lazy

PUZZLE = Puzzle.from_package(
    __name__,
    slug="canal-view",
    names={"en": "Canal View", "ja": "カナルビュー"},
    brute_max_cells=36,
    # the independent confirmation `build-site verify` runs (the SAT solver loads then)
    confirm={"sat": lazy("solvers.canal_view.sat:confirm")},
)

__all__ = ["PUZZLE"]
