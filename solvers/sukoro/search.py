"""Fast engine for the ladder: the same rungs on bitboards, probing, and search.

A state is five ints over the cells (bit r*w + c): ``B`` (blank still possible) and
``N1``..``N4`` (that number still possible); a cell's domain is its bits across the five.
The rules are exactly the ladder's (``deg``, ``neq``, ``conn``), applied to every cell at
once with shifts and bit-sliced neighbour counts, so one sweep costs a few hundred integer
operations whatever the board size:

* ``deg``: with s sure and p possible numbered neighbours, a number v needs s <= v <= p;
  a sure number at its top value (s = max) blanks its undecided neighbours, at its bottom
  value (p = min) numbers them.
* ``neq``: a decided number v removes v from its neighbours.
* ``conn``: cells the sure numbers cannot reach through possible numbers are blank (a sure
  number out of reach is a contradiction); an undecided cell whose removal would split
  the sure numbers is numbered (articulation cells: floods from each candidate's
  neighbours, with the ways round they find remembered across states).

``close`` computes the ``probe`` rung's fixpoint (singleton consistency over those rules):
cheap trials first (reachability without articulation cells; a failure there is a
failure of the full rules too), then full trials on what is left, keeping every value a
successful trial fixed as supported until the state narrows again. The fixpoint is the
same as the ladder's (the greatest one), only reached with less work.

``Search`` is a depth-first search from the probe fixpoint that propagates the full
rules at every node, branches on whether a cell holds a number (a value follows from the
shape), picks the undecided cell next to the sure numbers with the fewest ways left, and
probes that cell's two states before it commits (a failed state is learnt for the rest
of the subtree). It keeps its own stack (no recursion), so board size is not limited by
Python's recursion depth. It counts each node against the active Budget. The ladder uses
it when python-sat is missing or ``engine="search"`` is asked for; otherwise the answers
come from MiniSat on the open cells (``residual.py``).
"""

from __future__ import annotations

from functools import cache

from solvers.common import node

State = tuple[int, int, int, int, int]


class Geo:
    """Masks and neighbour lists of an h×w grid."""

    def __init__(self, h: int, w: int) -> None:
        self.h, self.w, self.n = h, w, h * w
        self.full = (1 << self.n) - 1
        col0 = sum(1 << (r * w) for r in range(h))
        colw = sum(1 << (r * w + w - 1) for r in range(h))
        self.nc0 = self.full & ~col0       # cells with a west neighbour
        self.ncw = self.full & ~colw       # cells with an east neighbour
        nb = []
        for i in range(self.n):
            r, c = divmod(i, w)
            x = []
            if r > 0:
                x.append(i - w)
            if c > 0:
                x.append(i - 1)
            if c + 1 < w:
                x.append(i + 1)
            if r + 1 < h:
                x.append(i + w)
            nb.append(tuple(x))
        self.nb = tuple(nb)
        # per cell, its neighbours after it (east and south)
        self.later = tuple(tuple(j for j in x if j > i) for i, x in enumerate(nb))


@cache
def geo(h: int, w: int) -> Geo:
    return Geo(h, w)


# per plane, the byte of a domain's bit there as an ASCII digit: a plane is then one
# translate and one base-2 parse of the domains, in C, not a loop over the cells
_PLANE = [bytes(48 + (m >> k & 1) for m in range(256)) for k in range(5)]


def from_domains(dom: list[int]) -> State:
    """The ladder's list of 5-bit domains as a state."""
    if not dom:
        return 0, 0, 0, 0, 0
    raw = bytes(reversed(dom))
    t = raw.translate
    return (int(t(_PLANE[0]), 2), int(t(_PLANE[1]), 2), int(t(_PLANE[2]), 2),
            int(t(_PLANE[3]), 2), int(t(_PLANE[4]), 2))


def to_domains(st: State, n: int) -> list[int]:
    b, n1, n2, n3, n4 = st
    return [(b >> i & 1) | (n1 >> i & 1) << 1 | (n2 >> i & 1) << 2 | (n3 >> i & 1) << 3
            | (n4 >> i & 1) << 4 for i in range(n)]


