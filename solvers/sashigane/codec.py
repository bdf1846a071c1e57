"""puzz.link URLs (PUZZLINK.md §4.4) and pzprv3 answer files (§5.5) for Sashigane.

URLs carry puzz.link's standard rules; a decoded board has ``rules="standard"``.
"""

from __future__ import annotations

from solvers.common import PuzzleError
from solvers.puzzlink import join_url, split_url

from .board import ARROW, CIRCLE, MARK, NOTHING, Answer, Board, Clue

PID = "sashigane"
_LETTER_DIR = {"g": "up", "h": "down", "i": "left", "j": "right"}
_DIR_LETTER = {d: k for k, d in _LETTER_DIR.items()}
_FILE_DIR = {"1": "up", "2": "down", "3": "left", "4": "right"}
_HEX = "0123456789abcdef"


def decode(url: str) -> Board:
    """A puzz.link / pzv.jp / pzprxs URL (or the bare ``sashigane/W/H/body``) -> Board.

    The body is read as pzprjs reads it, and only bodies that name every cell exactly
    once are taken: a character outside the alphabet, a ``-`` without two hex digits, an
    empty run that goes past the last cell, characters after the last cell, or a body
    that ends before the last cell is a PuzzleError naming the position (counted from 1
    in the body). pzprjs would skip the first, stop quietly at the others, and so read
    a board its own writer never gives for that body."""
    w, h, body = split_url(url, PID)
    n = w * h
    cells = [NOTHING] * n
    i = pos = 0

    def at(p: int) -> str:
        return f"URL body position {p + 1}"

    while pos < len(body):
        ch = body[pos]
        if i >= n:
            raise PuzzleError(f"{at(pos)}: {ch!r} comes after the last of the {n} cells "
                              f"({w}×{h}); the body should end at position {pos}")
        if ch in _HEX:
            cells[i] = Clue(CIRCLE, int(ch, 16))
        elif ch == "-":
            digits = body[pos + 1:pos + 3]
            if len(digits) != 2 or any(d not in _HEX for d in digits):
                raise PuzzleError(f"{at(pos)}: '-' must be followed by two hex digits "
                                  f"(0-9, a-f), got {digits!r}")
            cells[i] = Clue(CIRCLE, int(digits, 16))
            pos += 2
        elif ch == ".":
            cells[i] = Clue(CIRCLE, None)
        elif ch in "@%":
            cells[i] = Clue(MARK)
        elif ch in _LETTER_DIR:
            cells[i] = Clue(ARROW, _LETTER_DIR[ch])
        elif "k" <= ch <= "z":
            run = int(ch, 36) - 19
            if i + run > n:
                raise PuzzleError(f"{at(pos)}: {ch!r} is a run of {run} empty cells, but "
                                  f"{n - i} of the {n} cells are left")
            i += run - 1
        else:
            raise PuzzleError(f"{at(pos)}: character {ch!r} is not part of a Sashigane "
                              "body (0-9 a-f - . @ % g-j k-z)")
        i += 1
        pos += 1
    if i < n:
        raise PuzzleError(f"URL body ends after {len(body)} characters with {n - i} of the "
                          f"{n} cells ({w}×{h}) not reached; pzprjs writes a run letter "
                          "(k-z) for every empty cell")
    return Board(h, w, tuple(cells), "standard")


def _write(k: Clue) -> str:
    if k.kind == CIRCLE:
        v = k.value
        if v is None or v >= 256:
            return "."
        return _HEX[v] if v < 16 else f"-{v:02x}"
    if k.kind == ARROW:
        return _DIR_LETTER[k.value]
    if k.kind == MARK:
        return "@"
    raise AssertionError(k)


def encode(board: Board) -> str:
    """The URL pzprjs writes for this board (the rule variant is not part of a URL)."""
    out: list[str] = []
    run = 0
    for k in board.cells:
        if k.kind == 0:
            run += 1
            if run == 16:
                out.append("z")
                run = 0
            continue
        if run:
            out.append(chr(ord("k") + run - 1))
            run = 0
        out.append(_write(k))
    if run:
        out.append(chr(ord("k") + run - 1))
    return join_url(PID, board.w, board.h, "".join(out))


def read_pzprv3(text: str) -> tuple[Board, Answer]:
    """A pzprv3 Sashigane file (newlines, or ``/`` as in pzprjs's test scripts) -> the
    board (standard rules) and the answer its borders draw (``1``/``2`` = border)."""
    lines = [ln for ln in text.replace("/", "\n").splitlines()]
    if len(lines) < 4 or not lines[0].startswith("pzprv3") or lines[1].strip() != PID:
        raise PuzzleError("not a pzprv3 Sashigane file (expected 'pzprv3', 'sashigane', "
                          "rows, columns)")
    try:
        h, w = int(lines[2]), int(lines[3])
    except ValueError as err:
        raise PuzzleError("pzprv3 rows and columns must be whole numbers") from err
    body = lines[4:]

    def block(start: int, nrows: int, ncols: int, what: str) -> list[list[str]]:
        rows = []
        for r in range(nrows):
            toks = body[start + r].split() if start + r < len(body) else []
            if toks and len(toks) != ncols:
                raise PuzzleError(f"pzprv3 {what} line {r} has {len(toks)} tokens, "
                                  f"expected {ncols}")
            rows.append(toks or ["0"] * ncols)
        return rows

    cells = []
    for r, row in enumerate(block(0, h, w, "cell")):
        for c, tok in enumerate(row):
            if tok in _FILE_DIR:
                cells.append(Clue(ARROW, _FILE_DIR[tok]))
            elif tok == "-":
                cells.append(Clue(MARK))
            elif tok in (".", "0", "#", "_"):
                cells.append(NOTHING)
            else:
                cells.append(Clue.parse(tok, f"pzprv3 cell (row {r}, column {c})"))
    board = Board(h, w, tuple(cells), "standard")
    vert = [[int(t in ("1", "2")) for t in row] for row in block(h, h, w - 1, "border")]
    horz = [[int(t in ("1", "2")) for t in row] for row in block(2 * h, h - 1, w, "border")]
    return board, Answer.from_borders(h, w, vert, horz)
