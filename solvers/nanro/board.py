"""Nanro boards and answers: the region map, the three kinds of clue, JSON and text.

A board is an H×W partition into regions (ids numbered by first appearance in reading
order) and printed clues. A clue is one of

* full: a number on a cell (the cell is numbered and its region holds that many numbers),
* mark: ``"?"`` on a cell (the cell is numbered; puzz.link's ``?`` given),
* label hint: a region's value alone (``labels[region]``), with no cell attached.

An answer is the set S of numbered cells. Every number is its region's count of numbered
cells, so the numbers themselves are never chosen: they follow from S.
"""

from __future__ import annotations

from typing import Any

from solvers.common import Frozen, PuzzleError
from solvers.grid import Clue, answer_grid, cell_neighbours, check_clues, clues_from_json


def _regions_from(h: int, w: int, raw: Any) -> tuple[tuple[int, ...], ...]:
    """Validate a region map and renumber its ids by first appearance; each id must name
    one orthogonally connected group of cells."""
    if not isinstance(raw, (list, tuple)) or len(raw) != h:
        raise PuzzleError(f"regions: expected {h} rows (h)")
    ids: dict[Any, int] = {}
    out: list[list[int]] = []
    for r, row in enumerate(raw):
        if not isinstance(row, (list, tuple)) or len(row) != w:
            raise PuzzleError(f"regions row {r} must have {w} entries (w)")
        line = []
        for c, v in enumerate(row):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise PuzzleError(f"regions[{r}][{c}] is {v!r}; expected a region id >= 0")
            line.append(ids.setdefault(v, len(ids)))
        out.append(line)
    seen = [[False] * w for _ in range(h)]
    done: set[int] = set()
    for r in range(h):
        for c in range(w):
            if seen[r][c]:
                continue
            rid = out[r][c]
            if rid in done:
                raise PuzzleError(f"region {rid} is split in two (again at row {r}, column {c})")
            done.add(rid)
            stack = [(r, c)]
            seen[r][c] = True
            while stack:
                a, b = stack.pop()
                for x, y in cell_neighbours(h, w, a, b):
                    if not seen[x][y] and out[x][y] == rid:
                        seen[x][y] = True
                        stack.append((x, y))
    return tuple(tuple(row) for row in out)


class Board(Frozen):
    __slots__ = ("clues", "h", "labels", "regions", "w")
    _fields = ("h", "w", "regions", "clues", "labels")
    h: int
    w: int
    regions: tuple[tuple[int, ...], ...]
    clues: tuple[tuple[Clue, ...], ...]
    labels: tuple[int | None, ...]

    def __init__(self, h: int, w: int, regions: tuple[tuple[int, ...], ...],
                 clues: tuple[tuple[Clue, ...], ...], labels: tuple[int | None, ...] = ()
                 ) -> None:
        init = object.__setattr__
        init(self, "h", h)
        init(self, "w", w)
        init(self, "regions", regions)
        init(self, "clues", clues)
        init(self, "labels", labels)
        check_clues(self.h, self.w, self.clues)
        object.__setattr__(self, "regions", _regions_from(self.h, self.w, self.regions))
        sizes = self.region_sizes()
        for r in range(self.h):
            for c in range(self.w):
                v = self.clues[r][c]
                if isinstance(v, int) and not 1 <= v <= sizes[self.regions[r][c]]:
                    raise PuzzleError(
                        f"clues[{r}][{c}] (row {r}, column {c}) is {v}; a clue must lie "
                        f"between 1 and its region's size {sizes[self.regions[r][c]]}")
        labels = tuple(self.labels) if self.labels else (None,) * len(sizes)
        if len(labels) != len(sizes):
            raise PuzzleError(f"labels: expected {len(sizes)} entries (one per region), "
                              f"got {len(labels)}")
        for i, v in enumerate(labels):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)
                                  or not 1 <= v <= sizes[i]):
                raise PuzzleError(f"labels[{i}] is {v!r}; expected null or 1-{sizes[i]}")
        object.__setattr__(self, "labels", labels)

    def region_count(self) -> int:
        return 1 + max(max(row) for row in self.regions)

    def region_sizes(self) -> list[int]:
        sizes = [0] * self.region_count()
        for row in self.regions:
            for v in row:
                sizes[v] += 1
        return sizes

    def flat(self) -> list[Clue]:
        return [v for row in self.clues for v in row]

    def flat_regions(self) -> list[int]:
        return [v for row in self.regions for v in row]

    def clue_count(self) -> int:
        """Printed clues: cell clues (full or mark) plus label hints."""
        return sum(v is not None for v in self.flat()) + sum(v is not None for v in self.labels)

    def with_clues(self, flat: list[Clue], labels: tuple[int | None, ...] | None = None) -> Board:
        return Board(self.h, self.w, self.regions,
                     tuple(tuple(flat[r * self.w:(r + 1) * self.w]) for r in range(self.h)),
                     self.labels if labels is None else labels)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"h": self.h, "w": self.w,
                             "regions": [list(row) for row in self.regions],
                             "clues": [list(row) for row in self.clues]}
        if any(v is not None for v in self.labels):
            d["labels"] = list(self.labels)
        return d

    @classmethod
    def from_json(cls, d: Any) -> Board:
        h, w, clues = clues_from_json(d)
        if "regions" not in d:
            raise PuzzleError("board is missing the field 'regions'")
        labels = d.get("labels") or ()
        if not isinstance(labels, (list, tuple)):
            raise PuzzleError("board field 'labels' must be a list (one entry per region)")
        check_clues(h, w, clues)
        return cls(h, w, d["regions"], clues, tuple(labels))

    @classmethod
    def blank(cls, regions: list[list[int]]) -> Board:
        h, w = len(regions), len(regions[0])
        return cls(h, w, tuple(tuple(r) for r in regions),
                   tuple(tuple(None for _ in range(w)) for _ in range(h)))