def _local(g: Geo, st: State, neq: bool) -> State | None:
    """``deg`` (and ``neq``) to a fixpoint over the whole board; None on contradiction.

    (Shifts past the last row are not masked: the stray high bits only ever meet masks of
    real cells.)"""
    b, n1, n2, n3, n4 = st
    w, full, nc0, ncw = g.w, g.full, g.nc0, g.ncw
    s_was = p_was = -1
    d1 = d2 = d3 = d4 = 0     # the decided numbers whose value left their neighbours
    tp = bp = 0               # the sure numbers at their top, their bottom value
    while True:
        p = n1 | n2 | n3 | n4
        if (b | p) != full:
            return None
        s = p & ~b
        # sure-count planes (s0, s1, s2) and possible-count planes (p0, p1, p2), counted
        # again only when their cells changed (in half the sweeps after the first, only
        # the values of numbered cells did)
        if s != s_was:
            s_was = s
            a, c = s << w, s >> w
            e, f = (s << 1) & nc0, (s >> 1) & ncw
            x1, y1 = a ^ c, a & c
            x2, y2 = e ^ f, e & f
            s0 = x1 ^ x2
            s1 = y1 ^ y2 ^ (x1 & x2)
            s2 = y1 & y2
            # cells with at most 1, 2, 3 sure numbered neighbours, and with exactly 1..3
            sle1 = ~(s1 | s2)
            sle2 = ~(s2 | (s1 & s0))
            sle3 = ~s2
            sc1 = s0 & ~s1 & ~s2
            sc2 = s1 & ~s0
            sc3 = s1 & s0
        if p != p_was:
            p_was = p
            a, c = p << w, p >> w
            e, f = (p << 1) & nc0, (p >> 1) & ncw
            x1, y1 = a ^ c, a & c
            x2, y2 = e ^ f, e & f
            p0 = x1 ^ x2
            p1 = y1 ^ y2 ^ (x1 & x2)
            p2 = y1 & y2
            # cells with at least 1, 2, 3 possibly numbered neighbours, and exactly 1..3
            pge2 = p1 | p2
            pge1 = p0 | pge2
            pge3 = p2 | (p1 & p0)
            pc1 = p0 & ~pge2
            pc2 = p1 & ~p0
            pc3 = p1 & p0
        m1 = n1 & pge1 & sle1
        m2 = n2 & pge2 & sle2
        m3 = n3 & pge3 & sle3
        m4 = n4 & p2
        # the cells whose numbers narrowed to one value: a sure number is at its top
        # value (as many sure numbered neighbours as it counts) only when that is its one
        # value (the count rung kept no value under that many), and at its bottom value
        # (as many possible) likewise
        o12 = m1 | m2
        o34 = m3 | m4
        q1 = m1 & ~(m2 | o34)
        q2 = m2 & ~(m1 | o34)
        q3 = m3 & ~(o12 | m4)
        q4 = m4 & ~(o12 | m3)
        # a sure number at its top value blanks its undecided neighbours, at its bottom
        # value numbers them
        u = b & p
        nbb = b
        if u:
            top = s & ((q4 & s2) | (q3 & sc3) | (q2 & sc2) | (q1 & sc1))
            bot = s & ((q1 & pc1) | (q2 & pc2) | (q3 & pc3) | (q4 & p2))
            # (a cell that was at its top or bottom value in the last sweep settled its
            # undecided neighbours then, and none has joined them since)
            x, tp = top & ~tp, top
            if x:
                t = ((x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw)) & u
                if t:
                    t = ~t
                    m1 &= t
                    m2 &= t
                    m3 &= t
                    m4 &= t
            x, bp = bot & ~bp, bot
            if x:
                t = ((x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw)) & u
                if t:
                    nbb = b & ~t
        if neq:
            # decided numbers remove their value from their neighbours; a cell decided in
            # an earlier sweep of this call did so then (the planes only shrink since).
            # (A cell the top rule just blanked is not decided as a number, unless the
            # bottom rule numbered it too: then it is empty, and the next sweep fails.)
            one = ~nbb
            g1 = q1 & one
            g2 = q2 & one
            g3 = q3 & one
            g4 = q4 & one
            x = g1 & ~d1
            if x:
                m1 &= ~((x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw))
            x = g2 & ~d2
            if x:
                m2 &= ~((x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw))
            x = g3 & ~d3
            if x:
                m3 &= ~((x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw))
            x = g4 & ~d4
            if x:
                m4 &= ~((x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw))
            d1, d2, d3, d4 = g1, g2, g3, g4
        if nbb == b and m1 == n1 and m2 == n2 and m3 == n3 and m4 == n4:
            return st
        b, n1, n2, n3, n4 = nbb, m1, m2, m3, m4
        st = (b, n1, n2, n3, n4)


