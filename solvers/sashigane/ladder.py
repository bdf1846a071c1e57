"""Engine 1: circles as variables over candidate Ls, four rungs, then search.

* ``fit``    each circle's candidate Ls (``fit.py``).
* ``cover``  every cell is owned exactly once: a cell only one circle can reach is
             taken by it (that circle keeps only candidates covering the cell); a cell
             that every surviving candidate of one circle covers is denied to all other
             candidates. Each pass rebuilds its tables from the surviving candidates, so
             a kill never leaves a stale count behind.
* ``area``   sizes add up to h·w: a candidate whose size leaves the other circles an
             impossible remainder (below their smallest or above their largest) dies.
* ``probe``  place each surviving candidate, run the rungs below, drop it on a
             contradiction.
* ``search`` branch on the circle with the fewest candidates (or, for clueless standard
             pieces, on the first cell two candidates still share).
"""

from __future__ import annotations

from solvers import common
from solvers.bitconn import bits
from solvers.common import BudgetExceeded, PuzzleError, Record, SolveResult, node
from solvers.satcut import sat_available

from .board import Answer, Board
from .cover import Capped, exact, lazy, table_free
from .fit import Candidates, Rules, fit, rules_of

RUNGS = ("fit", "cover", "area", "probe", "search")
LEVEL = {name: i for i, name in enumerate(RUNGS)}


def size_budget(h: int, w: int, numbers: list[int | None]) -> tuple[int, int, int]:
    """The area rung's budget for the unnumbered circles: (cells left for them after the
    printed numbers, least they can fill, most they can fill). Each unnumbered piece has
    3 to h+w-1 cells; a board whose remainder lies outside [least, most] has no answer."""
    k = sum(1 for n in numbers if n is None)
    left = h * w - sum(n for n in numbers if n is not None)
    return left, 3 * k, (h + w - 1) * k


class Problem(Record):
    _fields = ("cand", "full", "ngroups")
    cand: Candidates
    full: int
    ngroups: int

    def __init__(self, cand: Candidates, full: int, ngroups: int) -> None:
        self.cand, self.full, self.ngroups = cand, full, ngroups

    @classmethod
    def of(cls, cand: Candidates) -> Problem:
        return cls(cand, (1 << (cand.h * cand.w)) - 1, len(cand.circles))


def _cover(p: Problem, alive: list[int]) -> list[int] | None:
    masks, group = p.cand.masks, p.cand.group
    full, G = p.full, p.ngroups
    while True:
        U = [0] * G
        inter = [full] * G
        members: list[list[int]] = [[] for _ in range(G)]
        loose: list[int] = []
        for i in alive:
            g = group[i]
            if g >= 0:
                m = masks[i]
                U[g] |= m
                inter[g] &= m
                members[g].append(i)
            else:
                loose.append(i)
        once = twice = 0
        for g in range(G):
            if not members[g]:
                return None
            twice |= once & U[g]
            once |= U[g]
        for i in loose:
            m = masks[i]
            twice |= once & m
            once |= m
        if once != full:
            return None
        kill: set[int] = set()
        claimed = 0          # cells some circle (or a forced loose piece) must own
        owner_of: dict[int, int] = {}
        for g in range(G):
            forced = U[g] & ~twice
            if forced:
                for i in members[g]:
                    if forced & ~masks[i]:
                        kill.add(i)
            if claimed & inter[g]:
                return None
            claimed |= inter[g]
            owner_of[g] = inter[g]
        for i in loose:
            m = masks[i]
            if m & ~twice:
                if claimed & m:
                    return None
                claimed |= m
                owner_of[-1 - i] = m
        if claimed:
            for g in range(G):
                deny = claimed & ~owner_of[g]
                if deny:
                    for i in members[g]:
                        if masks[i] & deny:
                            kill.add(i)
            for i in loose:
                own = owner_of.get(-1 - i, 0)
                if masks[i] & claimed & ~own:
                    kill.add(i)
        if not kill:
            return alive
        alive = [i for i in alive if i not in kill]


