"""Sukoro's puzz.link URLs: ``sukoro/W/H/body``, the body a Number10 list of cells.

The body lists cells in reading order: a digit is a clue, ``.`` a numbered cell whose
value is hidden, ``a``-``z`` a run of 1-26 empty cells. (Not Number16: there ``a``-``f``
are the digits 10-15, here ``a`` is one empty cell, so ``puzzlink.decode_number16`` does
not apply.)
"""

from __future__ import annotations

from solvers.common import PuzzleError
from solvers.grid import Clue
from solvers.puzzlink import encode_cells, join_url, split_url

from .board import Board

PID = "sukoro"


def decode(url: str) -> Board:
    """A puzz.link / pzv.jp / pzprxs URL (or the bare ``sukoro/W/H/body``) -> Board."""
    w, h, body = split_url(url, PID)
    n = w * h
    flat: list[Clue] = [None] * n
    i = 0
    for pos, ch in enumerate(body):
        if i >= n:
            break
        if "0" <= ch <= "9":
            flat[i] = int(ch)
            i += 1
        elif ch == ".":
            flat[i] = "?"
            i += 1
        elif "a" <= ch <= "z":
            i += ord(ch) - ord("a") + 1
        elif ch.isascii() and ch.isprintable():
            # pzprjs: any other character uses one cell and sets nothing
            i += 1
        else:
            raise PuzzleError(f"URL body character {ch!r} at position {pos} is not valid")
    return Board.from_flat(h, w, flat)


def _write(v: Clue) -> str:
    if v == "?":
        return "."
    if isinstance(v, int) and 0 <= v <= 9:
        return str(v)
    raise PuzzleError(f"clue {v!r} cannot be written in a Sukoro URL (0-9 or '?' only)")


def encode(board: Board) -> str:
    """The URL pzprjs writes for this board (Number10 body)."""
    return join_url(PID, board.w, board.h, encode_cells(board.clues, "a", 26, _write))


