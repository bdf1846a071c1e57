"""The rung ladder (arm, block, flow) and the complete search, on bitboards.

State: two ints, F (cells known flooded) and D (cells known dry), bit r*w + c.
A number's ray of length m has m + 1 states (its arm length a: a flooded cells, then a dry
cell or the edge); a number is a composition of its value into four arm lengths.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from solvers.common import Cell, PuzzleError, SolveResult, node
from solvers.satcut import sat_available

from .board import STANDARD, Answer, Board, Rules
from .rules import violations

RUNGS = ("arm", "block", "flow", "search")
_LEVEL = {r: i for i, r in enumerate(RUNGS)}
# The SAT step (residual.py: clause learning on the cells the rungs left open, the
# canal's connectivity cut lazily) takes over from the search on standard rules without
# a node cap. A board of more than SAT_MIN_CELLS cells that
# the rungs leave open goes to it straight from the rungs' fixpoint: the search's
# propagation is local to the numbers it branches on, and on boards drawn by other tools
# (benchmarks/outside/) its tree grows past any budget where learning proves the board
# in a fraction of a second; from 16x16 up the SAT step is the quicker on our own hard
# corpus too. Smaller boards (the bank's 8x8 and 12x12) keep the search, which hands the
# rest to the SAT step past SAT_AFTER search nodes; no banked or studied board needs more
# than a handful, so their answers, grades and node counts are those of the search alone.
# Without python-sat the step runs on the pure-Python solver (solvers/cdcl.py), and
# large boards too go to the search first, which hands over past SAT_AFTER nodes: from
# the rungs' fixpoint that solver took 2.6-8.5 s of CPU on the outside 30x30 boards
# (4.2-10.1 s with the search first) but more than 10 s on a hard 30x30 board the
# search proves in 3 nodes; the plain search alone did not finish outside 30x30-00
# within 60 s.
SAT_MIN_CELLS = 144
SAT_AFTER = 64


class Contradiction(Exception):
    """The marks so far admit no answer."""


@dataclass
class Ctx:
    """Everything about a board the rungs need, precomputed once."""

    board: Board
    rules: Rules
    h: int
    w: int
    n: int
    full: int
    clue_mask: int
    # numbers with a value: (cell index, value, rays, union of ray cells, whole-line mask)
    nums: list[tuple[int, int, tuple[tuple[int, ...], ...], int, int]]
    by_cell: list[list[int]]          # cell -> indexes into nums whose rays/line touch it
    blocks: list[int]
    not_left: int                     # cells not in column 0
    not_right: int                    # cells not in column w-1
    nbrs: list[tuple[int, ...]]
    floor: int
    ceiling: int
    extra: dict = field(default_factory=dict)
    # per number, per ray: (cells mask, cell index of the number, step between cells,
    # prefix masks: pre[a] = the first a cells), for the arm rung's bit arithmetic
    geo: list[tuple[tuple[int, int, int, tuple[int, ...]], ...]] = field(default_factory=list)


def make_ctx(board: Board, rules: Rules = STANDARD) -> Ctx:
    h, w = board.h, board.w
    n = h * w
    full = (1 << n) - 1
    clue_mask = board.clue_mask()
    nums = []
    total = 0
    for r, c in board.clue_cells():
        v = board.clues[r][c]  # type: int  # type: ignore[assignment]  # "?" is skipped just below
        if v == "?":
            continue
        total += v
        rays = []
        union = 0
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            ray = []  # type: list[int]
            rr, cc = r + dr, c + dc
            # only the first v + 1 cells can matter: an arm is at most v long, and the
            # cell after it is dry
            while 0 <= rr < h and 0 <= cc < w and board.clues[rr][cc] is None \
                    and len(ray) <= v:
                ray.append(1 << (rr * w + cc))
                union |= 1 << (rr * w + cc)
                rr += dr
                cc += dc
            rays.append(tuple(ray))
        line = 0
        for cc in range(w):
            if cc != c:
                line |= 1 << (r * w + cc)
        for rr in range(h):
            if rr != r:
                line |= 1 << (rr * w + c)
        line &= ~clue_mask
        nums.append((r * w + c, v, tuple(rays), union, line))
    by_cell: list[list[int]] = [[] for _ in range(n)]
    for k, (_, _, _, union, line) in enumerate(nums):
        m = line if rules.whole_line else union
        while m:
            low = m & -m
            by_cell[low.bit_length() - 1].append(k)
            m ^= low
    blocks = []
    for r in range(h - 1):
        for c in range(w - 1):
            i = r * w + c
            blocks.append((1 << i) | (1 << (i + 1)) | (1 << (i + w)) | (1 << (i + w + 1)))
    col0 = sum(1 << (r * w) for r in range(h))
    colw = sum(1 << (r * w + w - 1) for r in range(h))
    nbrs = []
    for i in range(n):
        r, c = divmod(i, w)
        nb = []
        if r > 0:
            nb.append(i - w)
        if c < w - 1:
            nb.append(i + 1)
        if r < h - 1:
            nb.append(i + w)
        if c > 0:
            nb.append(i - 1)
        nbrs.append(tuple(nb))
    floor = (total + 3) // 4 if not rules.whole_line else 0
    ceiling = n - (h // 2) * (w // 2) if rules.two_by_two else n
    geo = []
    # ray is reused for the tuples nums holds (the ignore below)
    for i, _, rays, _, _ in nums:
        g = []
        for ray, step in zip(rays, (-w, 1, w, -1), strict=True):  # type: ignore[assignment]
            pre = [0]
            for b in ray:
                pre.append(pre[-1] | b)
            g.append((pre[-1], i, step, tuple(pre)))
        geo.append(tuple(g))
    return Ctx(board, rules, h, w, n, full, clue_mask, nums, by_cell, blocks,
               full & ~col0, full & ~colw, nbrs, floor, ceiling, geo=geo)


# ---------------------------------------------------------------- arm ----------------
def arm_domain(ray: tuple[int, ...], v: int, F: int, D: int) -> int:
    """Bit set of the arm lengths a (0..len) that the marks allow, capped at v."""
    dom = 0
    m = len(ray)
    for a in range(min(m, v) + 1):
        if a < m:
            b = ray[a]
            if not b & F:
                dom |= 1 << a
            if b & D:
                break
        else:
            dom |= 1 << a
    return dom


def _sumset(a: int, b: int, cap: int) -> int:
    out = 0
    lim = (1 << (cap + 1)) - 1
    while a:
        low = a & -a
        out |= b * low
        a ^= low
    return out & lim


def arm_filter(doms: list[int], v: int) -> list[int]:
    """Arc consistency: keep arm lengths that some full composition of v uses."""
    d0, d1, d2, d3 = doms
    s01 = _sumset(d0, d1, v)
    s23 = _sumset(d2, d3, v)
    out = []
    for i, d in enumerate(doms):
        others = _sumset(doms[1 - i], s23, v) if i < 2 else _sumset(doms[5 - i], s01, v)
        keep = 0
        x = d
        while x:
            low = x & -x
            a = low.bit_length() - 1
            if a <= v and others >> (v - a) & 1:
                keep |= low
            x ^= low
        out.append(keep)
    return out


def _arm_cells(ray: tuple[int, ...], dom: int) -> tuple[int, int]:
    """(flooded, dry) cells every surviving arm length of this ray agrees on."""
    lo = (dom & -dom).bit_length() - 1
    f = 0
    for k in range(lo):
        f |= ray[k]
    d = 0
    if dom == 1 << lo and lo < len(ray):
        d = ray[lo]
    return f, d


def _arm_one(ctx: Ctx, k: int, F: int, D: int) -> tuple[int, int]:
    """What number k decides from the marks (flooded, dry), memoised on the marks in its
    rays (or line): the answer depends on nothing else. Raises Contradiction."""
    num = ctx.nums[k]
    _, v, rays, union, line = num
    whole = ctx.rules.whole_line
    m = line if whole else union
    key = (k, F & m, D & m)
    memo = ctx.extra.setdefault("arm", {})
    got = memo.get(key)
    if got is None:
        try:
            if whole:
                got = _arm_compute(v, rays, line, whole, F & m, D & m)
            else:
                got = _arm_compute_geo(v, ctx.geo[k], F & m, D & m)
        except Contradiction:
            got = (-1, -1)
        if len(memo) > 200000:
            memo.clear()
        memo[key] = got
    if got[0] < 0:
        ctx.extra["failed"] = k
        raise Contradiction
    return got


def _ray_domain(g: tuple[int, int, int, tuple[int, ...]], v: int, F: int, D: int) -> int:
    """``arm_domain`` by bit arithmetic: the arm runs at most to the nearest dry cell (and
    v), and cannot stop on a flooded cell."""
    mask, p0, step, pre = g
    m = len(pre) - 1
    dm = D & mask
    if dm:
        pos = (dm & -dm).bit_length() - 1 if step > 0 else dm.bit_length() - 1
        top = (pos - p0) // step - 1
        top = min(top, v)
    else:
        top = min(v, m)
    dom = (2 << top) - 1
    fm = F & pre[top + 1 if top < m else m]
    while fm:
        low = fm & -fm
        fm ^= low
        dom &= ~(1 << ((low.bit_length() - 1 - p0) // step - 1))
    return dom


def _arm_compute_geo(v: int, geo, F: int, D: int) -> tuple[int, int]:
    """``_arm_compute`` for the standard reading, on the rays' prefix masks."""
    d0, d1, d2, d3 = [_ray_domain(g, v, F, D) for g in geo]
    lim = (2 << v) - 1
    s01 = _sumset(d0, d1, v)
    s23 = _sumset(d2, d3, v)
    nf = nd = 0
    for d, others, g in ((d0, _sumset(d1, s23, v), geo[0]), (d1, _sumset(d0, s23, v), geo[1]),
                         (d2, _sumset(d3, s01, v), geo[2]), (d3, _sumset(d2, s01, v), geo[3])):
        # keep the lengths a with v - a in the others' sums
        keep = 0
        x = d & lim
        while x:
            low = x & -x
            x ^= low
            a = low.bit_length() - 1
            if others >> (v - a) & 1:
                keep |= low
        if not keep:
            raise Contradiction
        lo = (keep & -keep).bit_length() - 1
        pre = g[3]
        nf |= pre[lo]
        if keep == 1 << lo and lo < len(pre) - 1:
            nd |= pre[lo + 1] ^ pre[lo]
    return nf & ~F, nd & ~D


