"""An independent SAT encoding (python-sat, CaDiCaL): shares no code with the ladder,
its SAT step (``residual.py``) or the second engine.

The variables are colours, not lines: ``i + 1`` says cell i is inside the loop. A side
is a line when the cells on its two sides differ (beyond the board is outside), so a
clue forbids every colouring of its cell and its four neighbours with the wrong number of
differences, and no 2×2 block is a checkerboard. One cell at least is inside. The two
sides must each be joined, cut lazily: an inside group G of a model with inside cells
elsewhere gets "not (g and y) unless a neighbour of G is inside"; an outside group that
does not reach the board's edge gets "o inside, or a neighbour of the group outside".
A model with both sides joined is an answer; its colouring is blocked to ask for the
next.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from solvers.common import SolveResult, node

from .board import Answer, Board

SOLVER = "cadical153"


def _neighbours(h: int, w: int, i: int) -> list[int]:
    r, c = divmod(i, w)
    return [rr * w + cc if 0 <= rr < h and 0 <= cc < w else -1
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))]


def encode(board: Board) -> list[list[int]]:
    h, w = board.h, board.w
    n = h * w
    cls: list[list[int]] = []
    for i, k in enumerate(board.flat()):
        if not isinstance(k, int):
            continue
        nb = _neighbours(h, w, i)
        inner = [j for j in nb if j >= 0]
        outer = len(nb) - len(inner)        # neighbours beyond the board: outside
        for me in (0, 1):
            for bits in product((0, 1), repeat=len(inner)):
                diff = sum(1 for b in bits if b != me) + (outer if me else 0)
                if diff != k:
                    lits = [-(i + 1) if me else i + 1]
                    lits += [-(j + 1) if b else j + 1 for j, b in zip(inner, bits, strict=True)]
                    cls.append(lits)
    for r in range(h - 1):
        for c in range(w - 1):
            a, b, x, d = r * w + c + 1, r * w + c + 2, (r + 1) * w + c + 1, (r + 1) * w + c + 2
            cls.append([-a, -d, b, x])
            cls.append([a, d, -b, -x])
    cls.append([i + 1 for i in range(n)])
    return cls


def _groups(h: int, w: int, cells: set[int]) -> list[list[int]]:
    seen: set[int] = set()
    out = []
    for s in sorted(cells):
        if s in seen:
            continue
        seen.add(s)
        stack, g = [s], []
        while stack:
            i = stack.pop()
            g.append(i)
            for j in _neighbours(h, w, i):
                if j in cells and j not in seen:
                    seen.add(j)
                    stack.append(j)
        out.append(sorted(g))
    return out


class SatResult(SolveResult):
    """The answers (``solutions``; ``answers``: their edge tuples), solver calls, cuts."""

    __slots__ = ("answers", "calls", "cuts")

    def __init__(self, solutions: list[Answer], calls: int, cuts: int) -> None:
        super().__init__(solutions, nodes=calls, stats={"nodes": "solver calls"})
        self.answers = [a.on for a in solutions]
        self.calls, self.cuts = calls, cuts


def solve_sat(board: Board, limit: int = 2) -> SatResult:
    from pysat.solvers import Solver

    h, w = board.h, board.w
    n = h * w
    found: list[Answer] = []
    calls = cuts = 0
    with Solver(name=SOLVER, bootstrap_with=encode(board)) as s:
        while len(found) < limit:
            node()
            calls += 1
            if not s.solve():
                break
            model = s.get_model()
            inside = {i for i in range(n) if model[i] > 0}
            outside = set(range(n)) - inside
            ins = _groups(h, w, inside)
            holes = [g for g in _groups(h, w, outside)
                     if not any(-1 in _neighbours(h, w, i) for i in g)]
            if len(ins) == 1 and not holes:
                found.append(_answer(h, w, inside))
                s.add_clause([-(i + 1) if i in inside else i + 1 for i in range(n)])
                continue
            if len(ins) > 1:
                for k, g in enumerate(ins):
                    y = ins[(k + 1) % len(ins)][0]
                    gs = set(g)
                    border = sorted({j for i in g for j in _neighbours(h, w, i)
                                     if j >= 0 and j not in gs})
                    s.add_clause([-(g[0] + 1), -(y + 1)] + [j + 1 for j in border])
                    cuts += 1
            for g in holes:
                gs = set(g)
                border = sorted({j for i in g for j in _neighbours(h, w, i)
                                 if j >= 0 and j not in gs})
                s.add_clause([g[0] + 1] + [-(j + 1) for j in border])
                cuts += 1
    return SatResult(found, calls, cuts)


def _answer(h: int, w: int, inside: set[int]) -> Answer:
    def at(r: int, c: int) -> bool:
        return 0 <= r < h and 0 <= c < w and (r * w + c) in inside
    vert = ["".join("1" if at(r, x - 1) != at(r, x) else "0" for x in range(w + 1))
            for r in range(h)]
    horiz = ["".join("1" if at(y - 1, c) != at(y, c) else "0" for c in range(w))
             for y in range(h + 1)]
    return Answer.from_json({"vert": vert, "horiz": horiz})


def confirm(board: Any, answer: Any) -> bool:
    """The banked answer is the board's only one, by this encoding alone."""
    res = solve_sat(board, limit=2)
    return len(res.solutions) == 1 and res.solutions[0] == answer
