"""The generator: a random L tiling, a circle on every corner, one arrow per piece by a
convention, every number printed, then numbers removed one at a time while the board
keeps exactly one answer.

Random tilings come from a randomized depth-first walk (``random_tiling``); the tiling a
board is drawn from is its answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import ARROW, CIRCLE, NOTHING, Answer, Board, Clue
from .fit import shapes
from .ladder import solve


@dataclass(frozen=True)
class Piece:
    mask: int
    corner: int
    ends: tuple[int, int]         # (vertical arm end, horizontal arm end)
    toward: tuple[str, str]
    arms: tuple[int, int]         # arm lengths (corner excluded), same order

    @property
    def size(self) -> int:
        return self.arms[0] + self.arms[1] + 1


def _piece_of(h: int, w: int, mask: int) -> Piece:
    all_shapes, _, by_cell = shapes(h, w)
    cell = (mask & -mask).bit_length() - 1
    for si in by_cell[cell]:
        s = all_shapes[si]
        if s.mask == mask:
            return Piece(mask, s.corner, s.ends, s.toward,
                         (s.arms[0].bit_count(), s.arms[1].bit_count()))
    raise ValueError("not an L")


def random_tiling(h: int, w: int, rng: random.Random, node_cap: int = 1000) -> list[Piece]:
    """A random L tiling of the h×w board, pieces in reading order of their first cell.

    Depth-first in reading order: at the first free cell try, in random order, every L
    that starts there and fits; after a placement every free neighbour of the new piece
    must still fit some L, else the try is undone. A walk past ``node_cap`` tries starts
    over (with the random stream moved on)."""
    all_shapes, _, by_cell = shapes(h, w)
    full = (1 << (h * w)) - 1
    starts: list[list[int]] = []
    for cell in range(h * w):
        below = (1 << cell) - 1
        starts.append([all_shapes[si].mask for si in by_cell[cell]
                       if not all_shapes[si].mask & below])
    cover = [[all_shapes[si].mask for si in by_cell[cell]] for cell in range(h * w)]
    while True:
        placed = _walk(h, w, full, starts, cover, rng, node_cap)
        if placed is not None:
            return [_piece_of(h, w, m) for m in sorted(placed, key=lambda m: m & -m)]


def _walk(h: int, w: int, full: int, starts: list[list[int]], cover: list[list[int]],
          rng: random.Random, node_cap: int) -> list[int] | None:
    placed: list[int] = []
    nodes = 0

    def ok(free: int, m: int) -> bool:
        edge = _grow(h, w, m) & free
        while edge:
            low = edge & -edge
            edge ^= low
            if not any(x & free == x for x in cover[low.bit_length() - 1]):
                return False
        return True

    def rec(free: int) -> bool:
        nonlocal nodes
        if not free:
            return True
        cell = (free & -free).bit_length() - 1
        opts = [m for m in starts[cell] if m & free == m]
        rng.shuffle(opts)
        for m in opts:
            nodes += 1
            if nodes > node_cap:
                return False
            rest = free & ~m
            if not ok(rest, m):
                continue
            placed.append(m)
            if rec(rest):
                return True
            placed.pop()
        return False

    return placed if rec(full) else None


def _grow(h: int, w: int, a: int) -> int:
    return ((a << w) | (a >> w) | ((a << 1) & ~_col(h, w, 0)) |
            ((a >> 1) & ~_col(h, w, w - 1))) & ~a & ((1 << (h * w)) - 1)


_COLS: dict[tuple[int, int, int], int] = {}


def _col(h: int, w: int, c: int) -> int:
    key = (h, w, c)
    if key not in _COLS:
        _COLS[key] = sum(1 << (r * w + c) for r in range(h))
    return _COLS[key]


def arrow_choice(piece: Piece, convention: str, rng: random.Random) -> int:
    """Which end carries the arrow: 0 = vertical arm's end, 1 = horizontal arm's end.
    ``long``/``short`` pick the end of the longer/shorter arm (a coin decides a tie)."""
    v, hz = piece.arms
    if convention == "coin" or v == hz:
        return rng.randrange(2)
    longer = 0 if v > hz else 1
    return longer if convention == "long" else 1 - longer


def print_board(h: int, w: int, pieces: list[Piece], choice: list[int],
                numbers: bool = True) -> Board:
    """Circles on the corners (numbered with the sizes if ``numbers``), one arrow per
    piece on the chosen end; seed rules."""
    cells: list[Clue] = [NOTHING] * (h * w)
    for p, k in zip(pieces, choice, strict=True):
        cells[p.corner] = Clue(CIRCLE, p.size if numbers else None)
        cells[p.ends[k]] = Clue(ARROW, p.toward[k])
    return Board(h, w, tuple(cells), "seed")


def unique(board: Board) -> bool:
    return len(solve(board, limit=2).solutions) == 1


def minimize(board: Board, rng: random.Random) -> Board:
    """Remove numbers one at a time, in random order, while the answer stays unique."""
    cells = list(board.cells)
    order = [i for i, k in enumerate(cells) if k.kind == CIRCLE and k.value is not None]
    rng.shuffle(order)
    for i in order:
        keep = cells[i]
        cells[i] = Clue(CIRCLE, None)
        if not unique(Board(board.h, board.w, tuple(cells), board.rules)):
            cells[i] = keep
    return Board(board.h, board.w, tuple(cells), board.rules)


def answer_of(h: int, w: int, pieces: list[Piece]) -> Answer:
    """The answer a tiling draws (pieces numbered in reading order of their first cell)."""
    labels = [-1] * (h * w)
    for k, p in enumerate(pieces):
        m = p.mask
        while m:
            low = m & -m
            labels[low.bit_length() - 1] = k
            m ^= low
    return Answer.from_labels(h, w, labels)


def generate(h: int, w: int, rng: random.Random, convention: str = "coin"
             ) -> tuple[Board, Answer]:
    """A minimized seed-rules board and its one answer: the tiling it was drawn from
    (removing numbers keeps the answer unique, so the tiling is that answer)."""
    while True:
        pieces = random_tiling(h, w, rng)
        choice = [arrow_choice(p, convention, rng) for p in pieces]
        full = print_board(h, w, pieces, choice)
        if unique(full):
            return minimize(full, rng), answer_of(h, w, pieces)
