"""The shape of ``content/`` files, checked when they are loaded (issue 22).

Every stage file is checked for its envelope (``jsonio.read_stage``); a bank's boards,
which the pages, the play data and the drawings read field by field, are checked here
entry by entry through the puzzle's own JSON readers. A value of the wrong type, or a
field a page prints that is missing, is one ``UserError`` naming the file and the key
(``boards[3].h``), before any page is rendered from it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from site_builder.errors import UserError
from solvers.common import PuzzleError

# bank entry field -> (what it must be, whether a page needs it)
_INT = "an integer"
_STR = "a non-empty string"
ENTRY: dict[str, tuple[str, bool]] = {
    "id": (_STR, True), "url": (_STR, True), "h": (_INT, True), "w": (_INT, True),
    "board": ("an object", True), "answer": ("an object", True), "grade": (_STR, True),
    "clues": (_INT, True), "size": (_STR, False), "difficulty": (_STR, False),
    "trace": ("a list", False), "effort": ("an object", False),
}


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(v), type(v).__name__)


def _fits(v: Any, want: str) -> bool:
    if want == _INT:
        return isinstance(v, int) and not isinstance(v, bool)
    if want == _STR:
        return isinstance(v, str) and v != ""
    return isinstance(v, {"an object": dict, "a list": list}[want])


def _shown(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def check_bank(path: Path, puzzle: Any, data: dict[str, Any]) -> None:
    """Raise a UserError naming ``path`` and the key when a banked board is malformed."""
    boards = data.get("boards")
    if not isinstance(boards, list) or not boards:
        raise UserError(f"{path}: key 'boards' is {_kind(boards)}, expected a non-empty list")
    for i, e in enumerate(boards):
        at = f"boards[{i}]"
        if not isinstance(e, dict):
            raise UserError(f"{path}: key {at} is {_kind(e)}, expected an object")
        for key, (want, needed) in ENTRY.items():
            if key not in e:
                if needed:
                    raise UserError(f"{path}: key {at}.{key} is missing (a page prints it)")
                continue
            if not _fits(e[key], want):
                raise UserError(f"{path}: key {at}.{key} is {_shown(e[key])} "
                                f"({_kind(e[key])}), expected {want}")
        if e["h"] < 1 or e["w"] < 1:
            raise UserError(f"{path}: key {at}.h/w is {e['h']}x{e['w']}, expected a positive size")
        board = _readable(path, puzzle, e, at)
        if (getattr(board, "h", e["h"]), getattr(board, "w", e["w"])) != (e["h"], e["w"]):
            raise UserError(f"{path}: key {at}.h/w is {e['h']}x{e['w']} but its board is "
                            f"{board.h}x{board.w}")
        for j, step in enumerate(e.get("trace") or []):
            if not isinstance(step, dict):
                raise UserError(f"{path}: key {at}.trace[{j}] is {_kind(step)}, expected an object")
    example = data.get("example")
    if example is not None:
        if not isinstance(example, dict):
            raise UserError(f"{path}: key 'example' is {_kind(example)}, expected an object")
        _readable(path, puzzle, example, "example")


def _readable(path: Path, puzzle: Any, e: dict[str, Any], at: str) -> Any:
    """The entry's board, read by the puzzle (its answer too, checked against nothing)."""
    for key, read in (("board", puzzle.board_from_json), ("answer", puzzle.answer_from_json)):
        if key not in e:
            raise UserError(f"{path}: key {at}.{key} is missing (a page draws it)")
        try:
            got = read(e[key])
        except (PuzzleError, RecursionError, TypeError, ValueError) as err:
            raise UserError(f"{path}: key {at}.{key}: {' '.join(str(err).split())}") from None
        if key == "board":
            board = got
    return board
