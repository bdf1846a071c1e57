"""Sukoro boards and answers: their JSON and a text rendering.

A board is an H×W grid of clues (``None``, a digit, or ``"?"`` for a numbered cell whose
value is hidden). An answer is an H×W grid of values, ``0`` for blank and ``1``-``4`` for a
numbered cell. Each number is the count of its numbered orthogonal neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solvers.common import PuzzleError
from solvers.grid import Clue, check_clues, clues_from_json


@dataclass(frozen=True)
class Board:
    h: int
    w: int
    clues: tuple[tuple[Clue, ...], ...]

    def __post_init__(self) -> None:
        check_clues(self.h, self.w, self.clues, max_value=9)

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


@dataclass(frozen=True)
class Answer:
    h: int
    w: int
    values: tuple[tuple[int, ...], ...]

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
        if not isinstance(d, dict) or "rows" not in d:
            raise PuzzleError("answer must be an object with a field 'rows'")
        rows = d["rows"]
        if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
            raise PuzzleError("answer field 'rows' must be a non-empty list of strings")
        w = len(rows[0])
        vals = []
        for r, row in enumerate(rows):
            if len(row) != w:
                raise PuzzleError(f"answer row {r} has {len(row)} characters, expected {w}")
            out = []
            for c, ch in enumerate(row):
                if ch == ".":
                    out.append(0)
                elif ch in "1234":
                    out.append(int(ch))
                else:
                    raise PuzzleError(
                        f"answer row {r}, column {c}: {ch!r} is not '.' or a digit 1-4")
            vals.append(tuple(out))
        if w == 0:
            raise PuzzleError("answer rows are empty")
        return cls(len(rows), w, tuple(vals))


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
