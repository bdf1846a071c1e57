"""Slitherlink (スリザーリンク): one loop along the grid lines, counted by the clues.

Draw a single closed loop along the sides of the cells; it never branches or crosses
(every grid corner has 0 or 2 lines), and a number says how many of its cell's four
sides the loop uses. A build-site puzzle plugin: found through the entry point group
``build_site.puzzles`` (this package's pyproject.toml), built like every other puzzle.
"""

from __future__ import annotations

from solvers.common import Puzzle, lazy

PUZZLE = Puzzle.from_package(
    __name__, slug="slitherlink", names={"en": "Slitherlink", "ja": "スリザーリンク"},
    # the second engine colours cells: 2^cells at worst, clues prune it hard
    brute_max_cells=36,
    # the independent SAT encoding (cell colours) `build-site verify` runs
    confirm={"sat": lazy("slitherlink.sat:confirm")},
    # the grade needs the probe rung's trials; the answers and the verdict do not
    ungraded=True)

__all__ = ["PUZZLE"]