def _area(p: Problem, alive: list[int]) -> list[int] | None:
    group, sizes = p.cand.group, p.cand.sizes
    G = p.ngroups
    if any(group[i] < 0 for i in alive):
        return alive          # clueless pieces: the number of pieces is open
    total = p.cand.h * p.cand.w
    lo = [1 << 30] * G
    hi = [0] * G
    for i in alive:
        g, s = group[i], sizes[i]
        lo[g] = min(lo[g], s)
        hi[g] = max(hi[g], s)
    if any(hi[g] == 0 for g in range(G)):
        return None
    slo, shi = sum(lo), sum(hi)
    if slo > total or shi < total:
        return None
    out = [i for i in alive
           if slo - lo[group[i]] + sizes[i] <= total <= shi - hi[group[i]] + sizes[i]]
    return out


def place(p: Problem, alive: list[int], i: int) -> list[int]:
    """Keep candidate ``i``: drop its circle's other candidates and everything it meets."""
    masks, group = p.cand.masks, p.cand.group
    m, g = masks[i], group[i]
    return [j for j in alive
            if j == i or (not masks[j] & m and (g < 0 or group[j] != g))]


def propagate(p: Problem, alive: list[int], level: int) -> list[int] | None:
    """The rungs up to ``level`` (0 fit … 3 probe) to their common fixed point."""
    if level == 0:
        return _check(p, alive)
    while True:
        before = len(alive)
        res = _cover(p, alive)
        if res is None:
            return None
        alive = res
        if level >= 2:
            res = _area(p, alive)
            if res is None:
                return None
            alive = res
        if len(alive) != before:
            continue
        if level < 3:
            return alive
        dead = None
        for i in alive:
            if _open(p, alive, i) and propagate(p, place(p, alive, i), 2) is None:
                dead = i
                break
        if dead is None:
            return alive
        alive = [j for j in alive if j != dead]


def _open(p: Problem, alive: list[int], i: int) -> bool:
    """Whether candidate ``i`` still has a rival (for probing)."""
    masks, group = p.cand.masks, p.cand.group
    g, m = group[i], masks[i]
    return any(j != i and ((g >= 0 and group[j] == g) or masks[j] & m) for j in alive)


def _check(p: Problem, alive: list[int]) -> list[int] | None:
    """No deduction: only fail when a circle has no candidate or a cell none."""
    masks, group = p.cand.masks, p.cand.group
    seen = [False] * p.ngroups
    union = 0
    for i in alive:
        union |= masks[i]
        if group[i] >= 0:
            seen[group[i]] = True
    if union != p.full or not all(seen):
        return None
    return alive


def solved(p: Problem, alive: list[int]) -> bool:
    masks = p.cand.masks
    union = 0
    total = 0
    for i in alive:
        union |= masks[i]
        total += p.cand.sizes[i]
    return union == p.full and total == p.cand.h * p.cand.w


def owners(p: Problem, alive: list[int]) -> dict[int, int]:
    """Cells whose owner is fixed -> the owning circle's cell (or ``-1`` for a clueless
    piece fixed by a single candidate)."""
    masks, group = p.cand.masks, p.cand.group
    reach: dict[int, int] = {}
    for i in alive:
        key = group[i] if group[i] >= 0 else -2 - i
        reach[key] = reach.get(key, 0) | masks[i]
    once = twice = 0
    for u in reach.values():
        twice |= once & u
        once |= u
    out: dict[int, int] = {}
    for key, u in reach.items():
        m = u & ~twice
        while m:
            low = m & -m
            out[low.bit_length() - 1] = p.cand.circles[key] if key >= 0 else -1
            m ^= low
    return out