def _flood(g: Geo, seed: int, region: int) -> int:
    w, nc0, ncw = g.w, g.nc0, g.ncw
    x = seed
    while True:
        y = (x | (x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw)) & region
        if y == x:
            return x
        x = y


def _reach(g: Geo, st: State) -> State | None:
    """Cells the sure numbers cannot reach are blank; None if two sure numbers cannot meet."""
    b, n1, n2, n3, n4 = st
    p = n1 | n2 | n3 | n4
    s = p & ~b
    if not s:
        return st
    r = _flood(g, s & -s, p)
    if s & ~r:
        return None
    if p & ~r:
        return (b, n1 & r, n2 & r, n3 & r, n4 & r)
    return st


def _cutting(g: Geo, r: int) -> int:
    """Cells of ``r`` whose neighbours in ``r`` are not all joined around the cell's own
    ring of eight: only such cells can be articulation cells of ``r``."""
    w, full, nc0, ncw = g.w, g.full, g.nc0, g.ncw
    n = (r << w) & full
    s = r >> w
    e = (r >> 1) & ncw
    ww = (r << 1) & nc0
    ne = (r << (w - 1)) & ncw & full
    nw = (r << (w + 1)) & nc0 & full
    se = (r >> (w + 1)) & ncw
    sw = (r >> (w - 1)) & nc0
    # going round the ring, a group of neighbours ends where the link to the next fails
    bn = n & ~(ne & e)
    be = e & ~(se & s)
    bs = s & ~(sw & ww)
    bw = ww & ~(nw & n)
    return r & ((bn & (be | bs | bw)) | (be & (bs | bw)) | (bs & bw))


def _cuts(g: Geo, st: State) -> int:
    """Undecided cells whose removal would split the sure numbers. Candidates are the
    undecided cells that cut their own neighbourhood, each checked by floods from its
    neighbours or by a way round remembered from an earlier check (``_cuts_of``)."""
    b, n1, n2, n3, n4 = st
    p = n1 | n2 | n3 | n4
    s = p & ~b
    if not s or not (s & (s - 1)):
        return 0
    cand = _cutting(g, p) & b
    if not cand:
        return 0
    # the answer depends on p and s only (the undecided cells of p are p without s); the
    # search meets the same pair again often (a third of the calls on 20x20 boards)
    key = (g.h, g.w, p, s)
    memo = _CUT_MEMO
    got = memo.get(key)
    if got is not None:
        return got
    if len(memo) >= CUT_MEMO:
        memo.clear()
    got = memo[key] = _cuts_of(g, p, s, b, cand)
    return got


CUT_MEMO = 2048     # entries in all; cleared when full, so memory stays bounded
_CUT_MEMO: dict[tuple[int, int, int, int], int] = {}


def forget_cuts() -> None:
    """Empty the memo of cut cells and the remembered ways round."""
    _CUT_MEMO.clear()
    _ROUND.clear()


