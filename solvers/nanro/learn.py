"""The ladder's SAT step without python-sat: a small clause-learning solver in pure Python.

Where python-sat is missing (the solve page under Pyodide, a bare install) or switched
off (``PUZZLE_NO_SAT=1``, see ``satcut.sat_available``), ``ladder.solve`` hands the board
here instead of to ``residual.py``, at the same point and with the same question: up to
two answers. The plain depth-first search is too weak for this on large boards: it
learns nothing from a dead end, so the same clash between two far-apart corners is found
again under every choice made elsewhere (a 20×20 minimal board ran past 90 s). A
clause-learning solver records each dead end's cause as a clause and never repeats it.

The problem handed over is the board after the cheap rungs: every cell they decided and
every label they ruled out goes in as a unit clause (every rung is sound, so no answer is
lost), which leaves a few hundred free variables even on a 30×30 board.

Clauses: cell i numbered is variable i + 1, then one variable per region and label
(region k holds v numbers). One label per region; the label equals the count of numbered
cells (regions up to ``SPELL_OUT`` cells: every pattern of their cells forces its count's
label; larger ones: a sequential counter written out here); no 2×2 of numbers; numbers
touching across a border carry different labels; with two regions or more a number has a
numbered neighbour. Connectivity goes in lazily: a model whose numbers fall into several
groups gets, per group G, "a cell of G and a number outside G imply a number beside G".

The solver is the shared one (``solvers/cdcl.py``: two watched literals, first-UIP
learning, activity, saved phases, Luby restarts). It keeps its learnt clauses between
the calls of one board (a cut or a blocked answer only adds clauses). Every 64 conflicts
it counts one ``node()``, so a node budget or the CLI's time alarm can stop it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from solvers.cdcl import Cdcl
from solvers.grid import neighbours

from .board import Answer, Board

SPELL_OUT = 8          # regions up to this size get every pattern of their cells written out


# -- the encoding ----------------------------------------------------------------------

def _counter(xs: list[int], top: int, cls: list[list[int]]) -> tuple[list[int], int]:
    """Sequential counter over ``xs``: literals ``r[t]`` (t = 1..len) true exactly when at
    least t of ``xs`` are true, through r_{j,t} = r_{j-1,t} or (r_{j-1,t-1} and x_j).
    One extra variable stands for "true" (its negation for "false"). Returns (r, top)."""
    top += 1
    true = top
    cls.append([true])
    prev = [true]                       # r_{0,0} true; r_{0,t} for t > 0 false
    for j, x in enumerate(xs, 1):
        cur = [true]
        for t in range(1, j + 1):
            top += 1
            r = top
            a = prev[t] if t < len(prev) else -true
            b = prev[t - 1]
            cls.extend([[-a, r], [-b, -x, r], [-r, a, b], [-r, a, x]])
            cur.append(r)
        prev = cur
    return prev, top


def encode(board: Board, num: int = 0, blank: int = 0,
           dom: list[int] | None = None) -> tuple[list[list[int]], int, list[list[int]]]:
    """(clauses, variable count, label variables per region). ``num``/``blank``: cells
    known numbered/blank (bitmasks); ``dom``: per region the labels still possible (bit
    v), as the ladder's state has them."""
    h, w = board.h, board.w
    n = h * w
    fr = board.flat_regions()
    k_count = board.region_count()
    cells: list[list[int]] = [[] for _ in range(k_count)]
    for i, k in enumerate(fr):
        cells[k].append(i)
    top = n
    lab: list[list[int]] = []
    for k in range(k_count):
        lab.append([0] + [top + v for v in range(1, len(cells[k]) + 1)])
        top += len(cells[k])
    cls: list[list[int]] = []
    for k in range(k_count):
        cs, ls = cells[k], lab[k][1:]
        xs = [i + 1 for i in cs]
        cls.append(list(ls))
        cls.extend([-a, -b] for j, a in enumerate(ls) for b in ls[j + 1:])
        cls.append(list(xs))
        if len(cs) <= SPELL_OUT:
            for bits in product((0, 1), repeat=len(cs)):
                c = sum(bits)
                if c:
                    cls.append([-x if b else x for x, b in zip(xs, bits, strict=True)]
                               + [lab[k][c]])
        else:
            r, top = _counter(xs, top, cls)
            for v in range(1, len(cs) + 1):
                cls.append([-lab[k][v], r[v]])
                if v < len(cs):
                    cls.append([-lab[k][v], -r[v + 1]])
                    cls.append([-r[v], r[v + 1], lab[k][v]])
                else:
                    cls.append([-r[v], lab[k][v]])
        if dom is not None:
            cls.extend([-lab[k][v]] for v in range(1, len(cs) + 1) if not dom[k] >> v & 1)
    nbrs = neighbours(h, w)
    for i in range(n):
        r_, c_ = divmod(i, w)
        if r_ + 1 < h and c_ + 1 < w:
            cls.append([-(i + 1), -(i + 2), -(i + w + 1), -(i + w + 2)])
        for j in nbrs[i]:
            if j > i and fr[j] != fr[i]:
                a, b = lab[fr[i]], lab[fr[j]]
                cls.extend([-(i + 1), -(j + 1), -a[v], -b[v]]
                           for v in range(1, min(len(a), len(b))))
        if k_count > 1:
            cls.append([-(i + 1)] + [j + 1 for j in nbrs[i]])
        if num >> i & 1:
            cls.append([i + 1])
        elif blank >> i & 1:
            cls.append([-(i + 1)])
    for i, clue in enumerate(board.flat()):
        if clue is None:
            continue
        cls.append([i + 1])
        if isinstance(clue, int):
            cls.append([lab[fr[i]][clue]])
    for k, hint in enumerate(board.labels):
        if hint is not None:
            cls.append([lab[k][hint]])
    return cls, top, lab


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
    cls, nv, _ = encode(board, num, blank, dom)
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
