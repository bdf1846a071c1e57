"""Sukoro's puzz.link URLs: ``sukoro/W/H/body``, the body a Number10 list of cells.

The body lists cells in reading order: a digit is a clue, ``.`` a numbered cell whose
value is hidden, ``a``-``z`` a run of 1-26 empty cells. (Not Number16: there ``a``-``f``
are the digits 10-15, here ``a`` is one empty cell: ``puzzlink.decode_number10``, as
pzprjs's sukoro.js reads it with decodeNumber10.)
"""

from __future__ import annotations

from solvers.common import PuzzleError
from solvers.grid import Clue
from solvers.puzzlink import decode_number10, encode_cells, join_url, split_url

from .board import Board

PID = "sukoro"


def decode(url: str) -> Board:
    """A puzz.link / pzv.jp / pzprxs URL (or the bare ``sukoro/W/H/body``) -> Board; a
    body pzprjs would not have written is a PuzzleError naming the position at fault."""
    w, h, body = split_url(url, PID)
    return Board.from_flat(h, w, decode_number10(body, w * h, "Sukoro"))


def _write(v: Clue) -> str:
    if v == "?":
        return "."
    if isinstance(v, int) and 0 <= v <= 9:
        return str(v)
    raise PuzzleError(f"clue {v!r} cannot be written in a Sukoro URL (0-9 or '?' only)")


def encode(board: Board) -> str:
    """The URL pzprjs writes for this board (Number10 body)."""
    return join_url(PID, board.w, board.h, encode_cells(board.clues, "a", 26, _write))


