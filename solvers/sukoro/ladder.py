"""Engine 1: the deduction ladder over five-value bitmask domains, then search.

Each cell holds a 5-bit domain: bit 0 = blank, bit v = the number v (1-4).
Rungs, from the cheapest:

* ``deg``   a number v needs exactly v numbered neighbours, so
            (sure numbered neighbours) <= v <= (possibly numbered neighbours); and back:
            at the upper end the undecided neighbours are blank, at the lower end numbered.
* ``neq``   a decided number forbids its own value in its neighbours.
* ``conn``  cells that cannot reach the decided numbers are blank; cells whose removal
            would split the decided numbers (articulation points of the graph of cells
            that may still hold a number, one Tarjan pass) are numbered.
* ``probe`` singleton consistency: try each value of each undecided cell, propagate the
            rungs below, drop the values that lead to a contradiction.
* ``search`` branch on the cell with the smallest domain.

Every rung is sound: it never removes a value that some answer has at that cell.
"""

from __future__ import annotations

import random

from solvers.common import Frozen, SolveResult, node
from solvers.grid import neighbours
from solvers.satcut import sat_available

from . import search as fast
from .board import Answer, Board

RUNGS = ("deg", "neq", "conn", "probe", "search")
LEVEL = {name: i for i, name in enumerate(RUNGS)}
FULL, BLANK, NUMS = 31, 1, 30

POP = [(m).bit_count() for m in range(32)]
LOW = [next((v for v in range(1, 5) if m >> v & 1), 0) for m in range(32)]
HIGH = [next((v for v in range(4, 0, -1) if m >> v & 1), 0) for m in range(32)]
SINGLE = [(LOW[m] if (m & NUMS) and POP[m] == 1 else 0) for m in range(32)]
# RANGE[s][p]: number bits v with max(1, s) <= v <= p
RANGE = [[sum(1 << v for v in range(max(1, s), min(p, 4) + 1)) for p in range(5)]
         for s in range(5)]
BITS = [[b for b in (2, 4, 8, 16, 1) if m & b] for m in range(32)]


class Rules(Frozen):
    __slots__ = ("connect", "neq")
    _fields = ("neq", "connect")
    neq: bool
    connect: bool

    def __init__(self, neq: bool = True, connect: bool = True) -> None:
        object.__setattr__(self, "neq", neq)
        object.__setattr__(self, "connect", connect)


STANDARD = Rules()


class Capped(Exception):
    """Search passed its branch cap."""


def initial(board: Board) -> list[int]:
    dom = []
    for v in board.flat():
        if v is None:
            dom.append(FULL)
        elif v == "?":
            dom.append(NUMS)
        else:
            # v is an int: None and "?" are taken above (mypy narrows no == "?")
            dom.append(1 << v if 1 <= v <= 4 else 0)  # type: ignore[operator]
    return dom


def _local(dom: list[int], nb, todo, neq: bool) -> bool:
    """deg (and neq) to a fixpoint, starting from the cells in ``todo``."""
    n = len(dom)
    inq = [False] * n
    stack = []
    for i in todo:
        if not inq[i]:
            inq[i] = True
            stack.append(i)
    pop, push = stack.pop, stack.append
    while stack:
        i = pop()
        inq[i] = False
        d = dom[i]
        if not d:
            return False
        nbi = nb[i]
        sure = poss = 0
        for j in nbi:
            dj = dom[j]
            if dj & NUMS:
                poss += 1
                if not dj & BLANK:
                    sure += 1
        nd = d & (BLANK | RANGE[sure if sure < 5 else 4][poss])
        if nd != d:
            if not nd:
                return False
            dom[i] = d = nd
            for j in nbi:
                if not inq[j]:
                    inq[j] = True
                    push(j)
        if d & BLANK:
            continue
        # a definitely numbered cell
        if poss > sure:
            lo, hi = LOW[d], HIGH[d]
            fill = 0
            if sure == hi:
                fill = BLANK
            elif poss == lo:
                fill = NUMS
            if fill:
                for j in nbi:
                    dj = dom[j]
                    if dj & BLANK and dj & NUMS:
                        dom[j] = dj & fill
                        for k in nb[j]:
                            if not inq[k]:
                                inq[k] = True
                                push(k)
                        if not inq[j]:
                            inq[j] = True
                            push(j)
        if neq:
            v = SINGLE[d]
            if v:
                bit = 1 << v
                for j in nbi:
                    dj = dom[j]
                    if dj & bit:
                        dj &= ~bit
                        if not dj:
                            return False
                        dom[j] = dj
                        if not inq[j]:
                            inq[j] = True
                            push(j)
                        for k in nb[j]:
                            if not inq[k]:
                                inq[k] = True
                                push(k)
    return True


