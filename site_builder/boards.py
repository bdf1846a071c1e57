"""Board pictures for the index and the articles, drawn by each puzzle's renderer.

Each picture carries its own provenance: ``data-src`` on the ``<svg>`` element holds the
call that drew it (the JSON key of the board and of the answer, or the JSON itself when a
template passed plain values; the cell size and the label), so that ``build-site check``
can draw it again from ``content/`` and compare the bytes: a clue digit edited in a
drawing is caught as surely as one in the prose.
"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup, escape

from site_builder.provenance import DataError, Node, source_of
from solvers.common import PuzzleError

CELL = 28


def encode_src(value: Any) -> Any:
    """A call's argument for ``data-src``: a Node as ``{"$key": path}``, lists and dicts
    item by item, anything else as it is."""
    if isinstance(value, Node):
        return {"$key": value._path}
    if isinstance(value, dict):
        return {str(k): encode_src(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode_src(v) for v in value]
    return value


def plain(value: Any) -> Any:
    """The JSON inside Nodes, at any depth."""
    if isinstance(value, Node):
        return value.v
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def src_attr(src: Any) -> str:
    text = json.dumps(src, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f'data-src="{escape(text)}"'


def _part(entry: Any, key: str) -> Any:
    if isinstance(entry, Node):
        return getattr(entry, key) if isinstance(entry.v, dict) and key in entry.v else None
    return entry.get(key)


def draw(puzzle: Any, board: Any, answer: Any, cell: int, label: str) -> str:
    """The picture with its ``data-src``; ``board`` and ``answer`` as Nodes or JSON.
    The check calls this with what it resolved from ``data-src``."""
    src = {"slug": puzzle.slug, "board": encode_src(board), "answer": encode_src(answer),
           "cell": cell, "label": label}
    _readable(board, puzzle.board_from_json, "board")
    if answer is not None:
        _readable(answer, puzzle.answer_from_json, "answer")
    svg = puzzle.draw_board(plain(board), plain(answer), cell, label)
    if not svg.startswith("<svg"):
        raise ValueError(f"{puzzle.slug}: draw_board must return one <svg> element")
    return f"<svg {src_attr(src)}{svg[len('<svg'):]}"


def _readable(value: Any, reader: Any, what: str) -> None:
    """A drawing reads its board and answer with the puzzle's own reader first, so that a
    corrupt value in any content file (not only the bank, which is checked at load) is
    one line naming file and key, never a traceback from inside a drawing."""
    try:
        reader(plain(value))
    except (PuzzleError, TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        where = source_of(value._path) if isinstance(value, Node) else f"a drawn {what}"
        raise DataError(f"{where}: not a {what} ({e})") from None


def board_svg(puzzle: Any, entry: Any, solved: bool = False, cell: int = CELL,
              label: str = "") -> Markup:
    """An SVG of a bank entry (a Node or a dict with ``board`` and ``answer``): the clues
    always, the answer too when ``solved``."""
    answer = _part(entry, "answer") if solved else None
    alt = label or f"{'solved ' if solved else ''}board"
    return Markup(draw(puzzle, _part(entry, "board"), answer, cell, alt))
