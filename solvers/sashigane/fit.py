"""The ladder's first rung, ``fit``: every L that a circle (or, under the standard rules,
no circle) could own, as bitmask candidates.

An L is stored once per board size with its corner, its two arm ends, the direction from
each end toward the corner, and the masks of its two arms (end included, corner not).
``Rules`` names the clauses in force, so that the stats can drop one at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from solvers.common import Frozen, Record

from .board import ARROW, CIRCLE, Board


class Rules(Frozen):
    """The clauses in force. ``variant``: ``seed`` (one circle and one arrow per piece)
    or ``standard`` (puzz.link: clueless pieces and a second arrow allowed)."""

    __slots__ = ("corner", "end", "number", "point", "variant")
    _fields = ("variant", "point", "end", "corner", "number")
    variant: str
    point: bool      # an arrow points along its arm toward the corner
    end: bool        # an arrow sits on an arm end
    corner: bool     # a circle sits on the corner
    number: bool     # a number is its piece's size

    def __init__(self, variant: str = "seed", point: bool = True, end: bool = True,
                 corner: bool = True, number: bool = True) -> None:
        init = object.__setattr__
        init(self, "variant", variant)
        init(self, "point", point)
        init(self, "end", end)
        init(self, "corner", corner)
        init(self, "number", number)


SEED = Rules()
STANDARD = Rules("standard")


def rules_of(board: Board) -> Rules:
    return SEED if board.rules == "seed" else STANDARD


class Shape(Frozen):
    __slots__ = ("arms", "corner", "ends", "mask", "size", "toward")
    _fields = ("mask", "corner", "size", "ends", "toward", "arms")
    mask: int
    corner: int
    size: int
    ends: tuple[int, int]         # (vertical arm end, horizontal arm end)
    toward: tuple[str, str]       # direction from each end toward the corner
    arms: tuple[int, int]         # masks of the vertical and horizontal arm

    def __init__(self, mask: int, corner: int, size: int, ends: tuple[int, int],
                 toward: tuple[str, str], arms: tuple[int, int]) -> None:
        init = object.__setattr__
        init(self, "mask", mask)
        init(self, "corner", corner)
        init(self, "size", size)
        init(self, "ends", ends)
        init(self, "toward", toward)
        init(self, "arms", arms)


@lru_cache(maxsize=4)  # bounded: one entry of a 100x100 board is hundreds of MB
def shapes(h: int, w: int) -> tuple[tuple[Shape, ...], tuple[tuple[int, ...], ...],
                                    tuple[tuple[int, ...], ...]]:
    """All L placements on an h×w board, plus their indices by corner and by cell."""
    out: list[Shape] = []
    for r in range(h):
        for c in range(w):
            corner = r * w + c
            for vd in (-1, 1):
                for hd in (-1, 1):
                    for a in range(1, h):
                        re = r + vd * a
                        if not 0 <= re < h:
                            break
                        varm = 0
                        for k in range(1, a + 1):
                            varm |= 1 << ((r + vd * k) * w + c)
                        for b in range(1, w):
                            ce = c + hd * b
                            if not 0 <= ce < w:
                                break
                            harm = 0
                            for k in range(1, b + 1):
                                harm |= 1 << (r * w + c + hd * k)
                            out.append(Shape(
                                varm | harm | 1 << corner, corner, a + b + 1,
                                (re * w + c, r * w + ce),
                                ("down" if vd < 0 else "up", "right" if hd < 0 else "left"),
                                (varm, harm)))
    by_corner: list[list[int]] = [[] for _ in range(h * w)]
    by_cell: list[list[int]] = [[] for _ in range(h * w)]
    for i, s in enumerate(out):
        by_corner[s.corner].append(i)
        m = s.mask
        while m:
            low = m & -m
            by_cell[low.bit_length() - 1].append(i)
            m ^= low
    return tuple(out), tuple(map(tuple, by_corner)), tuple(map(tuple, by_cell))


class Candidates(Record):
    """The fit rung's output: candidate masks, the circle (group) each belongs to (``-1``
    for a clueless standard piece), and per group its printed number (or None)."""

    _fields = ("h", "w", "masks", "group", "sizes", "circles", "numbers")
    h: int
    w: int
    masks: list[int]
    group: list[int]
    sizes: list[int]
    circles: list[int]            # cell of each group's circle
    numbers: list[int | None]

    def __init__(self, h: int, w: int, masks: list[int], group: list[int], sizes: list[int],
                 circles: list[int], numbers: list[int | None]) -> None:
        self.h, self.w, self.masks, self.group = h, w, masks, group
        self.sizes, self.circles, self.numbers = sizes, circles, numbers


def _arrow_ok(board: Board, s: Shape, i: int, rules: Rules) -> bool:
    d = board.cells[i].value
    bit = 1 << i
    if rules.end:
        if i == s.ends[0]:
            return not rules.point or d == s.toward[0]
        if i == s.ends[1]:
            return not rules.point or d == s.toward[1]
        return False
    if not rules.point:
        return True
    if s.arms[0] & bit:
        return d == s.toward[0]
    if s.arms[1] & bit:
        return d == s.toward[1]
    return False


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def _corner_ls(h: int, w: int, corner: int, wall: int, stop: int,
               size: int | None) -> Iterator[tuple[int, int, int, int, int, str, str]]:
    """The L placements with their corner at ``corner``, in the order ``shapes`` lists
    them (arm directions, then vertical length, then horizontal length), as (mask, size,
    vertical arm, horizontal arm, ...ends, ...directions toward the corner).

    An arm never grows onto a ``wall`` cell, nor past a ``stop`` cell: every longer arm
    would hold that cell too, and the caller rejects every such piece. With ``size``,
    only placements of that many cells."""
    r, c = divmod(corner, w)
    for vd in (-1, 1):
        vto = "down" if vd < 0 else "up"
        for hd in (-1, 1):
            hto = "right" if hd < 0 else "left"
            varm = 0
            for a in range(1, h):
                re = r + vd * a
                if not 0 <= re < h:
                    break
                vend = re * w + c
                vbit = 1 << vend
                if wall & vbit:
                    break
                varm |= vbit
                harm = 0
                for b in range(1, w):
                    ce = c + hd * b
                    if not 0 <= ce < w:
                        break
                    hend = r * w + ce
                    hbit = 1 << hend
                    if wall & hbit:
                        break
                    harm |= hbit
                    n = a + b + 1
                    if size is None or n == size:
                        # 8 fields, the annotation above names 7 (the fields are right)
                        yield (varm | harm | 1 << corner, n, varm, harm, vend, hend, vto, hto)  # type: ignore[misc]
                    if stop & hbit or (size is not None and n >= size):
                        break
                if stop & vbit or (size is not None and a + 3 > size):
                    break


def fit(board: Board, rules: Rules | None = None) -> Candidates:
    """Every L each circle could own under ``rules`` (and, for the standard variant,
    every clueless-circle L): the candidates the higher rungs then prune.

    With the corner rule, the Ls are built around each circle's corner on the spot, their
    arms stopped at the first other circle (and, when arrows must sit on arm ends, just
    after the first arrow), so the cost follows the candidates, not the h²w² Ls of the
    board: a 30×30 board's first solve took 6 s building the table of every L."""
    rules = rules or rules_of(board)
    if not rules.corner:
        return _fit_by_cell(board, rules)
    h, w = board.h, board.w
    circ = board.circles()
    cmask = amask = 0
    for i, k in enumerate(board.cells):
        if k.kind == CIRCLE:
            cmask |= 1 << i
        elif k.kind == ARROW:
            amask |= 1 << i
    seed = rules.variant == "seed"
    stop = amask if rules.end else 0
    cells = board.cells
    masks: list[int] = []
    group: list[int] = []
    sizes: list[int] = []

    def arrows_ok(m: int, vend: int, hend: int, vto: str, hto: str, varm: int) -> bool:
        am = m & amask
        if seed and (am == 0 or am & (am - 1)):
            return False
        while am:
            low = am & -am
            am ^= low
            i = low.bit_length() - 1
            d = cells[i].value
            if rules.end:
                if i == vend:
                    ok = not rules.point or d == vto
                elif i == hend:
                    ok = not rules.point or d == hto
                else:
                    ok = False
            elif not rules.point:
                ok = True
            else:
                ok = d == (vto if varm & low else hto)
            if not ok:
                return False
        return True

    for g, c in enumerate(circ):
        n = cells[c].value
        want = n if rules.number and n is not None and n > 0 else None
        # _corner_ls yields 8-tuples; its annotation says 7 (see there)
        for m, size, varm, _harm, vend, hend, vto, hto in _corner_ls(  # type: ignore[misc]
                h, w, c, cmask & ~(1 << c), stop, want):
            if arrows_ok(m, vend, hend, vto, hto, varm):
                masks.append(m)
                group.append(g)
                sizes.append(size)
    if not seed:
        # clueless pieces: no circle anywhere, and no arrow on the corner when arrows
        # must sit on arm ends (with no rule on where they sit, the corner is fine)
        skip = cmask | (amask if rules.end or rules.point else 0)
        for c in range(h * w):
            if skip >> c & 1:
                continue
            # _corner_ls yields 8-tuples; its annotation says 7 (see there)
            for m, size, varm, _harm, vend, hend, vto, hto in _corner_ls(  # type: ignore[misc]
                    h, w, c, cmask, stop, None):
                if arrows_ok(m, vend, hend, vto, hto, varm):
                    masks.append(m)
                    group.append(-1)
                    sizes.append(size)
    numbers = [cells[c].value if rules.number else None for c in circ]
    return Candidates(h, w, masks, group, sizes, circ, numbers)