def _conn(dom: list[int], nb) -> list[int] | None:
    """The conn rung, one pass. Returns the changed cells, or None on contradiction."""
    n = len(dom)
    root = -1
    nfixed = 0
    for i in range(n):
        d = dom[i]
        if d & NUMS and not d & BLANK:
            nfixed += 1
            if root < 0:
                root = i
    if root < 0:
        return []
    disc = [0] * n
    low = [0] * n
    fcnt = [0] * n
    par = [-1] * n
    ptr = [0] * n
    disc[root] = low[root] = t = 1
    fcnt[root] = 1
    forced = []
    stack = [root]
    push, pop = stack.append, stack.pop
    while stack:
        v = stack[-1]
        nbv = nb[v]
        k = ptr[v]
        if k < len(nbv):
            ptr[v] = k + 1
            u = nbv[k]
            du = dom[u]
            if not du & NUMS:
                continue
            if not disc[u]:
                t += 1
                disc[u] = low[u] = t
                if not du & BLANK:
                    fcnt[u] = 1
                par[u] = v
                push(u)
            elif disc[u] < low[v] and u != par[v]:
                low[v] = disc[u]
            continue
        pop()
        p = par[v]
        if p >= 0:
            lv = low[v]
            low[p] = min(low[p], lv)
            fv = fcnt[v]
            fcnt[p] += fv
            # p separates v's subtree (holding fixed numbers) from the other fixed numbers
            if fv and lv >= disc[p] and dom[p] & BLANK and nfixed > fv:
                forced.append(p)
    changed = []
    for i in range(n):
        d = dom[i]
        if d & NUMS and not disc[i]:
            if not d & BLANK:
                return None
            dom[i] = BLANK
            changed.append(i)
    for p in forced:
        d = dom[p]
        if d & BLANK:
            dom[p] = d & NUMS
            changed.append(p)
    return changed


def _touch(cells, nb):
    out = set(cells)
    for i in cells:
        out.update(nb[i])
    return out


def propagate(dom: list[int], nb, level: int, rules: Rules = STANDARD,
              todo=None) -> bool:
    """Apply the rungs up to ``level`` (index into RUNGS, at most probe) to a fixpoint."""
    neq = rules.neq and level >= 1
    if todo is None:
        todo = range(len(dom))
    if not _local(dom, nb, todo, neq):
        return False
    if level < 2:
        return True
    while True:
        if rules.connect:
            ch = _conn(dom, nb)
            if ch is None:
                return False
            if ch:
                if not _local(dom, nb, _touch(ch, nb), neq):
                    return False
                continue
        if level < 3:
            return True
        res = _probe(dom, nb, rules)
        if res is None:
            return False
        if not res:
            return True


def _probe(dom: list[int], nb, rules: Rules) -> bool | None:
    """One sweep of singleton consistency: None on contradiction, else whether it narrowed.

    A value is skipped when an earlier successful trial of this sweep (since the last
    narrowing) already fixed the cell to that value: the trial's fixpoint shows that the
    value propagates without a contradiction.
    """
    n = len(dom)
    narrowed = False
    support = [0] * n
    for i in range(n):
        d = dom[i]
        if POP[d] < 2:
            continue
        keep = 0
        for b in BITS[d]:
            if support[i] & b:
                keep |= b
                continue
            trial = dom[:]
            trial[i] = b
            if propagate(trial, nb, 2, rules, todo=_touch((i,), nb)) and _valid_if_done(
                    trial, nb, rules):
                keep |= b
                for j in range(n):
                    t = trial[j]
                    if POP[t] == 1:
                        support[j] |= t
        if keep != d:
            if not keep:
                return None
            dom[i] = keep
            if not propagate(dom, nb, 2, rules, todo=_touch((i,), nb)):
                return None
            narrowed = True
            support = [0] * n
    return narrowed


def complete(dom: list[int]) -> bool:
    return all(POP[d] == 1 for d in dom)


def _valid_if_done(dom: list[int], nb, rules: Rules) -> bool:
    if not complete(dom):
        return True
    return valid(dom, nb, rules)


