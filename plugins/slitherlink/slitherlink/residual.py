"""The ladder's last step: what the rungs left open, handed to a SAT solver.

One variable per edge (``e + 1``: edge e is a line); the edges the rungs decided are
units. A clue's four sides and a grid corner's edges forbid every way with the wrong
count (a corner: 1, 3 or 4 lines), and one clause asks for some line.

The loop must be single. Two encodings of that are kept, ``ENCODING`` choosing:

* ``"colours"`` (the default): one more variable per cell (``ne + i + 1``: cell i is
  inside), a line exactly where the colours of its two cells differ (beyond the board is
  outside). A model is then closed curves, and it is one loop exactly when the inside
  cells are one group and every outside group reaches the board's edge. Every model that
  is not one loop is cut, all its faults in the same call: an inside group G with inside
  cells elsewhere gets "not (a cell of G and a cell of another group) unless a cell
  next to G is inside"; an outside group that does not reach the edge gets "its first
  cell inside, or a cell next to it outside". The cuts stay in the solver for every
  later call, and each holds for every model with the same fault at any place where
  the group's neighbours are all of the other colour, not only for this model's lines.
* ``"edges"``: lines only; each loop C of a model that is not the whole answer gets
  "not every edge of C" (a single loop holding every edge of C is C itself).

A model that is one loop is an answer, blocked by "not every one of its lines" to ask
for the next. MiniSat (python-sat) answers the short incremental calls fastest; it is
driven through python-sat's compiled module itself (``pysolvers``), whose import costs
a few milliseconds where ``pysat.solvers`` costs tens (a ``build-site solve`` process is
mostly start-up on small boards); without it, ``solvers.satcut``'s choice serves (the
pure-Python solver where python-sat is absent or switched off).
"""

from __future__ import annotations

import os
import sys
from itertools import product
from typing import Any, Self

from solvers.bitconn import Grid
from solvers.common import node

from .board import Answer, layout

SOLVER = "minisat22"
ENCODING = "colours"

# solvers.satcut's NO_SAT_ENV, read here without importing satcut until it serves (its
# dataclasses import costs a build-site solve process more than a small board's solve)
NO_SAT_ENV = "PUZZLE_NO_SAT"


def _forbid(vars_: tuple[int, ...], bad: tuple[int, ...]) -> list[list[int]]:
    return [[-v if b else v for v, b in zip(vars_, bits, strict=True)]
            for bits in product((0, 1), repeat=len(vars_)) if sum(bits) in bad]


def clauses(h: int, w: int, clue: list[int], state: bytes | bytearray,
            colours: bool = False) -> list[list[int]]:
    lay = layout(h, w)
    cls: list[list[int]] = []
    for i, k in enumerate(clue):
        if k >= 0:
            vs = tuple(e + 1 for e in lay.cell_edges[i])
            cls += _forbid(vs, tuple(n for n in range(5) if n != k))
    for es in lay.vertex_edges:
        cls += _forbid(tuple(e + 1 for e in es), (1, 3, 4))
    cls.append([e + 1 for e in range(lay.ne)])
    for e, x in enumerate(state):
        if x == 1:
            cls.append([e + 1])
        elif x == 2:
            cls.append([-(e + 1)])
    if colours:
        ne = lay.ne
        for e, cells in enumerate(lay.edge_cells):
            x = e + 1
            if len(cells) == 1:             # on the outline: a line where the cell is inside
                a = ne + cells[0] + 1
                cls += [[-x, a], [x, -a]]
            else:
                a, b = ne + cells[0] + 1, ne + cells[1] + 1
                cls += [[-x, a, b], [-x, -a, -b], [x, -a, b], [x, a, -b]]
    return cls


class _MiniSat:
    """The four calls the loops below make, on python-sat's compiled MiniSat."""

    def __init__(self, lib: Any, clauses: list[list[int]]) -> None:
        self.lib = lib
        self.s = lib.minisat22_new()
        for c in clauses:
            lib.minisat22_add_cl(self.s, c)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.lib.minisat22_del(self.s)

    def add_clause(self, clause: list[int]) -> None:
        self.lib.minisat22_add_cl(self.s, clause)

    def solve(self) -> bool:
        # the main thread (where MiniSat may take over SIGINT): threading is not imported
        # for this (a solve process that never started a thread is on its main one)
        threading = sys.modules.get("threading")
        main = threading is None or threading.current_thread() is threading.main_thread()
        return bool(self.lib.minisat22_solve(self.s, [], int(main)))

    def get_model(self) -> list[int]:
        return self.lib.minisat22_model(self.s) or []


