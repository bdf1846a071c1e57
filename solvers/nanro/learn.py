"""The ladder's SAT step without python-sat: a small clause-learning solver in pure Python.

Where python-sat is missing (the solve page under Pyodide, a bare install) or switched
off (``PUZZLE_NO_SAT=1``, see ``ladder.sat_disabled``), ``ladder.solve`` hands the board
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

The solver: two watched literals, first-UIP learning with a simple clause minimisation,
activity-ordered decisions with saved phases, Luby restarts. It keeps its learnt clauses
between the calls of one board (a cut or a blocked answer only adds clauses). Every 64
conflicts it counts one ``node()``, so a node budget or the CLI's time alarm can stop it.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from itertools import product

from solvers.common import node
from solvers.grid import neighbours

from .board import Answer, Board

SPELL_OUT = 8          # regions up to this size get every pattern of their cells written out
RESTART_UNIT = 64      # conflicts per Luby unit between restarts
TICK = 64              # conflicts per node() count


class _Unsat(Exception):
    pass


def _luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


class Cdcl:
    """Literals inside: variable v is 2v (true) and 2v + 1 (false); ``l ^ 1`` negates.
    Clauses come in and models go out as signed integers (DIMACS style)."""

    def __init__(self, nv: int) -> None:
        self.nv = nv
        self.lval = [0] * (2 * nv + 2)      # per literal: 1 true, -1 false, 0 free
        self.level = [0] * (nv + 1)
        self.reason: list[list[int] | None] = [None] * (nv + 1)
        self.watch: list[list[list[int]]] = [[] for _ in range(2 * nv + 2)]
        self.trail: list[int] = []
        self.lim: list[int] = []
        self.qhead = 0
        self.act = [0.0] * (nv + 1)
        self.inc = 1.0
        self.phase = [1] * (nv + 1)         # saved literal bit: 1 = false first
        self.heap = [(0.0, v) for v in range(1, nv + 1)]
        self.ok = True
        self.conflicts = 0

    # -- clauses -----------------------------------------------------------------------
    def add(self, clause: list[int]) -> None:
        """Add a clause (signed integers) at level 0."""
        if not self.ok:
            return
        self._backtrack(0)
        lits: list[int] = []
        lval = self.lval
        for x in clause:
            lit = 2 * x if x > 0 else -2 * x + 1
            if lval[lit] == 1 or lit ^ 1 in lits:
                return                        # satisfied, or a tautology
            if lval[lit] == 0 and lit not in lits:
                lits.append(lit)
        if not lits:
            self.ok = False
        elif len(lits) == 1:
            self._assign(lits[0], None)
            if self._propagate() is not None:
                self.ok = False
        else:
            self.watch[lits[0]].append(lits)
            self.watch[lits[1]].append(lits)

    # -- trail ---------------------------------------------------------------------------
    def _assign(self, lit: int, why: list[int] | None) -> None:
        self.lval[lit] = 1
        self.lval[lit ^ 1] = -1
        v = lit >> 1
        self.level[v] = len(self.lim)
        self.reason[v] = why
        self.trail.append(lit)

    def _backtrack(self, lvl: int) -> None:
        if len(self.lim) <= lvl:
            return
        start = self.lim[lvl]
        lval, act, heap, phase, reason = self.lval, self.act, self.heap, self.phase, self.reason
        for lit in self.trail[start:]:
            lval[lit] = lval[lit ^ 1] = 0
            v = lit >> 1
            reason[v] = None
            phase[v] = lit & 1
            heapq.heappush(heap, (-act[v], v))
        del self.trail[start:]
        del self.lim[lvl:]
        self.qhead = start
        if len(heap) > 8 * self.nv + 64:
            self.heap = [(-act[v], v) for v in range(1, self.nv + 1) if not lval[2 * v]]
            heapq.heapify(self.heap)

    def _propagate(self) -> list[int] | None:
        """Unit propagation; the conflicting clause, or None."""
        lval, watch, trail = self.lval, self.watch, self.trail
        while self.qhead < len(trail):
            false = trail[self.qhead] ^ 1
            self.qhead += 1
            ws = watch[false]
            keep: list[list[int]] = []
            n = len(ws)
            k = 0
            while k < n:
                c = ws[k]
                k += 1
                if c[0] == false:
                    c[0], c[1] = c[1], false
                first = c[0]
                if lval[first] == 1:
                    keep.append(c)
                    continue
                for t in range(2, len(c)):
                    lit = c[t]
                    if lval[lit] != -1:
                        c[1], c[t] = lit, false
                        watch[lit].append(c)
                        break
                else:
                    keep.append(c)
                    if lval[first] == -1:
                        keep.extend(ws[k:])
                        watch[false] = keep
                        self.qhead = len(trail)
                        return c
                    self._assign(first, c)
            watch[false] = keep
        return None

    # -- learning ------------------------------------------------------------------------
    def _bump(self, v: int) -> None:
        self.act[v] += self.inc
        if self.act[v] > 1e100:
            self.act = [a * 1e-100 for a in self.act]
            self.inc *= 1e-100

    def _analyze(self, confl: list[int]) -> tuple[list[int], int]:
        level, reason, trail = self.level, self.reason, self.trail
        dl = len(self.lim)
        seen = set()
        learnt = [0]
        counter = 0
        idx = len(trail) - 1
        clause = confl
        start = 0
        while True:
            for q in clause[start:]:
                v = q >> 1
                if v not in seen and level[v] > 0:
                    seen.add(v)
                    self._bump(v)
                    if level[v] == dl:
                        counter += 1
                    else:
                        learnt.append(q)
            while trail[idx] >> 1 not in seen:
                idx -= 1
            p = trail[idx]
            idx -= 1
            counter -= 1
            if counter == 0:
                break
            seen.discard(p >> 1)
            why = reason[p >> 1]
            assert why is not None
            clause, start = why, 1
        learnt[0] = p ^ 1
        # drop a literal whose reason lies wholly inside the clause (or at level 0)
        out = [learnt[0]]
        for q in learnt[1:]:
            why = reason[q >> 1]
            if why is None or any(r >> 1 not in seen and level[r >> 1] > 0 for r in why[1:]):
                out.append(q)
        bt = 0
        if len(out) > 1:
            best = max(range(1, len(out)), key=lambda i: level[out[i] >> 1])
            out[1], out[best] = out[best], out[1]
            bt = level[out[1] >> 1]
        self.inc /= 0.95
        return out, bt

    def _decide(self) -> int:
        lval, heap = self.lval, self.heap
        while heap:
            _, v = heapq.heappop(heap)
            if not lval[2 * v]:
                return 2 * v + self.phase[v]
        return -1

    def solve(self) -> bool:
        if not self.ok:
            return False
        self._backtrack(0)
        if self._propagate() is not None:
            self.ok = False
            return False
        node()
        restarts = 1
        budget = RESTART_UNIT * _luby(restarts)
        since = 0
        while True:
            confl = self._propagate()
            if confl is not None:
                if not self.lim:
                    self.ok = False
                    return False
                self.conflicts += 1
                since += 1
                if self.conflicts % TICK == 0:
                    node()
                learnt, bt = self._analyze(confl)
                self._backtrack(bt)
                if len(learnt) == 1:
                    self._assign(learnt[0], None)
                else:
                    self.watch[learnt[0]].append(learnt)
                    self.watch[learnt[1]].append(learnt)
                    self._assign(learnt[0], learnt)
                if since >= budget:
                    restarts += 1
                    budget = RESTART_UNIT * _luby(restarts)
                    since = 0
                    self._backtrack(0)
                continue
            lit = self._decide()
            if lit < 0:
                return True
            self.lim.append(len(self.trail))
            self._assign(lit, None)

    def value(self, v: int) -> bool:
        return self.lval[2 * v] == 1


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
