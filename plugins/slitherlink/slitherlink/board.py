"""Slitherlink boards and answers: their JSON, the edge layout and a text rendering.

A board is an H×W grid of clues (``None``, a number 0-4, or ``"?"`` for a clue whose
value is hidden, as pzprjs allows). An answer is a set of lines on the grid's unit
segments, the board's outline included.

Edges are numbered as the play page numbers them with the outline on (grid.js): first
every vertical segment in reading order (row ``r``, ``x`` = 0..W: the segment left of
cell (r, x), ``x = W`` the right edge of the board), then every horizontal segment
(``y`` = 0..H, column ``c``: the segment above cell (y, c)). Vertices (grid corners) are
``y * (W + 1) + x``.

Answer JSON: ``{"vert": [H strings of W+1 "0"/"1"], "horiz": [H+1 strings of W]}``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from solvers.common import Frozen, PuzzleError
from solvers.grid import Clue, check_clues, clues_from_json


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
        check_clues(h, w, clues, max_value=4)

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


class Layout:
    """The edge and vertex tables of an H×W board (shared by every engine but brute)."""

    def __init__(self, h: int, w: int) -> None:
        self.h, self.w = h, w
        self.nv = h * (w + 1)                   # vertical segments come first
        self.ne = self.nv + (h + 1) * w
        self.nvert = (h + 1) * (w + 1)
        W1 = w + 1
        # the four sides of each cell: top, bottom, left, right
        self.cell_edges = tuple(
            (self.nv + r * w + c, self.nv + (r + 1) * w + c, r * W1 + c, r * W1 + c + 1)
            for r in range(h) for c in range(w))
        ends: list[tuple[int, int]] = []
        for r in range(h):
            for x in range(W1):
                ends.append((r * W1 + x, (r + 1) * W1 + x))
        for y in range(h + 1):
            for c in range(w):
                ends.append((y * W1 + c, y * W1 + c + 1))
        self.edge_ends = tuple(ends)
        vedges: list[list[int]] = [[] for _ in range(self.nvert)]
        for e, (a, b) in enumerate(ends):
            vedges[a].append(e)
            vedges[b].append(e)
        self.vertex_edges = tuple(tuple(v) for v in vedges)
        ecells: list[list[int]] = [[] for _ in range(self.ne)]
        for i, es in enumerate(self.cell_edges):
            for e in es:
                ecells[e].append(i)
        self.edge_cells = tuple(tuple(c) for c in ecells)

    def vertical(self, e: int) -> bool:
        return e < self.nv

    def side(self, e: int) -> tuple[int, int, str]:
        """The play page's name of edge ``e``: (r, c, "r") the segment right of cell
        (r, c), c = -1 for the left outline; (r, c, "b") below it, r = -1 on top."""
        if e < self.nv:
            r, x = divmod(e, self.w + 1)
            return (r, x - 1, "r")
        y, c = divmod(e - self.nv, self.w)
        return (y - 1, c, "b")

    def edge_of(self, r: int, c: int, side: str) -> int:
        if side == "r":
            return r * (self.w + 1) + c + 1
        return self.nv + (r + 1) * self.w + c


@cache
def layout(h: int, w: int) -> Layout:
    return Layout(h, w)


class Answer(Frozen):
    """The lines: ``on[e]`` is 1 where edge ``e`` (Layout numbering) carries the loop."""

    __slots__ = ("h", "on", "w")
    _fields = ("h", "w", "on")
    h: int
    w: int
    on: tuple[int, ...]

    def __init__(self, h: int, w: int, on: tuple[int, ...]) -> None:
        init = object.__setattr__
        init(self, "h", h)
        init(self, "w", w)
        init(self, "on", tuple(on))
        if len(self.on) != layout(h, w).ne:
            raise PuzzleError(f"answer has {len(self.on)} edges, expected {layout(h, w).ne}")

    @classmethod
    def from_edges(cls, h: int, w: int, edges: Any) -> Answer:
        lay = layout(h, w)
        on = [0] * lay.ne
        for e in edges:
            on[e] = 1
        return cls(h, w, tuple(on))

    def edges(self) -> list[int]:
        return [e for e, v in enumerate(self.on) if v]

    def to_json(self) -> dict[str, Any]:
        h, w = self.h, self.w
        nv = h * (w + 1)
        vert = ["".join(str(self.on[r * (w + 1) + x]) for x in range(w + 1)) for r in range(h)]
        horiz = ["".join(str(self.on[nv + y * w + c]) for c in range(w)) for y in range(h + 1)]
        return {"vert": vert, "horiz": horiz}

    @classmethod
    def from_json(cls, d: Any) -> Answer:
        if not isinstance(d, dict) or "vert" not in d or "horiz" not in d:
            raise PuzzleError("answer must be an object with 'vert' (H strings of W+1) and "
                              "'horiz' (H+1 strings of W) of '0'/'1'")
        vert, horiz = d["vert"], d["horiz"]
        if not isinstance(vert, list) or not isinstance(horiz, list) or not vert \
                or not all(isinstance(s, str) for s in vert + horiz):
            raise PuzzleError("answer.vert and answer.horiz must be lists of strings")
        h, w = len(vert), len(vert[0]) - 1
        if w < 1 or len(horiz) != h + 1:
            raise PuzzleError(f"answer.horiz: expected {h + 1} rows (one more than vert)")
        for key, rows, n in (("vert", vert, w + 1), ("horiz", horiz, w)):
            for i, s in enumerate(rows):
                if len(s) != n or set(s) - {"0", "1"}:
                    raise PuzzleError(f"answer.{key}[{i}]: expected {n} characters '0'/'1'")
        on = [int(ch) for s in vert for ch in s] + [int(ch) for s in horiz for ch in s]
        return cls(h, w, tuple(on))


def answer_rows(answer: Answer) -> list[str]:
    """The loop drawn in text: corners ``+``, lines ``-`` and ``|``, 2H+1 rows."""
    return _picture(answer.h, answer.w, answer.on, None)


def _picture(h: int, w: int, on: Any, clues: Any) -> list[str]:
    lay = layout(h, w)
    rows = []
    for y in range(h + 1):
        rows.append("+" + "+".join("-" if on and on[lay.nv + y * w + c] else " "
                                   for c in range(w)) + "+")
        if y < h:
            line = ""
            for x in range(w + 1):
                line += "|" if on and on[y * (w + 1) + x] else " "
                if x < w:
                    v = clues[y][x] if clues else None
                    line += " " if v is None else str(v)
            rows.append(line)
    return rows


def render_board(board: Board, answer: Answer | None = None) -> str:
    """Plain text: clue digits inside the grid of corners, the loop drawn when given."""
    return "\n".join(_picture(board.h, board.w, answer.on if answer else None, board.clues))