def to_answer(p: Problem, alive: list[int]) -> Answer:
    n = p.cand.h * p.cand.w
    lab = [-1] * n
    for k, i in enumerate(sorted(alive, key=lambda j: (p.cand.masks[j] & -p.cand.masks[j]))):
        m = p.cand.masks[i]
        while m:
            low = m & -m
            lab[low.bit_length() - 1] = k
            m ^= low
    return Answer.from_labels(p.cand.h, p.cand.w, lab)


def search(p: Problem, alive: list[int], limit: int | None, node_level: int,
           cap: int | None = None) -> tuple[list[list[int]], int]:
    """Complete search from a propagated state: (solutions as candidate lists, branches)."""
    sols: list[list[int]] = []
    nodes = 0
    masks, group = p.cand.masks, p.cand.group

    def rec(alive: list[int]) -> None:
        nonlocal nodes
        counts: dict[int, int] = {}
        for i in alive:
            g = group[i]
            if g >= 0:
                counts[g] = counts.get(g, 0) + 1
        best, bestn = -1, 1 << 30
        for g, n in counts.items():
            if 1 < n < bestn:
                best, bestn = g, n
        if best >= 0:
            choices = [i for i in alive if group[i] == best]
        else:
            once = twice = 0
            for i in alive:
                twice |= once & masks[i]
                once |= masks[i]
            if not twice:
                if once == p.full:
                    sols.append(alive)
                return
            cell = twice & -twice
            choices = [i for i in alive if masks[i] & cell]
        for i in choices:
            nodes += 1
            node()
            if cap is not None and nodes > cap:
                raise Capped
            nxt = propagate(p, place(p, alive, i), node_level)
            if nxt is not None:
                rec(nxt)
            if limit is not None and len(sols) >= limit:
                return

    rec(alive)
    return sols, nodes


def solve(board: Board, level: str | None = None, limit: int | None = 2,
          rules: Rules | None = None, cap: int | None = None) -> SolveResult:
    """Up to ``limit`` answers. ``level`` below ``search`` runs the rungs up to it only
    and reports the cells whose owner they fixed. ``rung`` is the lowest rung that
    finishes the board without search (``search`` if none does).

    Under the standard rules the search is the exact cover of ``cover.py``; a board whose
    candidate tables would be too large to hold, or that is nearly empty, goes to its
    table-free search (``cover.table_free``). Running
    out of memory stops the solve like a limit does (BudgetExceeded), never a traceback."""
    rules = rules or rules_of(board)
    try:
        return _solve(board, level, limit, rules, cap)
    except MemoryError:
        nodes, seconds = _budget_state()
        raise BudgetExceeded("memory ran out", nodes, seconds) from None


def _solve(board: Board, level: str | None, limit: int | None, rules: Rules,
           cap: int | None) -> SolveResult:
    standard = rules.variant == "standard"
    if standard and rules.corner and table_free(board, rules):
        top = LEVEL[level] if level is not None else LEVEL["search"]
        if top < LEVEL["search"]:
            raise PuzzleError(f"a {board.h}×{board.w} board this empty has too many "
                              f"candidate Ls for the rung {level!r}; solve it without --level")
        sols_m, nodes = lazy(board, rules, limit)
        return SolveResult([_mask_answer(board.h, board.w, s) for s in sols_m], nodes,
                           "search", [], {"candidates": None})
    p = Problem.of(fit(board, rules))
    alive: list[int] | None = list(range(len(p.cand.masks)))
    top = LEVEL[level] if level is not None else LEVEL["search"]
    rung = None
    for k in range(min(top, LEVEL["probe"]) + 1):
        alive = propagate(p, alive, k) if alive is not None else None
        if alive is None:
            return SolveResult([], 0, RUNGS[k], [], {"candidates": len(p.cand.masks)})
        if solved(p, alive):
            rung = RUNGS[k]
            return SolveResult([to_answer(p, alive)], 0, rung,
                               _fixed(p, alive), {"candidates": len(p.cand.masks)})
        if k == LEVEL["cover"] and top > LEVEL["probe"]:
            break             # search itself propagates; skip the costly rungs
    if top < LEVEL["search"]:
        # alive is not None: the loop above ran (its range starts at 0) and returned on None
        return SolveResult([], 0, None, _fixed(p, alive), {"candidates": len(p.cand.masks)})  # type: ignore[arg-type]
    assert alive is not None
    res = propagate(p, alive, LEVEL["area"])
    if res is None:
        return SolveResult([], 0, "area", [], {"candidates": len(p.cand.masks)})
    if solved(p, res):
        return SolveResult([to_answer(p, res)], 0, "area", _fixed(p, res),
                           {"candidates": len(p.cand.masks)})
    if standard:
        sols, nodes = _standard_search(board, rules, p, res, limit, cap)
    else:
        sols, nodes = search(p, res, limit, LEVEL["area"], cap)
    return SolveResult([to_answer(p, s) for s in sols], nodes, "search", [],
                       {"candidates": len(p.cand.masks)})


