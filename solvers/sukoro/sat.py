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

from itertools import product

from solvers.satcut import SatResult, neighbours, solve_with_cuts

from .board import Answer, Board


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
            cls.extend([-vs[a], -vs[b]] for b in range(a + 1, 4))   # at most one value
        nb = neighbours(h, w, i)
        for k in range(1, 5):
            if k > len(nb):
                cls.append([-val(i, k)])
                continue
            # forbid every neighbour pattern whose count of numbers is not k
            cls.extend([-val(i, k)] + [-num(j) if b else num(j)
                                       for j, b in zip(nb, bits, strict=True)]
                       for bits in product((0, 1), repeat=len(nb)) if sum(bits) != k)
        if neq:
            for j in nb:
                if j > i:
                    cls.extend([-val(i, k), -val(j, k)] for k in range(1, 5))
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

    def values(model: list[int], on: set[int]) -> list[int]:
        out = [0] * n
        for i in on:
            out[i] = next(k for k in range(1, 5) if model[n + 4 * i + k - 1] > 0)
        return out

    # the shape fixes the values, so blocking the shape blocks the answer
    return solve_with_cuts(encode(board, neq), h, w, limit, values, connect=connect)


def confirm(board: Board, answer: Answer) -> bool:
    """Is ``answer`` the one and only answer of ``board``, by the SAT engine alone?"""
    res = solve_sat(board, limit=2)
    return len(res.answers) == 1 and res.answers[0] == answer.flat()
