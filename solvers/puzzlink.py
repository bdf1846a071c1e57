"""The genre-independent part of puzz.link URLs (PUZZLINK.md §2): the envelope around a
body. Each puzzle package decodes and encodes its own body."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from solvers.common import MAX_CELLS, PuzzleError
from solvers.grid import ClueRows

PREFIX = "https://puzz.link/p?"
_QUERY_PAIR = re.compile(r"^[A-Za-z0-9_]+=[A-Za-z0-9_]*&")


def split_url(url: str, pid: str) -> tuple[int, int, str]:
    """(width, height, body) of a puzz.link, pzv.jp or pzprxs URL, or of its bare
    ``pid/W/H/body`` form, read the way pzprjs reads it; a PuzzleError naming the piece
    at fault otherwise."""
    if not isinstance(url, str):
        raise PuzzleError(f"URL must be a string, got {type(url).__name__}")
    text = url.replace("\r", "").replace("\n", "").strip()
    q = text.find("?")
    if q >= 0:
        text = text[q + 1:]
    while m := _QUERY_PAIR.match(text):
        text = text[m.end():]
    parts = text.split("/")
    found = parts[0].removesuffix("_edit").removesuffix("_play")
    if found != pid:
        raise PuzzleError(f"URL names the puzzle {found!r}, expected {pid!r}")
    rest = parts[1:]
    if rest and rest[0].startswith("v:"):
        rest = rest[1:]
    if rest and not _digits(rest[0]):
        rest = rest[1:]  # a flag string; none of our genres uses one
    if len(rest) < 2:
        raise PuzzleError(f"URL lacks the width and height after '{pid}/'")
    for name, piece in (("width", rest[0]), ("height", rest[1])):
        if not _digits(piece) or int(piece) < 1:
            raise PuzzleError(f"URL {name} {piece[:12]!r} is not a positive whole number "
                              "(ASCII digits)")
        if int(piece) > MAX_CELLS:
            raise PuzzleError(f"URL {name} {piece[:12]} is too large (a board has at most "
                              f"{MAX_CELLS} cells)")
    w, h = int(rest[0]), int(rest[1])
    if w * h > MAX_CELLS:
        raise PuzzleError(f"board {w}×{h} is too large (at most {MAX_CELLS} cells)")
    body = rest[2:]
    if body and body[-1] == "":
        body = body[:-1]
    return w, h, "/".join(body)


def _digits(piece: str) -> bool:
    """ASCII digits only (str.isdigit also accepts '²' and other digits int() refuses),
    and short enough to be a board size."""
    return 0 < len(piece) <= 6 and piece.isascii() and piece.isdigit()


def join_url(pid: str, w: int, h: int, body: str) -> str:
    """The URL pzprjs writes: puzz.link prefix, width first, and a trailing slash when the
    text would otherwise end in something other than an ASCII letter or digit."""
    tail = f"{pid}/{w}/{h}/{body}"
    if not (tail[-1].isascii() and tail[-1].isalnum()):
        tail += "/"
    return PREFIX + tail


def encode_cells(clues: ClueRows, first: str, longest: int, write: Callable[[Any], str]) -> str:
    """A body that lists cells in reading order: each clue as ``write`` spells it, each run
    of empty cells as one letter (``first`` stands for one cell, the next letter for two,
    and so on; a run is written out whenever it reaches ``longest`` cells)."""
    out: list[str] = []
    run = 0
    for row in clues:
        for v in row:
            if v is None:
                run += 1
                if run == longest:
                    out.append(chr(ord(first) + run - 1))
                    run = 0
                continue
            if run:
                out.append(chr(ord(first) + run - 1))
                run = 0
            out.append(write(v))
    if run:
        out.append(chr(ord(first) + run - 1))
    return "".join(out)


# Number16 (PUZZLINK.md): one hex digit for 0-15; a marker and a fixed count of hex digits
# for larger numbers (marker: digits, offset); '.' for a hidden number; g-z for 1-20
# empty cells.
_HEX = "0123456789abcdef"
_LONG = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "@": (3, 8192), "%": (3, 8192),
         "*": (4, 12240), "$": (5, 77776)}


def decode_number16(body: str, n: int, start: int = 0, what: str = "") -> tuple[list[Any], int]:
    """The ``n`` cells of a Number16 run that begins at ``body[start]``, and the position
    after it: a number, ``"?"`` or None (empty) per cell. A character pzprjs never writes
    there is a PuzzleError naming its position (``what`` names the puzzle in it)."""
    vals: list[Any] = [None] * n
    i, pos = 0, start
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
                f"body position {pos}: character {ch!r} is not allowed in a {what or 'numbers'}"
                " body (expected 0-9, a-f, '.', '-', '+', '=', '@', '%', '*', '$' or g-z)")
    return vals, pos