def _cuts_of(g: Geo, p: int, s: int, b: int, cand: int) -> int:
    """The candidates whose removal splits the sure numbers, by floods in step from each
    of the candidate's neighbours: floods that meet merge, and the check stops as soon as
    one flood is left (a short way round: not a cut, the usual case, after a few steps) or
    a flood fills its side (a side with no sure number is dropped; one holding some but
    not all of them makes the candidate a cut). So a small pocket is settled as soon as it
    is filled, and only the smallest side of a cell is ever flooded whole.

    A cell found not to split them is remembered (``_ROUND``) with shortest paths joining
    its neighbours beyond the pockets, and the pockets: while every cell of those paths
    may still hold a number, no pocket holds a sure number or touches a cell that may
    hold one (but the cell itself), and the cell has no other neighbour, it still splits
    nothing, without a flood, whatever else changed (the probe's trials narrow a few cells
    at a time)."""
    w, nc0, ncw = g.w, g.nc0, g.ncw
    out = 0
    rounds = _ROUND.get((g.h, g.w))
    if rounds is None:
        rounds = _ROUND[(g.h, g.w)] = {}
    get = rounds.get
    while cand:
        c = cand & -cand
        cand ^= c
        held = False
        for way, pockets, shore, ok in get(c, ()):
            # p & ok: the cell's neighbours that may hold a number outside its paths and
            # pockets; way & ~p: a cell of the paths that went
            if not (way & ~p or s & pockets or shore & p or p & ok):
                held = True
                break
        if held:
            continue
        region = p & ~c
        ring = ((c << w) | (c >> w) | ((c << 1) & nc0) | ((c >> 1) & ncw)) & region
        key = c
        ring0 = ring
        fl = []
        while ring:
            x = ring & -ring
            ring ^= x
            fl.append(x)
        pockets = 0
        while len(fl) > 1:
            nxt = []  # type: list[int]
            cut = False
            for x in fl:
                y = (x | (x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw)) & region
                if y == x:
                    # a whole side
                    if s & x:
                        cut = bool(s & ~x)
                        nxt = None  # type: ignore[assignment]  # None: a whole side was cut
                        break
                    pockets |= x
                    continue                # a pocket without sure numbers
                for k, z in enumerate(nxt):
                    if z & y:
                        nxt[k] = z | y
                        break
                else:
                    nxt.append(y)
            if nxt is None:
                break
            # floods that met in this step may still overlap an earlier one
            merged: list[int] = []
            for y in nxt:
                for k, z in enumerate(merged):
                    if z & y:
                        merged[k] = z | y
                        break
                else:
                    merged.append(y)
            fl = merged
        else:
            if len(rounds) >= ROUND_MEMO:
                rounds.clear()
            rest = ring0 & ~pockets
            shore = ((pockets << w) | (pockets >> w) | ((pockets << 1) & nc0)
                     | ((pockets >> 1) & ncw)) & ~pockets & ~c
            way = _paths(g, fl[0], rest) if fl and rest else 0
            nbs = (c << w) | (c >> w) | ((c << 1) & nc0) | ((c >> 1) & ncw)
            rounds[key] = ((way, pockets, shore, nbs & ~(way | pockets)),
                           *get(key, ())[:WAYS - 1])
            continue
        if cut:
            out |= c
    return out


def _paths(g: Geo, r: int, ring: int) -> int:
    """Shortest paths inside the connected region ``r`` from one cell of ``ring`` to each
    of the others: a small connected set holding ``ring``."""
    w, nc0, ncw = g.w, g.nc0, g.ncw
    start = ring & -ring
    layers = [start]
    x = start
    while ring & ~x:
        y = (x | (x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw)) & r
        layers.append(y & ~x)
        x = y
    out = start
    todo = ring & ~start
    while todo:
        t = todo & -todo
        todo ^= t
        d = next(j for j, lay in enumerate(layers) if lay & t)
        cur = t
        out |= t
        for j in range(d - 1, 0, -1):
            nb = ((cur << w) | (cur >> w) | ((cur << 1) & nc0) | ((cur >> 1) & ncw)) \
                & layers[j]
            cur = nb & -nb
            out |= cur
    return out


ROUND_MEMO = 1 << 16
# ways round kept per cell, the newest first: the trace checks the ends of many trials in
# turn, and one way per cell would be replaced back and forth between them
WAYS = 8
# (h, w) -> cell bit -> ways round, each (paths, pockets, their shore, other neighbours)
_ROUND: dict[tuple[int, int], dict[int, tuple[tuple[int, int, int, int], ...]]] = {}


def _joined(g: Geo, p: int, gone: int) -> bool:
    """Whether the cells of ``p`` next to ``gone`` are still joined inside ``p``.

    When ``p | gone`` was connected, that is enough for ``p`` to be connected: a path
    through the cells that left can go round them. The flood starts beside the cells that
    left and stops as soon as it has met all their neighbours, usually after a few steps."""
    w, nc0, ncw = g.w, g.nc0, g.ncw
    edge = ((gone << w) | (gone >> w) | ((gone << 1) & nc0) | ((gone >> 1) & ncw)) & p
    if not edge or not (edge & (edge - 1)):
        return True
    return _reached(g, edge & -edge, p, edge) == edge


def _reached(g: Geo, seed: int, region: int, want: int) -> int:
    """The cells of ``want`` (inside ``region``) that ``region`` joins to ``seed``: a
    flood that stops once it holds them all."""
    w, nc0, ncw = g.w, g.nc0, g.ncw
    x = seed
    while want & ~x:
        y = (x | (x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw)) & region
        if y == x:
            break
        x = y
    return want & x


