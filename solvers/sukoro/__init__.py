"""Sukoro (数コロ): numbers that count their numbered neighbours.

An answer is a set of numbered cells; each number is its cell's count of numbered
orthogonal neighbours, equal numbers never touch, and the numbers form one group.
"""

from __future__ import annotations

from solvers.common import Puzzle, lazy

PUZZLE = Puzzle.from_package(
    __name__, slug="sukoro", names={"en": "Sukoro", "ja": "数コロ"},
    # the independent confirmation `build-site verify` runs; the SAT solver loads only
    # when verify asks for it
    confirm={"sat": lazy("solvers.sukoro.sat:confirm")},
    ungraded=True)

__all__ = ["PUZZLE"]
