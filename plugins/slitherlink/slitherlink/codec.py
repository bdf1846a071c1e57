"""Slitherlink's puzz.link URLs: ``slither/W/H/body`` (pzprjs's slither.js, decode4Cell).

The body lists cells in reading order. ``0``-``4`` is a clue followed by no empty cell,
``5``-``9`` a clue (value - 5) followed by one empty cell, ``a``-``e`` a clue (value - 10)
followed by two, ``.`` a hidden clue (``?``), ``g``-``z`` a run of 1-20 empty cells.
pzprjs writes a clue with the longest skip that the next cells allow, a run of empty
cells as one letter (a run of 20 written out at once), and nothing after the last cell.
"""

from __future__ import annotations

from solvers.common import PuzzleError
from solvers.puzzlink import body_error, expect_end, join_url, split_url

from .board import Board

PID = "slither"


def decode(url: str) -> Board:
    """A puzz.link / pzv.jp / pzprxs URL (or the bare ``slither/W/H/body``) -> Board; a
    body pzprjs would not have written is a PuzzleError naming the position at fault."""
    w, h, body = split_url(url, PID)
    n = w * h
    vals: list = [None] * n
    i = 0
    for pos, ch in enumerate(body):
        if i >= n:
            expect_end(body, pos, n)
        skip = 0
        if "0" <= ch <= "4":
            vals[i] = ord(ch) - 48
        elif "5" <= ch <= "9":
            vals[i], skip = ord(ch) - 53, 1
        elif "a" <= ch <= "e":
            vals[i], skip = ord(ch) - 97, 2
        elif ch == ".":
            vals[i] = "?"
        elif "g" <= ch <= "z":
            skip = int(ch, 36) - 15
        else:
            raise body_error(pos, f"character {ch!r} is not allowed in a Slitherlink body "
                                  "(expected 0-9, a-e, '.' or g-z)")
        if skip and vals[i] is None and i + skip > n:
            raise body_error(pos, f"{ch!r} stands for {skip} empty cell(s), but only {n - i} "
                                  f"of the board's {n} cells are left")
        if vals[i] is None:
            skip -= 1
        # a clue's skip may run past the last cell: pzprjs writes the last clues so
        i = min(n, i + 1 + skip)
    if i < n:
        raise body_error(len(body), f"the body ends with {i} of the board's {n} cells "
                                    "written; pzprjs writes every cell")
    _canonical(body, vals, n)
    return Board.from_flat(h, w, vals)


def _canonical(body: str, vals: list, n: int) -> None:
    """Refuse a body that reads as a board but is not what pzprjs writes for it (a clue
    with a shorter skip than the empty cells after it allow, a run split in two)."""
    want = _body(vals)
    if want != body:
        pos = next((k for k, (a, b) in enumerate(zip(body, want, strict=False)) if a != b),
                   min(len(body), len(want)))
        raise body_error(pos, f"pzprjs writes this board as {want[max(0, pos - 4):pos + 8]!r} "
                              f"from position {max(0, pos - 4)}, not "
                              f"{body[max(0, pos - 4):pos + 8]!r}")


def _body(vals: list) -> str:
    n = len(vals)
    out: list[str] = []
    run = 0
    c = 0
    while c < n:
        v = vals[c]
        piece = ""
        if v is None:
            run += 1
        elif v == "?":
            piece = "."
        else:
            if not (isinstance(v, int) and 0 <= v <= 4):
                raise PuzzleError(f"clue {v!r} cannot be written in a Slitherlink URL "
                                  "(0-4 or '?' only)")
            if c + 1 < n and vals[c + 1] is not None:
                piece = str(v)
            elif c + 2 < n and vals[c + 2] is not None:
                piece = str(5 + v)
                c += 1
            else:
                piece = "abcde"[v]
                c += 2
        if run and (piece or run == 20):
            out.append(chr(ord("f") + run))
            run = 0
        out.append(piece)
        c += 1
    if run:
        out.append(chr(ord("f") + run))
    return "".join(out)


def encode(board: Board) -> str:
    """The URL pzprjs writes for this board."""
    return join_url(PID, board.w, board.h, _body(board.flat()))
