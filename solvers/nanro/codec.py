"""puzz.link URLs (pid ``nanro``: region borders, then numbers) and pzprv3 files.

The URL body is the border bit lists of PUZZLINK.md §3.3 followed by the Number16 cell
list of §3.1; a ``.`` is a ``?`` given. pzprv3 files (§5.3) come in the old layout (room
count and room ids) and the current one (border blocks); both carry givens and an answer.
"""

from __future__ import annotations

from solvers.common import PuzzleError
from solvers.grid import Clue
from solvers.puzzlink import (
    B32,
    decode_borders,
    decode_number16,
    encode_cells,
    expect_end,
    join_url,
    split_url,
)

from .board import Answer, Board

PID = "nanro"


def _pack(bits: list[int]) -> str:
    out = []
    for i in range(0, len(bits), 5):
        grp = bits[i:i + 5] + [0] * (5 - len(bits[i:i + 5]))
        out.append(B32[sum(b << (4 - k) for k, b in enumerate(grp))])
    return "".join(out)


def rooms_from_borders(h: int, w: int, vert: list[int], horiz: list[int]) -> list[list[int]]:
    """Region ids (first appearance) from border bits: vert[r*(w-1)+c] right of (r, c),
    horiz[r*w+c] below (r, c)."""
    ids = [[-1] * w for _ in range(h)]
    nxt = 0
    for r in range(h):
        for c in range(w):
            if ids[r][c] >= 0:
                continue
            ids[r][c] = nxt
            stack = [(r, c)]
            while stack:
                a, b = stack.pop()
                steps = []
                if b + 1 < w and not vert[a * (w - 1) + b]:
                    steps.append((a, b + 1))
                if b > 0 and not vert[a * (w - 1) + b - 1]:
                    steps.append((a, b - 1))
                if a + 1 < h and not horiz[a * w + b]:
                    steps.append((a + 1, b))
                if a > 0 and not horiz[(a - 1) * w + b]:
                    steps.append((a - 1, b))
                for x, y in steps:
                    if ids[x][y] < 0:
                        ids[x][y] = nxt
                        stack.append((x, y))
            nxt += 1
    return ids


def decode(url: str) -> Board:
    """A puzz.link / pzv.jp URL (or the bare ``nanro/W/H/body``) -> Board."""
    w, h, body = split_url(url, PID)
    vert, horiz, start = decode_borders(body, w, h)
    regions = rooms_from_borders(h, w, vert, horiz)
    flat, end = decode_number16(body, h * w, start, "Nanro")
    expect_end(body, end, h * w)
    sizes: dict[int, int] = {}
    for row in regions:
        for v in row:
            sizes[v] = sizes.get(v, 0) + 1
    for i, v in enumerate(flat):
        if isinstance(v, int) and not 1 <= v <= sizes[regions[i // w][i % w]]:
            raise PuzzleError(f"URL gives {v} at row {i // w}, column {i % w}, outside 1 to "
                              f"its region's size {sizes[regions[i // w][i % w]]}")
    return Board(h, w, tuple(tuple(r) for r in regions),
                 tuple(tuple(flat[r * w:(r + 1) * w]) for r in range(h)))


def _write(v: Clue) -> str:
    if v == "?":
        return "."
    assert isinstance(v, int)
    if 0 <= v < 16:
        return format(v, "x")
    if v < 256:
        return "-" + format(v, "02x")
    if v < 4096:
        return "+" + format(v, "03x")
    raise PuzzleError(f"clue {v} is too large for a Nanro URL")


def border_bits(board: Board) -> tuple[list[int], list[int]]:
    g, h, w = board.regions, board.h, board.w
    vert = [int(g[r][c] != g[r][c + 1]) for r in range(h) for c in range(w - 1)]
    horiz = [int(g[r][c] != g[r + 1][c]) for r in range(h - 1) for c in range(w)]
    return vert, horiz


def encode(board: Board) -> str:
    """The URL pzprjs writes for this board (label hints have no place in it)."""
    if any(v is not None for v in board.labels):
        raise PuzzleError("label hints cannot be written in a puzz.link URL")
    vert, horiz = border_bits(board)
    body = _pack(vert) + _pack(horiz) + encode_cells(board.clues, "g", 20, _write)
    return join_url(PID, board.w, board.h, body)


def read_pzprv3(text: str) -> tuple[Board, Answer]:
    """A pzprv3 file (lines or ``/``-separated, old or current layout) -> board and the
    answer it holds: givens, solver numbers and ``+`` marks are numbered cells."""
    if "\n" in text:
        lines = [ln.strip() for ln in text.strip().splitlines()]
    else:
        lines = [p.strip() for p in text.strip().split("/")]
        lines = [p for p in lines if p != ""]
    if len(lines) < 4 or not lines[0].startswith("pzprv3") or lines[1] != PID:
        raise PuzzleError("not a pzprv3 Nanro file (expected 'pzprv3', 'nanro', H, W)")
    try:
        h, w = int(lines[2]), int(lines[3])
    except ValueError as e:
        raise PuzzleError(f"pzprv3 size lines {lines[2]!r} {lines[3]!r} are not numbers") from e
    rest = lines[4:]
    try:
        if lines[0] == "pzprv3":
            raw = [[int(t) for t in ln.split()] for ln in rest[1:1 + h]]
            regions = rooms_from_borders(
                h, w, [int(raw[r][c] != raw[r][c + 1]) for r in range(h) for c in range(w - 1)],
                [int(raw[r][c] != raw[r + 1][c]) for r in range(h - 1) for c in range(w)])
            rest = rest[1 + h:]
        else:
            vert = [int(t) for ln in rest[:h] for t in ln.split()]
            horiz = [int(t) for ln in rest[h:2 * h - 1] for t in ln.split()]
            regions = rooms_from_borders(h, w, [int(b == 1) for b in vert],
                                         [int(b == 1) for b in horiz])
            rest = rest[2 * h - 1:]
    except (ValueError, IndexError) as e:
        raise PuzzleError(f"pzprv3 region block is malformed: {e}") from e
    if len(rest) < 2 * h:
        raise PuzzleError(f"pzprv3 file needs {h} lines of givens and {h} of answer")
    clues: list[list[Clue]] = []
    cells = set()
    for r in range(h):
        giv, ans = rest[r].split(), rest[h + r].split()
        if len(giv) != w or len(ans) != w:
            raise PuzzleError(f"pzprv3 row {r} does not have {w} tokens")
        line: list[Clue] = []
        for c in range(w):
            g = giv[c]
            line.append(None if g == "." else "?" if g == "-" else int(g))
            if g != "." or ans[c] == "+" or ans[c].isdigit():
                cells.add((r, c))
        clues.append(line)
    board = Board(h, w, tuple(tuple(r) for r in regions), tuple(tuple(r) for r in clues))
    return board, Answer(h, w, frozenset(cells))
