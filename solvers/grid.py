"""Clue grids shared by the cell puzzles: validation and the JSON shape
``{"h": H, "w": W, "clues": [[null | int | "?", ...], ...]}``."""

from __future__ import annotations

from typing import Any

from solvers.common import MAX_CELLS, PuzzleError

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
