"""What the solve page's constructor help needs of Canal View boards (issue 20): the clues of
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

# The editor: one entry per cell in "clues"; a number (what the cell sees) or "?".
EDIT: dict[str, Any] = {"field": "clues", "blank": {"clues": None},
                        "numbers": [0, None], "question": True, "tokens": None,
                        "regions": None}


def clues(board: dict[str, Any]) -> list[Cell]:
    """Every cell that holds a printed clue, in reading order."""
    return printed(Board, board)


without = without_clue  # the board with the clue at a cell removed


def clue_from(board: dict[str, Any], answer: dict[str, Any], cell: Cell) -> dict[str, Any] | None:
    """The board with a clue at ``cell`` as ``answer`` has it: the flooded cells it sees
    along its row and column, up to the first dry cell or the edge; None where the
    answer floods the cell (a clue is never flooded)."""
    a = Answer.from_json(answer)
    r, c = cell
    if a.flooded(r, c) or board["clues"][r][c] is not None:
        return None
    seen = 0
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        while 0 <= rr < a.h and 0 <= cc < a.w and a.flooded(rr, cc):
            seen += 1
            rr, cc = rr + dr, cc + dc
    out = copy.deepcopy(board)
    out["clues"][r][c] = seen
    return out


def differ(a: dict[str, Any], b: dict[str, Any]) -> list[Cell]:
    """The cells where the two answers differ."""
    x, y = Answer.from_json(a), Answer.from_json(b)
    return [(r, c) for r in range(x.h) for c in range(x.w) if x.flooded(r, c) != y.flooded(r, c)]