def _arm_compute(v: int, rays, line: int, whole: bool, F: int, D: int) -> tuple[int, int]:
    if whole:
        lo = (F & line).bit_count()
        hi = (line & ~D).bit_count()
        if v < lo or v > hi:
            raise Contradiction
        nf = nd = 0
        if v == lo:
            nd = line & ~D & ~F
        elif v == hi:
            nf = line & ~D & ~F
        return nf, nd
    doms = [arm_domain(ray, v, F, D) for ray in rays]
    doms = arm_filter(doms, v)
    nf = nd = 0
    for ray, dom in zip(rays, doms, strict=True):
        if not dom:
            raise Contradiction
        f, d = _arm_cells(ray, dom)
        nf |= f
        nd |= d
    return nf & ~F, nd & ~D


def arm_rung(ctx: Ctx, F: int, D: int, todo: list[int] | None = None) -> tuple[int, int]:
    """Arm (or, under the whole-line misreading, line counting) to its own fixpoint."""
    nums = ctx.nums
    queue = list(range(len(nums))) if todo is None else list(todo)
    if not ctx.rules.whole_line:
        return _arm_fast(ctx, F, D, queue)
    inq = set(queue)
    by_cell = ctx.by_cell
    while queue:
        k = queue.pop()
        inq.discard(k)
        nf, nd = _arm_one(ctx, k, F, D)
        nf &= ~F
        nd &= ~D
        if nf & D or nd & F or nf & nd:
            raise Contradiction
        if nf or nd:
            F |= nf
            D |= nd
            ch = nf | nd
            while ch:
                low = ch & -ch
                for j in by_cell[low.bit_length() - 1]:
                    if j not in inq:
                        inq.add(j)
                        queue.append(j)
                ch ^= low
    return F, D


