"""The ladder's SAT step without python-sat: a small clause-learning solver in pure Python.

Where python-sat is missing (the solve page under Pyodide, a bare install) or switched
off (``PUZZLE_NO_SAT=1``, see ``satcut.sat_available``), ``ladder.solve`` hands the board
here instead of to ``residual.py``, at the same point and with the same question: up to
two answers. The plain depth-first search is too weak for this on large boards: it
learns nothing from a dead end, so the same clash between two far-apart corners is found
again under every choice made elsewhere (a 20×20 minimal board ran past 90 s). A
clause-learning solver records each dead end's cause as a clause and never repeats it.

The problem handed over is the board after the cheap rungs, in the clauses the SAT
engine uses (``residual.encode``): every cell they decided and every label they ruled
out goes in as a unit clause and leaves each region's count written over its undecided
cells alone (every rung is sound, so no answer is lost), which leaves a few hundred free
variables even on a 30×30 board. Connectivity goes in lazily: a model whose numbers fall
into several groups gets, per group G, "a cell of G and a number outside G imply a
number beside G".

The solver is the shared one (``solvers/cdcl.py``: two watched literals, first-UIP
learning, activity, saved phases, Luby restarts). It keeps its learnt clauses between
the calls of one board (a cut or a blocked answer only adds clauses). Every 64 conflicts
it counts one ``node()``, so a node budget or the CLI's time alarm can stop it.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.cdcl import Cdcl
from solvers.grid import neighbours

from .board import Answer, Board
from .residual import encode


@dataclass
class LearnResult:
    answers: list[Answer]
    calls: int
    cuts: int
    conflicts: int


def solve_learn(board: Board, limit: int = 2, num: int = 0, blank: int = 0,
                dom: list[int] | None = None) -> LearnResult:
    """Up to ``limit`` answers of ``board`` (``num``, ``blank``, ``dom``: what sound rungs
    already decided, see ``encode``)."""
    h, w = board.h, board.w
    n = h * w
    cls, nv = encode(board, num, blank, dom)
    s = Cdcl(nv)
    for c in cls:
        s.add(c)
    nbrs = neighbours(h, w)
    found: list[Answer] = []
    calls = cuts = 0
    while len(found) < limit:
        calls += 1
        if not s.solve():
            break
        on = [i for i in range(n) if s.value(i + 1)]
        onset = set(on)
        parts: list[list[int]] = []
        seen: set[int] = set()
        for i in on:
            if i in seen:
                continue
            grp = [i]
            seen.add(i)
            for a in grp:
                for b in nbrs[a]:
                    if b in onset and b not in seen:
                        seen.add(b)
                        grp.append(b)
            parts.append(grp)
        if len(parts) > 1:
            for k, grp in enumerate(parts):
                other = parts[(k + 1) % len(parts)]
                inside = set(grp)
                border = sorted({b for a in grp for b in nbrs[a]} - inside)
                s.add([-(min(grp) + 1), -(min(other) + 1)] + [b + 1 for b in border])
                cuts += 1
            continue
        found.append(Answer.from_flat(h, w, [i in onset for i in range(n)]))
        s.add([-(i + 1) if i in onset else i + 1 for i in range(n)])
    return LearnResult(found, calls, cuts, s.conflicts)
