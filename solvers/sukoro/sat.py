"""A third, independent engine: Sukoro as a SAT problem (python-sat), with connectivity
added lazily as cuts.

It shares no code with the ladder or the scanner. Variables: ``n_i`` (cell i holds a
number) and ``v_{i,k}`` (cell i holds k, for k = 1..4). A cell holds a number exactly when
it holds one of the four values; a cell holding k has exactly k numbered neighbours
(written out over the 2^deg patterns of its neighbours); equal values never touch; a
printed clue fixes its value. Connectivity is not encoded up front: when the solver
returns numbers in several groups, each group G gets a cut "if a cell of G and a numbered
cell outside G both hold numbers, some neighbour of G does", which every answer obeys.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from pysat.solvers import Solver

from .board import Answer, Board

SOLVER = "cadical153"


@dataclass
class SatResult:
    """Answers found (value lists, 0 = blank; at most ``limit``), solver calls, cuts."""

    answers: list[list[int]]
    calls: int
    cuts: int


def _neighbours(h: int, w: int, i: int) -> list[int]:
    r, c = divmod(i, w)
    out = []
    if r > 0:
        out.append(i - w)
    if r + 1 < h:
        out.append(i + w)
    if c > 0:
        out.append(i - 1)
    if c + 1 < w:
        out.append(i + 1)
    return out


def _groups(h: int, w: int, cells: set[int]) -> list[set[int]]:
    out = []
    left = set(cells)
    while left:
        start = min(left)
        group = {start}
        todo = [start]
        while todo:
            i = todo.pop()
            for j in _neighbours(h, w, i):
                if j in left and j not in group:
                    group.add(j)
                    todo.append(j)
        left -= group
        out.append(group)
    return out


def encode(board: Board, neq: bool = True) -> list[list[int]]:
    """Clauses for every rule except connectivity. ``n_i`` is variable i + 1 and
    ``v_{i,k}`` is n + 4 i + k."""
    h, w = board.h, board.w
    n = h * w

    def num(i: int) -> int:
        return i + 1

    def val(i: int, k: int) -> int:
        return n + 4 * i + k

    cls: list[list[int]] = []
    for i in range(n):
        vs = [val(i, k) for k in range(1, 5)]
        cls.append([-num(i)] + vs)                      # numbered -> some value
        for a in range(4):
            cls.append([-vs[a], num(i)])                # a value -> numbered
            for b in range(a + 1, 4):
                cls.append([-vs[a], -vs[b]])            # at most one value
        nb = _neighbours(h, w, i)
        for k in range(1, 5):
            if k > len(nb):
                cls.append([-val(i, k)])
                continue
            # forbid every neighbour pattern whose count of numbers is not k
            for bits in product((0, 1), repeat=len(nb)):
                if sum(bits) != k:
                    cls.append([-val(i, k)] + [-num(j) if b else num(j)
                                               for j, b in zip(nb, bits)])
        if neq:
            for j in nb:
                if j > i:
                    for k in range(1, 5):
                        cls.append([-val(i, k), -val(j, k)])
    for i, v in enumerate(board.flat()):
        if v == "?":
            cls.append([num(i)])
        elif isinstance(v, int):
            cls.append([val(i, v)] if 1 <= v <= 4 else [])
    cls.append([num(i) for i in range(n)])              # an answer has a number
    return cls


def solve_sat(board: Board, limit: int = 2, *, neq: bool = True,
              connect: bool = True) -> SatResult:
    """Up to ``limit`` answers of ``board`` under the rules in force."""
    h, w = board.h, board.w
    n = h * w
    found: list[list[int]] = []
    calls = cuts = 0
    with Solver(name=SOLVER, bootstrap_with=encode(board, neq)) as s:
        while len(found) < limit:
            calls += 1
            if not s.solve():
                break
            model = s.get_model()
            on = {i for i in range(n) if model[i] > 0}
            groups = _groups(h, w, on)
            if connect and len(groups) > 1:
                for k, g in enumerate(groups):
                    other = min(groups[(k + 1) % len(groups)])
                    border = {j for i in g for j in _neighbours(h, w, i)} - g
                    s.add_clause([-(min(g) + 1), -(other + 1)] + [j + 1 for j in sorted(border)])
                    cuts += 1
                continue
            values = [0] * n
            for i in on:
                values[i] = next(k for k in range(1, 5) if model[n + 4 * i + k - 1] > 0)
            found.append(values)
            # the shape fixes the values, so blocking the shape blocks the answer
            s.add_clause([-(i + 1) if i in on else i + 1 for i in range(n)])
    return SatResult(found, calls, cuts)


def confirm(board: Board, answer: Answer) -> bool:
    """Is ``answer`` the one and only answer of ``board``, by the SAT engine alone?"""
    res = solve_sat(board, limit=2)
    return len(res.answers) == 1 and res.answers[0] == answer.flat()
