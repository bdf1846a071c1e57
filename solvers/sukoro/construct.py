"""What the solve page's constructor help needs of Sukoro boards (issue 20): the clues of
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

# The editor: one entry per cell in "clues"; a digit 1-4 or "?" (a numbered cell whose
# digit is hidden).
EDIT: dict[str, Any] = {"field": "clues", "blank": {"clues": None},
                        "numbers": [1, 4], "question": True, "tokens": None,
                        "regions": None}


def clues(board: dict[str, Any]) -> list[Cell]:
    """Every cell that holds a printed clue, in reading order."""
    return printed(Board, board)


without = without_clue  # the board with the clue at a cell removed


def clue_from(board: dict[str, Any], answer: dict[str, Any], cell: Cell) -> dict[str, Any] | None:
    """The board with a clue at ``cell`` as ``answer`` has it (its digit); None where the
    answer leaves the cell blank (a blank is never printed)."""
    a = Answer.from_json(answer)
    v = a.values[cell[0]][cell[1]]
    if not v or board["clues"][cell[0]][cell[1]] is not None:
        return None
    out = copy.deepcopy(board)
    out["clues"][cell[0]][cell[1]] = v
    return out


def differ(a: dict[str, Any], b: dict[str, Any]) -> list[Cell]:
    """The cells where the two answers differ."""
    x, y = Answer.from_json(a).values, Answer.from_json(b).values
    return [(r, c) for r in range(len(x)) for c in range(len(x[0])) if x[r][c] != y[r][c]]