def valid(dom: list[int], nb, rules: Rules) -> bool:
    """A complete assignment (each domain one bit) obeys every rule in force."""
    vals = [LOW[d] if d & NUMS else 0 for d in dom]
    cells = [i for i, v in enumerate(vals) if v]
    if not cells:
        return False
    for i in cells:
        cnt = 0
        for j in nb[i]:
            if vals[j]:
                cnt += 1
                if rules.neq and vals[j] == vals[i]:
                    return False
        if cnt != vals[i]:
            return False
    if rules.connect:
        seen = {cells[0]}
        stack = [cells[0]]
        while stack:
            i = stack.pop()
            for j in nb[i]:
                if vals[j] and j not in seen:
                    seen.add(j)
                    stack.append(j)
        if len(seen) != len(cells):
            return False
    return True


def to_answer(dom: list[int], h: int, w: int) -> Answer:
    return Answer.from_flat(h, w, [LOW[d] if d & NUMS else 0 for d in dom])


class _Search:
    def __init__(self, nb, level: int, limit: int, rules: Rules, cap: int | None,
                 rng: random.Random | None, bias: float):
        self.nb, self.level, self.limit, self.rules = nb, level, limit, rules
        self.cap, self.rng, self.bias = cap, rng, bias
        self.nodes = 0
        self.sols: list[list[int]] = []

    def run(self, dom: list[int]) -> None:
        best, bp = -1, 9
        for i, d in enumerate(dom):
            p = POP[d]
            if 1 < p < bp:
                best, bp = i, p
                if p == 2:
                    break
        if best < 0:
            if valid(dom, self.nb, self.rules):
                self.sols.append(dom)
            return
        order = BITS[dom[best]]
        if self.rng is not None:
            order = list(order)
            self.rng.shuffle(order)
            if BLANK in order and self.rng.random() < self.bias:
                order.remove(BLANK)
                order.append(BLANK)
        todo = _touch((best,), self.nb)
        for b in order:
            self.nodes += 1
            node()
            if self.cap is not None and self.nodes > self.cap:
                raise Capped
            trial = dom[:]
            trial[best] = b
            if propagate(trial, self.nb, self.level, self.rules, todo=todo):
                self.run(trial)
                if len(self.sols) >= self.limit:
                    return


def search(dom: list[int], h: int, w: int, limit: int = 2, *, node_level: int = 2,
           rules: Rules = STANDARD, cap: int | None = None,
           rng: random.Random | None = None, bias: float = 0.0) -> tuple[list[list[int]], int]:
    """Depth-first search from ``dom`` (already propagated); returns (solutions, nodes).

    Raises Capped when more than ``cap`` branches were needed.
    """
    s = _Search(neighbours(h, w), node_level, limit, rules, cap, rng, bias)
    s.run(dom)
    return s.sols, s.nodes


def decided(dom: list[int]) -> list[bool]:
    """Whether each cell's number/blank status is known."""
    return [not (d & BLANK and d & NUMS) for d in dom]


def fixpoint(board: Board, level: str, rules: Rules = STANDARD) -> list[int] | None:
    """The domains after the rungs up to ``level`` reach a fixpoint (None: contradiction)."""
    dom = initial(board)
    if not propagate(dom, neighbours(board.h, board.w), min(LEVEL[level], 3), rules):
        return None
    return dom


# which engine searches below the probe fixpoint: "auto" (SAT when python-sat is
# installed, else the bitboard search), "sat" or "search"; tests pin each one
ENGINE = "auto"
# with "auto", the SAT engine runs before the full probe trials (its answers support
# their values there, and two answers skip them) once the cheap trials leave at least
# this many cells undecided; below, the full trials run first (they cost less than the
# solver on the minimal-clue 16x16 boards, which the probe rung mostly finishes)
SAT_FIRST = 110
# and from this many, windows look for a proof that the probe rung leaves the board open
# before the full trials run on the whole board (``_witness``)
WITNESS_MIN = 250
WINDOW_MIN = 12             # the square windows' least side
# from this many cells left open by the rungs below probe, the SAT engine and the
# windows run before any trial on the whole board (20x20 and 30x30 minimal-clue boards:
# 250-600; 16x16: 150-200): the windows traced from the engine's rejected models, then
# (``_windows``) nine squares where a square covers at most a quarter of the board
# (30x30 and up), else EARLY_TRIES. On 20x20 a square is a third of the board and fails
# more often than not once the traced windows have: with none, the hard and outside
# 20x20 boards need 6,620 trials in all against 7,887 with three (graded, ``Closer``
# trials and repairs)
EARLY_MIN = 250
EARLY_TRIES = 0
ENGINES = ("auto", "sat", "search")


