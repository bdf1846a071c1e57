"""Random canals and boards: grow a connected 2x2-free canal, number every dry cell, then
remove numbers one at a time in random order while the answer stays unique."""

from __future__ import annotations

import random

from solvers.grid import neighbours

from .board import Answer, Board
from .ladder import solve
from .rules import seen_runs


def random_canal(rng: random.Random, h: int, w: int, frac: float = 0.5) -> int:
    """A connected, 2x2-free set of about ``frac`` of the cells, grown from a random cell."""
    n = h * w
    target = max(1, round(n * frac))
    start = rng.randrange(n)
    canal = {start}
    mask = 1 << start

    def ok(i: int) -> bool:
        r, c = divmod(i, w)
        m = mask | (1 << i)
        for rr in (r - 1, r):
            for cc in (c - 1, c):
                if 0 <= rr < h - 1 and 0 <= cc < w - 1:
                    j = rr * w + cc
                    if m >> j & 1 and m >> (j + 1) & 1 and m >> (j + w) & 1 \
                            and m >> (j + w + 1) & 1:
                        return False
        return True

    nbrs = neighbours(h, w)
    while len(canal) < target:
        frontier = {j for i in canal for j in nbrs[i] if j not in canal}
        cands = sorted(i for i in frontier if ok(i))
        if not cands:
            break
        i = rng.choice(cands)
        canal.add(i)
        mask |= 1 << i
    return mask


def full_board(h: int, w: int, mask: int) -> Board:
    """Every dry cell numbered with what it sees."""
    grid = [[None if mask >> (r * w + c) & 1 else sum(seen_runs(h, w, mask, r, c))
             for c in range(w)] for r in range(h)]
    return Board(h, w, tuple(tuple(row) for row in grid))


def with_clues(board: Board, keep: set) -> Board:
    grid = [[board.clues[r][c] if (r, c) in keep else None for c in range(board.w)]
            for r in range(board.h)]
    return Board(board.h, board.w, tuple(tuple(row) for row in grid))


def is_unique(board: Board) -> bool:
    return len(solve(board, limit=2).solutions) == 1


def reduce_board(rng: random.Random, board: Board) -> Board:
    """Remove numbers in random order while unique; every survivor's removal was refused."""
    keep = set(board.clue_cells())
    order = sorted(keep)
    rng.shuffle(order)
    for cell in order:
        keep.discard(cell)
        if not is_unique(with_clues(board, keep)):
            keep.add(cell)
    return with_clues(board, keep)


def generate(h: int, w: int, rng: random.Random) -> tuple[Board, Answer]:
    """A unique, locally minimal h x w board and its answer (redraws a canal that is not
    unique even with every dry cell numbered)."""
    while True:
        mask = random_canal(rng, h, w, rng.uniform(0.45, 0.55))
        full = full_board(h, w, mask)
        if not is_unique(full):
            continue
        return reduce_board(rng, full), Answer(h, w, mask)