def _arm_fast(ctx: Ctx, F: int, D: int, queue: list[int]) -> tuple[int, int]:
    """``arm_rung`` for the standard reading: the same fixpoint, with the memo inline and
    a number not queued again for the cells it decided itself (a number's split filter is
    idempotent: what it decided cannot teach it more)."""
    nums = ctx.nums
    geo = ctx.geo
    inq = set(queue)
    by_cell = ctx.by_cell
    memo = ctx.extra.get("arm")
    if memo is None:
        memo = ctx.extra["arm"] = {}
    while queue:
        k = queue.pop()
        inq.discard(k)
        m = nums[k][3]
        fm = F & m
        dm = D & m
        key = (k, fm, dm)
        got = memo.get(key)
        if got is None:
            try:
                got = _arm_compute_geo(nums[k][1], geo[k], fm, dm)
            except Contradiction:
                got = (-1, -1)
            if len(memo) > 200000:
                memo.clear()
            memo[key] = got
        nf, nd = got
        if nf < 0:
            ctx.extra["failed"] = k
            raise Contradiction
        if nf or nd:
            if nf & D or nd & F:
                raise Contradiction
            F |= nf
            D |= nd
            ch = nf | nd
            while ch:
                low = ch & -ch
                for j in by_cell[low.bit_length() - 1]:
                    if j != k and j not in inq:
                        inq.add(j)
                        queue.append(j)
                ch ^= low
    return F, D