def solve(board: Board, level: str | None = None, limit: int = 2,
          rules: Rules = STANDARD, engine: str | None = None,
          grade: bool = True) -> SolveResult:
    """The ladder: rungs up to ``level`` (all, then search, when None).

    The rungs run on bitboards (``search.py``): the same rules and the same fixpoints as
    ``propagate`` above, so the grade and the cells a rung fixes are the ladder's. Below
    the probe fixpoint, ``engine`` (default ``ENGINE``) finds the answers: the bitboard
    search, which keeps propagating and probing at every node (``nodes``: its nodes), or
    MiniSat on the undecided cells (``residual.py``; ``nodes``: solver conflicts).

    ``grade=False`` asks only for the answers and the verdict: when the three cheap
    rungs leave ``SAT_FIRST`` or more cells open, the engine takes it from there, without
    the probe rung's full trials, which the grade needs and which cost most of a hard
    board's time.
    ``rung`` is then ``None`` unless a cheap rung finished the board, and
    ``stats["graded"]`` is False."""
    if level is not None and level not in LEVEL:
        raise ValueError(f"unknown rung {level!r}; rungs are {', '.join(RUNGS)}")
    h, w = board.h, board.w
    nb = neighbours(h, w)
    top = LEVEL["search"] if level is None else LEVEL[level]
    flat = board.flat()
    dom = initial(board)
    if not all(dom):
        return SolveResult([], rung=None, stats={"contradiction": True})
    g = fast.geo(h, w)
    fast.forget_cuts()          # each solve starts afresh (and timings stay honest)
    st: fast.State | None = fast.from_domains(dom)
    found: list[fast.State] | None = None        # answers the SAT engine found early
    below: tuple[int, dict] = (0, {})
    for k in range(min(top, 3) + 1):
        assert st is not None
        if k < 3:
            st = fast.propagate(g, st, rules.neq and k >= 1, rules.connect and k >= 2)
        elif top < LEVEL["search"]:
            st = fast.Closer(g, rules.neq, rules.connect).close(st)
        elif not grade and fast._undecided(st).bit_count() >= SAT_FIRST:
            # (a smaller residue is graded anyway: its trials cost less than loading
            # the SAT solver)
            found, nodes, stats = _below(g, st, limit, rules, engine or ENGINE)
            return SolveResult(_answers(found, h, w, nb, rules), nodes=nodes, rung=None,
                               stats=dict(stats, graded=False))
        else:
            st, found, below = _probe_or_answers(g, st, limit, rules, engine or ENGINE)
            if found is not None and st is not None and not fast.complete(st):
                break
        if st is None:
            return SolveResult([], rung=None, stats={"contradiction": True})
        if fast.complete(st):
            dom = fast.to_domains(st, h * w)
            sols = [to_answer(dom, h, w)] if valid(dom, nb, rules) else []
            fixed = [(i // w, i % w) for i in range(h * w) if flat[i] is None]
            return SolveResult(sols, rung=RUNGS[k] if sols else None, fixed=fixed)
    assert st is not None
    if top < LEVEL["search"]:
        dec = decided(fast.to_domains(st, h * w))
        fixed = [(i // w, i % w) for i in range(h * w) if flat[i] is None and dec[i]]
        return SolveResult([], rung=None, fixed=fixed)
    if found is not None:
        nodes, stats = below
    else:
        found, nodes, stats = _below(g, st, limit, rules, engine or ENGINE)
    sols = _answers(found, h, w, nb, rules)
    return SolveResult(sols, nodes=nodes, rung="search" if sols else None, stats=stats)


def _answers(found, h: int, w: int, nb, rules: Rules) -> list[Answer]:
    out = []
    for x in found:
        d = fast.to_domains(x, h * w)
        if valid(d, nb, rules):
            out.append(to_answer(d, h, w))
    return out


def _probe_or_answers(g, st, limit: int, rules: Rules, engine: str):
    """The probe rung when the search rung may follow: (state, answers or None, (nodes,
    stats)). The state is the probe fixpoint, or (only when the answers already show the
    board is not solved by the probe rung) the state the answers were found below.

    With the SAT engine, the answers are found first, below the cheap trials' fixpoint:
    two answers both survive every rung (each rung is sound), so the probe fixpoint is
    not complete and the board goes to search without the full trials; one answer
    supports its values, so the full trials only try the other values."""
    closer = fast.Closer(g, rules.neq, rules.connect)
    if engine == "search" or limit < 2:
        return closer.close(st), None, (0, {})
    if fast._undecided(st).bit_count() >= EARLY_MIN and (engine == "sat"
                                                          or sat_available()):
        # a large board: the answers first, then windows from the state as it is, and
        # only then all the trials (with the answer's values supported)
        misses: list = []
        found, nodes, stats = _below(g, st, limit, rules, "sat", misses)
        if len(found) >= 2:
            return st, found, (nodes, stats)
        k = max(WINDOW_MIN, min(g.h, g.w) // 2)
        tries = 9 if 4 * k * k <= g.n else EARLY_TRIES
        ends: list = []
        if len(found) == 1 and _witness(g, st, found[0], rules, tries, ends,
                                        misses) is not None:
            return st, found, (nodes, dict(stats, witness=True))
        return closer.close(st, found, ends), found, (nodes, stats)
    st = closer._cheap(st)
    if st is None or fast.complete(st):
        return st, None, (0, {})
    if engine == "auto" and (fast._undecided(st).bit_count() < SAT_FIRST
                             or not sat_available()):
        # a small residue: the full trials first; the SAT solver loads only if the
        # probe rung leaves the board open
        return closer._sweep(st, True, []), None, (0, {})
    misses = []
    found, nodes, stats = _below(g, st, limit, rules, "sat", misses)
    if len(found) >= 2:
        return st, found, (nodes, stats)
    if (len(found) == 1 and fast._undecided(st).bit_count() >= WITNESS_MIN
            and _witness(g, st, found[0], rules, misses=misses) is not None):
        return st, found, (nodes, dict(stats, witness=True))
    st = closer._sweep(st, True, list(found))
    return st, found, (nodes, stats)


def _witness(g, st, answer, rules: Rules, tries: int = 9, ends: list | None = None,
             misses: list | None = None):
    """A state inside ``st`` that the full trials leave open (or None when the windows
    tried find none): proof that the probe fixpoint is not complete, at a fraction of
    the cost of computing it on a large board.

    Each try (``_windows``, likeliest first) keeps the cells of a window as they are in
    ``st`` and fixes the others to the answer, then runs the probe rung's trials there to
    their fixpoint X. X is a fixpoint of the rungs below probe in which every value's
    trial succeeds, so it lies inside the probe fixpoint of any state holding it (the
    probe rung only removes values whose trial fails, and a trial in a larger state
    succeeds where it does inside X); if X has an undecided cell, so has the probe
    fixpoint, and the board is graded search. Any set of cells serves as a window.

    ``ends`` (a list) receives the fixpoints of the windows' successful trials: they lie
    inside ``st``, so they support their values in the trials on the whole board
    (``Closer.close``) that follow when no window is a witness."""
    k = max(WINDOW_MIN, min(g.h, g.w) // 2)
    if k >= min(g.h, g.w):
        return None
    for win in _windows(g, k, answer, misses or [], tries):
        # x: a state, then what propagate and close return (None: a contradiction)
        x = tuple((a & ~win) | (y & win) for a, y in zip(answer, st, strict=True))  # type: fast.State | None
        x = fast.propagate(g, x, rules.neq, rules.connect)      # type: ignore[arg-type]
        if x is None:
            continue
        closer = fast.Closer(g, rules.neq, rules.connect)
        x = closer.close(x, [answer])
        if x is not None and not fast.complete(x):
            return x
        if ends is not None:
            ends += closer.ends
    return None


# the window traced from the SAT engine's rejected models (``_windows``): at most TRACED,
# each the cells within MARGIN steps of where a model leaves the answer, from the newest
# models that leave it in at least TRACE_LEAST cells and give a window of at most TRACE_CAP
# squares' cells
TRACED = 1
MARGIN = 3
TRACE_LEAST = 20
TRACE_CAP = 2
AIMED = 16      # the newest models the squares are aimed by


def _windows(g, k: int, answer, misses, tries: int) -> list[int]:
    """The windows a witness is looked for in (cell masks), the likeliest first.

    ``misses``, the SAT engine's rejected models (oldest first), meet every rule but
    connectivity, so where one strays from the answer is where the rungs below search
    cannot tell it from the answer, and where the probe fixpoint tends to stay open.
    First, for up to ``TRACED`` of them (newest first), the cells within ``MARGIN`` steps
    of where it differs from the answer, but only from a model that differs in at least
    ``TRACE_LEAST`` cells and gives a window no larger than ``TRACE_CAP`` squares: a
    model a few cells from the answer seldom proves the grade (one within 5 cells never
    did, on any corpus board), and a window larger than that costs more, even when it
    proves the grade, than the squares that follow. Then up
    to ``tries`` k x k squares, by turns one centred on a model's difference or smallest
    group (the ``AIMED`` newest models, newest first) and one of a 3 x 3 grid over the
    board (reading order), so that a board whose open part the models do not point at
    still meets a square there. A failed window is paid for in full, so one traced window
    serves best: on 40 minimal-clue 20x20 and 16 30x30 boards drawn apart from the corpora
    (``benchmarks/hard.py --corpus fresh``), graded solves take 1,592 and 1,272 ms of CPU
    in all, against 1,926 and 1,407 ms with the four newest models' windows tried in
    turn, whatever they differ in (``TRACED`` 4, ``TRACE_LEAST`` 0, no cap)."""
    h, w, full, nc0, ncw = g.h, g.w, g.full, g.nc0, g.ncw
    num = answer[1] | answer[2] | answer[3] | answer[4]
    out: list[int] = []
    for on, _ in reversed(misses):
        if len(out) >= TRACED:
            break
        x = on ^ num
        if x.bit_count() < TRACE_LEAST:
            continue
        for _ in range(MARGIN):
            x = (x | (x << w) | (x >> w) | ((x << 1) & nc0) | ((x >> 1) & ncw)) & full
        if x not in out and x.bit_count() <= TRACE_CAP * k * k:
            out.append(x)
    row = (1 << w) - 1
    aimed: list[tuple[int, int]] = []

    def centre(x: int) -> None:
        r_lo = ((x & -x).bit_length() - 1) // w
        r_hi = (x.bit_length() - 1) // w
        cols = 0
        for r in range(r_lo, r_hi + 1):
            cols |= x >> (r * w) & row
        c_lo, c_hi = (cols & -cols).bit_length() - 1, cols.bit_length() - 1
        spot = (min(max((r_lo + r_hi) // 2 - k // 2, 0), h - k),
                min(max((c_lo + c_hi) // 2 - k // 2, 0), w - k))
        if spot not in aimed:
            aimed.append(spot)

    for on, parts in reversed(misses[-AIMED:]):
        if on ^ num:
            centre(on ^ num)
        centre(min(parts, key=int.bit_count))
    grid = sorted({0, (h - k) // 2, h - k}), sorted({0, (w - k) // 2, w - k})
    spots = [(r, c) for r in grid[0] for c in grid[1]]
    corners: list[tuple[int, int]] = []
    for i in range(max(len(aimed), len(spots))):
        for lst in (aimed, spots):
            if i < len(lst) and lst[i] not in corners:
                corners.append(lst[i])
    square = (1 << k) - 1
    for r0, c0 in corners[:tries]:
        win = 0
        for r in range(r0, r0 + k):
            win |= square << (r * w + c0)
        out.append(win)
    return out


def _below(g, st, limit: int, rules: Rules, engine: str, misses: list | None = None):
    """(answers as states, nodes, stats) below the probe fixpoint ``st``; ``misses`` (a
    list) receives the SAT engine's newest rejected models (``Residual.misses``)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; engines are {', '.join(ENGINES)}")
    if engine != "search":
        # MiniSat where python-sat is there, else the same clauses on solvers.cdcl
        from . import residual
        r = residual.Residual(g, st, rules.neq, rules.connect)
        found = r.solve(limit)
        if misses is not None:
            misses += r.misses
        return found, r.conflicts, {"engine": "sat", "nodes": "solver conflicts",
                                    "calls": r.calls, "cuts": r.cuts}
    s = fast.Search(g, limit, rules.neq, rules.connect)
    s.run(st)
    return s.solutions, s.nodes, {"engine": "search", "nodes": "search nodes"}


def random_answer(h: int, w: int, rng: random.Random, bias: float = 0.85,
                  min_fill: float = 0.5) -> Answer:
    """A random answer of the empty h×w board: randomized search preferring numbers.

    Answers numbering fewer than ``min_fill`` of the cells are drawn again.
    """
    nb = neighbours(h, w)
    while True:
        dom = [FULL] * (h * w)
        start = rng.randrange(h * w)
        dom[start] = NUMS
        if not propagate(dom, nb, 2):
            continue
        try:
            sols, _ = search(dom, h, w, 1, node_level=2, rng=rng, bias=bias,
                             cap=20 * h * w)
        except Capped:
            continue
        if sols and sum(1 for d in sols[0] if d & NUMS) >= min_fill * h * w:
            return to_answer(sols[0], h, w)
