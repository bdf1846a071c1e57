"""The partial check: on a board the player has only partly drawn, the broken rules that
no way of deciding the undecided lines can repair.

``states`` holds one mark per edge in the play page's order (``grid.js`` edgeIndex: every
"right" edge in reading order, then every "below" edge): 0 undecided, 1 line, 2 no line.

* *Joined* cells (components over no-line marks) end up in one piece; *regions*
  (components over everything but lines) are closed off: no piece crosses their border.
* A region with no undecided edge inside is a finished piece: it gets the rules of
  ``violations`` for one piece (so a board with no undecided edge is checked exactly as
  ``violations`` checks its answer). A line between two joined cells is ``border``.
* In an unfinished region: joined cells with two circles (``circles``) or two arrows
  (``arrows``), that fit in no L (``bent``), or more than their circle's number
  (``grown``); a circle that can no longer be a corner (``corner_lost``); a line across
  an arrow's arm on its way to its circle (``arm_cut``); an arrow joined to a cell off its
  arm (``arrow_joined``); a closed region whose circles and arrows cannot pair up
  (``region``) or whose size no set of its pieces can fill (``region_size``).

The checker module ``templates/static/play/sashigane.js`` computes the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.common import Violation

from .board import ARROW, CIRCLE, DIRS, Board, l_shape
from .rules import RULES, piece_violations

UNDECIDED, LINE, NONE = 0, 1, 2


def edge_index(h: int, w: int, r: int, c: int, side: str) -> int:
    return r * (w - 1) + c if side == "r" else h * (w - 1) + r * w + c


def _edges(h: int, w: int) -> list[tuple[int, int, int]]:
    """(unit, cell a, cell b) for every edge, in unit order."""
    return ([(edge_index(h, w, r, c, "r"), r * w + c, r * w + c + 1)
             for r in range(h) for c in range(w - 1)]
            + [(edge_index(h, w, r, c, "b"), r * w + c, (r + 1) * w + c)
               for r in range(h - 1) for c in range(w)])


def _components(n: int, links: list[tuple[int, int]]) -> list[int]:
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in links:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return [find(i) for i in range(n)]


def _groups(comp: list[int]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for i, k in enumerate(comp):
        out.setdefault(k, []).append(i)
    return out


def within_l(cells: list[int], w: int) -> bool:
    """Whether connected ``cells`` are part of some L of width 1."""
    rs = [i // w for i in cells]
    cs = [i % w for i in cells]
    if len(set(rs)) == 1 or len(set(cs)) == 1:
        return True
    for r in (min(rs), max(rs)):
        for c in (min(cs), max(cs)):
            if all(rr == r or cc == c for rr, cc in zip(rs, cs, strict=True)):
                return True
    return False


def finished(board: Board, states: Sequence[int]) -> bool:
    """Whether the page checks the board in full: no undecided edge, or lines that close
    off whole pieces (no line inside a region, and as many regions as circles; under the
    standard rules, every region an L)."""
    if all(s != UNDECIDED for s in states):
        return True
    h, w = board.h, board.w
    edges = _edges(h, w)
    region = _components(h * w, [(a, b) for u, a, b in edges if states[u] != LINE])
    if any(states[u] == LINE and region[a] == region[b] for u, a, b in edges):
        return False
    groups = _groups(region)
    if board.rules == "seed":
        return len(groups) == len(board.circles())
    return all(l_shape(cells, w) is not None for cells in groups.values())


def irreparable(board: Board, states: Sequence[int]) -> list[Violation]:
    h, w = board.h, board.w
    n = h * w
    seed = board.rules == "seed"
    edges = _edges(h, w)
    if len(states) != len(edges):
        raise ValueError(f"expected {len(edges)} edge states, got {len(states)}")
    joined = _components(n, [(a, b) for u, a, b in edges if states[u] == NONE])
    region = _components(n, [(a, b) for u, a, b in edges if states[u] != LINE])
    open_region = {region[a] for u, a, b in edges if states[u] == UNDECIDED}
    kinds = [k.kind for k in board.cells]
    out: list[Violation] = []

    def rc(i: int) -> tuple[int, int]:
        return divmod(i, w)

    def at(i: int) -> dict[str, int]:
        r, c = divmod(i, w)
        return {"row": r + 1, "col": c + 1}

    def state(i: int, dr: int, dc: int) -> int | None:
        """The mark on the side (dr, dc) of cell i, None off the board."""
        r, c = divmod(i, w)
        r2, c2 = r + dr, c + dc
        if not (0 <= r2 < h and 0 <= c2 < w):
            return None
        if dr:
            return states[edge_index(h, w, min(r, r2), c, "b")]
        return states[edge_index(h, w, r, min(c, c2), "r")]

    for u, a, b in edges:
        if states[u] == LINE and joined[a] == joined[b]:
            out.append(RULES.make("sashigane.border", [rc(a), rc(b)], **at(a),
                                  row2=rc(b)[0] + 1, col2=rc(b)[1] + 1))
    for key, cells in sorted(_groups(region).items()):
        if key not in open_region:
            out.extend(piece_violations(board, cells))
            continue
        circles = [i for i in cells if kinds[i] == CIRCLE]
        arrows = [i for i in cells if kinds[i] == ARROW]
        if seed:
            if not circles or len(circles) != len(arrows):
                out.append(RULES.make("sashigane.region", map(rc, cells), **at(cells[0]),
                                      circles=len(circles), arrows=len(arrows)))
            else:
                nums = [board.cells[i].value for i in circles]
                least = sum(v if v else 3 for v in nums)
                most = sum(v if v else h + w - 1 for v in nums)
                if not least <= len(cells) <= most:
                    out.append(RULES.make("sashigane.region_size", map(rc, cells),
                                          **at(cells[0]), size=len(cells), least=least,
                                          most=most))
        for i in circles:
            sides = {(dr, dc): state(i, dr, dc) for dr, dc in DIRS.values()}
            opened = {d for d, s in sides.items() if s is not None and s != LINE}
            tied = {d for d, s in sides.items() if s == NONE}
            if not any(v in opened and x in opened and tied <= {v, x}
                       for v in ((-1, 0), (1, 0)) for x in ((0, -1), (0, 1))):
                out.append(RULES.make("sashigane.corner_lost", [rc(i)], **at(i)))
        for i in arrows:
            dr, dc = DIRS[board.cells[i].value]
            r, c = divmod(i, w)
            while True:
                r2, c2 = r + dr, c + dc
                if not (0 <= r2 < h and 0 <= c2 < w):
                    break
                if state(r * w + c, dr, dc) == LINE:
                    out.append(RULES.make("sashigane.arm_cut", [rc(i), (r, c), (r2, c2)],
                                          **at(i), row2=min(r, r2) + 1, col2=min(c, c2) + 1,
                                          row3=max(r, r2) + 1, col3=max(c, c2) + 1))
                if not seed or kinds[r2 * w + c2] == CIRCLE:
                    break
                r, c = r2, c2
            for er, ec in DIRS.values():
                if (er, ec) != (dr, dc) and state(i, er, ec) == NONE:
                    j = i + er * w + ec
                    out.append(RULES.make("sashigane.arrow_joined", [rc(i), rc(j)], **at(i),
                                          row2=rc(j)[0] + 1, col2=rc(j)[1] + 1))
    for key, cells in sorted(_groups(joined).items()):
        if region[key] not in open_region or len(cells) < 2:
            continue
        circles = [i for i in cells if kinds[i] == CIRCLE]
        arrows = [i for i in cells if kinds[i] == ARROW]
        first = at(cells[0])
        if len(circles) > 1:
            out.append(RULES.make("sashigane.circles", map(rc, circles),
                                  count=len(circles), **first))
        if seed and len(arrows) > 1:
            out.append(RULES.make("sashigane.arrows", map(rc, arrows), count=len(arrows),
                                  **first))
        if not within_l(cells, w):
            out.append(RULES.make("sashigane.bent", map(rc, cells), size=len(cells), **first))
        for i in circles:
            v = board.cells[i].value
            if v is not None and v > 0 and len(cells) > v:
                out.append(RULES.make("sashigane.grown", [rc(i)], **at(i), number=v,
                                      size=len(cells)))
    return RULES.sort(out)


__all__ = ["edge_index", "finished", "irreparable", "within_l"]