# Branches the seed-rules search may spend on a standard board before it is left to the
# exact cover alone (a seed answer is a standard one; on the bank it takes under 100).
SEED_CAP = 2000
# Branches the whole-board exact cover may spend before the same cover goes to a SAT
# solver (on the bank the cover takes at most 75; three of the five outside 20×20
# boards did not finish within 60 s of it).
EXACT_CAP = 500
# ... and where the SAT solver is the pure-Python one (``solvers.cdcl``, seconds to tens
# of seconds on an outside board): about two seconds of the cover first, which decides
# outside 20×20-01 and -02 (6,360 and 11,345 branches) faster than the solver does.
EXACT_CAP_NO_SAT = 20_000


def _standard_search(board: Board, rules: Rules, p: Problem, alive: list[int],
                     limit: int | None, cap: int | None) -> tuple[list[list[int]], int]:
    """The search under the standard rules: (answers as candidate lists, branches).

    For one or two answers it first asks the seed rules (one circle and one arrow per
    piece, a stricter reading whose answers are all standard ones, and whose search is
    fast): two seed answers end it; with one, a second standard answer is looked for by
    tiling again the cells of two, then three, neighbouring pieces of it in another way.
    Whatever is still open (no seed answer, or no such local second answer) goes to the
    exact cover over the whole board, which finds every answer or proves there is none;
    past EXACT_CAP branches of it (with no cap of the caller's), the same cover goes to a
    SAT solver (``residual``): CaDiCaL where python-sat serves, else, past
    EXACT_CAP_NO_SAT branches of the cover, the pure-Python ``solvers.cdcl``."""
    nodes = 0
    if limit is not None and limit <= 2:
        try:
            seed = solve(board, limit=limit, rules=rules.replace(variant="seed"),
                         cap=SEED_CAP)
        except Capped:
            seed = None
            nodes += SEED_CAP
        if seed is not None:
            nodes += seed.nodes
            found = [_as_candidates(p, alive, a) for a in seed.solutions]
            if all(f is not None for f in found) and found:
                sols = [f for f in found if f is not None]
                if len(sols) >= limit:
                    return sols, nodes
                other, n = _second(p, alive, sols[0])
                nodes += n
                if other is not None:
                    return [sols[0], other], nodes
    try:
        sols, n = exact(p.cand.masks, alive, board.h, board.w, limit,
                        EXACT_CAP if cap is None else max(cap - nodes, 0))
    except Capped:
        if cap is not None:
            raise
        nodes += EXACT_CAP
        if not sat_available():
            try:
                sols, n = exact(p.cand.masks, alive, board.h, board.w, limit,
                                EXACT_CAP_NO_SAT)
                return sols, nodes + n
            except Capped:
                nodes += EXACT_CAP_NO_SAT
        from . import residual

        sols, calls = residual.cover(p.cand.masks, alive, board.h, board.w, limit)
        return sols, nodes + calls
    return sols, nodes + n


