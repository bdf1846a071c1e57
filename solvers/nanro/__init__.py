"""Nanro (ナンロー): numbers that count their own region.

The board is a partition into regions. An answer is the set S of numbered cells; every
number is its region's count of numbered cells, every region holds one, the numbers form
one group with no 2×2 of numbers, and equal numbers never touch across a region border.
"""

from __future__ import annotations

from solvers.common import Puzzle, lazy

PUZZLE = Puzzle.from_package(__name__, slug="nanro", names={"en": "Nanro", "ja": "ナンロー"},
                             brute_max_cells=36, ungraded=True,
                             # the independent confirmation `build-site verify` runs (the
                             # SAT solver loads only then)
                             confirm={"sat": lazy("solvers.nanro.sat:confirm")})

__all__ = ["PUZZLE"]
