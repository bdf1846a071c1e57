"""The rest of a proof the ladder's search hands off: the cells its rungs left undecided,
on a SAT solver (python-sat's CaDiCaL; without python-sat, or with ``PUZZLE_NO_SAT=1``,
the pure-Python ``solvers.cdcl``, same clauses), with the canal's connectivity cut lazily.

Only the undecided cells become variables; the cells the rungs decided are constants.
A number's ray is a chain of prefix variables ``p_k`` ("the first k cells are flooded",
folded through the decided cells), which is the arm length in unary; the four arms are
added by unary adders (totalizer merges of already sorted inputs, so no sorting
network) capped one above the number, and the sum is fixed to the number. A 2x2 block
with no dry cell may not be all flooded. Connectivity, eagerly, only in its smallest
form: with a sure flooded cell, a flooded cell has a neighbour that may be flooded and is.
The rest is lazy: when a model's canal falls into several groups, each group gets a cut
over the cells around it that join it to the sure canal beyond (a group holding sure
cells, with sure cells elsewhere, needs one of those cells flooded; a group with none
needs one whenever any of its cells is flooded; with no sure cell at all, whenever one
of its cells and one beyond it are). A connected model is an answer; blocking its
undecided cells asks for the next. One solver, kept across calls: the cuts and the
blocking clauses are added to it, so what it learned stays. Its cell variables start
flooded (the phase it tries first).

Budgets: the solver runs in slices of ``SLICE`` conflicts; each slice counts one node
against the active ``Budget`` (``solvers.common.node``) and checks its time limit, so
``--timeout`` stops the SAT step between slices as it stops the search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solvers import common
from solvers.bitconn import bits
from solvers.common import BudgetExceeded, node
from solvers.satcut import solver

if TYPE_CHECKING:
    from .ladder import Ctx

SOLVER = "cadical153"
SLICE = 1000        # conflicts per solver slice (between budget checks)


def _tick() -> None:
    """One slice: a node for the active budget, and its time limit checked now (the
    budget itself looks at the clock only every 256 nodes)."""
    node()
    b = common._budget
    if b is not None and b.timeout is not None:
        t = b.elapsed()
        if t > b.timeout:
            raise BudgetExceeded(f"time limit of {b.timeout:g} s reached", b.nodes, t)


class Residual:
    """Up to ``limit`` answers (flooded masks) that extend the marks (F flooded, D dry),
    other than those in ``exclude``. ``ctx`` is the ladder's (``ladder.Ctx``): its
    numbers, rays and neighbour masks. Standard rules only."""

    def __init__(self, ctx: Ctx, F: int, D: int) -> None:
        self.ctx, self.F, self.D = ctx, F, D
        self.calls = self.cuts = self.conflicts = 0
        self.var: dict[int, int] = {}
        self.top = 0

    def _new(self) -> int:
        self.top += 1
        return self.top

    def _encode(self) -> list[list[int]]:
        ctx, F, D = self.ctx, self.F, self.D
        und = ctx.full & ~(F | D)
        var = self.var
        x = und
        while x:
            low = x & -x
            x ^= low
            var[low.bit_length() - 1] = len(var) + 1
        self.top = len(var)
        cls: list[list[int]] = []
        # 2x2: a block with no dry cell is not all flooded
        for b in ctx.blocks:
            if b & D:
                continue
            lits = [-var[i] for i in bits(b & und)]
            cls.append(lits)          # all four sure: [] (the ladder never leaves that)
        # the numbers: the sum of four unary arms
        for _, v, rays, _, _ in ctx.nums:
            arms = [self._arm(ray, cls) for ray in rays]
            off, lits = self._add(self._add(arms[0], arms[1], v + 1, cls),
                                  self._add(arms[2], arms[3], v + 1, cls), v + 1, cls)
            need = v - off
            if need < 0 or need > len(lits):
                cls.append([])
                continue
            cls.extend([lits[j]] for j in range(need))
            if need < len(lits):
                cls.append([-lits[need]])
        # a flooded cell beside no other: only a canal of one cell, never with a sure cell
        if F:
            p = ctx.full & ~D
            nbrs = ctx.nbrs
            for i, xi in var.items():
                if any(F >> j & 1 for j in nbrs[i]):
                    continue            # beside a sure cell: nothing to ask
                cls.append([-xi, *[var[j] for j in nbrs[i] if p >> j & 1]])
        return cls

    def _arm(self, ray: tuple[int, ...], cls: list[list[int]]) -> tuple[int, list[int]]:
        """A ray's arm in unary: (cells surely flooded from the number, then the prefix
        literals: ``lits[j]`` says the arm is longer than offset + j)."""
        F, D, var = self.F, self.D, self.var
        off = 0
        lits: list[int] = []
        prev = 0                        # 0: the prefix so far is surely flooded
        for b in ray:
            if b & D:
                break
            if b & F:
                if prev == 0:
                    off += 1
                else:
                    lits.append(prev)   # p_k = p_{k-1}
                continue
            xc = var[b.bit_length() - 1]
            if prev == 0:
                p = xc
            else:
                p = self._new()
                cls += [[-p, prev], [-p, xc], [p, -prev, -xc]]
            lits.append(p)
            prev = p
        return off, lits

    def _add(self, a: tuple[int, list[int]], b: tuple[int, list[int]], cap: int,
             cls: list[list[int]]) -> tuple[int, list[int]]:
        """The unary sum of two unary numbers, counted only up to ``cap``."""
        oa, la = a
        ob, lb = b
        off = oa + ob
        n = min(len(la) + len(lb), max(cap - off, 0))
        if not la or not lb:
            return off, (la or lb)[:n]
        out = [self._new() for _ in range(n)]
        # value >= k: out[k-1]; la[i-1] says a's part >= i
        for i in range(len(la) + 1):
            for j in range(len(lb) + 1):
                k = i + j
                if 0 < k <= n:
                    cl = [out[k - 1]]
                    if i:
                        cl.append(-la[i - 1])
                    if j:
                        cl.append(-lb[j - 1])
                    cls.append(cl)
                if k < n:
                    # a < i + 1 and b < j + 1 -> sum < k + 1
                    cl = [-out[k]]
                    if i < len(la):
                        cl.append(la[i])
                    if j < len(lb):
                        cl.append(lb[j])
                    cls.append(cl)
        return off, out

    def solve(self, limit: int, exclude: list[int] | None = None) -> list[int]:
        ctx, F = self.ctx, self.F
        cls = self._encode()
        var = self.var
        found: list[int] = []
        if any(not c for c in cls):
            return found
        cells = list(var)
        if not cells:
            if F not in (exclude or []) and _connected(ctx, F):
                found.append(F)
            return found
        with solver(SOLVER, cls) as s:
            # flooded first: a model then floods widely and the 2x2 and number clauses
            # carve it, so its canal is seldom in pieces (outside 30x30: about half the
            # time of the solver's own phases; dry first strands pieces and creeps)
            s.set_phases(list(var.values()))
            for m in exclude or []:
                s.add_clause([-var[i] if m >> i & 1 else var[i] for i in cells])
            while len(found) < limit:
                if not self._call(s):
                    break
                model = s.get_model()
                top = len(model)        # a variable in no clause is left out: dry
                on = F
                for i, v in var.items():
                    if v <= top and model[v - 1] > 0:
                        on |= 1 << i
                parts = _groups(ctx, on) if on else []
                if len(parts) > 1:
                    self._cut(s, parts, on)
                    continue
                found.append(on)
                s.add_clause([-var[i] if on >> i & 1 else var[i] for i in cells])
        return found

    def _call(self, s: Any) -> bool:
        self.calls += 1
        while True:
            _tick()
            s.conf_budget(SLICE)
            res = s.solve_limited()
            self.conflicts = s.accum_stats().get("conflicts", self.conflicts)
            if res is not None:
                return res

    def _cut(self, s: Any, parts: list[int], on: int) -> None:
        """Cuts that this model (its canal in ``parts``, several groups) breaks, so that
        no later model splits the canal the same way."""
        ctx, F, var = self.ctx, self.F, self.var
        p = ctx.full & ~self.D
        for grp in parts:
            if grp & F and not F & ~grp:
                continue                # the group holding every sure cell needs no cut
            if not F:
                ring = _grow(ctx, grp) & p & ~grp
                other = on & ~grp
                y = (grp & -grp).bit_length() - 1
                z = (other & -other).bit_length() - 1
                s.add_clause([-var[y], -var[z], *[var[i] for i in bits(ring)]])
                self.cuts += 1
                continue
            # The layers of cells around the group (by distance through cells that may be
            # flooded), out to the first that meets the canal. Each layer parts the
            # pocket it encloses from the sure cells beyond, so if a cell of the pocket
            # is flooded, so is a cell of the layer: one that borders the part beyond
            # holding sure cells (a way out leaves the layer through one of those).
            # Without sure cells in the group, "a pocket cell is flooded" is a variable
            # of its own, implied by each new pocket cell and by the smaller pocket.
            ball = grp
            fresh = grp                 # pocket cells not yet tied to a pocket variable
            pocket = 0
            while True:
                layer = _grow(ctx, ball) & p & ~ball
                if not layer or layer & on:
                    break
                ball |= layer
                gate = layer & _grow(ctx, _fill(ctx, F & ~ball, p & ~ball))
                lits = [var[i] for i in bits(gate)]
                self.cuts += 1
                if grp & F:
                    s.add_clause(lits)
                    continue
                nxt = self._new()
                s.add_clause([-nxt, *lits])
                for i in bits(fresh):
                    s.add_clause([-var[i], nxt])
                if pocket:
                    s.add_clause([-pocket, nxt])
                pocket = nxt
                fresh = layer


def _grow(ctx: Ctx, x: int) -> int:
    w = ctx.w
    return (((x << 1) & ctx.not_left) | ((x >> 1) & ctx.not_right) | (x << w) | (x >> w)) \
        & ctx.full


def _fill(ctx: Ctx, seed: int, region: int) -> int:
    """The cells of ``region`` joined to ``seed`` inside it."""
    w, nl, nr = ctx.w, ctx.not_left & region, ctx.not_right & region
    x = seed & region
    while True:
        y = (x | ((x << 1) & nl) | ((x >> 1) & nr) | (x << w) | (x >> w)) & region
        if y == x:
            return x
        x = y


def _groups(ctx: Ctx, on: int) -> list[int]:
    out = []
    left = on
    while left:
        g = _fill(ctx, left & -left, left)
        out.append(g)
        left &= ~g
    return out


def _connected(ctx: Ctx, on: int) -> bool:
    return not on or _fill(ctx, on & -on, on) == on


def solve_residual(ctx: Ctx, F: int, D: int, limit: int,
                   exclude: list[int] | None = None) -> list[int]:
    """Up to ``limit`` answers extending (F, D) other than ``exclude`` (flooded masks)."""
    return Residual(ctx, F, D).solve(limit, exclude)