# ---------------------------------------------------------------- block --------------
def block_rung(ctx: Ctx, F: int, D: int) -> tuple[int, int]:
    """Three flooded corners of a 2x2 block make the fourth dry (all blocks at once: each
    block is named by its top-left cell, and the four corners are shifts of F)."""
    if not ctx.rules.two_by_two:
        return F, D
    w = ctx.w
    a = ctx.extra.get("anchors")
    if a is None:
        a = 0
        for b in ctx.blocks:
            a |= b & -b
        ctx.extra["anchors"] = a
    x00 = F & a
    x01 = (F >> 1) & a
    x10 = (F >> w) & a
    x11 = (F >> (w + 1)) & a
    if x00 & x01 & x10 & x11:
        raise Contradiction
    D |= ((x01 & x10 & x11) | ((x00 & x10 & x11) << 1) | ((x00 & x01 & x11) << w)
          | ((x00 & x01 & x10) << (w + 1)))
    return F, D


# ---------------------------------------------------------------- flow ---------------
def _fill(ctx: Ctx, seed: int, region: int) -> int:
    w = ctx.w
    nl, nr = ctx.not_left, ctx.not_right
    x = seed & region
    while True:
        y = x | ((x << 1) & nl) | ((x >> 1) & nr) | (x << w) | (x >> w)
        y &= region
        if y == x:
            return x
        x = y


def _ring_cuts(ctx: Ctx, r: int) -> int:
    """Cells of ``r`` whose neighbours in ``r`` are not all joined around the cell's ring
    of eight: only these can be articulation cells of ``r``."""
    w, full, nl, nr = ctx.w, ctx.full, ctx.not_left, ctx.not_right
    n = (r << w) & full
    s = r >> w
    e = (r >> 1) & nr
    ww = (r << 1) & nl
    ne = (r << (w - 1)) & nr & full
    nw = (r << (w + 1)) & nl & full
    se = (r >> (w + 1)) & nr
    sw = (r >> (w - 1)) & nl
    # going round the ring, a group of neighbours ends where the link to the next fails
    bn = n & ~(ne & e)
    be = e & ~(se & s)
    bs = s & ~(sw & ww)
    bw = ww & ~(nw & n)
    return r & ((bn & (be | bs | bw)) | (be & (bs | bw)) | (bs & bw))


def _cut_cells(ctx: Ctx, comp: int, marked: int) -> int:
    """Cells of ``comp`` (unmarked) whose removal separates two marked cells.

    Only cells that cut their own ring of neighbours can; none means no Tarjan pass, a
    few are checked with one flood each, more with one iterative Tarjan pass."""
    cand = _ring_cuts(ctx, comp) & ~marked
    if not cand:
        return 0
    if cand.bit_count() <= 3:
        out = 0
        root = marked & -marked
        while cand:
            low = cand & -cand  # type: int | list[int]  # a list below (Tarjan's low-links)
            cand ^= low  # type: ignore[operator]  # an int here: low is reused below
            if marked & ~_fill(ctx, root, comp & ~low):  # type: ignore[operator]  # an int here
                out |= low  # type: ignore[operator]  # an int here
        return out
    nbrs = ctx.nbrs
    start = (marked & -marked).bit_length() - 1
    n = ctx.n
    disc = [0] * n
    low = [0] * n
    cnt = [0] * n                  # marked cells in the DFS subtree
    disc[start] = low[start] = 1
    cnt[start] = 1
    t = 2
    total = marked.bit_count()
    out = 0
    stack = [(start, -1, iter(nbrs[start]))]
    push, pop = stack.append, stack.pop
    while stack:
        v, parent, it = stack[-1]
        for u in it:
            if not comp >> u & 1:
                continue
            du = disc[u]
            if not du:
                disc[u] = low[u] = t
                t += 1
                cnt[u] = marked >> u & 1
                push((u, v, iter(nbrs[u])))
                break
            if u != parent and du < low[v]:
                low[v] = du
        else:
            pop()
            if parent >= 0:
                lv = low[v]
                low[parent] = min(low[parent], lv)
                cv = cnt[v]
                cnt[parent] += cv
                # parent separates v's subtree from the rest
                if cv and lv >= disc[parent] and total - cv - (marked >> parent & 1) > 0:
                    out |= 1 << parent
    return out & ~marked


def _connect(ctx: Ctx, mine: int, other: int, cuts: bool = True) -> tuple[int, int]:
    """Connectivity for the cells ``mine`` (known members) avoiding ``other`` (known
    non-members): returns (new members, new non-members)."""
    if not mine:
        return 0, 0
    region = ctx.full & ~other
    comp = _fill(ctx, mine & -mine, region)
    if mine & ~comp:
        raise Contradiction
    out_cells = region & ~comp
    cut = _cut_cells(ctx, comp, mine) if cuts and mine.bit_count() > 1 else 0
    return cut, out_cells