def _as_candidates(p: Problem, alive: list[int], answer: Answer) -> list[int] | None:
    """The candidates (indices into ``p.cand``) whose masks are the answer's pieces."""
    index = {p.cand.masks[i]: i for i in alive}
    out = []
    for cells in answer.groups():
        m = 0
        for c in cells:
            m |= 1 << c
        if m not in index:
            return None
        out.append(index[m])
    return sorted(out)


def _second(p: Problem, alive: list[int], first: list[int]) -> tuple[list[int] | None, int]:
    """A second answer that differs from ``first`` only on two or three neighbouring
    pieces (their cells tiled another way), or None: (answer, branches)."""
    masks, w = p.cand.masks, p.cand.w
    by_cell: dict[int, list[int]] = {}
    for i in alive:
        m = masks[i]
        while m:
            low = m & -m
            m ^= low
            by_cell.setdefault(low.bit_length() - 1, []).append(i)
    not_first = not_last = 0
    for c in range(p.cand.h * w):
        if c % w:
            not_first |= 1 << c
        if c % w < w - 1:
            not_last |= 1 << c

    def grow(m: int) -> int:
        return m | (m << 1 & not_first) | (m >> 1 & not_last) | m << w | m >> w

    near = {a: [b for b in first if b != a and grow(masks[a]) & masks[b]] for a in first}
    nodes = 0
    tried: set[frozenset[int]] = set()
    groups = [frozenset((a, b)) for a in first for b in near[a] if a < b]
    groups += [g | {c} for g in list(groups) for a in g for c in near[a] if c not in g]
    for g in groups:
        if g in tried:
            continue
        tried.add(g)
        u = 0
        for a in g:
            u |= masks[a]
        inside = sorted({i for a in g for c in bits(masks[a]) for i in by_cell[c]
                         if not masks[i] & ~u})
        sols, n = exact(masks, inside, p.cand.h, w, 2, target=u)
        nodes += n
        for s in sols:
            if set(s) != g:
                return sorted(set(first) - g | set(s)), nodes
    return None, nodes


def _budget_state() -> tuple[int, float]:
    """Nodes and seconds of the active budget (zeros outside one), for the message of a
    solve that ran out of memory. (Belongs in solvers/common.py beside ``node``.)"""
    b = common._budget
    return (b.nodes, b.elapsed()) if b is not None else (0, 0.0)


def _mask_answer(h: int, w: int, masks: list[int]) -> Answer:
    lab = [-1] * (h * w)
    for k, m in enumerate(masks):
        while m:
            low = m & -m
            lab[low.bit_length() - 1] = k
            m ^= low
    return Answer.from_labels(h, w, lab)


def grade(board: Board, rules: Rules | None = None) -> str:
    """The lowest rung that finishes the board alone (``search`` if none)."""
    rules = rules or rules_of(board)
    p = Problem.of(fit(board, rules))
    for k in range(LEVEL["probe"] + 1):
        alive = propagate(p, list(range(len(p.cand.masks))), k)
        if alive is None or solved(p, alive):
            return RUNGS[k]
    return "search"


def _fixed(p: Problem, alive: list[int]) -> list[tuple[int, int]]:
    w = p.cand.w
    return [divmod(c, w) for c in sorted(owners(p, alive))]


def rung_branches(board: Board, level: int, cap: int, rules: Rules | None = None
                  ) -> tuple[int, bool]:
    """Branches a search needs to prove ``board`` unique when every node propagates only
    the rungs up to ``level``: (branches, capped)."""
    rules = rules or rules_of(board)
    p = Problem.of(fit(board, rules))
    alive = propagate(p, list(range(len(p.cand.masks))), level)
    if alive is None:
        return 0, False
    try:
        _, nodes = search(p, alive, 2, level, cap)
    except Capped:
        return cap, True
    return nodes, False
