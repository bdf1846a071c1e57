"""What the solve page's constructor help needs of Nanro boards (issue 20): the clues of
a board, the board with one clue removed, the board with a clue taken from an answer,
the cells where two answers differ, and what the editor may place. Board and answer JSON
in and out (``Board.to_json``), so the page and the tests share one reading.
"""

from __future__ import annotations

import copy
from typing import Any

from solvers.grid import printed, without_clue

from .board import Answer, Board

Cell = tuple[int, int]

# The editor: one entry per cell in "clues" (a number or "?") over the region map in
# "regions", whose borders are drawn by dragging.
EDIT: dict[str, Any] = {"field": "clues", "blank": {"clues": None, "regions": 0},
                        "numbers": [1, None], "question": True, "tokens": None,
                        "regions": "regions"}


def clues(board: dict[str, Any]) -> list[Cell]:
    """Every cell that holds a printed number, in reading order (the region borders are
    the board's shape, not clues)."""
    return printed(Board, board)


without = without_clue  # the board with the clue at a cell removed


def clue_from(board: dict[str, Any], answer: dict[str, Any], cell: Cell) -> dict[str, Any] | None:
    """The board with a number at ``cell`` as ``answer`` has it (how many cells of its
    region hold numbers); None where the answer leaves the cell blank."""
    b, a = Board.from_json(board), Answer.from_json(answer)
    r, c = cell
    if (r, c) not in a.cells or b.clues[r][c] is not None:
        return None
    region = b.regions[r][c]
    n = sum(1 for (rr, cc) in a.cells if b.regions[rr][cc] == region)
    out = copy.deepcopy(board)
    out["clues"][r][c] = n
    return out


def differ(a: dict[str, Any], b: dict[str, Any]) -> list[Cell]:
    """The cells where the two answers differ (a number in one, blank in the other; the
    numbers themselves follow from which cells hold one)."""
    x, y = Answer.from_json(a), Answer.from_json(b)
    return sorted(x.cells ^ y.cells)