def flow_rung(ctx: Ctx, F: int, D: int, cuts: bool = True) -> tuple[int, int]:
    """Connectivity (``cuts=False``: reachability only, no articulation cells) and the
    sandwich bound."""
    rules = ctx.rules
    if rules.connected and F:
        add, rem = _connect(ctx, F, D, cuts)
        F |= add
        D |= rem
    if rules.dry_connected and D:
        add, rem = _connect(ctx, D, F, cuts)
        if add & F or rem & D:
            raise Contradiction
        D |= add
        F |= rem
    if F & D:
        raise Contradiction
    # the sandwich: ceil(sum/4) <= canal <= hw - floor(h/2) floor(w/2)
    possible = ctx.full & ~D
    pc = possible.bit_count()
    if pc < ctx.floor or F.bit_count() > ctx.ceiling:
        raise Contradiction
    if pc == ctx.floor and possible != F:
        F = possible
    if F.bit_count() == ctx.ceiling and possible != F:
        D |= possible & ~F
    return F, D


# ---------------------------------------------------------------- driver -------------
def propagate(ctx: Ctx, F: int, D: int, top: int = 2) -> tuple[int, int]:
    """Rungs 0..top to a common fixpoint (always restarting from the lowest)."""
    F, D = arm_rung(ctx, F, D)
    while True:
        if top >= 1:
            F2, D2 = block_rung(ctx, F, D)
            if (F2, D2) != (F, D):
                F, D = arm_rung(ctx, F2, D2, _touched(ctx, (F2 ^ F) | (D2 ^ D)))
                continue
        if top >= 2:
            F2, D2 = flow_rung(ctx, F, D)
            if (F2, D2) != (F, D):
                F, D = arm_rung(ctx, F2, D2, _touched(ctx, (F2 ^ F) | (D2 ^ D)))
                continue
        return F, D


def _touched(ctx: Ctx, ch: int) -> list[int]:
    """The numbers whose rays (or lines) hold a cell of ``ch``."""
    if ch.bit_count() <= 6:
        by_cell = ctx.by_cell
        ks: set[int] = set()
        while ch:
            low = ch & -ch
            ks.update(by_cell[low.bit_length() - 1])
            ch ^= low
        return sorted(ks)
    masks = ctx.extra.get("reach")
    if masks is None:
        masks = ctx.extra["reach"] = [line if ctx.rules.whole_line else union
                                      for _, _, _, union, line in ctx.nums]
    return [k for k, m in enumerate(masks) if m & ch]


def start_state(ctx: Ctx) -> tuple[int, int]:
    return 0, ctx.clue_mask


def compositions(ctx: Ctx, k: int, F: int, D: int) -> list[tuple[int, int, int, int]]:
    _, v, rays, _, _ = ctx.nums[k]
    doms = arm_filter([arm_domain(ray, v, F, D) for ray in rays], v)
    lists = [[a for a in range(v + 1) if d >> a & 1] for d in doms]
    out = []
    for a0 in lists[0]:
        for a1 in lists[1]:
            s = a0 + a1
            if s > v:
                break
            for a2 in lists[2]:
                a3 = v - s - a2
                if a3 < 0:
                    break
                if doms[3] >> a3 & 1:
                    out.append((a0, a1, a2, a3))
    return out


def _count_compositions(ctx: Ctx, k: int, F: int, D: int) -> int:
    _, v, rays, _, _ = ctx.nums[k]
    doms = [arm_domain(ray, v, F, D) for ray in rays]
    poly = [1] + [0] * v
    for d in doms:
        new = [0] * (v + 1)
        for s, c in enumerate(poly):
            if c:
                x = d
                while x:
                    low = x & -x
                    a = low.bit_length() - 1
                    if s + a <= v:
                        new[s + a] += c
                    x ^= low
        poly = new
    return poly[v]


def _apply_comp(ctx: Ctx, k: int, comp: tuple[int, ...], F: int, D: int) -> tuple[int, int]:
    rays = ctx.nums[k][2]
    for ray, a in zip(rays, comp, strict=True):
        for i in range(a):
            F |= ray[i]
        if a < len(ray):
            D |= ray[a]
    if F & D:
        raise Contradiction
    return F, D


