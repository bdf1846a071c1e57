"""What the solve page's constructor help needs of Slitherlink boards: the clues of a
board, the board with one clue removed, the board with a clue taken from an answer (its
cell's count of loop sides), the cells where two answers differ, and what the editor may
place. Board and answer JSON in and out."""

from __future__ import annotations

import copy
from typing import Any

from solvers.grid import printed, without_clue

from .board import Answer, Board, layout

Cell = tuple[int, int]

# The editor: one entry per cell in "clues"; a number 0-4 or "?" (a hidden clue).
EDIT: dict[str, Any] = {"field": "clues", "blank": {"clues": None},
                        "numbers": [0, 4], "question": True, "tokens": None,
                        "regions": None}


def clues(board: dict[str, Any]) -> list[Cell]:
    """Every cell that holds a printed clue, in reading order."""
    return printed(Board, board)


without = without_clue  # the board with the clue at a cell removed


def clue_from(board: dict[str, Any], answer: dict[str, Any], cell: Cell) -> dict[str, Any] | None:
    """The board with the clue the answer gives ``cell`` (how many of its sides carry the
    loop); None where the cell already holds a clue."""
    if board["clues"][cell[0]][cell[1]] is not None:
        return None
    a = Answer.from_json(answer)
    lay = layout(a.h, a.w)
    v = sum(a.on[e] for e in lay.cell_edges[cell[0] * a.w + cell[1]])
    out = copy.deepcopy(board)
    out["clues"][cell[0]][cell[1]] = v
    return out


def differ(a: dict[str, Any], b: dict[str, Any]) -> list[Cell]:
    """The cells beside an edge where the two answers differ."""
    x, y = Answer.from_json(a), Answer.from_json(b)
    lay = layout(x.h, x.w)
    cells = sorted({i for e in range(lay.ne) if x.on[e] != y.on[e] for i in lay.edge_cells[e]})
    return [divmod(i, x.w) for i in cells]