def propagate(g: Geo, st: State, neq: bool = True, connect: bool = True,
              cuts: bool = True, joined: int = 0) -> State | None:
    """The rungs to a common fixpoint; ``cuts=False`` leaves out articulation cells.

    ``joined``: cells known to form one connected region holding every sure number of
    ``st`` (the cells that may hold a number in a state ``st`` was narrowed from); the
    reachability rung then only has to check that what left did not cut that region."""
    while True:
        st2 = _local(g, st, neq)
        if st2 is None:
            return None
        st = st2
        if not connect:
            return st
        p = st[1] | st[2] | st[3] | st[4]
        if joined and p != joined and _joined(g, p, joined & ~p):
            joined = p
        if p != joined:
            st2 = _reach(g, st)
            if st2 is None:
                return None
            if st2 is not st:
                # what is left is the flood from a sure number: connected, holding them all
                st = st2
                joined = st[1] | st[2] | st[3] | st[4]
                continue
            joined = p if p & ~st[0] else 0
        if cuts:
            c = _cuts(g, st) & st[0]
            if c:
                st = (st[0] & ~c,) + st[1:]
                continue
        return st


def complete(st: State) -> bool:
    b, n1, n2, n3, n4 = st
    return not (b & (n1 | n2 | n3 | n4) or n1 & (n2 | n3 | n4) or n2 & (n3 | n4) or n3 & n4)


def singles(st: State) -> State:
    """Per value, the cells whose domain is that value alone."""
    b, n1, n2, n3, n4 = st
    return (b & ~(n1 | n2 | n3 | n4), n1 & ~(b | n2 | n3 | n4), n2 & ~(b | n1 | n3 | n4),
            n3 & ~(b | n1 | n2 | n4), n4 & ~(b | n1 | n2 | n3))


def restrict(st: State, i: int, k: int) -> State:
    """``st`` with cell i set to value k (0 = blank)."""
    bit = 1 << i
    keep = ~bit
    b, n1, n2, n3, n4 = st
    b, n1, n2, n3, n4 = b & keep, n1 & keep, n2 & keep, n3 & keep, n4 & keep
    if k == 0:
        return b | bit, n1, n2, n3, n4
    if k == 1:
        return b, n1 | bit, n2, n3, n4
    if k == 2:
        return b, n1, n2 | bit, n3, n4
    if k == 3:
        return b, n1, n2, n3 | bit, n4
    return b, n1, n2, n3, n4 | bit


def _valid(g: Geo, st: State) -> bool:
    """A complete fixpoint is an answer when it has a number (the rules hold at the
    fixpoint: counts are exact, equal neighbours and split groups were contradictions)."""
    p = st[1] | st[2] | st[3] | st[4]
    return p != 0


