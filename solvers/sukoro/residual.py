"""The search below the ladder's rungs, on a SAT solver (python-sat), when it
is installed: only the cells the rungs left undecided become variables.

The solver is MiniSat (``SOLVER``): connectivity is lazy, so a hard board asks for
thousands of models, each only a few conflicts from the last, and MiniSat answers such a
call in about a third of CaDiCaL's time (40x40 outside board #03: 6.9 s against 21.4 s of
CPU, 2,400 and 3,000 calls; ``benchmarks/hard.py --only sukoro``).

A Sukoro answer is fixed by which cells hold numbers (a number is its count of numbered
neighbours), so the residual problem is binary: ``x_i`` says the undecided cell i holds a
number; cells the rungs decided are constants. For every cell that may hold a number,
``v_{i,k}`` (k in the values its domain still allows) says it holds k, tied to the count
of its numbered neighbours (for each subset of its undecided neighbours: enough of them
numbered, not too many); a cell holding a number holds one of its values; equal values
never touch. Connectivity is added lazily: when a model's numbers fall into
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

from .search import Geo, State, _flood, _reached

SOLVER = "minisat22"
SLICE = 2000        # conflicts per solver slice (between budget checks)
MISSES = 16         # rejected models kept (``Residual.misses``), the newest
# a cell's values, from its digits in the four value planes (``Residual._encode``)
_VALUES = {format(m, "04b")[::-1]: tuple(k for k in (1, 2, 3, 4) if m >> (k - 1) & 1)
           for m in range(16)}


class Residual:
    """Up to ``limit`` answers below a fixpoint ``st`` of the rungs."""

    def __init__(self, g: Geo, st: State, neq: bool = True, connect: bool = True) -> None:
        self.g, self.st, self.neq, self.connect = g, st, neq, connect
        self.calls = self.cuts = self.conflicts = self.top = 0
        # the newest models that split into groups, each (numbered cells, groups): where
        # they leave the answer is where the rungs' reasoning is short (``ladder._windows``)
        self.misses: deque[tuple[int, list[int]]] = deque(maxlen=MISSES)

    def _encode(self) -> tuple[list[list[int]], list[int], dict[tuple[int, int], int],
                               list[int]]:
        """(clauses, the undecided cells (cell ``cells[v - 1]`` has variable v), (cell,
        value) -> its variable, cell -> its variable or 0)."""
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
        top = len(cells)
        val: dict[tuple[int, int], int] = {}
        cls: list[list[int]] = []
        add, extend = cls.append, cls.extend
        nb = g.nb
        for i in [i for i, c in enumerate(pb) if c == "1"]:
            near = [lit[j] for j in nb[i] if pb[j] == "1"]
            open_nb = [v for v in near if v]
            m = len(open_nb)
            sure_nb = len(near) - m
            xi = lit[i]                 # 0: the cell surely holds a number
            vs = []
            for k in _VALUES[quad[i]]:
                if sure_nb <= k <= sure_nb + m:
                    top += 1
                    val[(i, k)] = top
                    vs.append((k, top))
            if xi:
                add([-xi] + [v for _, v in vs])        # a number has some value
                extend([-v, xi] for _, v in vs)
            else:
                add([v for _, v in vs])
            off = [-o for o in open_nb]
            for k, v in vs:
                # k means k - sure_nb of the open neighbours hold numbers: among any
                # m - r + 1 of them one does, among any r + 1 one does not
                r = k - sure_nb
                if r > 0:
                    extend([-v, *sub] for sub in combinations(open_nb, m - r + 1))
                if r < m:
                    extend([-v, *sub] for sub in combinations(off, r + 1))
        if not p & ~b:
            add(list(range(1, len(cells) + 1)))      # an answer has a number
        if self.neq:
            later = g.later
            get = val.get
            for (i, k), v in val.items():
                for j in later[i]:
                    u = get((j, k))
                    if u:
                        add([-v, -u])
        return cls, cells, val, lit

    def solve(self, limit: int) -> list[State]:
        """Up to ``limit`` answers, on MiniSat where python-sat is there, else on the
        pure-Python solver (``satcut.solver``: the same clauses, cuts and blocking)."""
        from solvers.satcut import solver

        g, st = self.g, self.st
        cls, cells, val, lit = self._encode()
        b = st[0]
        p = st[1] | st[2] | st[3] | st[4]
        sure = p & ~b
        found: list[State] = []
        if any(not c for c in cls):
            return found
        top = self.top = max([len(cells), *val.values()])
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
                model += [-v for v in range(len(model) + 1, top + 1)]
                found.append(self._state(on, model, val))
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

    def _state(self, on: int, model: list[int], val: dict[tuple[int, int], int]) -> State:
        planes = [0, 0, 0, 0]
        for (i, k), v in val.items():
            if model[v - 1] > 0:
                planes[k - 1] |= 1 << i
        return (self.g.full & ~on, planes[0], planes[1], planes[2], planes[3])


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
    out = []
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
