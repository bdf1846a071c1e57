"""The generator: a random partition, a random legal answer, clues revealed until the
target rung completes, then every clue that is not needed taken back.
"""

from __future__ import annotations

import random

from solvers.grid import Clue, cell_neighbours

from .board import Answer, Board, region_counts
from .ladder import LEVEL, RUNGS, completes, random_answer


def random_partition(h: int, w: int, rng: random.Random, lo: int = 2, hi: int = 4,
                     tries: int = 200) -> list[list[int]] | None:
    """Regions of sizes lo..hi grown from the first free cell in reading order toward a
    random target size; a region left too small joins a neighbour when that fits."""
    for _ in range(tries):
        ids = [[-1] * w for _ in range(h)]
        sizes: list[int] = []
        ok = True
        for r0 in range(h):
            for c0 in range(w):
                if ids[r0][c0] >= 0:
                    continue
                k = len(sizes)
                target = rng.randint(lo, hi)
                ids[r0][c0] = k
                cells = [(r0, c0)]
                while len(cells) < target:
                    front = sorted({(x, y) for a, b in cells
                                    for x, y in cell_neighbours(h, w, a, b) if ids[x][y] < 0})
                    if not front:
                        break
                    x, y = rng.choice(front)
                    ids[x][y] = k
                    cells.append((x, y))
                sizes.append(len(cells))
                if len(cells) < lo:
                    near = sorted({ids[x][y] for a, b in cells
                                   for x, y in cell_neighbours(h, w, a, b)
                                   if 0 <= ids[x][y] != k and sizes[ids[x][y]] + len(cells) <= hi})
                    if not near:
                        ok = False
                        break
                    j = rng.choice(near)
                    for a, b in cells:
                        ids[a][b] = j
                    sizes[j] += len(cells)
                    sizes[k] = 0
            if not ok:
                break
        if ok:
            return ids
    return None


def full_board(board: Board, answer: Answer) -> list[Clue]:
    """Every clue the answer can print: each numbered cell with its region's count."""
    counts = region_counts(board, answer)
    fr = board.flat_regions()
    return [counts[fr[i]] if v else None for i, v in enumerate(answer.flat())]


def reveal(board: Board, answer: Answer, level: int, rng: random.Random) -> Board | None:
    """Reveal full clues at random until the rungs up to ``level`` complete the board,
    then take back every clue not needed (random order). None if even all clues fail."""
    full = full_board(board, answer)
    order = [i for i, v in enumerate(full) if v is not None]
    rng.shuffle(order)

    def prefix(k: int) -> Board:
        flat: list[Clue] = [None] * len(full)
        for i in order[:k]:
            flat[i] = full[i]
        return board.with_clues(flat)

    if not completes(prefix(len(order)), level):
        return None
    lo, hi = 0, len(order)          # completion is monotone in the revealed prefix
    while lo < hi:
        mid = (lo + hi) // 2
        if completes(prefix(mid), level):
            hi = mid
        else:
            lo = mid + 1
    flat = list(prefix(lo).flat())
    kept = [i for i in order if flat[i] is not None]
    rng.shuffle(kept)
    for i in kept:
        keep = flat[i]
        flat[i] = None
        if not completes(board.with_clues(flat), level):
            flat[i] = keep
    return board.with_clues(flat)


def grade(board: Board) -> str:
    """The weakest rung that completes the board ("search" if none does)."""
    for name in RUNGS[:-1]:
        if completes(board, name):
            return name
    return "search"


def make_answer(h: int, w: int, rng: random.Random, lo: int = 2, hi: int = 4
                ) -> tuple[Board, Answer] | None:
    """A random partition and a random legal answer of it (None when none was found)."""
    regions = random_partition(h, w, rng, lo, hi)
    if regions is None:
        return None
    empty = Board.blank(regions)
    ans = random_answer(empty, rng)
    return (empty, ans) if ans is not None else None


def generate(h: int, w: int, rng: random.Random, target: str = "probe",
             lo: int = 2, hi: int = 4) -> tuple[Board, Answer]:
    """A board whose clues are minimal for the rungs up to ``target``."""
    while True:
        made = make_answer(h, w, rng, lo, hi)
        if made is None:
            continue
        empty, ans = made
        b = reveal(empty, ans, LEVEL[target], rng)
        if b is not None:
            return b, ans


__all__ = ["full_board", "generate", "grade", "make_answer", "random_partition", "reveal"]