class Closer:
    """Singleton consistency ("probe") over the full rules, as in the ladder."""

    def __init__(self, g: Geo, neq: bool, connect: bool) -> None:
        self.g, self.neq, self.connect = g, neq, connect
        self.trials = 0
        self.repairs = 0
        # (value, cell bit) -> [kept fixpoint fixing it or None, unused, full rules]
        self.by_value: dict[tuple[int, int], list] = {}
        # the fixpoints of this closer's successful trials, each with whether it is one
        # of the full rules (else of the rules without articulation cells)
        self.ends: list[tuple[State, bool]] = []
        # per value, cell bit -> the fixpoint of that value's last successful trial and
        # whether it is one of the full rules. The states a closer works on only narrow,
        # so for a later state that fixpoint met with the state holds every fixpoint the
        # trial can reach there: the trial starts from it, and ends where a fresh one
        # would (a fixpoint of the rules without articulation cells serves trials under
        # the full rules too, as every full fixpoint is one of them)
        self.last: tuple[dict[int, tuple[State, bool]], ...] = ({}, {}, {}, {}, {})

    def prop(self, st: State, cuts: bool = True, joined: int = 0) -> State | None:
        return propagate(self.g, st, self.neq, self.connect, cuts, joined)

    def ok(self, st: State, cuts: bool, joined: int = 0) -> State | None:
        st2 = propagate(self.g, st, self.neq, self.connect, cuts, joined)
        if st2 is None:
            return None
        if complete(st2) and not _valid(self.g, st2):
            return None
        return st2

    def close(self, st: State, known: list[State] | None = None,
              ends: list[tuple[State, bool]] | None = None) -> State | None:
        """The probe fixpoint from a fixpoint of the rungs below (None: contradiction).

        ``known``: answers already found (complete fixpoints), which support their values.
        ``ends``: fixpoints of successful trials inside ``st`` (another closer's
        ``ends``, from a state inside this one), which support the values they fix but
        the answer's while they stay inside the state.
        Cheap sweeps first (trials without articulation cells), then sweeps under the full
        rules until one narrows nothing, which makes the result the ladder's fixpoint."""
        res = self._cheap(st, known or [], ends)
        if res is None:
            return None
        st = res
        if complete(st):
            return st
        return self._sweep(st, True, list(known or []), ends)

    def _pass(self, st: State, cuts: bool, skip, kept) -> tuple[State | None, bool]:
        """One pass of trials over the undecided cells, next to a decided cell first (that
        is where trials fail). Each value that ``skip(state, cell bit, value)`` does not
        excuse is tried: a failed one is removed and the state propagated, a successful
        one's fixpoint goes to ``kept(state, cell bit, fixpoint)``. Returns the state
        (None: contradiction) and whether it narrowed."""
        g = self.g
        w, nc0, ncw, full = g.w, g.nc0, g.ncw, g.full
        narrowed = False
        last = self.last
        und = _undecided(st)
        pj = _joined_region(st)
        # the cells still undecided, and those next to a decided cell (both change only
        # when the state narrows)
        opened = und
        dec = full & ~opened
        front = (dec << w) | (dec >> w) | ((dec << 1) & nc0) | ((dec >> 1) & ncw)
        while und:
            pick = (und & front) or und
            low = pick & -pick
            und ^= low
            if not opened & low:
                continue
            i = low.bit_length() - 1
            drop = 0
            for k in range(5):
                if not st[k] & low or skip(st, low, k):
                    continue
                self.trials += 1
                # a value tried before starts from its last trial's fixpoint, met with
                # the state: the same fixpoint, in fewer sweeps
                got = last[k].get(low)
                if got is not None and (cuts or not got[1]):
                    t = got[0]
                    x = (t[0] & st[0], t[1] & st[1], t[2] & st[2], t[3] & st[3],
                         t[4] & st[4])
                else:
                    x = restrict(st, i, k)
                res = self.ok(x, cuts, pj)
                if res is None:
                    drop |= 1 << k
                else:
                    kept(st, low, res)
                    last[k][low] = (res, cuts)
            if drop:
                # (what the state may still number is one region holding the sure
                # numbers, so the reachability rung only checks what left)
                st2 = self.prop(tuple(x & ~low if drop >> k & 1 else x  # type: ignore
                                      for k, x in enumerate(st)), cuts, pj)
                if st2 is None:
                    return None, True
                st = st2
                narrowed = True
                pj = _joined_region(st)
                opened = _undecided(st)
                dec = full & ~opened
                front = (dec << w) | (dec >> w) | ((dec << 1) & nc0) | ((dec >> 1) & ncw)
        return st, narrowed

    def _cheap(self, st: State, known: list[State] | None = None,
               ends: list[tuple[State, bool]] | None = None) -> State | None:
        """Passes of trials without articulation cells, as a worklist: a value whose last
        trial succeeded is tried again only once the state changed within one cell of
        what that trial decided (the trial keeps that area of the state it ran in, to
        compare). Skipping a trial never removes a value, so this is sound whatever it
        skips; the sweeps under the full rules that follow are exhaustive."""
        g = self.g
        w, nc0, ncw, full = g.w, g.nc0, g.ncw, g.full

        # per value, cell bit -> (area, the state's five masks inside it when its trial succeeded or
        # None, a fixpoint fixing the value)
        seen: tuple[dict[int, tuple], ...] = ({}, {}, {}, {}, {})     # per value
        und = _undecided(st)
        for t in known or ():
            # an answer lies inside every state the sound rules reach: its values' trials
            # cannot fail, whatever narrows
            for kk, x in enumerate(t):
                x &= und
                while x:
                    lb = x & -x
                    seen[kk][lb] = (0, (0, 0, 0, 0, 0), t)
                    x ^= lb
        for t, _ in ends or ():
            for kk, x in enumerate(_fixes(t, und, known)):
                while x:
                    lb = x & -x
                    seen[kk][lb] = (0, None, t)
                    x ^= lb

        def skip(st: State, low: int, k: int) -> bool:
            got = seen[k].get(low)
            if got is None:
                return False
            area, was, t = got
            if (was is not None and st[0] & area == was[0] and st[1] & area == was[1]
                    and st[2] & area == was[2] and st[3] & area == was[3]
                    and st[4] & area == was[4]):
                return True
            # a fixpoint with the value inside the state: the trial cannot fail
            return _inside(t, st)

        def kept(st: State, low: int, res: State) -> None:
            b0, b1, b2, b3, b4 = st
            ch = (b0 ^ res[0]) | (b1 ^ res[1]) | (b2 ^ res[2]) | (b3 ^ res[3]) \
                | (b4 ^ res[4])
            area = (ch | (ch << w) | (ch >> w) | ((ch << 1) & nc0) | ((ch >> 1) & ncw)) \
                & full
            self.ends.append((res, False))
            mark = (area, (b0 & area, b1 & area, b2 & area, b3 & area, b4 & area), res)
            for kk, x in enumerate(singles(res)):
                x &= ch | low
                if x:
                    sk = seen[kk]
                    while x:
                        lb = x & -x
                        sk[lb] = mark
                        x ^= lb

        while True:
            res, narrowed = self._pass(st, False, skip, kept)
            if res is None:
                return None
            st = res
            if narrowed:
                res = self.prop(st, True, _joined_region(st))
                if res is None:
                    return None
                st = res
            if complete(st) or not narrowed:
                return st

    def _sweep(self, st: State, cuts: bool, known: list[State],
               ends: list[tuple[State, bool]] | None = None) -> State | None:
        """Sweeps of trials until one narrows nothing.

        A value is removed only when its trial fails; with ``cuts=False`` the trial
        propagates a subset of the rules, and its failure is a failure of the full rules
        too. A successful trial's fixpoint T supports every value it fixes: while T stays
        inside the state, T is a fixpoint inside the state with that value, so the value's
        own trial cannot fail. When the state has narrowed under T, T is repaired (T
        meet state, propagated) before any of its values is tried again."""
        und = _undecided(st)
        for t in known:
            self._keep(t, True, _fixes(t, und))
        for t, full in ends or ():
            self._keep(t, full, _fixes(t, und, known))

        def kept(t: State, und0: int) -> None:
            self.ends.append((t, cuts))
            self._keep(t, cuts, _fixes(t, und0))
        while True:
            und0 = _undecided(st)
            res, narrowed = self._pass(
                st, cuts, lambda s, low, k: self._supported(s, low, k, cuts),
                lambda s, low, t, und0=und0: kept(t, und0))
            if res is None:
                return None
            st = res
            if narrowed and not cuts:
                # the cheap sweeps propagated without articulation cells: close the state
                # under the full rules before the next sweep
                res = self.prop(st, True, _joined_region(st))
                if res is None:
                    return None
                st = res
            if complete(st) or not narrowed:
                return st

    def _supported(self, st: State, low: int, k: int, cuts: bool) -> bool:
        """Whether the kept fixpoint that last fixed value k at cell ``low`` is (or can be
        repaired into) a fixpoint of the rules in force inside ``st``."""
        e = self.by_value.get((k, low))
        if e is None or e[0] is None:
            return False
        t = e[0]
        if (e[2] or not cuts) and _inside(t, st):
            return True
        self.repairs += 1
        t2 = self.ok((t[0] & st[0], t[1] & st[1], t[2] & st[2], t[3] & st[3],
                      t[4] & st[4]), cuts, _joined_region(st))
        if t2 is None:
            e[0] = None
            return False
        e[0] = t2
        e[2] = cuts
        return True

    def _keep(self, t: State, full: bool, fixes: State) -> None:
        """Remember fixpoint t as the support of the values ``fixes`` (per value, cells
        that t fixes to it: ``_fixes``)."""
        e = [t, None, full]
        by = self.by_value
        for k, x in enumerate(fixes):
            while x:
                low = x & -x
                by[(k, low)] = e
                x ^= low


