"""A random board with a unique answer.

The loop is the outline of a random region of cells grown from one cell: a cell joins
the region only while the cells outside it stay joined to the board's edge (no hole)
and no 2×2 block becomes a checkerboard (the outline would touch itself at a corner),
so the outline is one simple loop. Every cell then shows its count of loop sides, and
the clues are taken away in a seeded random order, each removal kept only while the
ladder still finds exactly one answer.
"""

from __future__ import annotations

import random

from .board import Answer, Board, layout
from .ladder import solve


def _outside_joined(inside: list[bool], h: int, w: int) -> bool:
    n = h * w
    seen = [False] * n
    stack = []
    for i in range(n):
        r, c = divmod(i, w)
        if not inside[i] and (r in (0, h - 1) or c in (0, w - 1)):
            seen[i] = True
            stack.append(i)
    while stack:
        i = stack.pop()
        r, c = divmod(i, w)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < h and 0 <= cc < w:
                j = rr * w + cc
                if not inside[j] and not seen[j]:
                    seen[j] = True
                    stack.append(j)
    return all(seen[i] or inside[i] for i in range(n))


def _checker(inside: list[bool], h: int, w: int, r: int, c: int) -> bool:
    """A 2×2 block around (r, c) that is a checkerboard (off the board counts outside)."""
    def at(y: int, x: int) -> bool:
        return 0 <= y < h and 0 <= x < w and inside[y * w + x]
    for y in (r - 1, r):
        for x in (c - 1, c):
            a, b, cc, d = at(y, x), at(y, x + 1), at(y + 1, x), at(y + 1, x + 1)
            if a == d and b == cc and a != b:
                return True
    return False


def random_region(h: int, w: int, rng: random.Random, share: float) -> list[bool]:
    n = h * w
    inside = [False] * n
    inside[rng.randrange(n)] = True
    size, target = 1, max(1, round(share * n))
    fails = 0
    while size < target and fails < 20 * n:
        i = rng.randrange(n)
        if inside[i]:
            continue
        r, c = divmod(i, w)
        k = sum(1 for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < h and 0 <= cc < w and inside[rr * w + cc])
        # a cell with one inside neighbour grows arms; more neighbours fill in bays
        if k == 0 or (k > 1 and rng.random() < 0.7):
            fails += 1
            continue
        inside[i] = True
        if _checker(inside, h, w, r, c) or not _outside_joined(inside, h, w):
            inside[i] = False
            fails += 1
            continue
        size += 1
    return inside


def loop_of(inside: list[bool], h: int, w: int) -> Answer:
    """The region's outline as an answer."""
    lay = layout(h, w)
    on = [0] * lay.ne
    for e in range(lay.ne):
        cells = lay.edge_cells[e]
        ins = sum(1 for i in cells if inside[i])
        if len(cells) == 1:
            on[e] = ins
        else:
            on[e] = 1 if ins == 1 else 0
    return Answer(h, w, tuple(on))


def full_clues(answer: Answer) -> list[int]:
    lay = layout(answer.h, answer.w)
    return [sum(answer.on[e] for e in es) for es in lay.cell_edges]


def generate(h: int, w: int, rng: random.Random, share: float | None = None,
             keep: float = 0.0) -> tuple[Board, Answer]:
    """A board whose one answer is a random loop. ``share``: the part of the cells inside
    the loop (default drawn from 0.35-0.6); ``keep``: the chance that a clue is kept
    without trying to take it away (0: as few clues as the order allows)."""
    if share is None:
        share = rng.uniform(0.35, 0.6)
    while True:
        inside = random_region(h, w, rng, share)
        if sum(inside) >= 1:
            break
    answer = loop_of(inside, h, w)
    clues: list = list(full_clues(answer))
    order = list(range(h * w))
    rng.shuffle(order)
    for i in order:
        if keep and rng.random() < keep:
            continue
        v = clues[i]
        clues[i] = None
        res = solve(Board.from_flat(h, w, clues), limit=2, grade=False)
        if len(res.solutions) != 1:
            clues[i] = v
    return Board.from_flat(h, w, clues), answer