def _solver(clauses: list[list[int]]) -> Any:
    """MiniSat straight from python-sat's compiled module when it is there (and not
    switched off, as ``solvers.satcut.sat_available`` reads the switch), else
    ``solvers.satcut.solver``."""
    if SOLVER == "minisat22" and os.environ.get(NO_SAT_ENV, "") in ("", "0"):
        try:
            import pysolvers  # type: ignore[import-not-found]  # python-sat's compiled part
        except ImportError:
            pysolvers = None
        if pysolvers is not None and hasattr(pysolvers, "minisat22_new"):
            return _MiniSat(pysolvers, clauses)
    from solvers.satcut import solver
    return solver(SOLVER, clauses)


def loops(lay, on: list[int]) -> list[list[int]]:
    """The connected pieces of the lines ``on`` (a model's: every one a loop)."""
    onset = set(on)
    seen: set[int] = set()
    out = []
    for e0 in on:
        if e0 in seen:
            continue
        seen.add(e0)
        stack, comp = [e0], []
        while stack:
            e = stack.pop()
            comp.append(e)
            for v in lay.edge_ends[e]:
                for f in lay.vertex_edges[v]:
                    if f in onset and f not in seen:
                        seen.add(f)
                        stack.append(f)
        out.append(comp)
    return out


def solve_residual(h: int, w: int, clue: list[int], state: bytes | bytearray,
                   limit: int, counter: list[int], encoding: str | None = None
                   ) -> list[Answer]:
    """Up to ``limit`` answers that extend the rungs' ``state``."""
    if (encoding or ENCODING) == "colours":
        return _solve_colours(h, w, clue, state, limit, counter)
    return _solve_edges(h, w, clue, state, limit, counter)


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


_GRIDS: dict[tuple[int, int], tuple[Grid, int]] = {}


def _grid(h: int, w: int) -> tuple[Grid, int]:
    """The bitboard grid of H×W cells and the mask of the cells on the board's edge."""
    got = _GRIDS.get((h, w))
    if got is None:
        g = Grid(h, w)
        ring = sum(1 << i for i in range(h * w)
                   if i < w or i >= (h - 1) * w or i % w in (0, w - 1))
        got = _GRIDS[(h, w)] = (g, ring)
    return got


def _solve_colours(h: int, w: int, clue: list[int], state: bytes | bytearray,
                   limit: int, counter: list[int]) -> list[Answer]:
    lay = layout(h, w)
    ne, n = lay.ne, h * w
    grid, ring = _grid(h, w)
    full = grid.full
    found: list[Answer] = []
    with _solver(clauses(h, w, clue, state, colours=True)) as s:
        while len(found) < limit:
            node()
            counter[0] += 1
            if not s.solve():
                break
            model = s.get_model()
            inside = int("".join("1" if x > 0 else "0" for x in reversed(model[ne:ne + n])), 2)
            parts = []
            left = inside
            while left:
                g = grid.flood(left & -left, left)
                parts.append(g)
                left ^= g
            holes = []
            left = full & ~inside
            while left:
                g = grid.flood(left & -left, left)
                if not g & ring:
                    holes.append(g)
                left ^= g
            if len(parts) == 1 and not holes:
                on = [e for e in range(ne) if model[e] > 0]
                found.append(Answer.from_edges(h, w, on))
                s.add_clause([-(e + 1) for e in on])
                continue
            if len(parts) > 1:
                for k, g in enumerate(parts):
                    other = parts[(k + 1) % len(parts)]
                    first = (g & -g).bit_length() - 1
                    y = (other & -other).bit_length() - 1
                    border = grid.grow(g, full) & ~g
                    s.add_clause([-(ne + first + 1), -(ne + y + 1)]
                                 + [ne + j + 1 for j in _bits(border)])
            for g in holes:
                first = (g & -g).bit_length() - 1
                border = grid.grow(g, full) & ~g
                s.add_clause([ne + first + 1] + [-(ne + j + 1) for j in _bits(border)])
    return found


def _solve_edges(h: int, w: int, clue: list[int], state: bytes | bytearray,
                 limit: int, counter: list[int]) -> list[Answer]:
    lay = layout(h, w)
    found: list[Answer] = []
    seen: set[tuple[int, ...]] = set()
    with _solver(clauses(h, w, clue, state)) as s:
        while len(found) < limit:
            node()
            counter[0] += 1
            if not s.solve():
                break
            model = s.get_model()
            on = [e for e in range(lay.ne) if model[e] > 0]
            comps = loops(lay, on)
            for comp in comps:
                comp.sort()
                if len(comps) == 1 or _alone(lay, clue, state, comp):
                    key = tuple(comp)
                    if key not in seen:
                        seen.add(key)
                        found.append(Answer.from_edges(h, w, comp))
                s.add_clause([-(e + 1) for e in comp])
    return found[:limit]


def _alone(lay, clue: list[int], state, comp: list[int]) -> bool:
    """Whether the loop ``comp`` by itself is an answer."""
    on = set(comp)
    if any(x == 1 and e not in on for e, x in enumerate(state)):
        return False
    return all(k < 0 or sum(1 for e in lay.cell_edges[i] if e in on) == k
               for i, k in enumerate(clue))