def _fixes(t: State, und: int, known: list[State] | None = None) -> State:
    """Per value, the cells of ``und`` (the undecided cells of the state a closer works
    on: the others are never tried) that t fixes to it, but the first answer's values
    (which that answer supports already)."""
    one = singles(t)
    if not known:
        return one[0] & und, one[1] & und, one[2] & und, one[3] & und, one[4] & und
    a = known[0]
    return (one[0] & und & ~a[0], one[1] & und & ~a[1], one[2] & und & ~a[2],
            one[3] & und & ~a[3], one[4] & und & ~a[4])


def _joined_region(st: State) -> int:
    """The cells that may hold a number in a fixpoint with a sure number (connected, by
    the reachability rung), else 0."""
    p = st[1] | st[2] | st[3] | st[4]
    return p if p & ~st[0] else 0


def _inside(t: State, st: State) -> bool:
    return not (t[0] & ~st[0] or t[1] & ~st[1] or t[2] & ~st[2] or t[3] & ~st[3]
                or t[4] & ~st[4])


def _undecided(st: State) -> int:
    b, n1, n2, n3, n4 = st
    return (b & (n1 | n2 | n3 | n4)) | (n1 & (n2 | n3 | n4)) | (n2 & (n3 | n4)) | (n3 & n4)


