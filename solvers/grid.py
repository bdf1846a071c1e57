"""Grids, said once for every puzzle: sizes (``"8x8"``), neighbour tables, connected
groups and the connect rule; and the clue grids of the cell puzzles, their validation
and the JSON shape ``{"h": H, "w": W, "clues": [[null | int | "?", ...], ...]}``."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from solvers.common import MAX_CELLS, Cell, PuzzleError, RuleBook, Violation

Clue = int | str | None
ClueRows = tuple[tuple[Clue, ...], ...]


def check_clues(h: Any, w: Any, clues: ClueRows, max_value: int | None = None) -> None:
    """Raise a PuzzleError naming the row, column or field at fault, if any."""
    if (not (isinstance(h, int) and isinstance(w, int)) or isinstance(h, bool)
            or isinstance(w, bool) or h < 1 or w < 1):
        raise PuzzleError(f"board size must be positive integers, got h={str(h)[:20]} "
                          f"w={str(w)[:20]}")
    if h * w > MAX_CELLS:
        raise PuzzleError(f"board {h}×{w} is too large (at most {MAX_CELLS} cells)")
    if max_value is None:
        max_value = MAX_CELLS
    if len(clues) != h:
        raise PuzzleError(f"clues: expected {h} rows (h), got {len(clues)}")
    top = "" if max_value is None else f"-{max_value}"
    for r, row in enumerate(clues):
        if len(row) != w:
            raise PuzzleError(f"clues row {r} has {len(row)} entries, expected {w} (w)")
        for c, v in enumerate(row):
            if v is None or v == "?":
                continue
            if (isinstance(v, bool) or not isinstance(v, int) or v < 0
                    or (max_value is not None and v > max_value)):
                raise PuzzleError(f"clues[{r}][{c}] (row {r}, column {c}) is "
                                  f"{_show(v)}; expected null, \"?\" or a number 0{top}")


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 20 else f"a {type(v).__name__} of {len(text)} characters"


def clues_from_json(d: Any) -> tuple[Any, Any, ClueRows]:
    """(h, w, clue rows) from a board's JSON; the caller's constructor validates them."""
    if not isinstance(d, dict):
        raise PuzzleError(f"board must be an object with h, w, clues; got {type(d).__name__}")
    for k in ("h", "w", "clues"):
        if k not in d:
            raise PuzzleError(f"board is missing the field {k!r}")
    clues = d["clues"]
    if not isinstance(clues, list) or not all(isinstance(r, list) for r in clues):
        raise PuzzleError("board field 'clues' must be a list of rows (lists)")
    return d["h"], d["w"], tuple(tuple(r) for r in clues)


def parse_size(text: Any) -> tuple[int, int]:
    """``"8x12"`` -> ``(8, 12)``: a size as the stages and the bank write it, rows first."""
    a, sep, b = str(text).partition("x")
    if not (sep and a.isdigit() and b.isdigit()) or int(a) < 1 or int(b) < 1:
        raise PuzzleError(f"{str(text)[:20]!r} is not a board size (expected HxW, e.g. 8x8)")
    return int(a), int(b)


def size_key(text: str) -> tuple[int, int]:
    """Sort key for sizes: by rows, then columns (``"8x8"`` before ``"10x10"``)."""
    return parse_size(text)


def smallest_size(sizes: Iterable[str]) -> str:
    """The size with the fewest cells (the first such in ``sizes`` on a tie)."""
    return min(sizes, key=lambda s: parse_size(s)[0] * parse_size(s)[1])


@cache
def neighbours(h: int, w: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index ``r * w + c`` of an h×w grid, its orthogonal neighbours in
    increasing index order (up, left, right, down)."""
    out = []
    for i in range(h * w):
        r, c = divmod(i, w)
        out.append(tuple(j for j, ok in ((i - w, r > 0), (i - 1, c > 0), (i + 1, c + 1 < w),
                                         (i + w, r + 1 < h)) if ok))
    return tuple(out)


def cell_neighbours(h: int, w: int, r: int, c: int) -> list[Cell]:
    """The orthogonal neighbours of (r, c) inside an h×w grid, in reading order."""
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
            if 0 <= r + dr < h and 0 <= c + dc < w]


def groups(cells: Iterable[Cell]) -> list[list[Cell]]:
    """The orthogonally connected groups of ``cells``, in reading order of each group's
    first cell."""
    todo = set(cells)
    out: list[list[Cell]] = []
    for start in sorted(todo):
        if start not in todo:
            continue
        todo.discard(start)
        stack, grp = [start], []
        while stack:
            r, c = stack.pop()
            grp.append((r, c))
            for nb in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)):
                if nb in todo:
                    todo.discard(nb)
                    stack.append(nb)
        out.append(grp)
    return out


def outside_largest(groups: Sequence[Sequence[Cell]]) -> tuple[Cell, ...]:
    """Every cell outside the largest group (on a tie the earliest group counts as the
    largest), sorted: the cells a connect violation names."""
    best = max(range(len(groups)), key=lambda i: (len(groups[i]), -i))
    return tuple(sorted(c for i, g in enumerate(groups) if i != best for c in g))


def connect_violations(rules: RuleBook, rule_id: str,
                       pieces: Sequence[Sequence[Cell]]) -> list[Violation]:
    """The connect rule, said once: no violation for one group (or none); otherwise one,
    naming the cells outside the largest group and the number of ``pieces``."""
    if len(pieces) <= 1:
        return []
    return [rules.make(rule_id, outside_largest(pieces), pieces=len(pieces))]


def answer_grid(d: Any, symbols: Mapping[str, Any], expected: str) -> list[list[Any]]:
    """The cells of an answer's JSON ``{"rows": ["..", ...]}``, each character read through
    ``symbols``; a PuzzleError naming the row and column at fault (``expected`` says in
    words what a cell may hold, e.g. "'#' or '.'")."""
    if not isinstance(d, dict) or "rows" not in d:
        raise PuzzleError("answer must be an object with a field 'rows'")
    rows = d["rows"]
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise PuzzleError("answer field 'rows' must be a non-empty list of strings")
    w = len(rows[0])
    if w == 0:
        raise PuzzleError("answer rows are empty")
    if len(rows) * w > MAX_CELLS:
        raise PuzzleError(f"answer {len(rows)}×{w} is too large (at most {MAX_CELLS} cells)")
    out = []
    for r, row in enumerate(rows):
        if len(row) != w:
            raise PuzzleError(f"answer row {r} has {len(row)} characters, expected {w}")
        cells = []
        for c, ch in enumerate(row):
            if ch not in symbols:
                raise PuzzleError(f"answer row {r}, column {c}: {ch!r} is not {expected}")
            cells.append(symbols[ch])
        out.append(cells)
    return out


# ---- the constructor help of a clue-grid board (Board JSON with a "clues" grid) --------

def printed(board_type: Any, board: dict[str, Any]) -> list[Cell]:
    """Every cell of ``board`` (JSON, read and checked by ``board_type.from_json``) that
    holds a printed clue, in reading order."""
    b = board_type.from_json(board)
    return [(r, c) for r in range(b.h) for c in range(b.w) if b.clues[r][c] is not None]


def without_clue(board: dict[str, Any], cell: Cell) -> dict[str, Any]:
    """A copy of ``board`` (JSON) with the clue at ``cell`` removed."""
    out = copy.deepcopy(board)
    out["clues"][cell[0]][cell[1]] = None
    return out
