"""What the solve page's constructor help needs of Sashigane boards (issue 20): the clues of
a board, the board with one clue removed, the board with a clue taken from an answer,
the cells where two answers differ, and what the editor may place. Board and answer JSON
in and out (``Board.to_json``), so the page and the tests share one reading.
"""

from __future__ import annotations

import copy
from typing import Any

from .board import Answer, Board

Cell = tuple[int, int]

# The editor: one token per cell in "cells": "o" a circle, "o5" a numbered circle, "^",
# "v", "<", ">" arrows, "?" a hidden mark, "." nothing.
EDIT: dict[str, Any] = {"field": "cells", "blank": {"cells": "."},
                        "numbers": None, "question": True, "regions": None,
                        "tokens": {"circle": "o", "number": "o{n}", "up": "^", "down": "v",
                                   "left": "<", "right": ">", "question": "?",
                                   "empty": "."}}
_STEP = {"^": (-1, 0), "v": (1, 0), "<": (0, -1), ">": (0, 1)}


def clues(board: dict[str, Any]) -> list[Cell]:
    """Every cell that holds a circle, an arrow or a mark, in reading order."""
    b = Board.from_json(board)
    return [(r, c) for r in range(b.h) for c in range(b.w) if b.at(r, c).token() != "."]


def without(board: dict[str, Any], cell: Cell) -> dict[str, Any]:
    """The board with the clue at ``cell`` removed."""
    out = copy.deepcopy(board)
    out["cells"][cell[0]][cell[1]] = "."
    return out


def _piece(a: Answer, r: int, c: int) -> set[Cell]:
    p = a.pieces[r * a.w + c]
    return {(i // a.w, i % a.w) for i, q in enumerate(a.pieces) if q == p} if p >= 0 else set()


def clue_from(board: dict[str, Any], answer: dict[str, Any], cell: Cell) -> dict[str, Any] | None:
    """The board with a clue at ``cell`` as ``answer`` has it: a circle with its piece's
    size at the corner of an L, an arrow pointing to the corner at the end of an arm;
    None elsewhere (a cell inside an arm takes no clue)."""
    a = Answer.from_json(answer)
    r, c = cell
    if board["cells"][r][c] != ".":
        return None
    piece = _piece(a, r, c)
    near = [(dr, dc) for (dr, dc) in _STEP.values() if (r + dr, c + dc) in piece]
    out = copy.deepcopy(board)
    if len(near) == 2 and near[0][0] != near[1][0] and near[0][1] != near[1][1]:
        out["cells"][r][c] = f"o{len(piece)}"      # the corner: one arm each way
    elif len(near) == 1:
        out["cells"][r][c] = next(t for t, d in _STEP.items() if d == near[0])
    else:
        return None
    return out


def differ(a: dict[str, Any], b: dict[str, Any]) -> list[Cell]:
    """The cells whose piece is not the same set of cells in the two answers."""
    x, y = Answer.from_json(a), Answer.from_json(b)
    return [(r, c) for r in range(x.h) for c in range(x.w) if _piece(x, r, c) != _piece(y, r, c)]
