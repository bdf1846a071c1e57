"""Canal View boards, answers, rule variants (the real rules and their misreadings) and
the plain-text picture; the rules table and the rule check are in ``rules``."""

from __future__ import annotations

from typing import Any

from solvers.common import Cell, Frozen
from solvers.grid import Clue, answer_grid, check_clues, clues_from_json


class Rules(Frozen):
    """Which rules are in force. The defaults are the real puzzle; the rest are misreadings."""

    __slots__ = ("connected", "dry_connected", "two_by_two", "whole_line")
    _fields = ("two_by_two", "connected", "dry_connected", "whole_line")
    two_by_two: bool        # no fully flooded 2x2 block
    connected: bool         # flooded cells form one group
    dry_connected: bool     # (misreading) dry cells form one group too
    whole_line: bool        # (misreading) a number counts its whole row and column

    def __init__(self, two_by_two: bool = True, connected: bool = True,
                 dry_connected: bool = False, whole_line: bool = False) -> None:
        init = object.__setattr__
        init(self, "two_by_two", two_by_two)
        init(self, "connected", connected)
        init(self, "dry_connected", dry_connected)
        init(self, "whole_line", whole_line)

    @property
    def name(self) -> str:
        if self == STANDARD:
            return "standard"
        parts = []
        if not self.two_by_two:
            parts.append("no2x2")
        if not self.connected:
            parts.append("broken")
        if self.dry_connected:
            parts.append("dryconnect")
        if self.whole_line:
            parts.append("wholeline")
        return "+".join(parts)


STANDARD = Rules()
NO_2X2 = Rules(two_by_two=False)
BROKEN = Rules(connected=False)
DRY_CONNECTED = Rules(dry_connected=True)
WHOLE_LINE = Rules(whole_line=True)
VARIANTS: dict[str, Rules] = {"no2x2": NO_2X2, "broken": BROKEN,
                              "dryconnect": DRY_CONNECTED, "wholeline": WHOLE_LINE}


class Board(Frozen):
    """An h x w grid; ``clues[r][c]`` is None, an int >= 0 or "?"."""

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
        check_clues(h, w, clues)

    @property
    def n(self) -> int:
        return self.h * self.w

    def cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.h) for c in range(self.w)]

    def clue_cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.h) for c in range(self.w)
                if self.clues[r][c] is not None]

    def clue_mask(self) -> int:
        m = 0
        for r, c in self.clue_cells():
            m |= 1 << (r * self.w + c)
        return m

    def to_json(self) -> dict[str, Any]:
        return {"h": self.h, "w": self.w, "clues": [list(row) for row in self.clues]}

    @staticmethod
    def from_json(d: Any) -> Board:
        return Board(*clues_from_json(d))

    @staticmethod
    def from_dict(h: int, w: int, clues: dict[Cell, Clue]) -> Board:
        grid = [[None] * w for _ in range(h)]  # type: list[list[Clue]]
        for (r, c), v in clues.items():
            grid[r][c] = v
        return Board(h, w, tuple(tuple(r) for r in grid))


class Answer(Frozen):
    """The flooded cells, as a bit mask over cells in reading order (bit r*w + c)."""

    __slots__ = ("h", "mask", "w")
    _fields = ("h", "w", "mask")
    h: int
    w: int
    mask: int

    def __init__(self, h: int, w: int, mask: int) -> None:
        init = object.__setattr__
        init(self, "h", h)
        init(self, "w", w)
        init(self, "mask", mask)

    def flooded(self, r: int, c: int) -> bool:
        return bool(self.mask >> (r * self.w + c) & 1)

    def rows(self) -> list[str]:
        return ["".join("#" if self.flooded(r, c) else "." for c in range(self.w))
                for r in range(self.h)]

    def to_json(self) -> dict[str, Any]:
        return {"rows": self.rows()}

    @staticmethod
    def from_rows(rows: list[str]) -> Answer:
        return Answer.from_json({"rows": rows})

    @staticmethod
    def from_json(d: Any) -> Answer:
        grid = answer_grid(d, {"#": 1, ".": 0}, "'#' or '.'")
        w = len(grid[0])
        return Answer(len(grid), w, sum(1 << (r * w + c) for r, row in enumerate(grid)
                                        for c, v in enumerate(row) if v))


# the four directions a number looks in: up, right, down, left
DIRS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def render_board(board: Board, answer: Answer | None = None) -> str:
    """Plain text: clues as numbers ('?' hidden), '#' flooded, '.' dry/undecided."""
    width = max([len(str(v)) for row in board.clues for v in row if v is not None] + [1])
    lines = []
    for r in range(board.h):
        cells = []
        for c in range(board.w):
            v = board.clues[r][c]
            if v is not None:
                s = str(v)
            elif answer is not None and answer.flooded(r, c):
                s = "#"
            else:
                s = "."
            cells.append(s.rjust(width))
        lines.append(" ".join(cells))
    return "\n".join(lines)


def answer_rows(answer: Answer) -> list[str]:
    return answer.rows()
