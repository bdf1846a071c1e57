"""Engine 1: the deduction ladder on bitboards, then complete search.

State: two bitboards over the cells (``num``: surely numbered, ``blank``: surely blank)
and, per region, a bitmask of the labels it may still take (bit v: the region holds v
numbers). Rungs, each including the ones before it:

* ``count`` region arithmetic: sure ≤ label ≤ sure + undecided, label ≥ 1; when the
            largest label left equals the sure count the rest is blank, when the smallest
            equals sure + undecided the rest is numbered.
* ``block`` no 2×2 of numbers: three numbers in a block make the fourth cell blank.
* ``clash`` equal labels never touch across a border: a fixed label v with a number
            beside a number of another region removes v there; two regions both fixed
            at v make a cell beside the other's number blank.
* ``reach`` one group: cells that cannot reach the sure numbers are blank; cells whose
            removal would split the sure numbers are numbered (solvers/bitconn.py: a
            ring test, then the arcs around each cell grown until they meet).
* ``probe`` try each undecided cell both ways, propagate through ``reach``, keep the
            other way when one way contradicts itself.
* ``search`` branch on numbered/blank only, propagating ``reach`` at every node.

Every rung is sound: it never decides a cell against an answer that exists.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from solvers.bitconn import Grid
from solvers.common import Frozen, SolveResult, node
from solvers.grid import neighbours
from solvers.satcut import sat_available

from .board import Answer, Board

RUNGS = ("count", "block", "clash", "reach", "probe", "search")
LEVEL = {name: i for i, name in enumerate(RUNGS)}



class Capped(Exception):
    """Search passed its node cap."""


class Geometry(Frozen):
    __slots__ = ("beside", "full", "h", "n", "nbrs", "not_first", "not_last", "radj",
                 "region_of", "rmask", "rsize", "top_left", "w")
    _fields = ("h", "w", "n", "full", "not_first", "not_last", "top_left", "rmask", "rsize",
               "region_of", "radj", "nbrs", "beside")
    h: int
    w: int
    n: int
    full: int
    not_first: int     # cells not in column 0
    not_last: int      # cells not in the last column
    top_left: int      # top-left cells of 2×2 blocks
    rmask: tuple[int, ...]
    rsize: tuple[int, ...]
    region_of: tuple[int, ...]
    radj: tuple[tuple[int, ...], ...]
    nbrs: tuple[tuple[int, ...], ...]
    beside: dict[tuple[int, int], int]

    def __init__(self, *values: Any) -> None:
        if len(values) != len(self._fields):
            raise TypeError(f"Geometry takes {len(self._fields)} fields, got {len(values)}")
        for name, v in zip(self._fields, values, strict=True):
            object.__setattr__(self, name, v)

    def spread(self, x: int) -> int:
        w = self.w
        return (((x << 1) & self.not_first) | ((x >> 1) & self.not_last) | (x << w)
                | (x >> w)) & self.full


@lru_cache(maxsize=32)  # bounded: one entry per region map
def geometry(h: int, w: int, regions: tuple[tuple[int, ...], ...]) -> Geometry:
    n = h * w
    flat = [v for row in regions for v in row]
    k = max(flat) + 1
    rmask = [0] * k
    for i, v in enumerate(flat):
        rmask[v] |= 1 << i
    nbrs = neighbours(h, w)
    radj: list[set[int]] = [set() for _ in range(k)]
    for i in range(n):
        for j in nbrs[i]:
            if flat[i] != flat[j]:
                radj[flat[i]].add(flat[j])
    not_first = sum(1 << i for i in range(n) if i % w)
    not_last = sum(1 << i for i in range(n) if i % w != w - 1)
    top_left = sum(1 << i for i in range(n) if i % w != w - 1 and i // w != h - 1)
    return Geometry(h, w, n, (1 << n) - 1, not_first, not_last, top_left, tuple(rmask),
                    tuple(m.bit_count() for m in rmask), tuple(flat),
                    tuple(tuple(sorted(a)) for a in radj), nbrs, {})


class State:
    """``seen``: the decided cells as of the last counting pass; ``mark``: cells whose
    regions must be counted again anyway (their label set changed); ``comp``: a
    connected set of cells holding every cell not blank (the possible cells as the last
    ``reach`` left them, or those of a state this one grew from; 0: none known)."""

    __slots__ = ("blank", "comp", "dom", "mark", "num", "rules", "seen")

    def __init__(self, num: int, blank: int, dom: list[int], seen: int = 0,
                 mark: int = -1, rules: tuple[bool, bool] | None = None,
                 comp: int = 0) -> None:
        self.num, self.blank, self.dom, self.seen, self.mark = num, blank, dom, seen, mark
        self.rules = rules     # (count on, clash on) of the last propagation
        self.comp = comp

    def copy(self) -> State:
        return State(self.num, self.blank, self.dom[:], self.seen, self.mark, self.rules,
                     self.comp)


def initial(board: Board, g: Geometry) -> State | None:
    """The printed clues as a state (None when they contradict each other)."""
    dom = [(1 << (s + 1)) - 2 for s in g.rsize]
    num = 0
    for i, v in enumerate(board.flat()):
        if v is None:
            continue
        num |= 1 << i
        if v != "?":
            dom[g.region_of[i]] &= 1 << v  # type: ignore[operator]  # an int: "?" tested above
    for k, v in enumerate(board.labels):
        if v is not None:
            dom[k] &= 1 << v
    if not all(dom):
        return None
    return State(num, 0, dom)


class Contradiction(Exception):
    pass


def _count(g: Geometry, st: State, touched: list[int]) -> bool:
    """Region arithmetic on the regions with a cell decided (or a label set changed)
    since the last pass; their ids go to ``touched``."""
    changed = False
    known = st.num | st.blank
    dirty = ((known ^ st.seen) | st.mark) & g.full
    st.seen, st.mark = known, 0
    if not dirty:
        return False
    num, und = st.num, g.full & ~known
    dom, rmask, region_of = st.dom, g.rmask, g.region_of
    while dirty:
        k = region_of[(dirty & -dirty).bit_length() - 1]
        m = rmask[k]
        dirty &= ~m
        touched.append(k)
        kn = (num & m).bit_count()
        um = und & m
        u = um.bit_count()
        d = dom[k] & ((2 << (kn + u)) - 1) & ~((1 << (max(1, kn))) - 1)
        if not d:
            raise Contradiction
        if d != dom[k]:
            dom[k] = d
            changed = True
        if um:
            if d.bit_length() - 1 == kn:
                st.blank |= um
                changed = True
            elif (d & -d).bit_length() - 1 == kn + u:
                st.num |= um
                changed = True
    return changed


def _block(g: Geometry, st: State) -> bool:
    a, w, tl = st.num, g.w, g.top_left
    u = g.full & ~(a | st.blank)
    a1, aw, aw1 = a >> 1, a >> w, a >> (w + 1)
    if a & a1 & aw & aw1 & tl:
        raise Contradiction
    new = ((u & a1 & aw & aw1 & tl)
           | ((a & (u >> 1) & aw & aw1 & tl) << 1)
           | ((a & a1 & (u >> w) & aw1 & tl) << w)
           | ((a & a1 & aw & (u >> (w + 1)) & tl) << (w + 1)))
    if new:
        st.blank |= new
        return True
    return False


def _clash(g: Geometry, st: State, touched: list[int]) -> bool:
    """Equal labels across borders, for the pairs of regions with one side touched (a
    pair with neither side touched has seen no change since it was last looked at: every
    change to a region's cells or label set touches it in the next counting pass)."""
    changed = False
    dom, rmask, radj = st.dom, g.rmask, g.radj
    memo = g.beside
    num = st.num               # clash decides only blanks and label sets
    mine = touched if len(touched) < 8 else set(touched)
    # each pair once, as (fixed side k, other sides): k touched, or k not and one touched
    sides: list[tuple[int, tuple[int, ...]]] = [(k, radj[k]) for k in touched]
    for t in touched:
        for k in radj[t]:
            d = dom[k]
            if not d & (d - 1) and k not in mine:
                sides.append((k, (t,)))
    for k, others in sides:
        d = dom[k]
        if d & (d - 1):
            continue
        nk = num & rmask[k]
        if not nk:
            continue
        key = (k, nk)
        beside = memo.get(key)
        if beside is None:
            beside = memo[key] = g.spread(nk) & ~rmask[k]
        for s in others:
            ds = dom[s]
            if not ds & d:
                continue
            x = beside & rmask[s]
            if not x:
                continue
            if x & num:
                dom[s] = ds & ~d
                if not dom[s]:
                    raise Contradiction
                st.mark |= rmask[s]
                changed = True
            elif ds == d:
                x &= ~st.blank
                if x:
                    st.blank |= x
                    changed = True
    return changed


def flood(g: Geometry, seed: int, allowed: int) -> int:
    x = seed
    w, nf, nl = g.w, g.not_first, g.not_last
    while True:
        y = (x | ((x << 1) & nf) | ((x >> 1) & nl) | (x << w) | (x >> w)) & allowed
        if y == x:
            return x
        x = y


# a connected set that lost more cells than this is flooded afresh (each cell's ring
# test costs about a tenth of a flood)
RING_TESTS = 4


def _component(g: Geometry, st: State, poss: int) -> int:
    """The possible cells connected to the first number: ``poss`` itself when the cells
    ``st.comp`` (connected) lost since are taken away one at a time, none of them
    splitting what is left (its ring of eight joins its possible neighbours, or one of
    the certificates ``_cut_cells`` keeps for it is whole there); else a flood."""
    last = st.comp
    if last:
        gone = last & ~poss
        if gone.bit_count() <= RING_TESTS:
            ring = _rings(g.h, g.w)
            kept = _KEPT.setdefault((g.h, g.w), {})
            nbm = cut_grid(g).nbmask
            cur = last
            while gone:
                b = gone & -gone
                i = b.bit_length() - 1
                if ring(cur, i) and not _whole(kept.get(i), nbm[i] & cur, cur):
                    break
                cur ^= b
                gone ^= b
            if not gone:
                return cur
    return flood(g, st.num & -st.num, poss)


def _whole(certs: list[int] | None, need: int, alive: int) -> bool:
    """Whether one of a cell's certificates (``Grid.splits``) still holds in ``alive``:
    every cell of it alive, every live neighbour ``need`` in it. Then taking the cell
    away from ``alive`` (connected) leaves it connected, and splits nothing."""
    if certs:
        for c in certs:
            if not (c & ~alive) | (need & ~c):
                return True
    return False


@lru_cache(maxsize=32)  # bounded: one entry per grid size
def _rings(h: int, w: int) -> Any:
    """``ring(alive, i)``: ``Grid.local_cuts(alive) >> i & 1`` read off the 3×3 window
    around cell i alone (a table over its 512 patterns), for the one cell the reach
    rung asks about as a connected set loses it."""
    grid3 = Grid(3, 3)
    table = bytes(grid3.local_cuts(p) >> 4 & 1 for p in range(512))
    # the window's columns off the board (left of column 0, right of the last)
    left, right = 0b001001001, 0b100100100
    valid = [0b111111111 & ~(left if i % w == 0 else 0) & ~(right if i % w == w - 1 else 0)
             for i in range(h * w)]
    wide, wide2 = w, 2 * w

    def ring(alive: int, i: int) -> int:
        a = alive << (w + 1)        # row -1 and column -1 shifted onto the board
        return table[((a >> i & 7) | (a >> (i + wide) & 7) << 3
                      | (a >> (i + wide2) & 7) << 6) & valid[i]]

    return ring


def _reach(g: Geometry, st: State, cuts: bool = True) -> bool:
    num = st.num
    if not num:
        return False
    poss = g.full & ~st.blank
    comp = _component(g, st, poss)
    if num & ~comp:
        raise Contradiction
    st.comp = comp
    changed = False
    dead = poss & ~comp
    if dead:
        st.blank |= dead
        changed = True
    und = comp & ~num
    if not und or not cuts:
        return changed
    # the undecided cells whose removal would split the sure numbers: only where a
    # cell's possible neighbours fall into two or more arcs of the ring around it, each
    # settled by growing those arcs until they meet (a certificate, kept per cell across
    # states while it stays possible, spares the next look) or one side ends
    cut = _cut_cells(g, comp, num)
    if cut:
        st.num |= cut
        changed = True
    return changed


# per grid size, each cell's certificate that it splits nothing (Grid.cuts): it rests on
# the possible cells alone, so one store serves every state and board of that size
_CERTS: dict[tuple[int, int], dict[int, int]] = {}


# the reach rung keeps up to this many certificates per cell (``_cut_cells``)
CERTS_KEPT = 4
_KEPT: dict[tuple[int, int], dict[int, list[int]]] = {}


def _cut_cells(g: Geometry, comp: int, num: int) -> int:
    """The undecided cells of ``comp`` (connected, holding every number ``num``) whose
    removal splits the numbers, as ``Grid.cuts`` finds them, but keeping up to
    ``CERTS_KEPT`` certificates per cell, newest first: the probe's trials move between
    states that differ near the cell they try, and a certificate broken in one is often
    whole again in the next (graded solves of the hard corpus, 16x16 to 30x30, in one
    process: 19,336 ``Grid.splits`` calls against 24,288 with one certificate a cell)."""
    grid = cut_grid(g)
    kept = _KEPT.setdefault((g.h, g.w), {})
    nbm = grid.nbmask
    cand = grid.local_cuts(comp) & comp & ~num
    out = 0
    while cand:
        b = cand & -cand
        cand ^= b
        i = b.bit_length() - 1
        mine = kept.get(i)
        if mine:
            # _whole, inlined (a dozen or more candidates a call): every cell of the
            # certificate possible, every possible neighbour in it
            need = nbm[i] & comp
            whole = False
            for c in mine:
                if not (c & ~comp) | (need & ~c):
                    whole = True
                    break
            if whole:
                continue
        got = grid.splits(i, comp, num)
        if got < 0:
            out |= b
        elif got:
            if mine is None:
                kept[i] = [got]
            else:
                mine.insert(0, got)
                del mine[CERTS_KEPT:]
    return out


@lru_cache(maxsize=32)  # bounded: one entry per grid size
def _grid(h: int, w: int) -> Grid:
    return Grid(h, w)


def cut_grid(g: Geometry) -> Grid:
    return _grid(g.h, g.w)


def cut_certs(g: Geometry) -> dict[int, int]:
    return _CERTS.setdefault((g.h, g.w), {})


def propagate(g: Geometry, st: State, level: int, off: frozenset[str] = frozenset(),
              light: bool = False, answer: int | None = None) -> bool:
    """Run the rungs up to ``level`` (0 count … 4 probe) to a fixpoint; False on a
    contradiction. ``off`` names rules left out (for the ablation study); ``answer``: see
    ``_probe``."""
    use_count = "count" not in off
    use_block = level >= 1 and "block" not in off
    use_clash = level >= 2 and "clash" not in off
    use_reach = level >= 3 and "reach" not in off
    if st.rules != (use_count, use_clash):
        # a rule that did not run last time owes every region a look
        st.mark = -1
        st.rules = (use_count, use_clash)
    blocked = -1                 # the numbers as of the last block pass (none yet)
    try:
        while True:
            touched: list[int] = []
            if use_count:
                ch = _count(g, st, touched)
            else:                        # (ablation) no counting pass to name the regions
                ch = False
                touched = list(range(len(g.rmask)))
            if use_block and st.num != blocked:
                # new blanks alone leave the block rule nothing: it starts from numbers
                blocked = st.num
                ch = _block(g, st) or ch
            if use_clash and touched:
                ch = _clash(g, st, touched) or ch
            if ch:
                continue
            if use_reach and _reach(g, st, not light):
                continue
            if level >= 4:
                # _probe stops at a fixpoint of its own (a full pass that changed
                # nothing, every change followed by the rungs up to reach): another
                # round here would only repeat that pass
                _probe(g, st, off, answer)
            return True
    except Contradiction:
        return False


def resume(g: Geometry, w: State, st: State) -> State | None:
    """The join of a trial's last outcome ``w`` with a base ``st`` that has grown since
    (None when the two disagree on a cell), ready to propagate.

    ``w`` is the propagation of an earlier base inside ``st``, with the trial cell; so it
    lies inside the propagation T of ``st`` with that cell, as does ``st`` itself, and
    propagating the join ends at T again (propagation is monotone and a fixpoint
    propagates to itself), contradicting exactly when T does. Only what ``st`` adds to
    ``w`` is counted again: its newly decided cells are unseen by ``w``'s last counting
    pass, and the regions whose label sets it narrows are marked."""
    num, blank = w.num | st.num, w.blank | st.blank
    if num & blank:
        return None
    wd, sd = w.dom, st.dom
    dom = wd[:]
    mark = w.mark
    if wd != sd:
        rmask = g.rmask
        for k, d in enumerate(sd):
            x = dom[k] & d
            if x != dom[k]:
                dom[k] = x
                mark |= rmask[k]
    return State(num, blank, dom, w.seen, mark, w.rules, w.comp)


def _covers(st: State, w: State) -> bool:
    """Whether the closed state ``w`` holds every cell ``st`` has decided (its label sets
    then lie inside those of ``st`` too: they follow from the cells by propagation)."""
    return not (st.num & ~w.num or st.blank & ~w.blank)


# a probe pass that may skip runs a trial again only when the base gained a cell within
# this many steps of what its witness decided (``_probe``): 2 did the least work on the
# hard 16x16 corpus when light passes alone skipped (1: 5% more instructions, 3: 2% more,
# 5: 6% more)
NEAR = 2


def _probe(g: Geometry, st: State, off: frozenset[str], answer: int | None = None,
           full_wit: dict[tuple[int, bool], State] | None = None) -> bool:
    """Trials to a fixpoint through ``reach``: each undecided cell tried numbered, then
    blank; a trial that contradicts itself decides the cell the other way.

    Propagation is monotone (more decided, more deduced; a state that propagates without
    contradiction has no subset that contradicts), so a trial that once propagated to a
    consistent state ``w`` stays consistent while the base stays inside ``w``: every
    trial's outcome is kept as a witness, and a trial is run again only after the base
    has grown past its witness. A consistent trial also witnesses every other cell it
    decided (that cell's own trial lies inside it). Light trials (no cut-cell search)
    come first: a contradiction they find, the full trial finds too, and a full trial's
    witness serves the light trials as well. The last pass is one of full trials that
    changes nothing, so the fixpoint is the one plain passes of full trials reach.

    Only a pass that runs every trial can show the fixpoint, so the others may skip
    what is unlikely to pay: a trial is not run again while the cells the base gained
    past its witness all lie more than ``NEAR`` steps from the cells that witness decided
    (its changes and the base's meet nowhere the local rules could join them). Light
    passes skip so; full passes too, but when a full pass that skips decides nothing, one
    that skips nothing follows, and only a pass of that kind ends the probe, so the
    fixpoint is the same. Graded solves, instructions against no skipping at all: 14%
    fewer on the hard 16×16 corpus, 15% on the hard 20×20, 12% on the outside 20×20,
    4% on the hard 30×30 and 14% on the outside 30×30.

    With ``answer`` (the numbered cells of the board's one answer, which the state lies
    inside) only the trials against the answer are run: a trial that agrees with an
    answer never contradicts itself (every rung is sound), so it decides nothing.

    ``full_wit``: where the full trials' witnesses go (keyed by the cell's bit and
    whether it is numbered), for a caller that asks the same trials later."""
    changed = False
    skip = None if answer is None else (answer, g.full & ~answer)
    light_wit: dict[tuple[int, bool], State] = {}
    light_near: dict[tuple[int, bool], tuple[State, int]] = {}
    full_near: dict[tuple[int, bool], tuple[State, int]] = {}
    if full_wit is None:
        full_wit = {}
    while True:
        if _probe_pass(g, st, off, light_wit, None, skip, light_near):
            changed = True
            continue
        # a light pass closes the base under the light rungs only: the cut cells it
        # owes come before the full trials (and, when there are any, more light ones)
        if not propagate(g, st, 3, off):
            raise Contradiction
        if (_probe_pass(g, st, off, full_wit, light_wit, skip, full_near, light_near)
                or _probe_pass(g, st, off, full_wit, light_wit, skip, None, light_near)):
            changed = True
            continue
        return changed


def _probe_pass(g: Geometry, st: State, off: frozenset[str],
                wit: dict[tuple[int, bool], State],
                light_wit: dict[tuple[int, bool], State] | None,
                skip: tuple[int, int] | None = None,
                near: dict[tuple[int, bool], tuple[State, int]] | None = None,
                light_near: dict[tuple[int, bool], tuple[State, int]] | None = None
                ) -> bool:
    """One pass of trials over the undecided cells (light when ``light_wit`` is None;
    a full pass also files its witnesses under ``light_wit``). ``skip``: the cells whose
    numbered trial, and those whose blank trial, are known to hold. ``near``: for a pass
    that may skip (see ``_probe``), per trial the witness this kind of pass filed and
    the cells within ``NEAR`` steps of those it decided; ``light_near``: the same for
    the witnesses a full pass files under ``light_wit``."""
    light = light_wit is None
    progress = False
    und = g.full & ~(st.num | st.blank)
    while und:
        b = und & -und
        und ^= b
        if (st.num | st.blank) & b:
            continue
        for as_num in (True, False):
            if skip is not None and skip[0 if as_num else 1] & b:
                continue
            w = wit.get((b, as_num))
            if w is not None:
                if _covers(st, w):
                    continue
                if near is not None:
                    got = near.get((b, as_num))
                    if got is not None and got[0] is w and not (
                            (st.num | st.blank) & ~(w.num | w.blank) & got[1]
                            or st.num & w.blank or st.blank & w.num):
                        continue
            t = st.copy()
            if as_num:
                t.num |= b
            else:
                t.blank |= b
            if not propagate(g, t, 3, off, light):
                if as_num:
                    st.blank |= b
                else:
                    st.num |= b
                if not propagate(g, st, 3, off, light):
                    raise Contradiction
                progress = True
                break
            new = (t.num & ~st.num) | (t.blank & ~st.blank)
            nn = t.num
            zone = new
            for _ in range(NEAR):
                zone |= g.spread(zone)
            while new:
                c = new & -new
                new ^= c
                key = (c, bool(nn & c))
                wit[key] = t
                if light_wit is not None:
                    light_wit[key] = t
                if near is not None:
                    near[key] = (t, zone)
                if light_near is not None:
                    light_near[key] = (t, zone)
    return progress


def complete(g: Geometry, st: State) -> bool:
    return (st.num | st.blank) == g.full


def valid_complete(g: Geometry, st: State) -> bool:
    """A decided state that obeys every rule (the full rule set, whatever was used)."""
    if not complete(g, st):
        return False
    check = st.copy()
    check.mark = -1          # every region afresh, not only those touched lately
    return propagate(g, check, 3)


def to_answer(g: Geometry, st: State) -> Answer:
    return Answer.from_flat(g.h, g.w, [st.num >> i & 1 for i in range(g.n)])


def _pick(g: Geometry, st: State) -> int:
    """The cell to branch on: undecided, beside a number if any, in the region with the
    fewest undecided cells."""
    und = g.full & ~(st.num | st.blank)
    front = und & g.spread(st.num)
    pool = front or und
    best, best_key = -1, None
    for m in g.rmask:
        x = pool & m
        if not x:
            continue
        key = (und & m).bit_count()
        if best_key is None or key < best_key:
            best, best_key = (x & -x).bit_length() - 1, key
    return best


def search(g: Geometry, st: State, limit: int | None = 2, node_level: int = 3,
           cap: int | None = None, rng: random.Random | None = None,
           bias: float = 0.5) -> tuple[list[State], int]:
    """Complete search from a propagated state: up to ``limit`` solutions and the nodes
    visited. Raises Capped past ``cap`` nodes."""
    sols: list[State] = []
    nodes = 0

    def rec(s: State) -> bool:
        nonlocal nodes
        nodes += 1
        node()
        if cap is not None and nodes > cap:
            raise Capped
        if complete(g, s):
            if valid_complete(g, s):
                sols.append(s)
                return limit is not None and len(sols) >= limit
            return False
        i = _pick(g, s)
        b = 1 << i
        first_num = rng.random() < bias if rng is not None else True
        for as_num in ((True, False) if first_num else (False, True)):
            t = s.copy()
            if as_num:
                t.num |= b
            else:
                t.blank |= b
            if propagate(g, t, node_level) and rec(t):
                return True
        return False

    rec(st)
    return sols, nodes


def fixpoint(board: Board, level: str | int, off: frozenset[str] = frozenset()
             ) -> tuple[Geometry, State | None]:
    """The state after the rungs up to ``level`` reach a fixpoint (None: contradiction)."""
    lv = LEVEL[level] if isinstance(level, str) else level
    g = geometry(board.h, board.w, board.regions)
    st = initial(board, g)
    if st is None or not propagate(g, st, min(lv, 4), off):
        return g, None
    return g, st


def completes(board: Board, level: str | int, off: frozenset[str] = frozenset()) -> bool:
    """Whether the rungs up to ``level`` decide every cell, validly."""
    g, st = fixpoint(board, level, off)
    return st is not None and valid_complete(g, st)


SAT_MAX_CELLS = 2500    # larger boards keep to the pure-Python search (bounded by node())
SAT_MIN_CELLS = 144     # below 12×12 probing and search alone are quicker than the SAT round
# a region of s cells costs the encoding about s³/2 clauses (its label's counters): an
# empty 50×50 board, one region, grew by 130 MB a second before this cap
SAT_MAX_REGION = 24




def _in_sat_range(board: Board) -> bool:
    """Whether the SAT step runs on ``board``: from ``SAT_MIN_CELLS`` to ``SAT_MAX_CELLS``
    cells and no region past ``SAT_MAX_REGION`` (elsewhere the ladder's own search does
    the work, with python-sat or without)."""
    if not SAT_MIN_CELLS <= board.h * board.w <= SAT_MAX_CELLS:
        return False
    sizes: dict[int, int] = {}
    for k in board.flat_regions():
        sizes[k] = sizes.get(k, 0) + 1
    return max(sizes.values()) <= SAT_MAX_REGION


def _sat_answers(board: Board, st: State | None = None
                 ) -> tuple[list[Answer], dict[str, Any]] | None:
    """Up to two answers from the SAT engine (``residual.py``), handed what the cheap
    rungs decided (``st``, when given), or None when python-sat is missing or switched
    off (``satcut.sat_available``) or the board is out of range (``_in_sat_range``)."""
    if not _in_sat_range(board) or not sat_available():
        return None
    try:
        from .residual import solve_sat
    except ImportError:
        return None
    r = (solve_sat(board, 2) if st is None
         else solve_sat(board, 2, st.num, st.blank, st.dom))
    return r.answers, {"sat_calls": r.calls, "sat_cuts": r.cuts, "engine": "sat",
                       "nodes": "SAT solver calls"}


def _learn_answers(board: Board, st: State | None = None
                   ) -> tuple[list[Answer], dict[str, Any]] | None:
    """Where the SAT engine does not run but the board is in its range: up to two answers
    from the pure-Python learning solver (``learn.py``), handed what the cheap rungs
    decided (``st``, a state propagated through ``reach``; computed here when None)."""
    if not _in_sat_range(board):
        return None
    from .learn import solve_learn
    if st is None:
        g = geometry(board.h, board.w, board.regions)
        st = initial(board, g)
        if st is None or not propagate(g, st, LEVEL["reach"]):
            return [], {"sat_calls": 0, "sat_cuts": 0, "engine": "learn",
                        "nodes": "learning solver calls"}
    lr = solve_learn(board, 2, st.num, st.blank, st.dom)
    return lr.answers, {"sat_calls": lr.calls, "sat_cuts": lr.cuts, "engine": "learn",
                        "conflicts": lr.conflicts, "nodes": "learning solver calls"}


def _step_answers(board: Board, st: State | None = None
                  ) -> tuple[list[Answer], dict[str, Any]] | None:
    """The SAT step: the SAT engine, else its pure-Python stand-in, else None."""
    got = _sat_answers(board, st)
    return got if got is not None else _learn_answers(board, st)


def solve(board: Board, level: str | None = None, limit: int | None = 2,
          cap: int | None = None, grade: bool = True) -> SolveResult:
    """The ladder: each rung up to ``level`` in turn; then search (when ``level`` is
    None or ``"search"``). ``rung`` is the lowest rung that completed the board.

    With search on, after the cheap rungs the SAT engine (``residual.py``, when python-sat is
    there; else the pure-Python learning solver ``learn.py``) counts the answers up to
    two: both give the same answers, so the result is the same either way bar ``nodes``
    and ``stats``. One answer S: the probe rung is run with only
    the trials against S (the others cannot contradict), which decides whether probing
    completes the board (rung "probe") or not (rung "search", answer S) with no search.
    None: no answer. Two or more: the ladder's own search, which finds the same answers
    in the same order as always.

    ``grade=False`` (answers and verdict only, ``limit`` 1 or 2): where the SAT engine
    runs, its answers are the result, without the probe trials the grade needs; ``rung``
    is then None unless a cheap rung finished the board, and ``stats["graded"]`` False."""
    if level is not None and level not in LEVEL:
        raise ValueError(f"unknown rung {level!r}; rungs are {', '.join(RUNGS)}")
    top = LEVEL["search"] if level is None else LEVEL[level]
    g = geometry(board.h, board.w, board.regions)
    st = initial(board, g)
    if st is None:
        return SolveResult([], rung=None, stats={"contradiction": True})
    given = st.num
    answer = None
    stats: dict[str, Any] = {}
    for k in range(min(top, 4) + 1):
        if k == LEVEL["probe"] and top == LEVEL["search"] and cap is None and (
                limit is None or limit >= 1):
            got = _step_answers(board, st)
            if got is not None:
                sols, stats = got
                if not grade and limit is not None and limit <= 2:
                    return SolveResult(sols[:limit], nodes=stats["sat_calls"], rung=None,
                                       stats=dict(stats, graded=False))
                if not sols:
                    return SolveResult([], nodes=stats["sat_calls"], rung=None, stats=stats)
                if len(sols) == 1:
                    answer = sum(1 << i for i, v in enumerate(sols[0].flat()) if v)
        if not propagate(g, st, k, answer=answer):
            return SolveResult([], rung=None, stats={"contradiction": True})
        if complete(g, st):
            ok = valid_complete(g, st)
            fixed = [divmod(i, g.w) for i in range(g.n) if not given >> i & 1]
            return SolveResult([to_answer(g, st)] if ok else [], rung=RUNGS[k] if ok else None,
                               fixed=fixed)
    if top < LEVEL["search"]:
        done = st.num | st.blank
        fixed = [divmod(i, g.w) for i in range(g.n) if done >> i & 1 and not given >> i & 1]
        return SolveResult([], rung=None, fixed=fixed)
    if answer is not None:
        # the probe fixpoint is short of the one answer: search would only find it again
        return SolveResult([Answer.from_flat(g.h, g.w, [answer >> i & 1 for i in range(g.n)])],
                           nodes=stats["sat_calls"], rung="search", stats=stats)
    sols, nodes = search(g, st, limit, cap=cap)
    return SolveResult([to_answer(g, s) for s in sols], nodes=nodes,
                       rung="search" if sols else None)


def count_answers(board: Board) -> int:
    """How many answers the board has, up to 2 (the drawing of hard boards asks this
    many times): the SAT engine or its pure-Python stand-in where the board is in their
    range, else ``solve``."""
    got = _step_answers(board)
    if got is not None:
        return len(got[0])
    return len(solve(board, limit=2).solutions)


def prove(board: Board, cap: int | None = None) -> tuple[int, int]:
    """(number of answers up to 2, search nodes): reach at the root, then search."""
    g = geometry(board.h, board.w, board.regions)
    st = initial(board, g)
    if st is None or not propagate(g, st, 3):
        return 0, 0
    sols, nodes = search(g, st, 2, cap=cap)
    return len(sols), nodes


def random_answer(board: Board, rng: random.Random, cap: int = 4000,
                  tries: int = 30) -> Answer | None:
    """A random legal answer of ``board`` (its clues respected): randomized propagating
    search with a node cap and restarts (None when every try ran out)."""
    g = geometry(board.h, board.w, board.regions)
    for _ in range(tries):
        st = initial(board, g)
        if st is None or not propagate(g, st, 3):
            return None
        try:
            sols, _ = search(g, st, 1, cap=cap, rng=rng, bias=0.6)
        except Capped:
            continue
        return to_answer(g, sols[0]) if sols else None
    return None
