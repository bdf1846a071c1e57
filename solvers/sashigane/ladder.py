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

from dataclasses import dataclass

from solvers.common import SolveResult, node

from .board import Answer, Board
from .fit import Candidates, Rules, fit, rules_of

RUNGS = ("fit", "cover", "area", "probe", "search")
LEVEL = {name: i for i, name in enumerate(RUNGS)}


class Capped(Exception):
    """Search passed its branch cap."""


def size_budget(h: int, w: int, numbers: list[int | None]) -> tuple[int, int, int]:
    """The area rung's budget for the unnumbered circles: (cells left for them after the
    printed numbers, least they can fill, most they can fill). Each unnumbered piece has
    3 to h+w-1 cells; a board whose remainder lies outside [least, most] has no answer."""
    k = sum(1 for n in numbers if n is None)
    left = h * w - sum(n for n in numbers if n is not None)
    return left, 3 * k, (h + w - 1) * k


@dataclass
class Problem:
    cand: Candidates
    full: int
    ngroups: int

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
    finishes the board without search (``search`` if none does)."""
    rules = rules or rules_of(board)
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
        return SolveResult([], 0, None, _fixed(p, alive), {"candidates": len(p.cand.masks)})
    assert alive is not None
    res = propagate(p, alive, LEVEL["area"])
    if res is None:
        return SolveResult([], 0, "area", [], {"candidates": len(p.cand.masks)})
    if solved(p, res):
        return SolveResult([to_answer(p, res)], 0, "area", _fixed(p, res),
                           {"candidates": len(p.cand.masks)})
    sols, nodes = search(p, res, limit, LEVEL["area"], cap)
    return SolveResult([to_answer(p, s) for s in sols], nodes, "search", [],
                       {"candidates": len(p.cand.masks)})


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
