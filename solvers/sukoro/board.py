"""Sukoro boards and answers: their JSON and a text rendering.

A board is an H×W grid of clues (``None``, a digit, or ``"?"`` for a numbered cell whose
value is hidden). An answer is an H×W grid of values, ``0`` for blank and ``1``-``4`` for a
numbered cell. Each number is the count of its numbered orthogonal neighbours.
"""

from __future__ import annotations

from typing import Any

from solvers.common import Frozen
from solvers.grid import Clue, answer_grid, check_clues, clues_from_json


class Board(Frozen):
    __slots__ = ("clues", "h", "w")
    _fields = ("h", "w", "clues")
    h: int
    w: int
    clues: tuple[tuple[Clue, ...], ...]

    def __init__(self, h: int, w: int, clues: tuple[tuple[Clue, ...], ...]) -> None:
        init = object.__setattr__
        init(self, "h", h)
        init(self, "w", w)
        init(self, "clues", clues)
        check_clues(h, w, clues, max_value=9)

    @classmethod
    def empty(cls, h: int, w: int) -> Board:
        return cls(h, w, tuple(tuple(None for _ in range(w)) for _ in range(h)))

    @classmethod
    def from_flat(cls, h: int, w: int, flat: list[Clue]) -> Board:
        return cls(h, w, tuple(tuple(flat[r * w:(r + 1) * w]) for r in range(h)))

    def flat(self) -> list[Clue]:
        return [v for row in self.clues for v in row]

    def clue_count(self) -> int:
        return sum(v is not None for v in self.flat())

    def to_json(self) -> dict[str, Any]:
        return {"h": self.h, "w": self.w, "clues": [list(row) for row in self.clues]}

    @classmethod
    def from_json(cls, d: Any) -> Board:
        return cls(*clues_from_json(d))


class Answer(Frozen):
    __slots__ = ("h", "values", "w")
    _fields = ("h", "w", "values")
    h: int
    w: int
    values: tuple[tuple[int, ...], ...]

    def __init__(self, h: int, w: int, values: tuple[tuple[int, ...], ...]) -> None:
        init = object.__setattr__
        init(self, "h", h)
        init(self, "w", w)
        init(self, "values", values)

    @classmethod
    def from_flat(cls, h: int, w: int, flat: list[int]) -> Answer:
        return cls(h, w, tuple(tuple(flat[r * w:(r + 1) * w]) for r in range(h)))

    def flat(self) -> list[int]:
        return [v for row in self.values for v in row]

    def rows(self) -> list[str]:
        return ["".join(str(v) if v else "." for v in row) for row in self.values]

    def to_json(self) -> dict[str, Any]:
        return {"rows": self.rows()}

    @classmethod
    def from_json(cls, d: Any) -> Answer:
        grid = answer_grid(d, {".": 0, "1": 1, "2": 2, "3": 3, "4": 4}, "'.' or a digit 1-4")
        return cls(len(grid), len(grid[0]), tuple(tuple(row) for row in grid))


def answer_rows(answer: Answer) -> list[str]:
    return answer.rows()


def render_board(board: Board, answer: Answer | None = None) -> str:
    """Plain text: clues as digits (``?`` hidden), answer numbers in place, ``.`` blank."""
    lines = []
    for r in range(board.h):
        cells = []
        for c in range(board.w):
            clue = board.clues[r][c]
            if answer is not None:
                v = answer.values[r][c]
                cells.append(str(v) if v else ".")
            elif clue is None:
                cells.append(".")
            else:
                cells.append(str(clue))
        lines.append(" ".join(cells))
    return "\n".join(lines)
