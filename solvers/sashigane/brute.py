"""Engine 2, the scanner: walk the cells in reading order; at the first cell no piece
covers yet, try every L whose first cell (in reading order) it is. No circle variables,
no propagation, no code shared with the ladder: its own L geometry, its own clue check.

The first cell of an L in reading order is its top-left-most cell, so the four shapes
grow from it as: corner with arms right and down (┌); left end of a top arm whose corner
is on the right (┐); top end of an arm going down to a corner with an arm to the right
(└) or to the left (┘).
"""

from __future__ import annotations

import random
from functools import lru_cache

from solvers.common import SolveResult, node

from .board import Answer, Board

# A placed piece: (cell mask, corner, vertical end, horizontal end,
#                  direction from the vertical end to the corner, from the horizontal end)
Piece = tuple[int, int, int, int, str, str]


@lru_cache(maxsize=4)  # bounded: tables of large boards are big
def anchored(h: int, w: int) -> tuple[tuple[Piece, ...], ...]:
    """For each cell, every L whose reading-order-first cell it is."""
    out: list[tuple[Piece, ...]] = []
    for r in range(h):
        for c in range(w):
            here: list[Piece] = []

            def bit(rr: int, cc: int) -> int:
                return 1 << (rr * w + cc)

            for down in range(1, h - r):
                col = 0
                for k in range(down + 1):
                    col |= bit(r + k, c)
                # ┌ corner (r, c): right arm b, down arm `down`
                for b in range(1, w - c):
                    row = 0
                    for k in range(1, b + 1):
                        row |= bit(r, c + k)
                    here.append((col | row, r * w + c, (r + down) * w + c, r * w + c + b,
                                 "up", "left"))
                # ┐ corner (r, c+b): top arm from (r, c), down arm in column c+b
                for b in range(1, w - c):
                    m = 0
                    for k in range(b + 1):
                        m |= bit(r, c + k)
                    for k in range(1, down + 1):
                        m |= bit(r + k, c + b)
                    here.append((m, r * w + c + b, (r + down) * w + c + b, r * w + c,
                                 "up", "right"))
                # └ and ┘: corner (r+down, c), arm right or left
                for b in range(1, w - c):
                    m = col
                    for k in range(1, b + 1):
                        m |= bit(r + down, c + k)
                    here.append((m, (r + down) * w + c, r * w + c, (r + down) * w + c + b,
                                 "down", "left"))
                for b in range(1, c + 1):
                    m = col
                    for k in range(1, b + 1):
                        m |= bit(r + down, c - k)
                    here.append((m, (r + down) * w + c, r * w + c, (r + down) * w + c - b,
                                 "down", "right"))
            out.append(tuple(here))
    return tuple(out)


_ARROW = {"^": "up", "v": "down", "<": "left", ">": "right"}


def _clue_table(board: Board) -> tuple[list[tuple[str, object]], int]:
    """Per cell ('o', number|None), ('a', direction) or ('', None); plus the clue mask."""
    table: list[tuple[str, object]] = []
    mask = 0
    for i, k in enumerate(board.cells):
        tok = k.token()
        if tok.startswith("o"):
            table.append(("o", int(tok[1:]) if len(tok) > 1 else None))
            mask |= 1 << i
        elif tok in _ARROW:
            table.append(("a", _ARROW[tok]))
            mask |= 1 << i
        else:
            table.append(("", None))
    return table, mask


def _piece_ok(piece: Piece, table: list[tuple[str, object]], clues: int, seed: bool) -> bool:
    m, corner, vend, hend, vdir, hdir = piece
    hit = m & clues
    circles = arrows = 0
    size = m.bit_count()
    while hit:
        low = hit & -hit
        i = low.bit_length() - 1
        hit ^= low
        kind, val = table[i]
        if kind == "o":
            circles += 1
            if i != corner or circles > 1:
                return False
            # a circle's val is its number or None (the table says object for all kinds)
            if val is not None and val > 0 and val != size:  # type: ignore[operator]
                return False
        else:
            arrows += 1
            if i == vend:
                if val != vdir:
                    return False
            elif i == hend:
                if val != hdir:
                    return False
            else:
                return False
    if seed:
        return circles == 1 and arrows == 1
    return True


def scan(board: Board, limit: int | None = 2, tilings: bool = False,
         rng: random.Random | None = None, node_cap: int | None = None
         ) -> tuple[list[list[Piece]], int]:
    """Answers as piece lists (up to ``limit``) and the nodes visited. ``tilings``
    ignores every clue (plain L tilings); ``rng`` shuffles the order of tries."""
    h, w = board.h, board.w
    full = (1 << (h * w)) - 1
    table, clues = _clue_table(board)
    seed = board.rules == "seed"
    options = []
    for cell_opts in anchored(h, w):
        ok = [p for p in cell_opts if tilings or _piece_ok(p, table, clues, seed)]
        options.append(ok)
    out: list[list[Piece]] = []
    placed: list[Piece] = []
    nodes = 0

    def rec(covered: int) -> bool:
        nonlocal nodes
        if covered == full:
            out.append(list(placed))
            return limit is not None and len(out) >= limit
        free = ~covered & full
        cell = (free & -free).bit_length() - 1
        opts = options[cell]
        if rng is not None:
            opts = list(opts)
            rng.shuffle(opts)
        for p in opts:
            if p[0] & covered:
                continue
            nodes += 1
            node()
            if node_cap is not None and nodes > node_cap:
                return True
            placed.append(p)
            stop = rec(covered | p[0])
            placed.pop()
            if stop:
                return True
        return False

    rec(0)
    return out, nodes


def pieces_to_answer(h: int, w: int, pieces: list[Piece]) -> Answer:
    lab = [-1] * (h * w)
    for k, p in enumerate(pieces):
        m = p[0]
        for i in range(h * w):
            if m >> i & 1:
                lab[i] = k
    return Answer.from_labels(h, w, lab)


def brute(board: Board, limit: int | None = 2) -> SolveResult:
    sols, nodes = scan(board, limit)
    return SolveResult([pieces_to_answer(board.h, board.w, s) for s in sols], nodes,
                       "search")


def count_tilings(h: int, w: int) -> tuple[int, int]:
    """(number of L tilings of an empty h×w board, most pieces in one), by the scanner
    with a memo on the covered set (the first free cell follows from it)."""
    full = (1 << (h * w)) - 1
    opts = [[p[0] for p in cell] for cell in anchored(h, w)]
    memo: dict[int, tuple[int, int]] = {}

    def rec(covered: int) -> tuple[int, int]:
        if covered == full:
            return 1, 0
        got = memo.get(covered)
        if got is not None:
            return got
        free = ~covered & full
        cell = (free & -free).bit_length() - 1
        n = 0
        most = -1
        for m in opts[cell]:
            if not m & covered:
                cn, cm = rec(covered | m)
                if cn:
                    n += cn
                    most = max(most, cm + 1)
        memo[covered] = (n, most)
        return n, most

    return rec(0)
