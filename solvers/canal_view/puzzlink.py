"""puzz.link URLs for Canal View (pid ``canal``, Number16 body, width first)."""

from __future__ import annotations

from solvers.common import PuzzleError
from solvers.puzzlink import encode_cells, join_url, split_url

from .board import Board

PID = "canal"
_HEX = "0123456789abcdef"
_LONG = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "@": (3, 8192), "%": (3, 8192),
         "*": (4, 12240), "$": (5, 77776)}


def _decode_body(body: str, h: int, w: int) -> list:
    n = h * w
    vals: list = [None] * n
    i = 0
    pos = 0
    while pos < len(body) and i < n:
        ch = body[pos]
        if ch in _HEX:
            vals[i] = int(ch, 16)
            i += 1
            pos += 1
        elif ch in _LONG:
            k, base = _LONG[ch]
            digits = body[pos + 1:pos + 1 + k]
            if len(digits) != k or any(d not in _HEX for d in digits):
                raise PuzzleError(
                    f"body position {pos}: {ch!r} must be followed by {k} lower-case hex "
                    f"digits, got {digits!r}")
            vals[i] = base + int(digits, 16)
            i += 1
            pos += 1 + k
        elif ch == ".":
            vals[i] = "?"
            i += 1
            pos += 1
        elif "g" <= ch <= "z":
            i += int(ch, 36) - 15
            pos += 1
        else:
            # pzprjs skips such characters silently; pzprjs never writes them, so a URL that
            # holds one was damaged or hand-edited, and we say so instead of guessing
            raise PuzzleError(
                f"body position {pos}: character {ch!r} is not allowed in a Canal View body "
                "(expected 0-9, a-f, '.', '-', '+', '=', '@', '%', '*', '$' or g-z)")
    return vals


def decode(url: str) -> Board:
    """A puzz.link / pzv.jp / pzprxs URL (or its bare ``canal/W/H/body``) to a Board."""
    w, h, body = split_url(url, PID)
    vals = _decode_body(body, h, w)
    return Board(h, w, tuple(tuple(vals[r * w:(r + 1) * w]) for r in range(h)))


def _value(v) -> str:
    if v == "?":
        return "."
    if v < 16:
        return _HEX[v]
    if v < 256:
        return f"-{v:02x}"
    if v < 4096:
        return f"+{v:03x}"
    if v < 8192:
        return f"={v - 4096:03x}"
    if v < 12240:
        return f"@{v - 8192:03x}"
    if v < 77776:
        return f"*{v - 12240:04x}"
    return f"${v - 77776:05x}"


def encode(board: Board) -> str:
    """The URL pzprjs writes for this board (Number16 body)."""
    return join_url(PID, board.w, board.h, encode_cells(board.clues, "g", 20, _value))