class _Search:
    """Depth-first search on its own stack (no recursion, so no depth limit).

    Each node propagates the rungs to their fixpoint, starting the arm rung from the
    numbers whose cells the branch changed (the others are at their fixpoint already),
    then branches on the number with the fewest compositions left, or when every number
    is settled on a free cell next to the canal (flooded first).

    With probing (every solve without a node cap), each node also probes the numbers,
    keeping every live split's propagated state for its children (``_probe_numbers``),
    and branches on the probed number chosen by ``_split_from_probes``, each child
    starting from its split's propagated state. The node-capped surveys keep the plain
    search, node for node."""

    def __init__(self, ctx: Ctx, limit: int, node_cap: int | None = None):
        self.ctx = ctx
        self.limit = limit
        self.solutions: list[int] = []
        self.nodes = 0
        self.node_cap = node_cap
        self.capped = False
        # failures caused per number, for the branching choice (None: fewest
        # compositions first, the order the capped surveys were measured with)
        self.weights: list[int] | None = None
        # number probing at every node; off for the node-capped surveys, whose counts
        # were measured with the plain search
        self.probe = node_cap is None and not ctx.rules.whole_line
        # the node count past which the SAT step takes over (standard rules only; where
        # python-sat is there, asked only then, so that a small solve never imports it)
        self.sat_after = SAT_AFTER if self.probe and ctx.rules == STANDARD else None
        self.handed_off = False

    def run(self, F: int, D: int) -> None:
        ctx = self.ctx
        whole = ctx.rules.whole_line
        # a pending node: (F, D, cells changed since the parent's fixpoint, or -1: all)
        stack: list[tuple[int, int, int, dict]] = [(F, D, -1, {})]
        while stack:
            if len(self.solutions) >= self.limit:
                return
            if self.node_cap is not None and self.nodes >= self.node_cap:
                self.capped = True
                return
            if self.sat_after is not None and self.nodes >= self.sat_after:
                self.handed_off = True      # (to CaDiCaL, or without it to solvers.cdcl)
                return
            F, D, ch, cache = stack.pop()
            cache = dict(cache)          # this node's probes; its children start from them
            self.nodes += 1
            node()
            ctx.extra["failed"] = -1
            try:
                # with probing, the articulation cells wait for the probes' fixpoint
                F, D = _propagate_from(ctx, F, D, None if ch < 0 else _touched(ctx, ch),
                                       not self.probe)
                if self.probe:
                    F, D = _probe_numbers(ctx, F, D, ch, cache)
            except Contradiction:
                if self.weights is not None and ctx.extra["failed"] >= 0:
                    self.weights[ctx.extra["failed"]] += 1
                continue
            if F | D == ctx.full:  # noqa: SIM300  F, D are the state masks, not constants
                if _final_ok(ctx, F):
                    self.solutions.append(F)
                continue
            if self.probe:
                # kids: the probes' (F, D) pairs here, the stack's 4-tuples below
                kids = _split_from_probes(ctx, F, D, cache)  # type: list[tuple] | None
                if kids is not None:
                    stack.extend((F2, D2, (F2 ^ F) | (D2 ^ D), cache)
                                 for F2, D2 in reversed(kids))
                    continue
            best = None
            wts = self.weights
            if not whole and wts is None:
                bc = None
                for k, num in enumerate(ctx.nums):
                    if not (num[3] & ~(F | D)):
                        continue
                    c = _count_compositions(ctx, k, F, D)
                    if c > 1 and (bc is None or c < bc):
                        best, bc = k, c
                        if c == 2:
                            break
            elif not whole:
                # fewest compositions per failure this number has caused (dom/wdeg)
                bs = 0.0
                for k, num in enumerate(ctx.nums):
                    if not (num[3] & ~(F | D)):
                        continue
                    c = _count_compositions(ctx, k, F, D)
                    if c > 1:
                        sc = wts[k] / c  # type: ignore[index]  # not None: see the if
                        if best is None or sc > bs:
                            best, bs = k, sc
            if best is not None:
                kids = []
                for comp in compositions(ctx, best, F, D):
                    try:
                        F2, D2 = _apply_comp(ctx, best, comp, F, D)
                    except Contradiction:
                        continue
                    kids.append((F2, D2, (F2 ^ F) | (D2 ^ D), cache))
                stack.extend(reversed(kids))
                continue
            # no number left to split: branch on a free cell, next to the canal if possible
            free = ctx.full & ~(F | D)
            cand = free & _grow(ctx, F) if F else 0
            cell = (cand or free)
            cell &= -cell
            stack.append((F, D | cell, cell, cache))
            stack.append((F | cell, D, cell, cache))


