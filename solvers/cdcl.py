"""A small clause-learning SAT solver in pure Python: the engines' stand-in for python-sat.

Where python-sat is missing (the solve page under Pyodide, a bare install) or switched
off (``PUZZLE_NO_SAT=1``, see ``satcut.sat_available``), the residual steps of Canal
View, Sukoro, Nanro and Sashigane hand the same clauses here that they would hand to
CaDiCaL.
``Cdcl`` is the solver; ``Solver`` wraps it in the few calls of python-sat's
``pysat.solvers.Solver`` the engines use (``add_clause``, ``solve``, ``conf_budget`` and
``solve_limited``, ``get_model``, ``set_phases``, ``accum_stats``), so an engine's code
is the same for both.

The solver: two watched literals, first-UIP learning with a simple clause minimisation,
activity-ordered decisions (a lazy heap) with saved phases, Luby restarts, solving under
assumptions. Learnt clauses stay between the calls of one solver (the engines only add
clauses: cuts, blocked answers). Variables are created as clauses name them. Every
``TICK`` conflicts it counts one ``solvers.common.node()``, so a node budget or the CLI's
time limit stops it as it stops the searches.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import Self

from solvers.common import node

RESTART_UNIT = 64      # conflicts per Luby unit between restarts
TICK = 64              # conflicts per node() count


def luby(i: int) -> int:
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

    def __init__(self, nv: int = 0, keep: bool = False) -> None:
        self.keep = keep                    # see ``add``
        self.nv = 0
        self.lval = [0, 0]                  # per literal: 1 true, -1 false, 0 free
        self.level = [0]
        self.reason: list[list[int] | None] = [None]
        self.watch: list[list[list[int]]] = [[], []]
        self.trail: list[int] = []
        self.lim: list[int] = []
        self.qhead = 0
        self.act = [0.0]
        self.inc = 1.0
        self.phase = [1]                    # saved literal bit: 1 = false first
        self.heap: list[tuple[float, int]] = []
        self.ok = True
        self.conflicts = 0
        self.model: list[int] = []
        # restart state carried into the next call when a conflict budget stopped one
        self._resume: tuple[int, int] | None = None
        self.grow(nv)

    def grow(self, nv: int) -> None:
        """Make room for variables up to ``nv`` (new ones free, false first)."""
        if nv <= self.nv:
            return
        k = nv - self.nv
        self.lval.extend([0] * (2 * k))
        self.level.extend([0] * k)
        self.reason.extend([None] * k)
        self.watch.extend([] for _ in range(2 * k))
        self.act.extend([0.0] * k)
        self.phase.extend([1] * k)
        self.heap.extend((0.0, v) for v in range(self.nv + 1, nv + 1))
        heapq.heapify(self.heap)
        self.nv = nv

    # -- clauses -----------------------------------------------------------------------
    def add(self, clause: Iterable[int]) -> None:
        """Add a clause (signed integers). At level 0; with ``keep``, the trail of the
        last model is kept instead as far as the clause allows (``_add_kept``)."""
        if not self.ok:
            return
        clause = list(clause)
        top = 0
        for x in clause:
            top = max(top, abs(x))
        if top > self.nv:
            self.grow(top)
        if self.keep and self.lim and self._add_kept(clause):
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

    def _add_kept(self, clause: list[int]) -> bool:
        """Add a clause of two literals or more without undoing the whole trail: the
        engines add cuts and blocking clauses that the last model breaks, and going
        back only to where the clause stops being false spares the next call the
        descent to a full assignment again (most of its time on a Canal View board of
        hundreds of calls). Watched first: two free literals, or the free one (then
        implied), or the two false ones of the highest levels, after going back to
        below the highest (it is then implied, when alone there). Returns False, to
        add at level 0, when a literal is true or fewer than two are left."""
        lval, level = self.lval, self.level
        lits: list[int] = []
        for x in clause:
            lit = 2 * x if x > 0 else -2 * x + 1
            if lval[lit] == 1:
                return False
            if lit ^ 1 in lits:
                return True                   # a tautology
            if lit not in lits:
                lits.append(lit)
        if len(lits) < 2:
            return False
        free = [q for q in lits if not lval[q]]
        false = sorted((q for q in lits if lval[q]), key=lambda q: -level[q >> 1])
        c = free + false
        if len(free) == 1:
            self._backtrack(level[false[0] >> 1])
            self._assign(c[0], c)
        elif not free:
            a1, a2 = level[c[0] >> 1], level[c[1] >> 1]
            if a1 == 0:
                self.ok = False
                return True
            if a1 > a2:
                self._backtrack(a2)
                self._assign(c[0], c)
            else:
                self._backtrack(a1 - 1)
        self.watch[c[0]].append(c)
        self.watch[c[1]].append(c)
        return True

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
        level, reason, dl = self.level, self.reason, len(self.lim)
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
                    lval[first] = 1             # (_assign, inline: the hot loop)
                    lval[first ^ 1] = -1
                    level[first >> 1] = dl
                    reason[first >> 1] = c
                    trail.append(first)
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

    def solve(self, assumptions: Iterable[int] = (), budget: int | None = None
              ) -> bool | None:
        """Whether the clauses (with ``assumptions`` true, signed integers) have a model
        (then in ``model``); None when ``budget`` conflicts of this call passed first
        (the next call goes on from the same restart schedule)."""
        if not self.ok:
            return False
        assume = [2 * x if x > 0 else -2 * x + 1 for x in assumptions]
        if not (self.keep and not assume):
            self._backtrack(0)              # (kept: the loop goes on from the trail)
            if self._propagate() is not None:
                self.ok = False
                return False
        node()
        top = max((lit >> 1 for lit in assume), default=0)
        if top > self.nv:
            self.grow(top)
        restarts, since = self._resume or (1, 0)
        self._resume = None
        limit = RESTART_UNIT * luby(restarts)
        used = 0
        lval = self.lval
        while True:
            confl = self._propagate()
            if confl is not None:
                if not self.lim:
                    self.ok = False
                    return False
                self.conflicts += 1
                since += 1
                used += 1
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
                if since >= limit:
                    restarts += 1
                    limit = RESTART_UNIT * luby(restarts)
                    since = 0
                    self._backtrack(0)
                if budget is not None and used >= budget:
                    self._resume = (restarts, since)
                    return None
                continue
            dl = len(self.lim)
            if dl < len(assume):
                lit = assume[dl]
                if lval[lit] == -1:
                    return False              # the assumptions clash with the clauses
                self.lim.append(len(self.trail))
                if not lval[lit]:
                    self._assign(lit, None)
                continue
            lit = self._decide()
            if lit < 0:
                self.model = [v if lval[2 * v] == 1 else -v for v in range(1, self.nv + 1)]
                return True
            self.lim.append(len(self.trail))
            self._assign(lit, None)

    def value(self, v: int) -> bool:
        return self.lval[2 * v] == 1


class Solver:
    """The calls of ``pysat.solvers.Solver`` the residual engines make, on ``Cdcl``."""

    def __init__(self, name: str = "cdcl", bootstrap_with: Iterable[Iterable[int]] = ()
                 ) -> None:
        self.name = name
        self.s = Cdcl(keep=True)
        self.budget: int | None = None
        # every variable made at once: growing clause by clause heapifies each time
        # (the heap's contents, hence every decision, come out the same)
        clauses = [list(c) for c in bootstrap_with]
        self.s.grow(max((abs(x) for c in clauses for x in c), default=0))
        for c in clauses:
            self.s.add(c)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def delete(self) -> None:
        return None

    def add_clause(self, clause: Iterable[int]) -> None:
        self.s.add(list(clause))

    def append_formula(self, clauses: Iterable[Iterable[int]]) -> None:
        for c in clauses:
            self.s.add(list(c))

    def nof_vars(self) -> int:
        return self.s.nv

    def set_phases(self, literals: Iterable[int]) -> None:
        """Try each of ``literals`` true first (until a backtrack saves another phase)."""
        s = self.s
        for x in literals:
            if abs(x) > s.nv:
                s.grow(abs(x))
            s.phase[abs(x)] = 0 if x > 0 else 1

    def solve(self, assumptions: Iterable[int] = ()) -> bool:
        return bool(self.s.solve(assumptions))

    def conf_budget(self, budget: int = -1) -> None:
        self.budget = budget if budget > 0 else None

    def solve_limited(self, assumptions: Iterable[int] = ()) -> bool | None:
        res = self.s.solve(assumptions, self.budget)
        self.budget = None
        return res

    def get_model(self) -> list[int]:
        return list(self.s.model)

    def accum_stats(self) -> dict[str, int]:
        return {"conflicts": self.s.conflicts}
