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


# Bodies are read the way pzprjs reads them, with one difference: pzprjs reads anything,
# silently skipping characters it does not know, stopping at the last cell and leaving
# cells empty when the body runs out. Its encoders never write such bodies, so a body that
# holds an unknown character, a run past the last cell, too few cells or characters after
# the last one was damaged in transit or by hand, and is refused with its position
# instead of being read as some other board.


def body_error(pos: int, message: str) -> PuzzleError:
    """A PuzzleError naming the body position at fault."""
    return PuzzleError(f"URL body position {pos}: {message}")


def _run_past_end(pos: int, ch: str, run: int, i: int, n: int) -> PuzzleError:
    return body_error(pos, f"{ch!r} stands for {run} empty cell(s), but only {n - i} of the "
                           f"board's {n} cells are left")


def _short(body: str, i: int, n: int) -> PuzzleError:
    return body_error(len(body), f"the body ends with {i} of the board's {n} cells written; "
                                 "pzprjs writes every cell (a run of empty cells as a letter)")


def expect_end(body: str, pos: int, n: int) -> None:
    """Refuse characters after the last cell (pzprjs ignores them; it never writes any)."""
    if pos < len(body):
        raise body_error(pos, f"{body[pos:pos + 12]!r} follows the last of the board's {n} "
                              f"cells, which ends the body at position {pos}")


# Number16 (PUZZLINK.md §3.1): one hex digit for 0-15; a marker and a fixed count of hex
# digits for larger numbers (marker: digits, offset); '.' for a hidden number; g-z for
# 1-20 empty cells.
_HEX = "0123456789abcdef"
_LONG = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "@": (3, 8192), "%": (3, 8192),
         "*": (4, 12240), "$": (5, 77776)}


def decode_number16(body: str, n: int, start: int = 0, what: str = "") -> tuple[list[Any], int]:
    """The ``n`` cells of a Number16 run that begins at ``body[start]``, and the position
    after it: a number, ``"?"`` or None (empty) per cell. A character pzprjs never writes
    there, a run past the last cell or a body that ends before the last cell is a
    PuzzleError naming its position (``what`` names the puzzle in it)."""
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
                raise body_error(pos, f"{ch!r} must be followed by {k} lower-case hex "
                                      f"digits, got {digits!r}")
            vals[i] = base + int(digits, 16)
            i += 1
            pos += 1 + k
        elif ch == ".":
            vals[i] = "?"
            i += 1
            pos += 1
        elif "g" <= ch <= "z":
            run = int(ch, 36) - 15
            if i + run > n:
                raise _run_past_end(pos, ch, run, i, n)
            i += run
            pos += 1
        else:
            # pzprjs skips such characters silently (using no cell)
            raise body_error(pos, f"character {ch!r} is not allowed in a "
                                  f"{what or 'numbers'} body (expected 0-9, a-f, '.', '-', "
                                  "'+', '=', '@', '%', '*', '$' or g-z)")
    if i < n:
        raise _short(body, i, n)
    return vals, pos


def decode_number10(body: str, n: int, what: str = "") -> list[Any]:
    """The ``n`` cells of a whole Number10 body (PUZZLINK.md §3.2): a digit is that
    number, ``.`` a hidden one (``"?"``), ``a``-``z`` a run of 1-26 empty cells (None).
    pzprjs reads any other character as one empty cell; it never writes one, so here it
    is a PuzzleError naming its position, as are a run past the last cell, too few cells
    and characters after the last one."""
    vals: list[Any] = [None] * n
    i = 0
    for pos, ch in enumerate(body):
        if i >= n:
            expect_end(body, pos, n)
        if "0" <= ch <= "9":
            vals[i] = ord(ch) - 48
            i += 1
        elif ch == ".":
            vals[i] = "?"
            i += 1
        elif "a" <= ch <= "z":
            run = ord(ch) - 96
            if i + run > n:
                raise _run_past_end(pos, ch, run, i, n)
            i += run
        else:
            raise body_error(pos, f"character {ch!r} is not allowed in a {what or 'Number10'} "
                                  "body (expected 0-9, '.' or a-z)")
    if i < n:
        raise _short(body, i, n)
    return vals


# Region borders (PUZZLINK.md §3.3): base-32 digits, 5 bits each, first bit highest; the
# vertical borders, then the horizontal ones, each list padded with 0 bits.
B32 = "0123456789abcdefghijklmnopqrstuv"


def _border_bits(body: str, start: int, n: int, which: str) -> tuple[list[int], int]:
    chars = -(-n // 5)
    out: list[int] = []
    for k in range(chars):
        pos = start + k
        if pos >= len(body):
            raise body_error(pos, f"the body ends inside the {which} borders, which take "
                                  f"{chars} character(s) from position {start}")
        v = B32.find(body[pos])
        if v < 0:
            raise body_error(pos, f"border character {body[pos]!r} is not a base-32 digit "
                                  "(0-9, a-v)")
        bits = [(v >> (4 - b)) & 1 for b in range(5)]
        used = min(5, n - 5 * k)
        if any(bits[used:]):
            raise body_error(pos, f"border character {body[pos]!r} sets {5 - used} padding "
                                  f"bit(s) past the last of the {n} {which} borders; pzprjs "
                                  "writes them as 0")
        out.extend(bits[:used])
    return out, start + chars


def decode_borders(body: str, w: int, h: int) -> tuple[list[int], list[int], int]:
    """The border bits of a ``w``×``h`` board at the start of ``body`` — vertical
    (``vert[r*(w-1)+c]`` right of (r, c)), horizontal (``horiz[r*w+c]`` below (r, c)) —
    and the position after them."""
    vert, pos = _border_bits(body, 0, (w - 1) * h, "vertical")
    horiz, pos = _border_bits(body, pos, w * (h - 1), "horizontal")
    return vert, horiz, pos