def _dilate(g: Geo, x: int) -> int:
    return (x | (x << g.w) | (x >> g.w) | ((x << 1) & g.nc0) | ((x >> 1) & g.ncw)) & g.full


def _decided_count(st: State) -> int:
    return (st[0] ^ (st[1] | st[2] | st[3] | st[4])).bit_count()


class Search:
    """Depth-first search over whether each cell holds a number, on an explicit stack.

    At every node the full rules are propagated; a few undecided cells next to the sure
    numbers are probed both ways (a failed side fixes the cell at once, without a
    branch; what both sides decide alike is kept), and the node branches on the probed cell
    whose worse side decides the most.
    """

    def __init__(self, g: Geo, limit: int, neq: bool = True, connect: bool = True,
                 width: int = 10) -> None:
        self.g, self.limit, self.neq, self.connect = g, limit, neq, connect
        self.width = width
        self.dual = True
        self.nodes = 0
        self.solutions: list[State] = []

    def prop(self, st: State, cuts: bool = True, joined: int = 0) -> State | None:
        return propagate(self.g, st, self.neq, self.connect, cuts, joined)

    def _node(self, st: State) -> tuple[str, object]:
        """Probe until a branch is needed: ('fail', None), ('done', st) or
        ('branch', [child states])."""
        g = self.g
        while True:
            b, n1, n2, n3, n4 = st
            p = n1 | n2 | n3 | n4
            u = b & p
            if not u:
                if complete(st) and _valid(g, st):
                    return "done", st
                return "fail", None
            s = p & ~b
            cand = u & _dilate(g, s) if s else u
            if not cand:
                cand = u
            # st is a fixpoint: what it may number is one region holding the sure numbers
            pj = p if s else 0
            best = None
            bscore = -1
            k = 0
            forced = False
            while cand and k < self.width:
                low = cand & -cand
                cand ^= low
                k += 1
                keep = ~low
                tb = self.prop((b | low, n1 & keep, n2 & keep, n3 & keep, n4 & keep), False,
                               pj)
                tn = self.prop((b & keep, n1, n2, n3, n4), False, pj)
                if tb is None and tn is None:
                    return "fail", None
                if tb is None or tn is None:
                    nxt = self.prop(tn if tb is None else tb, True, pj)  # type: ignore
                    if nxt is None:
                        return "fail", None
                    st = nxt
                    forced = True
                    break
                # what both sides decide alike holds at this node
                jb = tb[0] | tn[0]
                j1 = tb[1] | tn[1]
                j2 = tb[2] | tn[2]
                j3 = tb[3] | tn[3]
                j4 = tb[4] | tn[4]
                if (jb != b or j1 != n1 or j2 != n2 or j3 != n3 or j4 != n4) and self.dual:
                    nxt = self.prop((b & jb, n1 & j1, n2 & j2, n3 & j3, n4 & j4), True, pj)
                    if nxt is None:
                        return "fail", None
                    st = nxt
                    forced = True
                    break
                score = min(_decided_count(tb), _decided_count(tn))
                if score > bscore:
                    best, bscore = (tn, tb), score
            if forced:
                continue
            assert best is not None
            return "branch", list(best)

    def run(self, st: State) -> None:
        # each state with the region it may number when that is known to be one region
        # holding the sure numbers (else 0)
        stack = [(st, 0)]
        while stack:
            cur, pj = stack.pop()
            self.nodes += 1
            node()
            cur2 = self.prop(cur, True, pj)
            if cur2 is None:
                continue
            kind, val = self._node(cur2)
            if kind == "done":
                self.solutions.append(val)       # type: ignore[arg-type]
                if len(self.solutions) >= self.limit:
                    return
            elif kind == "branch":
                # (a child is a fixpoint of the rules without articulation cells)
                stack.extend((x, _joined_region(x))
                             for x in reversed(val))    # type: ignore[call-overload]