class Answer(Frozen):
    """The numbered cells, as rows of ``#`` (numbered) and ``.`` (blank)."""

    __slots__ = ("cells", "h", "w")
    _fields = ("h", "w", "cells")
    h: int
    w: int
    cells: frozenset[tuple[int, int]]

    def __init__(self, h: int, w: int, cells: frozenset[tuple[int, int]]) -> None:
        init = object.__setattr__
        init(self, "h", h)
        init(self, "w", w)
        init(self, "cells", cells)

    @classmethod
    def from_flat(cls, h: int, w: int, flat: list[bool] | list[int]) -> Answer:
        return cls(h, w, frozenset((i // w, i % w) for i, v in enumerate(flat) if v))

    def flat(self) -> list[bool]:
        return [(r, c) in self.cells for r in range(self.h) for c in range(self.w)]

    def rows(self) -> list[str]:
        return ["".join("#" if (r, c) in self.cells else "." for c in range(self.w))
                for r in range(self.h)]

    def to_json(self) -> dict[str, Any]:
        return {"rows": self.rows()}

    @classmethod
    def from_json(cls, d: Any) -> Answer:
        grid = answer_grid(d, {"#": True, ".": False}, "'#' or '.'")
        return cls(len(grid), len(grid[0]),
                   frozenset((r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v))


def region_counts(board: Board, answer: Answer) -> list[int]:
    counts = [0] * board.region_count()
    for r, c in answer.cells:
        counts[board.regions[r][c]] += 1
    return counts


def answer_rows(answer: Answer) -> list[str]:
    return answer.rows()


def number_rows(board: Board, answer: Answer) -> list[str]:
    """The answer with each numbered cell showing its region's count (base 36)."""
    counts = region_counts(board, answer)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    return ["".join(digits[min(counts[board.regions[r][c]], 35)]
                    if (r, c) in answer.cells else "." for c in range(board.w))
            for r in range(board.h)]


def render_board(board: Board, answer: Answer | None = None) -> str:
    """Plain text: region letters on the left, clues (or the answer's numbers) on the right."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    nums = number_rows(board, answer) if answer is not None else None
    lines = []
    for r in range(board.h):
        left = "".join(letters[v % len(letters)] for v in board.regions[r])
        if nums is not None:
            right = " ".join(nums[r])
        else:
            right = " ".join("." if v is None else str(v) for v in board.clues[r])
        lines.append(f"{left}  {right}")
    return "\n".join(lines)