def _split_from_probes(ctx: Ctx, F: int, D: int, cache: dict[int, list[tuple[int, int]]]
                       ) -> list[tuple[int, int]] | None:
    """The children of a node from its probes, each starting from what its split was
    propagated to. The number split is the one whose weakest split decides the most
    cells per child (then the most cells over all its splits): a lookahead choice, so
    that both sides of a split that matters shrink the board. None: no probed number
    is open."""
    best = None
    bkey = None
    free = ctx.full & ~(F | D)
    nums = ctx.nums
    for k, kept in cache.items():
        if not nums[k][3] & free:
            continue
        alive = []
        gains = []
        for RF, RD in kept:
            if RF & D or RD & F:
                continue
            gains.append(((RF | RD) & free).bit_count())
            alive.append((RF | F, RD | D))
        if len(alive) < 2:
            if alive and alive[0] != (F, D):
                return alive             # a forced split the probes had not applied
            if not alive:
                return alive             # no split fits: the node fails
            continue
        key = (-min(gains) / len(gains), -sum(gains), k)
        if bkey is None or key < bkey:
            best, bkey = alive, key
    return best


PROBE_MAX = 12   # numbers with more splits are left to branching (with the splits carried
#                  down the tree, 12 gives 114 nodes on 40 hard boards against 151 at 8)


def _probe_numbers(ctx: Ctx, F: int, D: int, ch: int = -1,
                   cache: dict[int, list[tuple[int, int]]] | None = None) -> tuple[int, int]:
    """Constructive disjunction over each number's compositions: propagate every split
    that still fits; a cell that all the surviving splits decide alike is decided, and a
    number with no surviving split is a contradiction. The splits are propagated without
    articulation cells (a subset of the rules, so what they agree on still holds, and a
    split they refute is refuted). A worklist: after a change, only
    the numbers whose rays come within two cells of it are tried again (skipping a number
    only ever gives up a deduction, never makes a wrong one).

    ``ch``: the cells changed since a state where every number had been probed (-1:
    none was), so that only numbers near them need trying.

    ``cache`` (number -> the propagated state of each split still alive) carries the
    probes over from an earlier state that this one extends (an ancestor in the search):
    a split that led to state R from there still implies R here, so a split whose R
    contradicts the marks is dead for good, one whose R holds all the marks is not
    propagated again, and the others are propagated from R joined with the marks (only
    the difference is new work)."""
    nums = ctx.nums
    unions = [num[3] for num in nums]
    if cache is None:
        cache = {}
    if ch < 0:
        queue = [k for k in range(len(nums)) if unions[k] & ~(F | D)]
    else:
        near = _grow(ctx, _grow(ctx, ch))
        queue = [k for k in range(len(nums)) if unions[k] & near and unions[k] & ~(F | D)]
    # fewest splits last, so first off the stack: their deductions shrink the others
    queue.sort(key=lambda k: -(len(cache[k]) if k in cache else
                               _count_compositions(ctx, k, F, D)))
    inq = set(queue)
    while True:
        while queue:
            k = queue.pop()
            inq.discard(k)
            if not unions[k] & ~(F | D):
                cache.pop(k, None)
                continue
            kept = cache.get(k)
            if kept is None:
                if _count_compositions(ctx, k, F, D) > PROBE_MAX:
                    continue
                comps = compositions(ctx, k, F, D)
                if len(comps) < 2:
                    if not comps:
                        raise Contradiction
                    F2, D2 = _apply_comp(ctx, k, comps[0], F, D)
                    if (F2, D2) == (F, D):
                        continue
                    aF, aD = F2, D2
                    kept = None
                else:
                    kept = []
                    for comp in comps:
                        try:
                            F2, D2 = _apply_comp(ctx, k, comp, F, D)
                            F2, D2 = _propagate_from(ctx, F2, D2,
                                                     _touched(ctx, (F2 ^ F) | (D2 ^ D)), False)
                        except Contradiction:
                            continue
                        kept.append((F2, D2))
            else:
                alive = []
                for RF, RD in kept:
                    if RF & D or RD & F:
                        continue
                    x = (F & ~RF) | (D & ~RD)
                    if x:
                        try:
                            RF, RD = _propagate_from(ctx, RF | F, RD | D, _touched(ctx, x), False)
                        except Contradiction:
                            continue
                    alive.append((RF, RD))
                kept = alive
            if kept is not None:
                if not kept:
                    raise Contradiction
                cache[k] = kept
                aF = aD = -1
                for RF, RD in kept:
                    aF &= RF
                    aD &= RD
                if aF == F and aD == D:
                    continue
            chg = (aF ^ F) | (aD ^ D)
            F, D = _propagate_from(ctx, aF, aD, _touched(ctx, chg), False)
            chg = _grow(ctx, _grow(ctx, (F ^ aF) | (D ^ aD) | chg))
            for j in range(len(nums)):
                if j not in inq and unions[j] & chg:
                    inq.add(j)
                    queue.append(j)
        # the articulation cells, once the probes are at their fixpoint (they are the
        # dearest step: one pass over the whole canal region)
        F2, D2 = _propagate_from(ctx, F, D, [])
        if (F2, D2) == (F, D):
            return F, D
        chg = _grow(ctx, _grow(ctx, (F2 ^ F) | (D2 ^ D)))
        F, D = F2, D2
        for j in range(len(nums)):
            if j not in inq and unions[j] & chg:
                inq.add(j)
                queue.append(j)


