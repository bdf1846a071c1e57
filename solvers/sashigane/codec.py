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
    """A puzz.link / pzv.jp / pzprxs URL (or the bare ``sashigane/W/H/body``) -> Board."""
    w, h, body = split_url(url, PID)
    n = w * h
    cells = [NOTHING] * n
    i = pos = 0
    while i < n and pos < len(body):
        ch = body[pos]
        if ch in _HEX:
            cells[i] = Clue(CIRCLE, int(ch, 16))
        elif ch == "-":
            digits = body[pos + 1:pos + 3]
            if len(digits) != 2 or any(d not in _HEX for d in digits.lower()):
                raise PuzzleError(f"URL body: '-' at position {pos} must be followed by two "
                                  f"hex digits, got {digits!r}")
            cells[i] = Clue(CIRCLE, int(digits, 16))
            pos += 2
        elif ch == ".":
            cells[i] = Clue(CIRCLE, None)
        elif ch in "@%":
            cells[i] = Clue(MARK)
        elif ch in _LETTER_DIR:
            cells[i] = Clue(ARROW, _LETTER_DIR[ch])
        elif "k" <= ch <= "z":
            i += int(ch, 36) - 19 - 1
        elif not (ch.isascii() and ch.isprintable()):
            raise PuzzleError(f"URL body character {ch!r} at position {pos} is not valid")
        # any other printable character uses one cell and sets nothing (as pzprjs)
        i += 1
        pos += 1
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