def _fit_by_cell(board: Board, rules: Rules) -> Candidates:
    """``fit`` without the corner rule (a stats variant): a circle may sit anywhere on
    its L, so every L through it is tried, from the whole table."""
    h, w = board.h, board.w
    all_shapes, by_corner, by_cell = shapes(h, w)
    circ = board.circles()
    cmask = amask = 0
    for i, k in enumerate(board.cells):
        if k.kind == CIRCLE:
            cmask |= 1 << i
        elif k.kind == ARROW:
            amask |= 1 << i
    seed = rules.variant == "seed"
    masks: list[int] = []
    group: list[int] = []
    sizes: list[int] = []

    def consider(si: int, g: int) -> None:
        s = all_shapes[si]
        m = s.mask
        cm = m & cmask
        if g >= 0:
            if cm != 1 << circ[g]:
                return
            n = board.cells[circ[g]].value
            if rules.number and n is not None and n > 0 and n != s.size:
                return
            if rules.corner and circ[g] != s.corner:
                return
        elif cm:
            return
        am = m & amask
        if seed and (am == 0 or am & (am - 1)):
            return
        for i in _bits(am):
            if not _arrow_ok(board, s, i, rules):
                return
        masks.append(m)
        group.append(g)
        sizes.append(s.size)

    for g, c in enumerate(circ):
        for si in (by_corner[c] if rules.corner else by_cell[c]):
            consider(si, g)
    if not seed:
        for si in range(len(all_shapes)):
            if not all_shapes[si].mask & cmask:
                consider(si, -1)
    numbers = [board.cells[c].value if rules.number else None for c in circ]
    return Candidates(h, w, masks, group, sizes, circ, numbers)