def _propagate_from(ctx: Ctx, F: int, D: int, todo: list[int] | None,
                    cuts: bool = True) -> tuple[int, int]:
    """``propagate`` from a state whose only changes since a fixpoint touch ``todo``
    (``cuts=False``: without articulation cells, a subset of the rules)."""
    F, D = arm_rung(ctx, F, D, todo)
    while True:
        F2, D2 = block_rung(ctx, F, D)
        if (F2, D2) != (F, D):
            F, D = arm_rung(ctx, F2, D2, _touched(ctx, (F2 ^ F) | (D2 ^ D)))
            continue
        F2, D2 = flow_rung(ctx, F, D, cuts)
        if (F2, D2) != (F, D):
            F, D = arm_rung(ctx, F2, D2, _touched(ctx, (F2 ^ F) | (D2 ^ D)))
            continue
        return F, D


def _grow(ctx: Ctx, x: int) -> int:
    w = ctx.w
    return (((x << 1) & ctx.not_left) | ((x >> 1) & ctx.not_right) | (x << w) | (x >> w)) \
        & ctx.full


def _final_ok(ctx: Ctx, F: int) -> bool:
    """The rule check itself, on a complete grid."""
    return not violations(ctx.board, Answer(ctx.h, ctx.w, F), ctx.rules)


def _cells(ctx: Ctx, mask: int) -> list[Cell]:
    out = []
    while mask:
        low = mask & -mask
        out.append(divmod(low.bit_length() - 1, ctx.w))
        mask ^= low
    return out


@lru_cache(maxsize=256)
def _ctx_cached(board: Board, rules: Rules) -> Ctx:
    return make_ctx(board, rules)


def solve(board: Board, level: str | None = None, limit: int = 2,
          rules: Rules = STANDARD, node_cap: int | None = None) -> SolveResult:
    """The ladder. level=None: whole ladder then search; otherwise rungs up to ``level``."""
    if level is not None and level not in _LEVEL:
        raise PuzzleError(f"unknown level {level!r} (rungs: {', '.join(RUNGS)})")
    ctx = _ctx_cached(board, rules)
    F0, D0 = start_state(ctx)
    top = _LEVEL[level] if level is not None else 3
    F, D = F0, D0
    try:
        for t in range(min(top, 2) + 1):
            F, D = propagate(ctx, F, D, t)
            if F | D == ctx.full:  # noqa: SIM300  F, D are the state masks, not constants
                if _final_ok(ctx, F):
                    return SolveResult([Answer(ctx.h, ctx.w, F)], 0, RUNGS[t],
                                       _cells(ctx, (F | D) & ~D0))
                return SolveResult([], 0, None, _cells(ctx, (F | D) & ~D0))
    except Contradiction:
        return SolveResult([], 0, None, [], {"contradiction": True})
    if top < 3:
        return SolveResult([], 0, None, _cells(ctx, (F | D) & ~D0))
    if node_cap is None and rules == STANDARD and ctx.n > SAT_MIN_CELLS and sat_available():
        from .residual import Residual
        res = Residual(ctx, F, D)
        sols = [Answer(ctx.h, ctx.w, m) for m in sorted(res.solve(limit))]
        return SolveResult(sols, 0, "search" if sols else None, _cells(ctx, ctx.full & ~D0),
                           {"capped": False, "engine": "sat", "sat_calls": res.calls,
                            "sat_cuts": res.cuts, "conflicts": res.conflicts})
    s = _Search(ctx, limit, node_cap)
    try:
        s.run(F, D)
    finally:
        ctx.extra.pop("arm", None)       # the memo is per solve: memory stays bounded
    stats: dict[str, object] = {"capped": s.capped}
    if s.handed_off:
        # every answer of the root state not found yet, by clause learning on the cells
        # the rungs left open (residual.py)
        from .residual import solve_residual
        s.solutions.extend(solve_residual(ctx, F, D, limit - len(s.solutions),
                                          exclude=s.solutions))
        if not sat_available():
            stats["engine"] = "learn"       # (the pure-Python solver took over)
    sols = [Answer(ctx.h, ctx.w, m) for m in sorted(s.solutions)]
    return SolveResult(sols, s.nodes, "search" if sols else None,
                       _cells(ctx, ctx.full & ~D0), stats)
