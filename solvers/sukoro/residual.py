"""The search below the ladder's rungs, on a SAT solver (python-sat), when it
is installed: only the cells the rungs left undecided become variables.

The solver is MiniSat (``SOLVER``): connectivity is lazy, so a hard board asks for
thousands of models, each only a few conflicts from the last, and MiniSat answers such a
call in about a third of CaDiCaL's time (40x40 outside board #03: 6.9 s against 21.4 s of
CPU, 2,400 and 3,000 calls; ``benchmarks/hard.py --only sukoro``).

A Sukoro answer is fixed by which cells hold numbers (a number is its count of numbered
neighbours), so the residual problem is binary: ``x_i`` says the undecided cell i holds a
number; cells the rungs decided are constants, and there are no other variables
(``Residual._encode``). A cell that may hold a number has, when it holds one, a count of
numbered neighbours that one of its values allows; two neighbours that both hold numbers
never count alike where both could hold that number. Connectivity is added lazily: when
a model's numbers fall into
several groups, every group gets a cut over the cells around it (a group holding a sure
number, with a sure number elsewhere, needs one of those cells numbered; a group with no
sure number needs one whenever any of its cells holds a number, or, when no cell is sure
at all, whenever one of its cells and one beyond it do). A connected model is an answer;
blocking its shape asks for the next.

Budgets: the solver runs in slices of ``SLICE`` conflicts; each slice and each call
counts one node against the active ``Budget`` (``solvers.common.node``), so
``--max-nodes`` and ``--timeout`` stop it between slices. ``nodes`` reports solver
conflicts.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations, compress

from solvers.common import node

from .search import Geo, State, _flood, _local, _reached

SOLVER = "minisat22"
SLICE = 2000        # conflicts per solver slice (between budget checks)
# rejected models kept (``Residual.misses``), the newest: the witness's traced window
# comes from the newest one far enough from the answer (``ladder._windows``), often
# dozens of models back
MISSES = 4096
# a cell's values, from its digits in the four value planes (``Residual._encode``)
_VALUES = {format(m, "04b")[::-1]: tuple(k for k in (1, 2, 3, 4) if m >> (k - 1) & 1)
           for m in range(16)}
# _SIGNS[m][c]: per way c of m cells can be true, the signs of the clause ruling it out
# (-1 on the true ones, 1 on the others), in ``combinations`` order
_SIGNS = [[[tuple(-1 if t in on else 1 for t in range(m)) for on in combinations(range(m), c)]
           for c in range(m + 1)] for m in range(5)]


class Residual:
    """Up to ``limit`` answers below a fixpoint ``st`` of the rungs."""

    def __init__(self, g: Geo, st: State, neq: bool = True, connect: bool = True) -> None:
        self.g, self.st, self.neq, self.connect = g, st, neq, connect
        self.calls = self.cuts = self.conflicts = self.top = 0
        # the newest models that split into groups, each (numbered cells, groups): where
        # they leave the answer is where the rungs' reasoning is short (``ladder._windows``)
        self.misses: deque[tuple[int, list[int]]] = deque(maxlen=MISSES)

    def _encode(self) -> tuple[list[list[int]], list[int], list[int]]:
        """(clauses, the undecided cells (cell ``cells[v - 1]`` has variable v), cell ->
        its variable or 0).

        The only variables are the undecided cells: a cell's number is its count of
        numbered neighbours, so each rule is written over the cells themselves. A cell
        that holds a number has as many numbered neighbours as one of its values allows
        (at least the fewest, at most the most, none of the counts in between that no
        value allows); two neighbours holding numbers never count alike where both could
        hold that number (for each such count, every way the other neighbours of each
        cell can make it is ruled out: at most 3 + 3 cells, so a few clauses per pair).
        A variable per cell and number, as the encoding had before, adds three or four
        variables for every cell, and MiniSat decides or propagates all of them again at
        every one of the many calls a hard board's connectivity cuts make: on the hard
        20x20 board #04 (1,138 variables then, 256 now, in 140 and 135 calls) the SAT
        step took 31.6 ms of CPU and takes 22.3 ms; on the hard and outside 20x20 and
        30x30 boards, 1.03 s against 0.68 s in all."""
        g, st = self.g, self.st
        b = st[0]
        p = st[1] | st[2] | st[3] | st[4]
        und = b & p
        n = g.n
        # the masks as strings of digits, cell i at index i: a cell's bit is then an
        # index, not a shift of the whole board; ``quad[i]`` holds cell i's digit in
        # each value's plane
        pb = format(p, f"0{n}b")[::-1]
        planes = [format(x, f"0{n}b")[::-1] for x in st[1:]]
        quad = list(map("".join, zip(*planes, strict=True)))
        cells: list[int] = []           # the undecided cells, in cell order
        lit = [0] * n
        x = und
        while x:
            low = x & -x
            x ^= low
            i = low.bit_length() - 1
            cells.append(i)
            lit[i] = len(cells)
        cls: list[list[int]] = []
        add, extend = cls.append, cls.extend
        nb = g.nb
        numbered = [i for i, c in enumerate(pb) if c == "1"]
        sure = [0] * n                  # per cell, its neighbours that surely hold numbers
        opens: list[list[int]] = [[]] * n   # per cell, its open neighbours' variables
        for i in numbered:
            near = [lit[j] for j in nb[i] if pb[j] == "1"]
            opened = opens[i] = [v for v in near if v]
            m = len(opened)
            s = sure[i] = len(near) - m
            values = _VALUES[quad[i]]
            # how many of the open neighbours may hold numbers
            counts = [c for c in range(m + 1) if s + c in values]
            head = [-lit[i]] if lit[i] else []      # (a sure number: no condition)
            if not counts:
                add(head)
                continue
            lo, hi = counts[0], counts[-1]
            if lo:                      # among any m - lo + 1 of them, one holds a number
                extend([*head, *sub] for sub in combinations(opened, m - lo + 1))
            if hi < m:                  # among any hi + 1 of them, one does not
                extend([*head, *(-v for v in sub)] for sub in combinations(opened, hi + 1))
            for c in range(lo + 1, hi):
                if c not in counts:     # a count no value allows, between two that do
                    extend(head + [u * v for u, v in zip(signs, opened, strict=True)]
                           for signs in _SIGNS[m][c])
        if not p & ~b:
            add(list(range(1, len(cells) + 1)))      # an answer has a number
        if self.neq:
            later = g.later
            for i in numbered:
                vi = _VALUES[quad[i]]
                xi = lit[i]
                for j in later[i]:
                    if pb[j] != "1":
                        continue
                    common = [k for k in _VALUES[quad[j]] if k in vi]
                    if not common:
                        continue
                    # with both numbered, i counts j (and j counts i) and its own sure
                    # neighbours; the rest of the count comes from its other open cells
                    xj = lit[j]
                    if xj:
                        oi = [v for v in opens[i] if v != xj]
                        si = sure[i] + 1
                    else:
                        oi, si = opens[i], sure[i]
                    if xi:
                        oj = [v for v in opens[j] if v != xi]
                        sj = sure[j] + 1
                    else:
                        oj, sj = opens[j], sure[j]
                    head = [-v for v in (xi, xj) if v]
                    ni, nj = len(oi), len(oj)
                    for k in common:
                        a, c = k - si, k - sj
                        if 0 <= a <= ni and 0 <= c <= nj:
                            left = [head + [u * v for u, v in zip(signs, oi, strict=True)]
                                    for signs in _SIGNS[ni][a]]
                            for signs in _SIGNS[nj][c]:
                                right = [u * v for u, v in zip(signs, oj, strict=True)]
                                extend(u + right for u in left)
        return cls, cells, lit

    def solve(self, limit: int) -> list[State]:
        """Up to ``limit`` answers, on MiniSat where python-sat is there, else on the
        pure-Python solver (``satcut.solver``: the same clauses, cuts and blocking)."""
        from solvers.satcut import solver

        g, st = self.g, self.st
        cls, cells, lit = self._encode()
        b = st[0]
        p = st[1] | st[2] | st[3] | st[4]
        sure = p & ~b
        found: list[State] = []
        if any(not c for c in cls):
            return found
        self.top = len(cells)
        # the cells' variables are 1, 2, ... in cell order: model[v - 1] is cell bits[v - 1]
        bits = [1 << i for i in cells]
        nvar = len(cells)
        with solver(SOLVER, cls) as s:
            while len(found) < limit:
                ok = self._call(s)
                if not ok:
                    break
                model = s.get_model()
                # (a variable in no clause is left out of the model: false)
                on = sure + sum(compress(bits, [m > 0 for m in model[:nvar]]))
                if self.connect and on:
                    parts = _groups(g, on)
                    if len(parts) > 1:
                        self._cut(s, parts, on, sure, p, lit)
                        self.misses.append((on, parts))
                        continue
                found.append(self._state(on))
                if not cells:
                    break
                s.add_clause([-lit[i] if on >> i & 1 else lit[i] for i in cells])
        return found

    def _call(self, s) -> bool:
        self.calls += 1
        node()
        while True:
            s.conf_budget(SLICE)
            res = s.solve_limited()
            self.conflicts = s.accum_stats().get("conflicts", self.conflicts)
            if res is not None:
                return res
            node()

    def _cut(self, s, parts: list[int], on: int, sure: int, p: int, lit: list[int]) -> None:
        """Cuts for the groups of a model that splits (``lit``: cell -> its variable)."""
        g = self.g
        add = s.add_clause
        held = main = 0         # the groups holding sure numbers, the largest of them
        for grp in parts:
            if grp & sure:
                held |= grp
                if grp.bit_count() > main.bit_count():
                    main = grp
        # the far cuts of groups in one part of the board beyond ``main`` (or ``held``)
        # are the same cut: per side, its ring and (that part, its cut's variables)
        beyond: dict[int, tuple[int, list[tuple[int, list[int]]]]] = {}
        for grp in parts:
            if grp & sure and not sure & ~grp:
                continue            # the group holding every sure number needs no cut
            self.cuts += 1
            ring = _ring(g, grp) & p
            if not sure:
                # no sure number anywhere: the group alone may be the answer, so the cut
                # needs a number beyond it too
                other = on & ~grp
                y = (grp & -grp).bit_length() - 1
                z = (other & -other).bit_length() - 1
                add([-lit[y], -lit[z]] + _lits(ring, lit))
                continue
            # Two cuts, one at each end of the way out. A way from the group to the sure
            # numbers beyond it last leaves the group through a ring cell joined to them
            # outside it (near); it first enters the groups it is heading for through a
            # cell around them that the group reaches without crossing them (far). The
            # near cut alone lets the solver grow the group by a cell and ask again;
            # the far one makes the other side reach out (the 40x40 outside board #03,
            # which the near cut alone had not decided after 4,400 models and 60 s,
            # is decided with both after 2,400).
            near = _lits(_reached(g, sure & ~grp, p & ~grp, ring), lit)
            # (the main group heads for the other groups holding sure numbers; any other
            # group with sure numbers for the main one, one without for all of them)
            side = (held & ~grp if grp == main else main) if grp & sure else held
            got = beyond.get(side)
            if got is None:
                got = beyond[side] = (_ring(g, side) & p, [])
            far = _beyond(g, got, side, grp, p, lit)
            if grp & sure:
                add(near)
                add(far)
                continue
            # no cell of this group may hold a number unless both cuts do (``a``: the
            # group holds a number)
            self.top += 1
            a = self.top
            for v in _lits(grp, lit):
                add([-v, a])
            add([-a, *near])
            add([-a, *far])

    def _state(self, on: int) -> State:
        """The answer whose numbered cells are ``on``: each holds its count of numbered
        neighbours, which the count rung reads off at once when every number is sure and
        may take any value."""
        st = _local(self.g, (self.g.full & ~on, on, on, on, on), self.neq)
        assert st is not None, "a model breaks the count or unequal-neighbour rule"
        return st


def _ring(g: Geo, x: int) -> int:
    """The cells next to ``x`` and outside it."""
    w = g.w
    return ((x << w) | (x >> w) | ((x << 1) & g.nc0) | ((x >> 1) & g.ncw)) & g.full & ~x


def _beyond(g: Geo, seen: tuple[int, list[tuple[int, list[int]]]], side: int, grp: int,
            p: int, lit: list[int]) -> list[int]:
    """The variables of the cells around ``side`` that ``grp`` reaches within ``p``
    without crossing ``side``; ``seen`` holds the ring of ``side`` within ``p`` and each
    part of ``p`` beyond ``side`` found so far with its cells, which every group in that
    part shares."""
    ring, parts = seen
    for part, out in parts:
        if part & grp:
            return out
    part = _flood(g, grp, p & ~side)
    out = _lits(ring & part, lit)
    parts.append((part, out))
    return out


def _lits(x: int, lit: list[int]) -> list[int]:
    """The variables of the cells of ``x``, in cell order."""
    out = []  # type: list[int]
    add = out.append
    while x:
        low = x & -x
        add(lit[low.bit_length() - 1])
        x ^= low
    return out


def _groups(g: Geo, on: int) -> list[int]:
    """The groups of ``on``, each from its lowest cell, in that order."""
    out = []
    left = on
    while left:
        x = _flood(g, left & -left, left)
        out.append(x)
        left &= ~x
    return out
