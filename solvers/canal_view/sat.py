"""A third, independent engine: Canal View as a SAT problem (python-sat), with the canal's
connectivity added lazily as cuts.

It shares no code with the ladder or the second engine. One variable per cell (flooded);
for every number and direction, prefix variables ``p_k`` = "the first k cells of the ray
are all flooded", and the number equals the count of true prefix variables over its four
rays (a cardinality constraint). Connectivity is not encoded up front: when the solver
returns a disconnected canal, each piece C gets a cut "if a cell of C and a cell outside
C are both flooded, some neighbour of C is flooded", which every connected answer obeys.
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from solvers.satcut import SatResult, solve_with_cuts

from .board import Answer, Board


def encode(board: Board, pool: IDPool) -> list[list[int]]:
    """Clauses for every rule except connectivity. Cell i is variable i + 1."""
    h, w = board.h, board.w
    n = h * w
    for i in range(n):
        pool.id(("x", i))
    x = [i + 1 for i in range(n)]
    cls: list[list[int]] = []
    for r in range(h - 1):
        for c in range(w - 1):
            i = r * w + c
            cls.append([-x[i], -x[i + 1], -x[i + w], -x[i + w + 1]])
    for r in range(h):
        for c in range(w):
            v = board.clues[r][c]
            if v is None:
                continue
            i = r * w + c
            cls.append([-x[i]])
            if v == "?":
                continue
            prefixes: list[int] = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                prev = None
                rr, cc = r + dr, c + dc
                k = 0
                while 0 <= rr < h and 0 <= cc < w:
                    k += 1
                    cell = x[rr * w + cc]
                    p = pool.id(("p", i, dr, dc, k))
                    if prev is None:        # p <-> cell
                        cls += [[-p, cell], [p, -cell]]
                    else:                   # p <-> prev and cell
                        cls += [[-p, prev], [-p, cell], [p, -prev, -cell]]
                    prefixes.append(p)
                    prev = p
                    rr += dr
                    cc += dc
            if v > len(prefixes):  # type: ignore[operator]  # an int: None and "?" skipped above
                cls.append([])              # unsatisfiable: more than the rays hold
                continue
            card = CardEnc.equals(lits=prefixes, bound=v, vpool=pool, encoding=EncType.seqcounter)
            cls += card.clauses
    return cls


def solve_sat(board: Board, limit: int = 2, exclude: list[int] | None = None,
              fixed: tuple[int, int] | None = None) -> SatResult:
    """Up to ``limit`` answers (flooded masks), each differing from those in ``exclude``;
    with ``fixed`` = (flooded, dry) masks, only answers that agree with them (a caller's
    deductions, given as unit clauses)."""
    h, w = board.h, board.w
    n = h * w
    pool = IDPool()
    clauses = encode(board, pool)
    if fixed is not None:
        flooded, dry = fixed
        clauses += [[i + 1] for i in range(n) if flooded >> i & 1]
        clauses += [[-(i + 1)] for i in range(n) if dry >> i & 1]
    for m in exclude or []:
        clauses.append([-(i + 1) if m >> i & 1 else i + 1 for i in range(n)])
    return solve_with_cuts(clauses, h, w, limit, lambda model, on: sum(1 << i for i in on))


def confirm(board: Board, answer: Answer) -> bool:
    """Is ``answer`` the one and only answer of ``board``, by the SAT engine alone?"""
    res = solve_sat(board, limit=2)
    return len(res.answers) == 1 and res.answers[0] == answer.mask
